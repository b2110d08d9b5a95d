package flow

import (
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strings"

	"github.com/roce-go/roce/ecmp"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// maxPorts is how many UDP source ports a flow counts one by one.
const maxPorts = 8

// MaxECMPPaths is the largest Config.ECMPPaths.
const MaxECMPPaths = 1024

// NarrowEntropy is the entropy, in bits, of the source ports of a host
// pair's QPs below which their spread is too narrow (HostPorts.Narrow)
// when they are enough to reach it: 2 bits, the entropy of an even
// spread over 4 paths, the least ECMP width of a leaf's uplinks. A pair
// of n QPs is narrow when its entropy is below the lesser of 2 bits and
// log2 n, the most n QPs can have (n ports, one each).
const NarrowEntropy = 2.0

// portCount counts the packets of one UDP source port.
type portCount struct {
	port          uint16
	frames, bytes uint64
}

// udpPorts is what a flow's UDP packets say of its source ports.
type udpPorts struct {
	ports [maxPorts]portCount // first seen first
	n     uint8
	last  uint8     // the port counted last
	other portCount // the packets of the ports beyond maxPorts
	dport uint16    // the destination port of the first packet
	// label is the first IPv6 flow label; labelled counts the packets
	// with one, labelOff those whose source port is not the one Linux
	// derives from their label.
	label              uint32
	labelled, labelOff uint64
	// cm counts the packets sent after the flow joined a CM connection
	// whose REQ gave a flow label, cmOff those of them not from the port
	// Linux derives from it.
	cm, cmOff uint64
}

// count adds a UDP packet of flow f.
func (f *state) countUDP(p *Packet) {
	u := &f.udp
	if u.n == 0 {
		u.dport = p.DstPort
	}
	if c := &u.ports[u.last]; u.n > 0 && c.port == p.SrcPort {
		c.frames++
		c.bytes += uint64(p.Len)
	} else {
		u.port(p)
	}
	if p.FlowLabel != 0 {
		if u.labelled == 0 {
			u.label = p.FlowLabel
		}
		u.labelled++
		if rocev2.FlowLabelToUDPSrcPort(p.FlowLabel) != p.SrcPort {
			u.labelOff++
		}
	}
	if c := f.conn; c != nil && c.label != 0 {
		u.cm++
		if rocev2.FlowLabelToUDPSrcPort(c.label) != p.SrcPort {
			u.cmOff++
		}
	}
}

// port counts a packet from another port than the last one's.
func (u *udpPorts) port(p *Packet) {
	for i := range u.n {
		if c := &u.ports[i]; c.port == p.SrcPort {
			c.frames++
			c.bytes += uint64(p.Len)
			u.last = i
			return
		}
	}
	if u.n < maxPorts {
		u.ports[u.n] = portCount{p.SrcPort, 1, uint64(p.Len)}
		u.last = u.n
		u.n++
		return
	}
	u.other.frames++
	u.other.bytes += uint64(p.Len)
}

// PortCount is how many packets of a flow came from one UDP source
// port. Port -1 counts the ports beyond the 8 a flow tracks one by one.
type PortCount struct {
	Port   int    `json:"port"`
	Frames uint64 `json:"frames"`
	Bytes  uint64 `json:"bytes"`
}

// FlowLabelCheck says whether a flow's UDP source port is the one Linux
// derives from its flow label (rocev2.FlowLabelToUDPSrcPort:
// 0xC000 | ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14))).
type FlowLabelCheck struct {
	// From says where the label comes from: "ipv6", the packets' IPv6
	// flow labels (each packet checked against its own), or "cm", the
	// primary path flow label of the REQ of the flow's CM connection,
	// when no packet has an IPv6 label. A label of 0 gives none.
	From string `json:"from"`
	// Label is the REQ's label, or the first packet's; LinuxSrcPort the
	// source port Linux derives from it.
	Label        uint32 `json:"label"`
	LinuxSrcPort int    `json:"linux_src_port"`
	// Packets counts the packets checked, Differ those whose source port
	// is not their label's; Follows says Differ is 0.
	Packets uint64 `json:"packets"`
	Differ  uint64 `json:"packets_differ"`
	Follows bool   `json:"follows_linux"`
}

// udpReport fills the source-port fields of a flow's report.
func (f *state) udpReport(fr *FlowReport) {
	u := &f.udp
	for _, c := range u.ports[:u.n] {
		fr.SrcPorts = append(fr.SrcPorts, PortCount{int(c.port), c.frames, c.bytes})
	}
	if u.other.frames > 0 {
		fr.SrcPorts = append(fr.SrcPorts, PortCount{-1, u.other.frames, u.other.bytes})
	}
	switch {
	case u.labelled > 0:
		fr.FlowLabel = &FlowLabelCheck{From: "ipv6", Label: u.label, Packets: u.labelled, Differ: u.labelOff}
	case u.cm > 0:
		fr.FlowLabel = &FlowLabelCheck{From: "cm", Label: f.conn.label, Packets: u.cm, Differ: u.cmOff}
	default:
		return
	}
	fr.FlowLabel.LinuxSrcPort = int(rocev2.FlowLabelToUDPSrcPort(fr.FlowLabel.Label))
	fr.FlowLabel.Follows = fr.FlowLabel.Differ == 0
}

// HostPorts is how the QPs sending from one host to another share UDP
// source ports: the data flows (destination QP not 0 or 1) from Src to
// Dst with UDP packets, each flow a QP.
type HostPorts struct {
	Src string `json:"src"`
	Dst string `json:"dst"`
	// QPs counts the flows; Ports lists their source ports by number,
	// each with the QPs that used it (a QP that changed ports counts
	// under each) and their packets.
	QPs   int       `json:"qps"`
	Ports []PortQPs `json:"src_ports"`
	// DistinctPorts is the number of Ports; Lowest and Highest bound
	// them.
	DistinctPorts int `json:"distinct_src_ports"`
	Lowest        int `json:"lowest_src_port"`
	Highest       int `json:"highest_src_port"`
	// Entropy is the Shannon entropy, in bits, of the QPs over the ports
	// (ecmp.Entropy of the Ports' QPs); MaxEntropy log2 QPs, what QPs
	// ports of their own would give.
	Entropy    float64 `json:"src_port_entropy_bits"`
	MaxEntropy float64 `json:"src_port_entropy_max_bits"`
	// SharedPorts counts the ports more than one QP used; Narrow says the
	// Entropy is below the lesser of NarrowEntropy and MaxEntropy.
	SharedPorts int  `json:"shared_src_ports"`
	Narrow      bool `json:"narrow_spread"`
	// LabelQPs counts the QPs whose flow label is known
	// (FlowReport.FlowLabel), LabelFollow those whose every packet
	// came from the port Linux derives from it, LabelDiffer the others.
	LabelQPs    int `json:"flow_label_qps"`
	LabelFollow int `json:"flow_label_follow_linux"`
	LabelDiffer int `json:"flow_label_differ"`
	// OtherFrames counts the packets from ports beyond the 8 a flow
	// tracks one by one, in no port's count.
	OtherFrames uint64 `json:"other_port_frames,omitempty"`
}

// PortQPs is one source port of a host pair.
type PortQPs struct {
	Port   int    `json:"port"`
	QPs    int    `json:"qps"`
	Frames uint64 `json:"frames"`
	Bytes  uint64 `json:"bytes"`
}

// ECMPReport is the what-if of Config.ECMPPaths: every 5-tuple of the
// tracked flows (source and destination address, UDP, source and
// destination port; management and CNP packets included) hashed onto
// Paths paths with each of ecmp.Hashes, and the bytes each path would
// carry.
type ECMPReport struct {
	Paths int `json:"paths"`
	// Tuples counts the 5-tuples, Bytes their bytes; UnhashedBytes the
	// bytes of the ports beyond the 8 a flow tracks, on no path.
	Tuples        int          `json:"tuples"`
	Bytes         uint64       `json:"bytes"`
	UnhashedBytes uint64       `json:"unhashed_bytes,omitempty"`
	Hashes        []HashSpread `json:"hashes"`
}

// HashSpread is how one hash spreads the 5-tuples.
type HashSpread struct {
	Hash   string   `json:"hash"` // ecmp.Hash.Name
	Bytes  []uint64 `json:"bytes_per_path"`
	Tuples []int    `json:"tuples_per_path"`
	// MaxBytes is the largest of Bytes, MeanBytes their mean, Imbalance
	// MaxBytes / MeanBytes (1 for an even spread, Paths when one path
	// carries every byte; 0 without bytes).
	MaxBytes  uint64  `json:"max_bytes"`
	MeanBytes float64 `json:"mean_bytes"`
	Imbalance float64 `json:"imbalance"`
}

// tupleKey is a 5-tuple of the what-if (the protocol is UDP).
type tupleKey struct {
	src, dst     Addr
	sport, dport uint16
}

// ports fills the source-port summaries of r from the flows.
func (a *Analyzer) ports(r *Report) {
	type pair struct {
		h     HostPorts
		ports map[uint16]*PortQPs
	}
	var pairs []*pair
	byKey := map[pairKey]*pair{}
	tuples := map[tupleKey]uint64{}
	var unhashed uint64
	for i, f := range a.order {
		u := &f.udp
		if u.n == 0 {
			continue
		}
		for _, c := range u.ports[:u.n] {
			tuples[tupleKey{f.key.Src, f.key.Dst, c.port, u.dport}] += c.bytes
		}
		unhashed += u.other.bytes
		if f.key.QP == ib.QPSMI || f.key.QP == ib.QPGSI {
			continue
		}
		pk := pairKey{f.key.Src, f.key.Dst}
		p := byKey[pk]
		if p == nil {
			p = &pair{h: HostPorts{Src: f.key.Src.String(), Dst: f.key.Dst.String()}, ports: map[uint16]*PortQPs{}}
			byKey[pk] = p
			pairs = append(pairs, p)
		}
		p.h.QPs++
		for _, c := range u.ports[:u.n] {
			q := p.ports[c.port]
			if q == nil {
				q = &PortQPs{Port: int(c.port)}
				p.ports[c.port] = q
			}
			q.QPs++
			q.Frames += c.frames
			q.Bytes += c.bytes
		}
		p.h.OtherFrames += u.other.frames
		if l := r.Flows[i].FlowLabel; l != nil {
			p.h.LabelQPs++
			if l.Follows {
				p.h.LabelFollow++
			} else {
				p.h.LabelDiffer++
			}
		}
	}
	for _, p := range pairs {
		h := &p.h
		h.Ports = make([]PortQPs, 0, len(p.ports))
		for _, q := range p.ports {
			h.Ports = append(h.Ports, *q)
		}
		slices.SortFunc(h.Ports, func(x, y PortQPs) int { return x.Port - y.Port })
		counts := make([]uint64, len(h.Ports))
		for i, q := range h.Ports {
			counts[i] = uint64(q.QPs)
			if q.QPs > 1 {
				h.SharedPorts++
			}
		}
		h.DistinctPorts = len(h.Ports)
		if n := len(h.Ports); n > 0 {
			h.Lowest, h.Highest = h.Ports[0].Port, h.Ports[n-1].Port
		}
		h.Entropy = ecmp.Entropy(counts)
		h.MaxEntropy = math.Log2(float64(h.QPs))
		h.Narrow = h.QPs >= 2 && h.Entropy < min(NarrowEntropy, h.MaxEntropy)-1e-9
		r.HostPorts = append(r.HostPorts, *h)
	}
	if n := a.cfg.ECMPPaths; n > 0 && len(tuples) > 0 {
		r.ECMP = ecmpSpread(tuples, n, unhashed)
	}
}

// ecmpSpread hashes the tuples onto n paths with each hash.
func ecmpSpread(tuples map[tupleKey]uint64, n int, unhashed uint64) *ECMPReport {
	e := &ECMPReport{Paths: n, Tuples: len(tuples), UnhashedBytes: unhashed}
	for _, h := range ecmp.Hashes {
		s := HashSpread{Hash: h.Name, Bytes: make([]uint64, n), Tuples: make([]int, n)}
		for k, b := range tuples {
			t := ecmp.Tuple{Src: netip.AddrFrom16(k.src.IP), Dst: netip.AddrFrom16(k.dst.IP), Proto: ecmp.ProtoUDP,
				SrcPort: k.sport, DstPort: k.dport}
			i := h.Path(&t, n)
			s.Bytes[i] += b
			s.Tuples[i]++
		}
		var total uint64
		for _, b := range s.Bytes {
			total += b
			s.MaxBytes = max(s.MaxBytes, b)
		}
		e.Bytes = total
		s.MeanBytes = float64(total) / float64(n)
		s.Imbalance = ecmp.Imbalance(s.Bytes)
		e.Hashes = append(e.Hashes, s)
	}
	return e
}

// maxSharedText is how many shared ports a host pair's text names.
const maxSharedText = 8

// writePortsText writes the host pairs' source ports and the what-if
// (see the package documentation).
func (r *Report) writePortsText(b *strings.Builder) {
	for i := range r.HostPorts {
		h := &r.HostPorts[i]
		if h.QPs < 2 && h.LabelDiffer == 0 && h.OtherFrames == 0 {
			continue // one QP, nothing to say
		}
		fmt.Fprintf(b, "udp %s > %s: qps %d src-ports %d", h.Src, h.Dst, h.QPs, h.DistinctPorts)
		switch {
		case h.DistinctPorts == 1:
			fmt.Fprintf(b, " (%d)", h.Lowest)
		case h.DistinctPorts > 1:
			fmt.Fprintf(b, " (%d-%d)", h.Lowest, h.Highest)
		}
		fmt.Fprintf(b, " entropy %.2f bits of %.2f\n", h.Entropy, h.MaxEntropy)
		if h.SharedPorts > 0 {
			fmt.Fprintf(b, "  shared src-ports %d:", h.SharedPorts)
			n := 0
			for _, q := range h.Ports {
				if q.QPs > 1 && n < maxSharedText {
					fmt.Fprintf(b, " [%d qps %d]", q.Port, q.QPs)
					n++
				}
			}
			if h.SharedPorts > n {
				b.WriteString(" ...")
			}
			b.WriteString("\n")
		}
		if h.Narrow {
			fmt.Fprintf(b, "  narrow spread: entropy %.2f bits below %.2f\n", h.Entropy, min(NarrowEntropy, h.MaxEntropy))
		}
		if h.LabelQPs > 0 {
			fmt.Fprintf(b, "  flow-label qps %d follow-linux %d differ %d\n", h.LabelQPs, h.LabelFollow, h.LabelDiffer)
		}
		if h.OtherFrames > 0 {
			fmt.Fprintf(b, "  other-port frames %d\n", h.OtherFrames)
		}
	}
	if e := r.ECMP; e != nil {
		fmt.Fprintf(b, "ecmp %d paths: tuples %d bytes %d", e.Paths, e.Tuples, e.Bytes)
		if e.UnhashedBytes > 0 {
			fmt.Fprintf(b, " unhashed-bytes %d", e.UnhashedBytes)
		}
		b.WriteString("\n")
		for _, s := range e.Hashes {
			fmt.Fprintf(b, "  %s max/mean %.2f bytes", s.Hash, s.Imbalance)
			for _, v := range s.Bytes {
				fmt.Fprintf(b, " %d", v)
			}
			b.WriteString("\n")
		}
	}
}
