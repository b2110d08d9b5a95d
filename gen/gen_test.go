package gen_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// small returns the default configuration shrunk for quick tests.
func small() gen.Config {
	c := gen.DefaultConfig()
	c.MTU = 256
	c.Size = 1000
	c.Messages = 3
	c.QPs = 2
	return c
}

var allOps = []gen.Op{gen.OpWrite, gen.OpWriteImm, gen.OpSend, gen.OpSendImm, gen.OpSendInv,
	gen.OpRead, gen.OpCmpSwap, gen.OpFetchAdd, gen.OpFlush, gen.OpAtomicWrite}

// supported says which operations IBTA defines on each transport.
var supported = map[ib.Transport]map[gen.Op]bool{
	ib.RC: {gen.OpWrite: true, gen.OpWriteImm: true, gen.OpSend: true, gen.OpSendImm: true, gen.OpSendInv: true,
		gen.OpRead: true, gen.OpCmpSwap: true, gen.OpFetchAdd: true, gen.OpFlush: true, gen.OpAtomicWrite: true},
	ib.UC:  {gen.OpWrite: true, gen.OpWriteImm: true, gen.OpSend: true, gen.OpSendImm: true},
	ib.UD:  {gen.OpSend: true, gen.OpSendImm: true},
	ib.XRC: {gen.OpWrite: true, gen.OpWriteImm: true, gen.OpSend: true, gen.OpSendImm: true, gen.OpSendInv: true, gen.OpRead: true, gen.OpCmpSwap: true, gen.OpFetchAdd: true},
}

// TestOperations generates every operation on every transport that has
// it, at sizes around the MTU, and checks the structure of every frame.
func TestOperations(t *testing.T) {
	cases := 0
	for _, tr := range []ib.Transport{ib.RC, ib.UC, ib.UD, ib.XRC} {
		for _, op := range allOps {
			for _, size := range []int{0, 1, 256, 257, 1000, 3*256 + 5} {
				c := small()
				c.Transport, c.Op, c.Size = tr, op, size
				name := fmt.Sprintf("%v/%v/%d", tr, op, size)
				if !supported[tr][op] || tr == ib.UD && size > c.MTU {
					if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
						t.Errorf("%s: New gave %v, want ErrConfig", name, err)
					}
					continue
				}
				t.Run(name, func(t *testing.T) {
					cases++
					frames := generate(t, c)
					r := check(t, c, frames)
					n := 1
					if segmented(op) && size > c.MTU {
						n = (size + c.MTU - 1) / c.MTU
					}
					if want := n * c.Messages * c.QPs; r.requests != want {
						t.Errorf("%d requests, want %d", r.requests, want)
					}
					if tr == ib.UC || tr == ib.UD {
						if r.responses != 0 {
							t.Errorf("%d responses on %v", r.responses, tr)
						}
					} else if r.responses == 0 {
						t.Errorf("no responses on %v", tr)
					}
					if r.bad != 0 || r.ce != 0 || r.cnps != 0 || r.pfc != 0 {
						t.Errorf("unasked events: %+v", r)
					}
					if op == gen.OpRead {
						reads := (max(size, 1) + c.MTU - 1) / c.MTU
						if want := reads * c.Messages * c.QPs; r.responses != want {
							t.Errorf("%d READ responses, want %d", r.responses, want)
						}
					}
				})
			}
		}
	}
	t.Logf("%d transport/operation/size cases", cases)
	if cases < 100 {
		t.Errorf("only %d cases ran", cases)
	}
}

// TestEncapsulations checks addresses, tags, DSCP and ECN on every
// encapsulation.
func TestEncapsulations(t *testing.T) {
	for _, enc := range []ib.Encapsulation{ib.RoCEv1, ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		for _, vlan := range []int{-1, 0, 100, 4095} {
			for _, e := range []ecn.Codepoint{ecn.NotECT, ecn.ECT0, ecn.ECT1} {
				c := small()
				c.Encap, c.VLAN, c.PCP, c.DSCP, c.ECN = enc, vlan, 5, 46, e
				c.Op = gen.OpRead
				c.HopLimit = 17
				t.Run(fmt.Sprintf("%v/vlan%d/%v", enc, vlan, e), func(t *testing.T) {
					frames := generate(t, c)
					check(t, c, frames)
					var wantSrc, wantDst netip.Addr
					switch enc {
					case ib.RoCEv2IPv4:
						wantSrc, wantDst = netip.MustParseAddr("::ffff:192.0.2.1"), netip.MustParseAddr("::ffff:192.0.2.2")
					case ib.RoCEv2IPv6:
						wantSrc, wantDst = netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
					default:
						wantSrc, wantDst = netip.MustParseAddr("fe80::ff:fe00:1"), netip.MustParseAddr("fe80::ff:fe00:2")
					}
					for i, gf := range frames {
						var f roce.Frame
						if err := f.Decode(gf.b); err != nil {
							t.Fatal(err)
						}
						src, dst := f.GRH.SrcGID(), f.GRH.DstGID()
						if !f.Packet.BTH.OpCode.IsRequest() {
							src, dst = dst, src
						}
						if src != wantSrc || dst != wantDst || f.GRH.HopLmt != 17 {
							t.Fatalf("frame %d: %v > %v hop limit %d, want %v > %v, 17", i, f.GRH.SrcGID(), f.GRH.DstGID(), f.GRH.HopLmt, wantSrc, wantDst)
						}
						if enc == ib.RoCEv2IPv6 != f.UDPChecksum {
							t.Fatalf("frame %d: UDP checksum present %v", i, f.UDPChecksum)
						}
						if enc == ib.RoCEv2IPv4 && f.IPv4Flags != 0x4000 {
							t.Fatalf("frame %d: IPv4 flags %#x, want DF", i, f.IPv4Flags)
						}
					}
				})
			}
		}
	}
}

// TestAddresses checks configured addresses and MACs.
func TestAddresses(t *testing.T) {
	c := small()
	c.Encap = ib.RoCEv2IPv6
	c.SrcIP, c.DstIP = netip.MustParseAddr("fd00::a"), netip.MustParseAddr("fd00::b")
	c.SrcMAC, c.DstMAC = [6]byte{0xaa, 1, 2, 3, 4, 5}, [6]byte{0xbb, 1, 2, 3, 4, 5}
	frames := generate(t, c)
	check(t, c, frames)
	var f roce.Frame
	if err := f.Decode(frames[0].b); err != nil {
		t.Fatal(err)
	}
	if f.GRH.SrcGID() != c.SrcIP || f.GRH.DstGID() != c.DstIP || f.Src != c.SrcMAC || f.Dst != c.DstMAC {
		t.Errorf("first frame %v > %v, %x > %x", f.GRH.SrcGID(), f.GRH.DstGID(), f.Src, f.Dst)
	}
	c.Encap = ib.RoCEv2IPv4
	if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
		t.Errorf("IPv6 addresses on RoCEv2/IPv4: %v", err)
	}
	c.SrcIP, c.DstIP = netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.0.2")
	c.Encap = ib.RoCEv1 // IPv4-mapped GIDs
	check(t, c, generate(t, c))
}

// TestMTUs segments one message at every MTU.
func TestMTUs(t *testing.T) {
	for _, mtu := range []int{256, 512, 1024, 2048, 4096} {
		for _, op := range []gen.Op{gen.OpWrite, gen.OpSendImm, gen.OpRead} {
			c := small()
			c.MTU, c.Size, c.Op = mtu, 10000, op
			r := check(t, c, generate(t, c))
			n := (10000 + mtu - 1) / mtu
			got := r.requests
			if op == gen.OpRead {
				got = r.responses
			}
			if want := n * c.Messages * c.QPs; got != want {
				t.Errorf("MTU %d %v: %d data packets, want %d", mtu, op, got, want)
			}
		}
	}
	c := small()
	c.MTU = 1500
	if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
		t.Errorf("MTU 1500: %v", err)
	}
}

// TestPSNWrap starts near the top of the 24-bit PSN space.
func TestPSNWrap(t *testing.T) {
	for _, op := range []gen.Op{gen.OpWrite, gen.OpRead, gen.OpFetchAdd} {
		c := small()
		c.Op, c.PSN, c.QPs = op, 0xFFFFFE, 1
		frames := generate(t, c)
		check(t, c, frames)
		var psns []uint32
		for _, gf := range frames {
			var f roce.Frame
			if err := f.Decode(gf.b); err != nil {
				t.Fatal(err)
			}
			if f.Packet.BTH.OpCode.IsRequest() {
				psns = append(psns, f.Packet.BTH.PSN)
			}
		}
		if psns[0] != 0xFFFFFE || psns[len(psns)-1] > 0xFFFF {
			t.Errorf("%v: PSNs %v did not wrap", op, psns)
		}
	}
}

// TestAckEvery checks coalesced ACKs in the middle of messages.
func TestAckEvery(t *testing.T) {
	for _, every := range []int{0, 1, 4, 10, 100} {
		c := small()
		c.Size = 10 * 256
		c.AckEvery = every
		r := check(t, c, generate(t, c))
		per := 1 // the last packet
		if every > 0 {
			per = 0
			for i := 0; i < 10; i++ {
				if (i+1)%every == 0 || i == 9 {
					per++
				}
			}
		}
		if want := per * c.Messages * c.QPs; r.responses != want {
			t.Errorf("ack-every %d: %d ACKs, want %d", every, r.responses, want)
		}
	}
}

// TestQPs checks distinct QPs, their UDP source ports and flow labels.
func TestQPs(t *testing.T) {
	for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		c := small()
		c.Encap, c.QPs, c.Messages = enc, 16, 2
		c.LocalQP, c.RemoteQP = 0x1234, 0xabcd
		frames := generate(t, c)
		r := check(t, c, frames)
		if len(r.ports) < 2 {
			t.Errorf("%v: %d UDP source ports for 16 QPs", enc, len(r.ports))
		}
		for _, gf := range frames {
			var f roce.Frame
			if err := f.Decode(gf.b); err != nil {
				t.Fatal(err)
			}
			local, remote := f.Packet.BTH.DestQP, f.Packet.BTH.DestQP
			if f.Packet.BTH.OpCode.IsRequest() {
				local = remote - c.RemoteQP + c.LocalQP
			} else {
				remote = local - c.LocalQP + c.RemoteQP
			}
			fl := rocev2.CalcFlowLabel(local, remote)
			if f.SrcPort != rocev2.FlowLabelToUDPSrcPort(fl) {
				t.Fatalf("QP %#x/%#x: UDP source port %d", local, remote, f.SrcPort)
			}
			if enc == ib.RoCEv2IPv6 && f.GRH.FlowLabel != fl {
				t.Fatalf("QP %#x/%#x: flow label %#x, want %#x", local, remote, f.GRH.FlowLabel, fl)
			}
		}
	}
}

// TestCE checks CE marks and the CNPs that answer them.
func TestCE(t *testing.T) {
	for _, op := range []gen.Op{gen.OpWrite, gen.OpRead, gen.OpSend} {
		for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
			c := small()
			c.Op, c.Encap, c.VLAN = op, enc, 7
			c.Size, c.Messages = 4000, 10
			c.CEEvery = 3
			r := check(t, c, generate(t, c))
			if r.ce == 0 || r.ce != r.data/3 {
				t.Errorf("%v %v: %d CE marks in %d data packets, want %d", op, enc, r.ce, r.data, r.data/3)
			}
			if r.cnps != r.ce || !reflect.DeepEqual(r.cnpTo, r.ceTo) {
				t.Errorf("%v %v: %d CNPs for %d CE marks; CNPs to %v, CE from %v", op, enc, r.cnps, r.ce, r.cnpTo, r.ceTo)
			}
		}
	}

	c := small()
	c.Messages, c.Size = 50, 10000
	c.CEFraction = 0.1
	r := check(t, c, generate(t, c))
	if f := float64(r.ce) / float64(r.data); f < 0.07 || f > 0.13 || r.cnps != r.ce {
		t.Errorf("ce-fraction 0.1: %d CE of %d data packets, %d CNPs", r.ce, r.data, r.cnps)
	}

	// Paced: at most one CNP per QP per interval.
	c.CNPInterval = 20 * time.Microsecond
	frames := generate(t, c)
	r = check(t, c, frames)
	if r.cnps == 0 || r.cnps >= r.ce {
		t.Errorf("paced: %d CNPs for %d CE marks", r.cnps, r.ce)
	}
	span := frames[len(frames)-1].ci.Timestamp.Sub(frames[0].ci.Timestamp)
	if limit := c.QPs * int(span/c.CNPInterval+1); r.cnps > limit {
		t.Errorf("paced: %d CNPs in %v, at most %d", r.cnps, span, limit)
	}

	for _, bad := range []func(*gen.Config){
		func(c *gen.Config) { c.ECN = ecn.NotECT },
		func(c *gen.Config) { c.Encap = ib.RoCEv1 },
	} {
		c := small()
		c.CEEvery = 2
		bad(&c)
		if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// span returns the time from the first frame to the last.
func span(frames []genFrame) time.Duration {
	return frames[len(frames)-1].ci.Timestamp.Sub(frames[0].ci.Timestamp)
}

// TestPFC checks the PFC frames and the pause they cause: no request
// starts while the priority of the traffic is paused, and requests go on
// when another priority is.
func TestPFC(t *testing.T) {
	c := small()
	c.Size, c.Messages = 4096, 4
	base := span(generate(t, c))
	for _, prio := range []int{3, 5} {
		c.PFCEvery, c.PFCPrio, c.PFCQuanta = 10, prio, 2000
		frames := generate(t, c)
		r := check(t, c, frames)
		if r.pfc == 0 || r.pfc != r.data/10 {
			t.Errorf("prio %d: %d PFC frames for %d data packets, want %d", prio, r.pfc, r.data, r.data/10)
		}
		pause := c.Rate.Duration(c.PFCQuanta)
		var until time.Time // the end of the pause in force
		inPause := 0
		for i, gf := range frames {
			ts := gf.ci.Timestamp
			switch {
			case gf.kind == gen.KindPFC:
				end := ts.Add(time.Duration(float64((len(gf.b)+24)*8) / float64(c.Rate) * 1e9))
				until = end.Add(pause)
			case gf.kind == gen.KindRequest && ts.Before(until):
				inPause++
				if prio == int(c.PCP) {
					t.Errorf("prio %d: request %d at %v, paused until %v", prio, i, ts, until)
				}
			}
		}
		if prio != int(c.PCP) && inPause == 0 {
			t.Errorf("prio %d: no request sent while another priority was paused", prio)
		}
		// Pauses overlap (a PFC frame refreshes the pause in force), so
		// only one whole pause is certain to stretch the capture.
		if prio == int(c.PCP) && span(frames) < base+pause {
			t.Errorf("prio %d: %d pauses of %v: %v, %v without", prio, r.pfc, pause, span(frames), base)
		}
	}
}

// TestBadICRC checks the fraction of frames with a wrong ICRC.
func TestBadICRC(t *testing.T) {
	for _, enc := range []ib.Encapsulation{ib.RoCEv1, ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		for _, frac := range []float64{0, 0.05, 0.5, 1} {
			c := small()
			c.Encap, c.Op, c.Messages, c.BadICRC = enc, gen.OpRead, 40, frac
			if enc != ib.RoCEv1 {
				c.CEEvery = 5
			}
			g, err := gen.New(c)
			if err != nil {
				t.Fatal(err)
			}
			var frames []genFrame
			for g.Next() {
				frames = append(frames, genFrame{append([]byte(nil), g.Frame()...), g.CaptureInfo(), g.Kind()})
			}
			r := check(t, c, frames)
			got := float64(r.bad) / float64(r.roce)
			if math.Abs(got-frac) > 0.04 || g.Stats().BadICRC != r.bad {
				t.Errorf("%v bad-icrc %v: %d of %d RoCE frames bad (%.3f), Stats %d", enc, frac, r.bad, r.roce, got, g.Stats().BadICRC)
			}
			if frac == 1 && r.cnps == 0 && enc != ib.RoCEv1 {
				t.Errorf("no CNPs to corrupt")
			}
		}
	}
}

// TestSeed checks that output depends on the seed alone.
func TestSeed(t *testing.T) {
	c := small()
	c.CEFraction, c.BadICRC, c.Op = 0.2, 0.2, gen.OpRead
	write := func(c gen.Config, f capfile.Format) []byte {
		g, err := gen.New(c)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := gen.Write(&b, g, f); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for _, f := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
		a, b := write(c, f), write(c, f)
		if !bytes.Equal(a, b) {
			t.Errorf("%v: two runs with seed %d differ", f, c.Seed)
		}
		d := c
		d.Seed++
		if bytes.Equal(a, write(d, f)) {
			t.Errorf("%v: seeds %d and %d give the same capture", f, c.Seed, d.Seed)
		}
	}
}

// TestWrite reads both capture formats back.
func TestWrite(t *testing.T) {
	c := small()
	c.PFCEvery, c.CEEvery = 7, 5
	want := generate(t, c)
	for _, f := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
		g, _ := gen.New(c)
		var b bytes.Buffer
		n, err := gen.Write(&b, g, f)
		if err != nil || n != len(want) {
			t.Fatalf("%v: Write: %d frames, %v", f, n, err)
		}
		var next func() ([]byte, time.Time, error)
		if f == capfile.FormatPcap {
			r, err := pcapgo.NewReader(&b)
			if err != nil {
				t.Fatal(err)
			}
			next = func() ([]byte, time.Time, error) { d, ci, err := r.ReadPacketData(); return d, ci.Timestamp, err }
		} else {
			r, err := pcapgo.NewNgReader(&b, pcapgo.DefaultNgReaderOptions)
			if err != nil {
				t.Fatal(err)
			}
			next = func() ([]byte, time.Time, error) { d, ci, err := r.ReadPacketData(); return d, ci.Timestamp, err }
		}
		for i := 0; ; i++ {
			d, ts, err := next()
			if err == io.EOF {
				if i != len(want) {
					t.Errorf("%v: read %d frames of %d", f, i, len(want))
				}
				break
			}
			if err != nil {
				t.Fatalf("%v frame %d: %v", f, i, err)
			}
			if !bytes.Equal(d, want[i].b) || !ts.Equal(want[i].ci.Timestamp) {
				t.Fatalf("%v frame %d differs (at %v, want %v)", f, i, ts, want[i].ci.Timestamp)
			}
		}
	}
	if capfile.FormatOf("x.pcapng") != capfile.FormatPcapng || capfile.FormatOf("x.pcap") != capfile.FormatPcap || capfile.FormatOf("-") != capfile.FormatPcap {
		t.Error("FormatOf")
	}
}

// TestDefault checks the documented default: one RC RDMA WRITE of 64 KiB
// at MTU 4096 over RoCEv2/IPv4, and its ACK.
func TestDefault(t *testing.T) {
	c := gen.DefaultConfig()
	frames := generate(t, c)
	checkDefault(t, frames)
	check(t, c, frames)
}

// checkDefault checks frames against the documented default scenario.
func checkDefault(t *testing.T, frames []genFrame) {
	t.Helper()
	if len(frames) != 17 {
		t.Fatalf("%d frames, want 17", len(frames))
	}
	for i, gf := range frames {
		var f roce.Frame
		if err := f.Decode(gf.b); err != nil {
			t.Fatal(err)
		}
		want := "RC RDMA WRITE Middle"
		switch i {
		case 0:
			want = "RC RDMA WRITE First"
		case 15:
			want = "RC RDMA WRITE Last"
		case 16:
			want = "RC Acknowledge"
		}
		if f.Packet.BTH.OpCode.String() != want || f.Encap != ib.RoCEv2IPv4 || f.NumVLANs != 0 {
			t.Errorf("frame %d: %v %v, want %s over RoCEv2/IPv4", i, f.Encap, f.Packet.BTH.OpCode, want)
		}
		if i < 16 && len(f.Packet.Payload) != 4096 {
			t.Errorf("frame %d: %d bytes of payload", i, len(f.Packet.Payload))
		}
		if i == 0 && f.Packet.RETH.DMALen != 64<<10 {
			t.Errorf("RETH DMA length %d", f.Packet.RETH.DMALen)
		}
		if f.GRH.TClass != 26<<2|2 {
			t.Errorf("frame %d: TClass %#x, want DSCP 26 ECT(0)", i, f.GRH.TClass)
		}
		if err := f.VerifyICRC(); err != nil {
			t.Errorf("frame %d: %v", i, err)
		}
	}
	if !frames[0].ci.Timestamp.Equal(gen.DefaultStart) {
		t.Errorf("first frame at %v", frames[0].ci.Timestamp)
	}
}

// TestTiming checks that requests follow the line rate and responses the
// delay.
func TestTiming(t *testing.T) {
	for _, rate := range []string{"100G", "25G", "400G"} {
		c := gen.DefaultConfig()
		if err := c.Set("rate", rate); err != nil {
			t.Fatal(err)
		}
		frames := generate(t, c)
		for i := 1; i < 16; i++ {
			gap := frames[i].ci.Timestamp.Sub(frames[i-1].ci.Timestamp)
			bits := float64(len(frames[i-1].b)+4+8+12) * 8
			want := time.Duration(bits / float64(c.Rate) * 1e9)
			if d := gap - want; d < -time.Nanosecond || d > time.Nanosecond {
				t.Errorf("%s: frame %d follows after %v, want %v", rate, i, gap, want)
			}
		}
		endLast := frames[15].ci.Timestamp.Add(time.Duration(float64(len(frames[15].b)+24) * 8 / float64(c.Rate) * 1e9))
		if d := frames[16].ci.Timestamp.Sub(endLast) - c.Delay; d < -time.Nanosecond || d > time.Nanosecond {
			t.Errorf("%s: ACK %v after the last packet, want %v", rate, frames[16].ci.Timestamp.Sub(endLast), c.Delay)
		}
	}
}

// TestScenario plays a scenario file: phases in order, a gap between
// them, and connections whose PSNs carry on.
func TestScenario(t *testing.T) {
	text := `
# comment line
op=write size=1K messages=2 qps=2 mtu=256   # trailing comment

op=read size=600 messages=1 qps=2 mtu=256 gap=10us
transport=ud op=send-imm size=100 messages=3 qps=1 qp=0x400 pfc-every=2
`
	phases, err := gen.ParseScenario(strings.NewReader(text), gen.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(phases) != 3 || phases[0].Size != 1024 || phases[1].Op != gen.OpRead || phases[1].Gap != 10*time.Microsecond ||
		phases[2].Transport != ib.UD || phases[2].LocalQP != 0x400 || phases[2].Size != 100 || phases[0].Op != gen.OpWrite {
		t.Fatalf("phases %+v", phases)
	}
	frames := generate(t, phases...)
	// Split the capture at the first READ request and at the first UD frame.
	var cut [2]int
	nextPSN := map[uint32]uint32{}
	for i, gf := range frames {
		var f roce.Frame
		if err := f.Decode(gf.b); err != nil {
			continue // PFC
		}
		op, bth := f.Packet.BTH.OpCode, &f.Packet.BTH
		if op.String() == "RC RDMA READ Request" && cut[0] == 0 {
			cut[0] = i
			if want, ok := nextPSN[bth.DestQP]; !ok || bth.PSN != want {
				t.Errorf("READ on QP %#x starts at PSN %d, the WRITEs ended before %d", bth.DestQP, bth.PSN, want)
			}
		}
		if op.Transport() == ib.UD && cut[1] == 0 {
			cut[1] = i
		}
		if op.IsRequest() && op.Transport() == ib.RC {
			nextPSN[bth.DestQP] = bth.PSN + 1
		}
	}
	if cut[0] == 0 || cut[1] <= cut[0] {
		t.Fatalf("phases not in order: cuts %v", cut)
	}
	if gap := frames[cut[0]].ci.Timestamp.Sub(frames[cut[0]-1].ci.Timestamp); gap < 10*time.Microsecond {
		t.Errorf("phase 2 starts %v after phase 1", gap)
	}
	check(t, phases[0], frames[:cut[0]])
	check(t, phases[2], frames[cut[1]:])

	for _, bad := range []string{"op=jump", "size", "nosuch=1", "mtu=1000", "", "# only a comment"} {
		phases, err := gen.ParseScenario(strings.NewReader(bad), gen.DefaultConfig())
		if err == nil {
			_, err = gen.NewScenario(phases)
		}
		if err == nil {
			t.Errorf("scenario %q accepted", bad)
		}
	}
}

// TestConfigErrors checks that New refuses what it cannot generate.
func TestConfigErrors(t *testing.T) {
	for name, bad := range map[string]func(*gen.Config){
		"encap":      func(c *gen.Config) { c.Encap = 0 },
		"mtu":        func(c *gen.Config) { c.MTU = 0 },
		"op":         func(c *gen.Config) { c.Op = 99 },
		"transport":  func(c *gen.Config) { c.Transport = ib.RD },
		"messages":   func(c *gen.Config) { c.Messages = 0 },
		"qps":        func(c *gen.Config) { c.QPs = 0 },
		"qp range":   func(c *gen.Config) { c.LocalQP, c.QPs = 0xFFFFFF, 2 },
		"qp1":        func(c *gen.Config) { c.RemoteQP = 1 },
		"vlan":       func(c *gen.Config) { c.VLAN = 4096 },
		"pcp":        func(c *gen.Config) { c.PCP = 8 },
		"dscp":       func(c *gen.Config) { c.DSCP = 64 },
		"ecn ce":     func(c *gen.Config) { c.ECN = ecn.CE },
		"psn":        func(c *gen.Config) { c.PSN = 1 << 24 },
		"fraction":   func(c *gen.Config) { c.BadICRC = 1.5 },
		"nan":        func(c *gen.Config) { c.CEFraction = math.NaN() },
		"pfc prio":   func(c *gen.Config) { c.PFCPrio = 8 },
		"rate":       func(c *gen.Config) { c.Rate = 0 },
		"negative":   func(c *gen.Config) { c.AckEvery = -1 },
		"size":       func(c *gen.Config) { c.Size = -1 },
		"ipv4 on v6": func(c *gen.Config) { c.Encap, c.SrcIP = ib.RoCEv2IPv6, netip.MustParseAddr("10.0.0.1") },
	} {
		c := gen.DefaultConfig()
		bad(&c)
		if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
			t.Errorf("%s: New gave %v, want ErrConfig", name, err)
		}
	}
	if _, err := gen.NewScenario(nil); !errors.Is(err, gen.ErrConfig) {
		t.Errorf("no phases: %v", err)
	}
}

// TestOptions round-trips every option through Get and Set, and checks a
// few parsers.
func TestOptions(t *testing.T) {
	c := gen.DefaultConfig()
	d := gen.Config{}
	for _, o := range gen.Options() {
		if o.Usage == "" {
			t.Errorf("%s has no usage", o.Name)
		}
		if err := d.Set(o.Name, c.Get(o.Name)); err != nil {
			t.Errorf("Set(%s, %q): %v", o.Name, c.Get(o.Name), err)
		}
	}
	d.Start = d.Start.In(time.UTC)
	if !reflect.DeepEqual(c, d) {
		t.Errorf("round trip:\n got %+v\nwant %+v", d, c)
	}
	for _, tc := range []struct{ name, value, get string }{
		{"size", "64K", "65536"}, {"size", "1M", "1048576"}, {"size", "1KiB", "1024"},
		{"rate", "25G", "25000000000"}, {"rate", "2.5G", "2500000000"},
		{"encap", "v2", "v2-ipv4"}, {"encap", "V2-IPv6", "v2-ipv6"}, {"transport", "XRC", "xrc"},
		{"op", "atomic-write", "atomic-write"}, {"ecn", "ect1", "ect1"}, {"qp", "17", "0x11"},
		{"cnp-interval", "4us", "4µs"}, {"src-ip", "auto", "auto"}, {"vlan", "-1", "-1"},
	} {
		if err := c.Set(tc.name, tc.value); err != nil || c.Get(tc.name) != tc.get {
			t.Errorf("Set(%s, %s): Get %q, %v; want %q", tc.name, tc.value, c.Get(tc.name), err, tc.get)
		}
	}
	for _, bad := range [][2]string{{"size", "5T"}, {"size", "-1"}, {"rate", "fast"}, {"vlan", "5000"},
		{"pcp", "8"}, {"dscp", "64"}, {"ecn", "ce"}, {"psn", "-2"}, {"bad-icrc", "2"}, {"nosuch", "1"},
		{"src-mac", "zz"}, {"src-ip", "fe80::1%eth0"}, {"qp", "0x1000000"}, {"start", "yesterday"}} {
		if err := c.Set(bad[0], bad[1]); err == nil {
			t.Errorf("Set(%s, %s) accepted", bad[0], bad[1])
		}
	}
	if c.Get("nosuch") != "" {
		t.Error("Get of an unknown option")
	}
	for _, op := range allOps {
		if p, err := gen.ParseOp(op.String()); err != nil || p != op {
			t.Errorf("ParseOp(%v) = %v, %v", op, p, err)
		}
	}
}

// TestAllocs checks that Next allocates nothing in steady state, with
// every feature on.
func TestAllocs(t *testing.T) {
	for _, op := range []gen.Op{gen.OpWrite, gen.OpRead, gen.OpFetchAdd} {
		c := gen.DefaultConfig()
		c.Op, c.MTU, c.Size, c.Messages, c.QPs = op, 1024, 8000, 1_000_000, 8
		c.VLAN = 10
		c.Encap = ib.RoCEv2IPv6
		c.CEFraction, c.CNPInterval, c.PFCEvery, c.BadICRC, c.AckEvery = 0.05, time.Microsecond, 50, 0.01, 3
		g, err := gen.New(c)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10000; i++ {
			if !g.Next() {
				t.Fatalf("%v: generator ended: %v", op, g.Err())
			}
		}
		allocs := testing.AllocsPerRun(20000, func() {
			if !g.Next() || len(g.Frame()) == 0 {
				t.Fatalf("%v: generator ended: %v", op, g.Err())
			}
			_ = g.CaptureInfo()
		})
		if allocs != 0 {
			t.Errorf("%v: Next allocates %.2f times per frame", op, allocs)
		}
	}
}
