package roce_test

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand"
	"net/netip"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/rocev2"
)

// scapyICRCScript reads a pcap with Scapy and, for every frame, prints
// one JSON line: the BTH fields Scapy dissects and the ICRC that Scapy's
// own BTH.compute_icrc recomputes from the frame (the wire bytes, least
// significant byte first, in hex).
//
// Only scapy.contrib.roce and what it pulls in are loaded, so UDP
// destination port 4791 is the only UDP binding (scapy.all would also bind
// DNS, NTP and others on the source port, and those bindings come first).
// If a frame to port 4791 still did not dissect as BTH, the script puts a
// BTH under its UDP layer by hand and says so ("rebound").
const scapyICRCScript = `
import json, sys
from scapy.utils import rdpcap
from scapy.layers.inet import IP, UDP
import scapy.contrib.roce as roce

for i, p in enumerate(rdpcap(sys.argv[1])):
    out = {"i": i, "rebound": False}
    if not p.haslayer(roce.BTH) and p.haslayer(UDP) and p[UDP].dport == 4791:
        u = p[UDP]
        data = bytes(u.payload)[:u.len - 8]
        u.remove_payload()
        u.add_payload(roce.BTH(data))
        out["rebound"] = True
    if not p.haslayer(roce.BTH):
        out["error"] = "no BTH: " + p.summary()
    else:
        b = p[roce.BTH]
        out.update(opcode=b.opcode, known=b.opcode in roce._bth_opcodes,
                   pkey=b.pkey, fecn=b.fecn, becn=b.becn, padcount=b.padcount,
                   dqpn=b.dqpn, ackreq=b.ackreq, psn=b.psn, tos=p[IP].tos, ttl=p[IP].ttl,
                   icrc=b.compute_icrc(None).hex())
    print(json.dumps(out))
`

// scapyResult is one line of scapyICRCScript's output.
type scapyResult struct {
	I        int    `json:"i"`
	Rebound  bool   `json:"rebound"`
	Error    string `json:"error"`
	Opcode   int    `json:"opcode"`
	Known    bool   `json:"known"`
	PKey     int    `json:"pkey"`
	FECN     int    `json:"fecn"`
	BECN     int    `json:"becn"`
	PadCount int    `json:"padcount"`
	DQPN     uint32 `json:"dqpn"`
	AckReq   int    `json:"ackreq"`
	PSN      uint32 `json:"psn"`
	TOS      int    `json:"tos"`
	TTL      int    `json:"ttl"`
	ICRC     string `json:"icrc"`
}

// knownOpcodes returns every opcode IBTA defines, CNP included.
func knownOpcodes() []ib.Opcode {
	var ops []ib.Opcode
	for o := 0; o < 256; o++ {
		if ib.Opcode(o).Known() {
			ops = append(ops, ib.Opcode(o))
		}
	}
	return ops
}

// randomFrame builds a RoCEv2/IPv4 frame with opcode op and random
// header fields, addresses and payload.
func randomFrame(t *testing.T, rng *rand.Rand, op ib.Opcode) (roce.Frame, []byte) {
	t.Helper()
	var f roce.Frame
	rng.Read(f.Dst[:])
	rng.Read(f.Src[:])
	f.Dst[0] &^= 1 // unicast
	f.Src[0] &^= 1
	f.Encap = ib.RoCEv2IPv4
	var a, b [4]byte
	rng.Read(a[:])
	rng.Read(b[:])
	f.GRH.SGID = rocev2.GIDFromAddr(netip.AddrFrom4(a))
	f.GRH.DGID = rocev2.GIDFromAddr(netip.AddrFrom4(b))
	f.GRH.TClass = uint8(rng.Intn(256))
	f.GRH.HopLmt = uint8(1 + rng.Intn(255))
	f.IPv4ID = uint16(rng.Intn(1 << 16))
	if rng.Intn(2) == 0 {
		f.IPv4Flags = 0x4000 // DF; never a fragment
	}
	f.SrcPort = uint16(1 + rng.Intn(65535))
	f.DstPort = 4791
	f.UDPChecksum = rng.Intn(3) == 0

	p := &f.Packet
	h := &p.BTH
	h.OpCode = op
	h.SE, h.MigReq = rng.Intn(2) == 0, rng.Intn(2) == 0
	h.TVer = uint8(rng.Intn(16))
	h.PKey = uint16(rng.Intn(1 << 16))
	h.FECN, h.BECN = rng.Intn(2) == 0, rng.Intn(2) == 0
	h.Resv6a = uint8(rng.Intn(64))
	h.DestQP = uint32(rng.Intn(1 << 24))
	h.AckReq = rng.Intn(2) == 0
	h.Resv7 = uint8(rng.Intn(128))
	h.PSN = uint32(rng.Intn(1 << 24))
	p.RDETH.Resv8, p.RDETH.EECnxt = uint8(rng.Intn(256)), uint32(rng.Intn(1<<24))
	p.DETH.QKey, p.DETH.Resv8, p.DETH.SrcQP = rng.Uint32(), uint8(rng.Intn(256)), uint32(rng.Intn(1<<24))
	p.XRCETH.Resv8, p.XRCETH.XRCSRQ = uint8(rng.Intn(256)), uint32(rng.Intn(1<<24))
	p.RETH.VA, p.RETH.RKey, p.RETH.DMALen = rng.Uint64(), rng.Uint32(), rng.Uint32()
	p.AtomicETH.VA, p.AtomicETH.RKey = rng.Uint64(), rng.Uint32()
	p.AtomicETH.SwapData, p.AtomicETH.CompareData = rng.Uint64(), rng.Uint64()
	p.AtomicAckETH.OrigRemData = rng.Uint64()
	p.AETH.Syndrome, p.AETH.MSN = uint8(rng.Intn(256)), uint32(rng.Intn(1<<24))
	p.ImmDt.Data = rng.Uint32()
	p.IETH.RKey = rng.Uint32()
	p.FETH.Resv, p.FETH.SEL, p.FETH.PLT = uint32(rng.Intn(1<<26)), uint8(rng.Intn(4)), uint8(rng.Intn(16))

	n := 0
	switch {
	case op == ib.OpCNP:
		n = 16 // the CNP's reserved bytes
	case op.Payload() == ib.PayloadExact8:
		n = 8
	case op.Payload() == ib.PayloadAny:
		n = rng.Intn(301)
	}
	p.Payload = make([]byte, n)
	rng.Read(p.Payload)

	b2, err := f.AppendTo(nil)
	if err != nil {
		t.Fatalf("%v: AppendTo: %v", op, err)
	}
	return f, b2
}

// varyFrame returns a copy of the RoCEv2/IPv4 frame b (untagged, 20-byte
// IPv4 header) with every field the ICRC masks changed: TOS, TTL, the IPv4
// header checksum (recomputed), the UDP checksum, and the BTH's FECN, BECN
// and Resv6a. The ICRC bytes are left as they were.
func varyFrame(rng *rand.Rand, b []byte) []byte {
	v := append([]byte(nil), b...)
	ip := v[14:]
	ip[1] ^= byte(1 + rng.Intn(255)) // TOS: DSCP and/or ECN differ
	ip[8] ^= byte(1 + rng.Intn(255)) // TTL
	ip[10], ip[11] = 0, 0
	binary.BigEndian.PutUint16(ip[10:], ipv4HeaderChecksum(ip[:20]))
	udp := ip[20:]
	binary.BigEndian.PutUint16(udp[6:], uint16(1+rng.Intn(65535)))
	udp[8+4] ^= byte(1 + rng.Intn(255)) // FECN, BECN, Resv6a
	return v
}

// ipv4HeaderChecksum is the RFC 1071 checksum of h, whose checksum field
// is zero.
func ipv4HeaderChecksum(h []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(h); i += 2 {
		s += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// TestScapyICRC builds random RoCEv2/IPv4 frames with Frame.AppendTo and
// has Scapy's own ICRC implementation (scapy.contrib.roce BTH.compute_icrc)
// recompute the ICRC of each one from the pcap. Then it does the same for
// copies whose variant fields were changed, whose ICRC must not change.
func TestScapyICRC(t *testing.T) {
	oracle.Python(t)
	const nFrames, nVariants = 300, 50
	rng := rand.New(rand.NewSource(0x526f4345))
	ops := knownOpcodes()

	var frames [][]byte
	var built []roce.Frame
	for i := 0; i < nFrames; i++ {
		op := ops[rng.Intn(len(ops))]
		if i < len(ops) {
			op = ops[i] // every opcode at least once
		}
		f, b := randomFrame(t, rng, op)
		var g roce.Frame
		if err := g.Decode(b); err != nil {
			t.Fatalf("frame %d (%v): decoding our own frame: %v", i, op, err)
		}
		if err := g.VerifyICRC(); err != nil {
			t.Fatalf("frame %d (%v): %v", i, op, err)
		}
		frames = append(frames, b)
		built = append(built, f)
	}
	for i := 0; i < nVariants; i++ {
		v := varyFrame(rng, frames[i])
		if err := roce.VerifyFrame(v); err != nil {
			t.Errorf("variant of frame %d: our ICRC check fails after changing variant fields: %v", i, err)
		}
		frames = append(frames, v)
	}

	pcap := oracle.WritePcap(t, t.TempDir(), "random_rocev2.pcap", frames)
	out := oracle.RunPython(t, scapyICRCScript, pcap)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(frames) {
		t.Fatalf("Scapy printed %d lines for %d frames", len(lines), len(frames))
	}

	compared, variants, fields, rebound, unknownToScapy := 0, 0, 0, 0, map[ib.Opcode]bool{}
	for _, line := range lines {
		var r scapyResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("Scapy output %q: %v", line, err)
		}
		if r.I < 0 || r.I >= len(frames) {
			t.Fatalf("Scapy output for frame %d of %d", r.I, len(frames))
		}
		if r.Error != "" {
			t.Errorf("frame %d: Scapy: %s", r.I, r.Error)
			continue
		}
		if r.Rebound {
			rebound++
		}
		orig := r.I
		if orig >= nFrames {
			orig -= nFrames
		}
		f := &built[orig]
		op := f.Packet.BTH.OpCode
		if !r.Known {
			unknownToScapy[op] = true
		}

		// The ICRC: Scapy's recomputation against the one our encoder
		// wrote (for a variant, the unchanged original's).
		raw := frames[orig][14:]
		want := ib.ReceivedICRC(raw)
		wire, err := hex.DecodeString(r.ICRC)
		if err != nil || len(wire) != 4 {
			t.Errorf("frame %d: Scapy ICRC %q", r.I, r.ICRC)
			continue
		}
		got := binary.LittleEndian.Uint32(wire)
		if got != want {
			kind := "frame"
			if r.I >= nFrames {
				kind = "variant of frame"
			}
			t.Errorf("%s %d (%v, %d-byte payload): Scapy ICRC %#08x, ours %#08x", kind, orig, op, len(f.Packet.Payload), got, want)
		}
		compared++
		if r.I >= nFrames {
			variants++
			continue
		}

		// What Scapy dissected of the BTH and IP against what we built.
		h := &f.Packet.BTH
		check := func(name string, scapy, ours int) {
			fields++
			if scapy != ours {
				t.Errorf("frame %d (%v): %s: Scapy %d, ours %d", r.I, op, name, scapy, ours)
			}
		}
		check("opcode", r.Opcode, int(op))
		check("pkey", r.PKey, int(h.PKey))
		check("fecn", r.FECN, b2i(h.FECN))
		check("becn", r.BECN, b2i(h.BECN))
		check("padcount", r.PadCount, int(h.PadCnt))
		check("dqpn", int(r.DQPN), int(h.DestQP))
		check("ackreq", r.AckReq, b2i(h.AckReq))
		check("psn", int(r.PSN), int(h.PSN))
		check("tos", r.TOS, int(f.GRH.TClass))
		check("ttl", r.TTL, int(f.GRH.HopLmt))
	}
	var unknown []string
	for _, o := range ops {
		if unknownToScapy[o] {
			unknown = append(unknown, o.String())
		}
	}
	t.Logf("Scapy recomputed %d ICRCs (%d frames, %d variants), all compared; %d BTH/IP fields compared; %d frames re-bound to BTH by hand",
		compared, compared-variants, variants, fields, rebound)
	t.Logf("%d of %d opcodes are missing from Scapy's opcode table (it still dissects the BTH and computes their ICRC): %s",
		len(unknown), len(ops), strings.Join(unknown, ", "))
	if compared != nFrames+nVariants || variants != nVariants {
		t.Errorf("compared %d ICRCs (%d variants), want %d (%d)", compared, variants, nFrames+nVariants, nVariants)
	}
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
