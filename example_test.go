package roce_test

// The Go blocks of README.md are the bodies of these examples, line for
// line (TestREADMEGoBlocks checks it), so the README compiles and runs.

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// hexFrame decodes a hex string; the examples' frames are constants.
func hexFrame(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// An RC SEND Only over RoCEv2/IPv4: vector V1 of docs/icrc-vectors.md.
const sendOnly = "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f"

// An RC RDMA WRITE Only over RoCEv2/IPv4, ECT(0), with a 5-byte payload,
// the frame ExampleFrame_AppendTo builds. Its IPv4 checksum and ICRC were
// checked with a separate zlib computation (docs/icrc-vectors.md).
const writeOnly = "020000000002020000000001" + "0800" +
	"45020044000040004011b753c0a80101c0a80102" + // IPv4, TOS 0x02, DF, TTL 64
	"c00012b700300000" + // UDP 49152 -> 4791, length 48, no checksum
	"0a30ffff0000001280000007" + // BTH: RC RDMA WRITE Only, PadCnt 3, QP 0x12, A, PSN 7
	"00000000000010000000004200000005" + // RETH: VA 0x1000, R_Key 0x42, DMA length 5
	"68656c6c6f" + "000000" + // "hello" and 3 pad bytes
	"7c8ff490" // ICRC

// Decode in one pass into a reused Frame and check its ICRC.
func ExampleFrame_Decode() {
	frame := hexFrame(sendOnly)

	var f roce.Frame
	if err := f.Decode(frame); err != nil {
		fmt.Println(err) // errors.Is(err, ib.ErrNotRoCE) for other traffic
		return
	}
	bth := &f.Packet.BTH
	fmt.Println(f.Encap, f.GRH.SrcGID().Unmap(), "->", f.GRH.DstGID().Unmap())
	fmt.Printf("%v QP %#x PSN %d payload %q\n", bth.OpCode, bth.DestQP, bth.PSN, f.Packet.Payload)
	fmt.Println("ICRC ok:", f.VerifyICRC() == nil)
	// Output:
	// RoCEv2/IPv4 192.168.1.1 -> 192.168.1.2
	// RC SEND Only QP 0x12 PSN 1 payload "RoCE test vec"
	// ICRC ok: true
}

// Build an RDMA WRITE Only with its ICRC into a reused buffer: the engine of
// a packet generator.
func ExampleFrame_AppendTo() {
	buf := make([]byte, 0, 2048)
	data := []byte("hello")

	f := roce.Frame{
		Dst:   [6]byte{2, 0, 0, 0, 0, 2},
		Src:   [6]byte{2, 0, 0, 0, 0, 1},
		Encap: ib.RoCEv2IPv4, // or ib.RoCEv1, ib.RoCEv2IPv6
		GRH: ib.GRH{
			TClass: 0x02, // DSCP 0, ECT(0)
			HopLmt: 64,
			SGID:   [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 1}, // ::ffff:192.168.1.1
			DGID:   [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 2},
		},
		IPv4Flags: 0x4000, // DF
	}
	f.Packet.BTH = ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x12, AckReq: true, PSN: 7}
	f.Packet.RETH = ib.RETH{VA: 0x1000, RKey: 0x42, DMALen: uint32(len(data))}
	f.Packet.Payload = data
	buf, err := f.AppendTo(buf[:0])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(buf), "bytes, pad", f.Packet.BTH.PadCnt, "UDP source port", f.SrcPort)
	fmt.Println("ICRC ok:", roce.VerifyFrame(buf) == nil)
	// Output:
	// 82 bytes, pad 3 UDP source port 49152
	// ICRC ok: true
}

// Errors wrap exported sentinels: a builder's refusal is an *ib.FieldError
// naming the field and the value, a bad ICRC an *ib.ICRCError carrying
// both values, a decoding error an *ib.Error naming the layer and offset.
func Example_errors() {
	f := roce.Frame{Encap: ib.RoCEv1, GRH: ib.GRH{HopLmt: 64}}
	f.Packet.BTH = ib.BTH{OpCode: ib.OpRCSendOnly, DestQP: 0x1000000} // 25 bits
	_, err := f.AppendTo(nil)
	var fe *ib.FieldError
	fmt.Println(errors.Is(err, ib.ErrBadValue), errors.As(err, &fe) && fe.Field == "BTH.DestQP")
	fmt.Println(err)

	frame := hexFrame(sendOnly)
	frame[len(frame)-1] ^= 1 // damage the ICRC
	err = roce.VerifyFrame(frame)
	var ie *ib.ICRCError
	fmt.Println(errors.Is(err, ib.ErrBadICRC), errors.As(err, &ie) && ie.Computed != ie.Received)
	fmt.Println(err)

	err = new(roce.Frame).Decode(frame[:40]) // cut inside the UDP header
	var de *ib.Error
	fmt.Println(errors.Is(err, ib.ErrTruncated), errors.As(err, &de))
	// Output:
	// true true
	// roce: BTH.DestQP 0x1000000 does not fit 24 bits
	// true true
	// roce: bad ICRC (computed 0x0fa0bc85, received 0x0ea0bc85)
	// true true
}

// Pause priority 3 for 100 µs on a 100 Gb/s link with a PFC frame, and
// read it back.
func Example_pfc() {
	buf := make([]byte, 0, pfc.MinFrameLen)
	srcMAC := [6]byte{2, 0, 0, 0, 0, 1}

	q := pfc.Speed100G.Quanta(100 * time.Microsecond) // 19532: rounded up, never short
	var times [pfc.NumPriorities]uint16
	times[3] = q
	frame := pfc.AppendPFC(buf[:0], srcMAC, 1<<3, times) // 60 bytes, no allocation

	var m pfc.MACControl
	if err := m.Decode(frame[pfc.EthernetHeaderLen:]); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Opcode, "pauses", m.XOFF(), "for", pfc.Speed100G.Duration(q))
	// Output:
	// PFC pauses [3] for 100.004µs
}

// Answer a CE-marked packet with a CNP to the sender's queue pair, paced
// per queue pair on the caller's clock.
func Example_cnp() {
	buf := make([]byte, 0, 128)
	rx := hexFrame(sendOnly) // to QP 0x12, which is connected to the sender's QP 0x34
	const senderQP = 0x34
	var nowNanos int64 = 1_000_000
	if _, err := ecn.MarkCE(rx); err != nil { // a congested switch on the way
		fmt.Println(err)
		return
	}

	pacer := cnp.NewPacer(0, cnp.DefaultInterval)
	if ce, _ := ecn.FrameECN(rx); ce == ecn.CE && pacer.Allow(senderQP, nowNanos) {
		reply, err := cnp.Reply(buf[:0], rx, senderQP, nil) // nil: default options
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(len(reply), "bytes, ICRC ok:", roce.VerifyFrame(reply) == nil)
	}
	fmt.Println("again 1 µs later:", pacer.Allow(senderQP, nowNanos+1000))
	// Output:
	// 74 bytes, ICRC ok: true
	// again 1 µs later: false
}

// Mark CE as a switch does: the IPv4 checksum is updated in place and the
// ICRC, which masks the ECN bits, still verifies.
func Example_ecn() {
	frame := hexFrame(sendOnly) // ECT(0)

	marked, err := ecn.MarkCE(frame) // only ECT(0)/ECT(1) packets; false if Not-ECT or already CE
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(marked, roce.VerifyFrame(frame) == nil) // true true: the ICRC still verifies
	// Output:
	// true true
}

// TestREADMEGoBlocks checks that every Go block of README.md is the body
// of an example of this module, line for line (indentation and blank
// lines aside), so that what the README shows compiles and runs.
func TestREADMEGoBlocks(t *testing.T) {
	blocks := goBlocks(t, "README.md")
	require.NotEmpty(t, blocks, "README.md has no Go blocks")
	examples, err := filepath.Glob("*example_test.go")
	require.NoError(t, err)
	more, err := filepath.Glob("*/example_test.go")
	require.NoError(t, err)
	var sources []string
	for _, name := range append(examples, more...) {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		sources = append(sources, "\n"+strings.Join(normLines(string(b)), "\n")+"\n")
	}
	for i, blk := range blocks {
		want := "\n" + strings.Join(normLines(blk), "\n") + "\n"
		found := false
		for _, src := range sources {
			if strings.Contains(src, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("README.md Go block %d mirrors no example:\n%s", i+1, blk)
		}
	}
}

// goBlocks returns the ```go blocks of a markdown file.
func goBlocks(t *testing.T, name string) []string {
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	var blocks []string
	var cur *strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = new(strings.Builder)
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	require.NoError(t, sc.Err())
	return blocks
}

// normLines returns the lines of s without their indentation, blank lines
// dropped.
func normLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Every builder refuses what its decoder would refuse, naming the field
// and the value; nothing is written on a refusal.
func ExampleFrame_Validate() {
	base := func() roce.Frame {
		f := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: ib.GRH{HopLmt: 64,
			SGID: [16]byte{10: 0xff, 11: 0xff, 10, 0, 0, 1}, DGID: [16]byte{10: 0xff, 11: 0xff, 10, 0, 0, 2}}}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpRCSendOnly, PKey: 0xffff, DestQP: 0x12}
		return f
	}
	for _, c := range []struct {
		what   string
		change func(f *roce.Frame)
	}{
		{"Acknowledge with a payload", func(f *roce.Frame) {
			f.Packet.BTH.OpCode, f.Packet.Payload = ib.OpRCAcknowledge, []byte("data")
		}},
		{"READ Request with a payload", func(f *roce.Frame) {
			f.Packet.BTH.OpCode, f.Packet.Payload = ib.OpRCRDMAReadRequest, []byte("data")
		}},
		{"ATOMIC WRITE of 9 bytes", func(f *roce.Frame) {
			f.Packet.BTH.OpCode, f.Packet.Payload = ib.OpRCAtomicWrite, make([]byte, 9)
		}},
		{"DestQP of 25 bits", func(f *roce.Frame) { f.Packet.BTH.DestQP = 0x1000000 }},
		{"PSN of 25 bits", func(f *roce.Frame) { f.Packet.BTH.PSN = 0x1000001 }},
		{"VLAN PCP 9", func(f *roce.Frame) { f.NumVLANs, f.VLANs[0] = 1, roce.VLAN{PCP: 9} }},
		{"VLAN ID 5000", func(f *roce.Frame) { f.NumVLANs, f.VLANs[0] = 1, roce.VLAN{ID: 5000} }},
		{"nine VLAN tags", func(f *roce.Frame) { f.NumVLANs = 9 }},
		{"IPv6 GID on RoCEv2/IPv4", func(f *roce.Frame) { f.GRH.DGID = [16]byte{0: 0xfe, 1: 0x80, 15: 2} }},
	} {
		f := base()
		c.change(&f)
		buf, err := f.AppendTo(nil)
		fmt.Printf("%s: %d bytes, %v\n", c.what, len(buf), err)
	}

	// A decoder given short input returns an error.
	var bth ib.BTH
	err := bth.Decode(make([]byte, 5))
	fmt.Println(errors.Is(err, ib.ErrTruncated))
	// Output:
	// Acknowledge with a payload: 0 bytes, roce: Packet.Payload of 4 bytes: RC Acknowledge carries no payload
	// READ Request with a payload: 0 bytes, roce: Packet.Payload of 4 bytes: RC RDMA READ Request carries no payload
	// ATOMIC WRITE of 9 bytes: 0 bytes, roce: Packet.Payload of 9 bytes: RC ATOMIC WRITE carries exactly 8 bytes
	// DestQP of 25 bits: 0 bytes, roce: BTH.DestQP 0x1000000 does not fit 24 bits
	// PSN of 25 bits: 0 bytes, roce: BTH.PSN 0x1000001 does not fit 24 bits
	// VLAN PCP 9: 0 bytes, roce: VLANs[0].PCP 0x9 does not fit 3 bits
	// VLAN ID 5000: 0 bytes, roce: VLANs[0].ID 0x1388 does not fit 12 bits
	// nine VLAN tags: 0 bytes, roce: NumVLANs 0x9 is not between 0 and 8
	// IPv6 GID on RoCEv2/IPv4: 0 bytes, roce: GRH.DGID fe80::2 is not IPv4-mapped (RoCEv2/IPv4 needs ::ffff:a.b.c.d)
	// true
}
