package testcaps

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// EveryOpcode builds one frame of each opcode IBTA defines (ib.Opcode's
// Known) in encapsulation enc, built with roce.Frame.AppendTo: every
// field of the BTH and of every extended header set to a value whose
// bytes are all non-zero, 5 bytes of payload (8 for ATOMIC WRITE, none
// where the opcode carries none). It is the known truth of the tests of
// frames cut inside their extended headers.
func EveryOpcode(t testing.TB, enc ib.Encapsulation) [][]byte {
	t.Helper()
	var out [][]byte
	for o := range 256 {
		op := ib.Opcode(o)
		if !op.Known() {
			continue
		}
		f := roce.Frame{Encap: enc, GRH: ib.GRH{TClass: 0x6a, FlowLabel: 0x1234, HopLmt: 64}}
		switch enc {
		case ib.RoCEv2IPv4:
			f.GRH.FlowLabel = 0
			f.GRH.SGID, f.GRH.DGID = gid("::ffff:192.0.2.1"), gid("::ffff:192.0.2.2")
		default:
			f.GRH.SGID, f.GRH.DGID = gid("fd00::1"), gid("fd00::2")
		}
		p := &f.Packet
		p.BTH = ib.BTH{OpCode: op, SE: true, PKey: 0xa1b2, DestQP: 0xc3d4e5, AckReq: true, PSN: 0x123456 + uint32(o)}
		p.RDETH = ib.RDETH{Resv8: 0x11, EECnxt: 0x223344}
		p.DETH = ib.DETH{QKey: 0x55667788, Resv8: 0x99, SrcQP: 0xaabbcc}
		p.XRCETH = ib.XRCETH{Resv8: 0xdd, XRCSRQ: 0xeeff11}
		p.RETH = ib.RETH{VA: 0x0102030405060708, RKey: 0x090a0b0c, DMALen: 0x0d0e0f10}
		p.AtomicETH = ib.AtomicETH{VA: 0x1112131415161718, RKey: 0x191a1b1c, SwapData: 0x1d1e1f2021222324, CompareData: 0x2526272829303132}
		p.AtomicAckETH = ib.AtomicAckETH{OrigRemData: 0x3334353637383940}
		p.AETH = ib.AETH{Syndrome: 0x1f, MSN: 0x414243}
		p.ImmDt = ib.ImmDt{Data: 0x44454647}
		p.IETH = ib.IETH{RKey: 0x48494a4b}
		p.FETH = ib.FETH{Resv: 0x2345678, SEL: 1, PLT: 5}
		switch op.Payload() {
		case ib.PayloadAny:
			p.Payload = []byte{0x61, 0x62, 0x63, 0x64, 0x65}
		case ib.PayloadExact8:
			p.Payload = []byte{1, 2, 3, 4, 5, 6, 7, 8}
		}
		out = append(out, Build(t, &f))
	}
	return out
}

// WriteEveryOpcode writes EveryOpcode's frames of each encapsulation
// into a pcap file in dir, and returns their paths.
func WriteEveryOpcode(t testing.TB, dir string) []string {
	t.Helper()
	var paths []string
	for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6, ib.RoCEv1} {
		frames := EveryOpcode(t, enc)
		cis := make([]gopacket.CaptureInfo, len(frames))
		for i, f := range frames {
			cis[i] = gopacket.CaptureInfo{Timestamp: time.Unix(1764400000, int64(i)*1000), Length: len(f), CaptureLength: len(f)}
		}
		name := "every_opcode_" + strings.NewReplacer("/", "_", ".", "").Replace(enc.String()) + ".pcap"
		paths = append(paths, write(t, filepath.Join(dir, name), frames, cis))
	}
	return paths
}
