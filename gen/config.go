package gen

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/pfc"
)

// Op is the operation every message of a phase performs.
type Op uint8

// The operations. Each is segmented, answered and numbered as described
// in the package documentation.
const (
	OpWrite       Op = iota // RDMA WRITE, answered by an Acknowledge on RC and XRC
	OpWriteImm              // RDMA WRITE with immediate data (ImmDt on Last/Only)
	OpSend                  // SEND
	OpSendImm               // SEND with immediate data (ImmDt on Last/Only)
	OpSendInv               // SEND with invalidate (IETH on Last/Only), RC and XRC
	OpRead                  // RDMA READ Request, answered by RDMA READ Responses
	OpCmpSwap               // atomic compare and swap, answered by an ATOMIC Acknowledge
	OpFetchAdd              // atomic fetch and add, answered by an ATOMIC Acknowledge
	OpFlush                 // FLUSH (IBTA 1.5), answered by an empty RDMA READ Response Only, RC
	OpAtomicWrite           // ATOMIC WRITE (IBTA 1.5), RETH and 8 bytes, answered by an Acknowledge, RC
	numOps
)

var opNames = [numOps]string{"write", "write-imm", "send", "send-imm", "send-inv", "read",
	"cmp-swap", "fetch-add", "flush", "atomic-write"}

// String returns the name ParseOp accepts: "write", "send-imm", "cmp-swap"...
func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// ParseOp returns the operation named s, as Op.String names it.
func ParseOp(s string) (Op, error) {
	for i, n := range opNames {
		if strings.EqualFold(s, n) {
			return Op(i), nil
		}
	}
	return 0, errs.Kind(ErrConfig, fmt.Sprintf("unknown operation %q (want one of %s)", s, strings.Join(opNames[:], ", ")))
}

// Config describes one phase of traffic. Start from DefaultConfig and change
// fields, or set them by name with Set; New checks them all.
type Config struct {
	// Encap is the encapsulation: ib.RoCEv1, ib.RoCEv2IPv4 or ib.RoCEv2IPv6.
	Encap ib.Encapsulation
	// SrcMAC and DstMAC are the requester's and the responder's MAC
	// addresses. Frames from the responder (acknowledgements, read
	// responses, PFC frames) swap them.
	SrcMAC, DstMAC [6]byte
	// SrcIP and DstIP are the requester's and the responder's addresses:
	// IPv4 for RoCEv2/IPv4, IPv6 for RoCEv2/IPv6, either for RoCEv1 (as
	// GIDs; IPv4 addresses become IPv4-mapped GIDs). The zero Addr picks
	// a default for the encapsulation: 192.0.2.1 and 192.0.2.2 (RFC 5737),
	// 2001:db8::1 and 2001:db8::2 (RFC 3849), or for RoCEv1 the link-local
	// GIDs fe80::/64 with the modified EUI-64 of each MAC address.
	SrcIP, DstIP netip.Addr
	// VLAN is the 802.1Q VLAN ID of every RoCE frame, or -1 for untagged
	// frames. PCP is the priority of the tag and the priority the data
	// traffic is paused on (see PFCPrio), tagged or not.
	VLAN int
	PCP  uint8
	// DSCP and ECN make the Traffic Class of every RoCE frame but the
	// CNPs (which cnp.Reply gives DSCP 48, Not-ECT): TClass = DSCP<<2|ECN.
	DSCP uint8
	ECN  ecn.Codepoint
	// HopLimit is the IPv4 TTL, IPv6 Hop Limit or GRH HopLmt.
	HopLimit uint8
	// SrcPort, when not 0, is the UDP source port of every RoCEv2 packet
	// of every queue pair, both ways (the CNPs and the CM MADs of QP 1
	// apart), in place of the port Linux derives from the queue pair's
	// flow label: what a NIC or library that fixes one port for all its
	// QPs sends, which puts them all on one ECMP path. The flow labels
	// stay as they were.
	SrcPort uint16
	// MTU is the path MTU of the transport: 256, 512, 1024, 2048 or 4096
	// bytes of payload per packet.
	MTU int
	// Transport is ib.RC, ib.UC, ib.UD or ib.XRC.
	Transport ib.Transport
	// Op is the operation of every message.
	Op Op
	// Size is the message size in bytes: the data of a SEND or WRITE,
	// the length a READ reads or a FLUSH flushes. Atomics and ATOMIC
	// WRITE move 8 bytes whatever Size says. UD messages fit in one MTU.
	Size int
	// Messages is the number of messages each queue pair sends.
	Messages int
	// QPs is the number of queue pairs (connections). Requester queue
	// pair i is LocalQP+i, its responder RemoteQP+i.
	QPs      int
	LocalQP  uint32
	RemoteQP uint32
	// PSN is the first PSN of every queue pair, or -1 to draw each one
	// from the seed, as NICs draw them at random.
	PSN int64
	// PKey is the BTH P_Key; QKey the DETH Q_Key of UD; SRQ the first
	// XRC shared receive queue number (queue pair i targets SRQ+i).
	PKey uint16
	QKey uint32
	SRQ  uint32
	// AckEvery, on RC and XRC, asks for an Acknowledge (BTH AckReq) every
	// AckEvery request packets of a message besides its last one; 0 means
	// one Acknowledge per message. The responder acknowledges exactly the
	// packets with AckReq set.
	AckEvery int
	// CEEvery marks every CEEvery-th data packet (requests and RDMA READ
	// responses) CE instead of its ECN codepoint; CEFraction marks each
	// data packet CE with that probability. Both need RoCEv2 and an ECN
	// of ECT(0) or ECT(1). The receiver of each CE-marked packet answers
	// it with a CNP (cnp.Reply) to the sender's queue pair.
	CEEvery    int
	CEFraction float64
	// CNPInterval, when positive, paces CNPs: at most one per queue pair
	// per interval (cnp.Pacer). Zero answers every CE mark.
	CNPInterval time.Duration
	// PFCEvery sends, every PFCEvery data packets, an 802.1Qbb PFC frame
	// from the responder's port pausing priority PFCPrio for PFCQuanta
	// quanta. When PFCPrio is PCP the requester waits out the pause.
	PFCEvery  int
	PFCPrio   int
	PFCQuanta uint16
	// BadICRC is the fraction of RoCE frames (CNPs included) whose ICRC
	// gets one bit flipped after building; the UDP checksum, when there
	// is one, is recomputed so that only the ICRC is wrong. The traffic
	// goes on as if the frames had been delivered.
	BadICRC float64
	// Seed seeds every random choice (starting PSNs, payload bytes, CE
	// and bad-ICRC draws): equal configurations give identical output.
	Seed uint64
	// Rate is the line rate the timestamps follow; each frame occupies
	// the wire for its length plus FCS, preamble and inter-frame gap.
	// It also converts PFC quanta to time.
	Rate pfc.Speed
	// PacketRate, when not 0, is a rate in packets per second the
	// timestamps follow instead: each frame occupies the wire for
	// 1/PacketRate seconds, whatever its length. Option "rate" sets it
	// for a value ending in "pps" (100kpps), Rate otherwise.
	PacketRate uint64
	// Delay is the time between a packet and the response it causes
	// (Acknowledge, READ response, ATOMIC Acknowledge, CNP, PFC), from 0
	// to MaxDuration.
	Delay time.Duration
	// Start is the time the capture starts, between FirstTime and
	// LastTime; Gap, from 0 to MaxDuration, the idle time before a phase
	// (the first frame is at Start plus the first phase's Gap; for the
	// phases after the first, see NewScenario).
	Start time.Time
	Gap   time.Duration
	// CM, on RC and UC, wraps the phase's connections in the RDMA-CM
	// handshake: before the first data every queue pair connects (REQ,
	// REP, RTU), after the last frame it disconnects (DREQ, DREP), each
	// message a CM MAD in a UD SEND Only from QP 1 to QP 1 (DETH Q_Key
	// 0x80010000). The REQ names the requester's QP (LocalQPN), the
	// RDMA-CM service (TCP port space, port CMPort) and the IP-CM
	// addresses; the REP the responder's QP and, as StartingPSN, the
	// first PSN of the requester's requests (the REQ's StartingPSN is the
	// first PSN of the responder's own requests, drawn from the seed), as
	// Linux sets them (see the package documentation).
	CM bool
	// CMPort is the port of the RDMA-CM service ID; 0 means
	// DefaultCMPort (7471).
	CMPort uint16
	// CMReject, when not 0, makes the responder answer every REQ of the
	// phase with a REJ of this reason (IBTA Vol 1, Table 105: 28 is
	// Consumer Reject, 8 Invalid Service ID); the phase then sends no
	// data. It needs CM.
	CMReject uint16
	// ULP is the protocol the connections carry. With ULPNVMe (NVMe over
	// Fabrics on RDMA) the phase plays what an NVMe/RDMA host and target
	// exchange instead of Op's messages: queue pair 0 is the admin queue
	// and queue pairs 1 to QPs the I/O queues, each connected with
	// RDMA-CM (CM is implied; CMPort 0 means NVMePort, 4420) with the
	// NVMe/RDMA private data; then the admin Connect, the Property Gets
	// and Set that enable the controller and an Identify,
	// each I/O queue's Connect and Messages I/O commands per I/O queue
	// of Size bytes, by Op: OpRead a Read, OpWrite a Write, OpSend a
	// Write with in-capsule data, OpSendInv a Read whose completion is a
	// SEND with Invalidate (see the package documentation). With
	// ULPISER (iSER) it plays an iSCSI initiator and target: QPs
	// connections, each connected with RDMA-CM (CMPort 0 means
	// ISERPort, 3260) with the iSER private data and logged in, then
	// Messages SCSI READs (OpRead) or WRITEs (OpWrite) of Size bytes per
	// connection. RC only.
	ULP ULP
	// Faults are the losses, duplicates and RNR NAKs the phase suffers on
	// demand, and the retry attributes of its queue pairs (RC).
	Faults Faults
}

// The limits of the generator's clock. Every frame's time lies between
// FirstTime and LastTime: a capture file cannot hold a time before 1970,
// and time.Time.UnixNano, which pcapng writers use, none after LastTime.
// A pcap file stops earlier, at 2106 (see CheckTime). Within a
// phase the generator counts picoseconds in an int64 from the end of the
// phase before (about 106 days), so Delay and Gap are at most
// MaxDuration, half of that; a phase that outlasts its clock stops the
// Generator with an error.
var (
	FirstTime = time.Unix(0, 0).UTC()             // 1970-01-01T00:00:00Z
	LastTime  = time.Unix(0, math.MaxInt64).UTC() // 2262-04-11T23:47:16.854775807Z
)

// MaxDuration is the longest Delay or Gap: 2^62 picoseconds, half the
// generator's clock, rounded down to the nanosecond
// (1281h1m26.018427387s, about 53 days).
const MaxDuration = time.Duration(1 << 62 / 1000)

// DefaultStart is the default timestamp of the first frame,
// 2026-01-01 00:00:00 UTC: a fixed time, so that output is reproducible.
var DefaultStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// DefaultConfig returns the default phase: one RC RDMA WRITE of 64 KiB at
// MTU 4096 over RoCEv2/IPv4, untagged, DSCP 26 and ECT(0), answered by one
// Acknowledge: 16 WRITE packets (First, 14 Middle, Last) and the ACK.
// Addresses are the documentation defaults described on Config, the queue
// pairs 0x000100 and 0x000200, the PSN drawn from seed 1, the line rate
// 100 Gb/s.
func DefaultConfig() Config {
	return Config{
		Encap:     ib.RoCEv2IPv4,
		SrcMAC:    [6]byte{0x02, 0, 0, 0, 0, 0x01},
		DstMAC:    [6]byte{0x02, 0, 0, 0, 0, 0x02},
		VLAN:      -1,
		PCP:       3,
		DSCP:      26,
		ECN:       ecn.ECT0,
		HopLimit:  64,
		MTU:       4096,
		Transport: ib.RC,
		Op:        OpWrite,
		Size:      64 << 10,
		Messages:  1,
		QPs:       1,
		LocalQP:   0x000100,
		RemoteQP:  0x000200,
		PSN:       -1,
		PKey:      0xFFFF,
		QKey:      0x11111111,
		SRQ:       0x000300,
		PFCPrio:   3,
		PFCQuanta: 500,
		Seed:      1,
		Rate:      pfc.Speed100G,
		Delay:     time.Microsecond,
		Start:     DefaultStart,
		Faults:    DefaultFaults(),
	}
}

// Option is one setting of Config by name: the names are the flags of
// cmd/rocegen and the keys of scenario files.
type Option struct {
	Name  string // "op", "size", "mtu", ...
	Usage string // one line for a flag's help
	Bool  bool   // a switch: given without a value, it means "true"
	set   func(c *Config, v string) error
	get   func(c *Config) string
}

// Options returns every setting Set knows, in the order of a help text.
func Options() []Option { return options }

// Set sets the option named name from its text form, as a flag or a
// scenario line gives it. Sizes accept the suffixes K, M and G (powers of
// 1024), durations Go's syntax ("4us"), rates a number of bits per second
// with K, M or G (powers of 1000: "100G").
func (c *Config) Set(name, value string) error {
	for _, o := range options {
		if o.Name == name {
			if err := o.set(c, value); err != nil {
				return errs.Context(name, err)
			}
			return nil
		}
	}
	return errs.Kind(ErrConfig, fmt.Sprintf("unknown option %q", name))
}

// Get returns the text form of the option named name, "" if there is none.
func (c *Config) Get(name string) string {
	for _, o := range options {
		if o.Name == name {
			return o.get(c)
		}
	}
	return ""
}

var encapNames = map[string]ib.Encapsulation{
	"v1": ib.RoCEv1, "v2": ib.RoCEv2IPv4, "v2-ipv4": ib.RoCEv2IPv4, "v2-ipv6": ib.RoCEv2IPv6,
}

func encapName(e ib.Encapsulation) string {
	switch e {
	case ib.RoCEv1:
		return "v1"
	case ib.RoCEv2IPv6:
		return "v2-ipv6"
	}
	return "v2-ipv4"
}

var transportNames = map[string]ib.Transport{"rc": ib.RC, "uc": ib.UC, "ud": ib.UD, "xrc": ib.XRC}

// ecnNames are the codepoints the traffic may carry; CE marks come from
// ce-every and ce-fraction.
var ecnNames = map[string]ecn.Codepoint{"not-ect": ecn.NotECT, "ect0": ecn.ECT0, "ect1": ecn.ECT1}

func ecnName(c ecn.Codepoint) string {
	for k, v := range ecnNames {
		if v == c {
			return k
		}
	}
	return strings.ToLower(c.String())
}

// parseSize reads a byte count with an optional K, M or G (1024-based).
func parseSize(s string) (int, error) {
	mult := 1
	t := strings.TrimSuffix(strings.TrimSuffix(s, "iB"), "B")
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult, t = 1<<10, t[:n-1]
		case 'm', 'M':
			mult, t = 1<<20, t[:n-1]
		case 'g', 'G':
			mult, t = 1<<30, t[:n-1]
		}
	}
	v, err := strconv.ParseUint(t, 0, 32)
	if err != nil || v*uint64(mult) > math.MaxUint32 {
		return 0, errs.Kind(ErrConfig, fmt.Sprintf("bad size %q", s))
	}
	return int(v) * mult, nil
}

func parseUint(s string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(s, 0, bits)
	if err != nil {
		return 0, errs.Kind(ErrConfig, fmt.Sprintf("bad number %q (%d bits)", s, bits))
	}
	return v, nil
}

func parseInt(s string) (int, error) {
	v, err := strconv.ParseInt(s, 0, 32)
	if err != nil {
		return 0, errs.Kind(ErrConfig, fmt.Sprintf("bad number %q", s))
	}
	return int(v), nil
}

func parseFraction(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 1) {
		return 0, errs.Kind(ErrConfig, fmt.Sprintf("bad fraction %q (want 0 to 1)", s))
	}
	return v, nil
}

func parseMAC(s string) ([6]byte, error) {
	var m [6]byte
	hw, err := net.ParseMAC(s)
	if err != nil || len(hw) != 6 {
		return m, errs.Kind(ErrConfig, fmt.Sprintf("bad MAC address %q", s))
	}
	copy(m[:], hw)
	return m, nil
}

func macString(m [6]byte) string { return net.HardwareAddr(m[:]).String() }

func addrString(a netip.Addr) string {
	if !a.IsValid() {
		return "auto"
	}
	return a.String()
}

func parseAddr(s string) (netip.Addr, error) {
	if s == "" || s == "auto" {
		return netip.Addr{}, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, errs.Kind(ErrConfig, fmt.Sprintf("bad IP address %q", s))
	}
	return a, nil
}

// parseDuration reads a duration in Go's syntax ("4us", "1.5ms") from 0
// to most.
func parseDuration(s string, most time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errs.Kind(ErrConfig, fmt.Sprintf("bad duration %q (want Go's syntax: 4us, 1.5ms, 2h)", s))
	}
	if err := checkDuration(d, most); err != nil {
		return 0, err
	}
	return d, nil
}

// checkDuration refuses a duration below 0 or above most.
func checkDuration(d, most time.Duration) error {
	switch {
	case d < 0:
		return errs.Kind(ErrConfig, fmt.Sprintf("%v is negative", d))
	case d > most:
		return errs.Kind(ErrConfig, fmt.Sprintf("%v is longer than %v, the longest the generator allows (half its int64 picosecond clock)", d, most))
	}
	return nil
}

// checkStart refuses a start time outside FirstTime to LastTime.
func checkStart(t time.Time) error {
	switch {
	case t.Before(FirstTime):
		return errs.Kind(ErrConfig, fmt.Sprintf("%s is before %s, the first time a capture file holds", t.Format(time.RFC3339Nano), FirstTime.Format(time.RFC3339Nano)))
	case t.After(LastTime):
		return errs.Kind(ErrConfig, fmt.Sprintf("%s is after %s, the last time of int64 nanoseconds since 1970", t.Format(time.RFC3339Nano), LastTime.Format(time.RFC3339Nano)))
	}
	return nil
}

// MaxPacketRate is the highest PacketRate: a frame a nanosecond.
const MaxPacketRate = 1_000_000_000

// setRate sets Rate, or PacketRate for a rate in packets per second.
func (c *Config) setRate(v string) error {
	if num, ok := strings.CutSuffix(strings.ToLower(v), "pps"); ok {
		mult := 1.0
		if n := len(num); n > 0 {
			if m, ok := ppsUnits[num[n-1]]; ok {
				mult, num = m, num[:n-1]
			}
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f*mult < 1 || f*mult > MaxPacketRate || f*mult != math.Trunc(f*mult) {
			return errs.Kind(ErrConfig, fmt.Sprintf("bad packet rate %q: want 1pps to 1Gpps, a whole number of packets per second (k, M, G: powers of 1000)", v))
		}
		c.PacketRate = uint64(f * mult)
		return nil
	}
	r, err := pfc.ParseSpeed(v)
	if err != nil {
		return errs.Kind(ErrConfig, errs.Strip(err)+", or packets per second ending in pps (10kpps)")
	}
	c.Rate, c.PacketRate = r, 0
	return nil
}

var ppsUnits = map[byte]float64{'k': 1e3, 'm': 1e6, 'g': 1e9}

func hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

var options = []Option{
	{Name: "encap", Usage: "encapsulation: v1, v2 (same as v2-ipv4) or v2-ipv6",
		set: func(c *Config, v string) error {
			e, ok := encapNames[strings.ToLower(v)]
			if !ok {
				return errs.Kind(ErrConfig, fmt.Sprintf("unknown encapsulation %q (want v1, v2, v2-ipv4 or v2-ipv6)", v))
			}
			c.Encap = e
			return nil
		},
		get: func(c *Config) string { return encapName(c.Encap) }},
	{Name: "transport", Usage: "transport: rc, uc, ud or xrc",
		set: func(c *Config, v string) error {
			t, ok := transportNames[strings.ToLower(v)]
			if !ok {
				return errs.Kind(ErrConfig, fmt.Sprintf("unknown transport %q (want rc, uc, ud or xrc)", v))
			}
			c.Transport = t
			return nil
		},
		get: func(c *Config) string { return strings.ToLower(c.Transport.String()) }},
	{Name: "op", Usage: "operation: " + strings.Join(opNames[:], ", "),
		set: func(c *Config, v string) (err error) { c.Op, err = ParseOp(v); return err },
		get: func(c *Config) string { return c.Op.String() }},
	{Name: "size", Usage: "message size in bytes (suffixes K, M, G: powers of 1024)",
		set: func(c *Config, v string) (err error) { c.Size, err = parseSize(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.Size) }},
	{Name: "mtu", Usage: "path MTU: 256, 512, 1024, 2048 or 4096",
		set: func(c *Config, v string) (err error) { c.MTU, err = parseSize(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.MTU) }},
	{Name: "messages", Usage: "messages per queue pair",
		set: func(c *Config, v string) (err error) { c.Messages, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.Messages) }},
	{Name: "qps", Usage: "number of queue pairs; messages go round-robin over them",
		set: func(c *Config, v string) (err error) { c.QPs, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.QPs) }},
	{Name: "qp", Usage: "requester queue pair number of the first queue pair",
		set: func(c *Config, v string) error { n, err := parseUint(v, 24); c.LocalQP = uint32(n); return err },
		get: func(c *Config) string { return hex(uint64(c.LocalQP)) }},
	{Name: "remote-qp", Usage: "responder queue pair number of the first queue pair",
		set: func(c *Config, v string) error { n, err := parseUint(v, 24); c.RemoteQP = uint32(n); return err },
		get: func(c *Config) string { return hex(uint64(c.RemoteQP)) }},
	{Name: "psn", Usage: "first PSN of every queue pair, or -1 to draw them from the seed",
		set: func(c *Config, v string) error {
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil || n < -1 || n > 0xFFFFFF {
				return errs.Kind(ErrConfig, fmt.Sprintf("bad PSN %q (want -1 or 0 to 0xffffff)", v))
			}
			c.PSN = n
			return nil
		},
		get: func(c *Config) string { return strconv.FormatInt(c.PSN, 10) }},
	{Name: "pkey", Usage: "BTH P_Key",
		set: func(c *Config, v string) error { n, err := parseUint(v, 16); c.PKey = uint16(n); return err },
		get: func(c *Config) string { return hex(uint64(c.PKey)) }},
	{Name: "qkey", Usage: "DETH Q_Key (UD)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 32); c.QKey = uint32(n); return err },
		get: func(c *Config) string { return hex(uint64(c.QKey)) }},
	{Name: "srq", Usage: "XRC shared receive queue of the first queue pair (XRCETH)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 24); c.SRQ = uint32(n); return err },
		get: func(c *Config) string { return hex(uint64(c.SRQ)) }},
	{Name: "ack-every", Usage: "RC/XRC: also request an ACK every N packets of a message (0: one ACK per message)",
		set: func(c *Config, v string) (err error) { c.AckEvery, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.AckEvery) }},
	{Name: "src-mac", Usage: "requester MAC address",
		set: func(c *Config, v string) (err error) { c.SrcMAC, err = parseMAC(v); return err },
		get: func(c *Config) string { return macString(c.SrcMAC) }},
	{Name: "dst-mac", Usage: "responder MAC address",
		set: func(c *Config, v string) (err error) { c.DstMAC, err = parseMAC(v); return err },
		get: func(c *Config) string { return macString(c.DstMAC) }},
	{Name: "src-ip", Usage: "requester IP address or GID (auto: a documentation address for the encapsulation)",
		set: func(c *Config, v string) (err error) { c.SrcIP, err = parseAddr(v); return err },
		get: func(c *Config) string { return addrString(c.SrcIP) }},
	{Name: "dst-ip", Usage: "responder IP address or GID (auto: a documentation address for the encapsulation)",
		set: func(c *Config, v string) (err error) { c.DstIP, err = parseAddr(v); return err },
		get: func(c *Config) string { return addrString(c.DstIP) }},
	{Name: "vlan", Usage: "802.1Q VLAN ID, -1 for untagged frames",
		set: func(c *Config, v string) error {
			n, err := parseInt(v)
			if err != nil || n < -1 || n > 4095 {
				return errs.Kind(ErrConfig, fmt.Sprintf("bad VLAN ID %q (want -1 to 4095)", v))
			}
			c.VLAN = n
			return nil
		},
		get: func(c *Config) string { return strconv.Itoa(c.VLAN) }},
	{Name: "pcp", Usage: "802.1p priority of the VLAN tag and of the traffic (0-7)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 3); c.PCP = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.PCP)) }},
	{Name: "dscp", Usage: "DSCP of the RoCE traffic (0-63)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 6); c.DSCP = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.DSCP)) }},
	{Name: "ecn", Usage: "ECN codepoint of the RoCE traffic: not-ect, ect0, ect1",
		set: func(c *Config, v string) error {
			e, ok := ecnNames[strings.ToLower(v)]
			if !ok {
				return errs.Kind(ErrConfig, fmt.Sprintf("unknown ECN codepoint %q (want not-ect, ect0 or ect1)", v))
			}
			c.ECN = e
			return nil
		},
		get: func(c *Config) string { return ecnName(c.ECN) }},
	{Name: "ttl", Usage: "IPv4 TTL, IPv6 Hop Limit or GRH HopLmt",
		set: func(c *Config, v string) error { n, err := parseUint(v, 8); c.HopLimit = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.HopLimit)) }},
	{Name: "src-port", Usage: "UDP source port of every queue pair's packets (0: the one Linux derives from each queue pair's flow label)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 16); c.SrcPort = uint16(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.SrcPort)) }},
	{Name: "ce-every", Usage: "mark every Nth data packet CE (and answer it with a CNP); 0: none",
		set: func(c *Config, v string) (err error) { c.CEEvery, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.CEEvery) }},
	{Name: "ce-fraction", Usage: "mark this fraction of data packets CE, at random (and answer each with a CNP)",
		set: func(c *Config, v string) (err error) { c.CEFraction, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.CEFraction, 'g', -1, 64) }},
	{Name: "cnp-interval", Usage: "pace CNPs: at most one per queue pair per interval (0: unpaced)",
		set: func(c *Config, v string) (err error) {
			c.CNPInterval, err = parseDuration(v, math.MaxInt64)
			return err
		},
		get: func(c *Config) string { return c.CNPInterval.String() }},
	{Name: "pfc-every", Usage: "send a PFC frame every N data packets (0: none)",
		set: func(c *Config, v string) (err error) { c.PFCEvery, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.PFCEvery) }},
	{Name: "pfc-prio", Usage: "priority the PFC frames pause (0-7)",
		set: func(c *Config, v string) (err error) { c.PFCPrio, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.PFCPrio) }},
	{Name: "pfc-quanta", Usage: "pause time of the PFC frames in quanta of 512 bit times",
		set: func(c *Config, v string) error { n, err := parseUint(v, 16); c.PFCQuanta = uint16(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.PFCQuanta)) }},
	{Name: "bad-icrc", Usage: "fraction of RoCE frames written with a wrong ICRC (0 to 1)",
		set: func(c *Config, v string) (err error) { c.BadICRC, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.BadICRC, 'g', -1, 64) }},
	{Name: "seed", Usage: "seed of every random choice: equal seeds give identical captures",
		set: func(c *Config, v string) (err error) { c.Seed, err = parseUint(v, 64); return err },
		get: func(c *Config) string { return strconv.FormatUint(c.Seed, 10) }},
	{Name: "rate", Usage: "rate the timestamps follow (and rocegen -i sends at): bits per second on the wire, FCS, preamble and gap included\n(100G, 25Gbps, 2.5G: k, M, G, T are powers of 1000), or packets per second ending in pps (100kpps, 1Mpps, 5000pps)",
		set: func(c *Config, v string) error { return c.setRate(v) },
		get: func(c *Config) string {
			if c.PacketRate > 0 {
				return strconv.FormatUint(c.PacketRate, 10) + "pps"
			}
			return strconv.FormatUint(uint64(c.Rate), 10)
		}},
	{Name: "delay", Usage: "time from a packet to the response it causes (at most 1281h1m26.018427387s)",
		set: func(c *Config, v string) (err error) { c.Delay, err = parseDuration(v, MaxDuration); return err },
		get: func(c *Config) string { return c.Delay.String() }},
	{Name: "start", Usage: "time the capture starts, RFC 3339, from 1970 to 2262 (2106 in a pcap file)",
		set: func(c *Config, v string) error {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return errs.Kind(ErrConfig, fmt.Sprintf("bad time %q (want RFC 3339: 2026-01-01T00:00:00Z)", v))
			}
			if err := checkStart(t); err != nil {
				return err
			}
			c.Start = t
			return nil
		},
		get: func(c *Config) string { return c.Start.Format(time.RFC3339Nano) }},
	{Name: "gap", Usage: "idle time before the phase (scenario lines; at most 1281h1m26.018427387s)",
		set: func(c *Config, v string) (err error) { c.Gap, err = parseDuration(v, MaxDuration); return err },
		get: func(c *Config) string { return c.Gap.String() }},
	{Name: "cm", Bool: true, Usage: "RC/UC: connect each queue pair with RDMA-CM (REQ, REP, RTU) before the data, disconnect (DREQ, DREP) after",
		set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return errs.Kind(ErrConfig, fmt.Sprintf("bad switch %q (want true or false)", v))
			}
			c.CM = b
			return nil
		},
		get: func(c *Config) string { return strconv.FormatBool(c.CM) }},
	{Name: "cm-port", Usage: "port of the RDMA-CM service ID, TCP port space (0: 7471)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 16); c.CMPort = uint16(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.CMPort)) }},
	{Name: "cm-reject", Usage: "with -cm: reject every connection with this REJ reason (28 Consumer Reject); no data",
		set: func(c *Config, v string) error { n, err := parseUint(v, 16); c.CMReject = uint16(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.CMReject)) }},
	{Name: "ulp", Usage: "protocol the RC connections carry: " + ulpList("", true),
		set: func(c *Config, v string) (err error) { c.ULP, err = ParseULP(v); return err },
		get: func(c *Config) string { return c.ULP.String() }},
}

// ErrConfig is wrapped by every error New returns for a configuration it
// refuses, and by every error of Config.Set, ParseOp and a
// scenario's lines (ParseScenario, StreamScenario, CheckScenario). Only
// New's say "bad configuration"; the others give the value and what was
// wanted ("roce: size: bad size \"12q\"").
var ErrConfig = errors.New("roce: bad configuration")

func configErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// validMTU reports whether m is an IBTA path MTU.
func validMTU(m int) bool {
	switch m {
	case 256, 512, 1024, 2048, 4096:
		return true
	}
	return false
}

// check validates c and fills the addresses left to their defaults.
func (c *Config) check() error {
	switch c.Encap {
	case ib.RoCEv1, ib.RoCEv2IPv4, ib.RoCEv2IPv6:
	default:
		return configErr("encapsulation %d", c.Encap)
	}
	if !validMTU(c.MTU) {
		return configErr("MTU %d is not 256, 512, 1024, 2048 or 4096", c.MTU)
	}
	if c.Op >= numOps {
		return configErr("operation %d", c.Op)
	}
	switch c.Transport {
	case ib.RC, ib.UC, ib.UD, ib.XRC:
	default:
		return configErr("transport %v: want RC, UC, UD or XRC", c.Transport)
	}
	positions := []int{posOnly}
	if c.Op.segmented() && c.Transport != ib.UD { // UD messages are single packets
		positions = []int{posFirst, posMiddle, posLast, posOnly}
	}
	for _, pos := range positions {
		if op, ok := requestOpcode(c.Transport, c.Op, pos); !ok || !op.Known() {
			return configErr("%v has no %v operation", c.Transport, c.Op)
		}
	}
	if c.Transport == ib.UD && c.Size > c.MTU {
		return configErr("a UD message of %d bytes does not fit the MTU of %d", c.Size, c.MTU)
	}
	if c.Size < 0 || uint64(c.Size) > math.MaxUint32 {
		return configErr("size %d", c.Size)
	}
	if c.Messages < 1 || c.QPs < 1 || c.QPs > 1<<16 {
		return configErr("messages %d and queue pairs %d: want at least 1 (and at most 65536 queue pairs)", c.Messages, c.QPs)
	}
	if c.LocalQP+uint32(c.QPs) > 1<<24 || c.RemoteQP+uint32(c.QPs) > 1<<24 || c.SRQ+uint32(c.QPs) > 1<<24 {
		return configErr("queue pair or SRQ numbers run past 24 bits")
	}
	if c.LocalQP < 2 || c.RemoteQP < 2 {
		return configErr("queue pairs 0 and 1 are the special QP0 and QP1")
	}
	if c.PSN < -1 || c.PSN > 0xFFFFFF {
		return configErr("PSN %d", c.PSN)
	}
	if c.VLAN < -1 || c.VLAN > 4095 || c.PCP > 7 || c.DSCP > 63 || c.ECN > ecn.CE {
		return configErr("VLAN %d, PCP %d, DSCP %d or ECN %d out of range", c.VLAN, c.PCP, c.DSCP, c.ECN)
	}
	if c.ECN == ecn.CE {
		return configErr("ECN CE on every packet: use CEEvery or CEFraction, which also send the CNPs")
	}
	for _, n := range [...]struct {
		name string
		v    int
	}{{"ack-every", c.AckEvery}, {"ce-every", c.CEEvery}, {"pfc-every", c.PFCEvery}} {
		if n.v < 0 {
			return configErr("%s: %d is negative", n.name, n.v)
		}
	}
	for _, d := range [...]struct {
		name     string
		v, limit time.Duration
	}{{"delay", c.Delay, MaxDuration}, {"gap", c.Gap, MaxDuration}, {"cnp-interval", c.CNPInterval, math.MaxInt64}} {
		if err := checkDuration(d.v, d.limit); err != nil {
			return configErr("%s: %s", d.name, errs.Strip(err))
		}
	}
	if err := checkStart(c.Start); err != nil {
		return configErr("start: %s", errs.Strip(err))
	}
	if !(c.CEFraction >= 0 && c.CEFraction <= 1) || !(c.BadICRC >= 0 && c.BadICRC <= 1) {
		return configErr("fractions must be between 0 and 1")
	}
	if c.CEEvery > 0 || c.CEFraction > 0 {
		if c.Encap == ib.RoCEv1 {
			return configErr("CE marks and CNPs need RoCEv2 (RoCEv1 has no IP ECN field)")
		}
		if !c.ECN.IsECT() {
			return configErr("CE marks need ECN-capable traffic (ECN ect0 or ect1)")
		}
	}
	if c.PFCPrio < 0 || c.PFCPrio > 7 {
		return configErr("PFC priority %d", c.PFCPrio)
	}
	if c.CM && c.Transport != ib.RC && c.Transport != ib.UC {
		return configErr("cm: RDMA-CM connects RC and UC queue pairs, not %v", c.Transport)
	}
	if c.ULP >= numULPs {
		return configErr("upper-layer protocol %d", c.ULP)
	}
	if check := c.ulp().check; check != nil {
		if err := check(c); err != nil {
			return err
		}
	}
	if c.CMReject != 0 && !c.withCM() {
		return configErr("cm-reject needs cm")
	}
	if err := c.checkFaults(); err != nil {
		return err
	}
	if c.Rate < 1e6 {
		return configErr("line rate %d b/s", c.Rate)
	}
	if c.PacketRate > MaxPacketRate {
		return configErr("packet rate %d pps", c.PacketRate)
	}
	var err error
	if c.SrcIP, err = c.addr(c.SrcIP, c.SrcMAC, 1); err != nil {
		return err
	}
	if c.DstIP, err = c.addr(c.DstIP, c.DstMAC, 2); err != nil {
		return err
	}
	return nil
}

// addr returns a, or the default address of host n (1 or 2) when a is
// the zero Addr, and checks that it suits the encapsulation.
func (c *Config) addr(a netip.Addr, mac [6]byte, n byte) (netip.Addr, error) {
	if !a.IsValid() {
		switch c.Encap {
		case ib.RoCEv2IPv4:
			return netip.AddrFrom4([4]byte{192, 0, 2, n}), nil
		case ib.RoCEv2IPv6:
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: n}), nil
		}
		// fe80::/64 with the modified EUI-64 of the MAC (RFC 4291).
		return netip.AddrFrom16([16]byte{0xfe, 0x80, 8: mac[0] ^ 2, 9: mac[1], 10: mac[2],
			11: 0xff, 12: 0xfe, 13: mac[3], 14: mac[4], 15: mac[5]}), nil
	}
	switch {
	case c.Encap == ib.RoCEv2IPv4 && !a.Unmap().Is4():
		return a, configErr("RoCEv2/IPv4 needs IPv4 addresses, not %v", a)
	case c.Encap == ib.RoCEv2IPv6 && (a.Is4() || a.Is4In6()):
		return a, configErr("RoCEv2/IPv6 needs IPv6 addresses, not %v", a)
	}
	return a, nil
}
