package capture_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/capture"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/internal/testkit/vethtest"
	"github.com/roce-go/roce/pfc"
)

// tcpdumpRoCE is the tcpdump expression whose verdicts RoCEFilter's
// doc promises: r for the frame after each of up to roce.MaxVLANs VLAN
// tags (libpcap's first "vlan" taking the kernel's tag), and a frame
// with one tag more.
func tcpdumpRoCE() string {
	return roceExpr("(ether proto 0x8915 or ether proto 0x8808 or ether proto 0x88cc or " +
		"(ip and ip[6:2] & 0x3fff = 0 and udp dst port 4791) or (ip6 and udp dst port 4791))")
}

// roceExpr returns the shape of tcpdumpRoCE's expression with r for R.
func roceExpr(r string) string {
	e := r + " or vlan"
	for range roce.MaxVLANs {
		e = r + " or (vlan and (" + e + "))"
	}
	return e
}

// TestMaxVLANs: the filter walks as many tags as the decoders read,
// and its doc gives the expression tcpdumpRoCE writes.
func TestMaxVLANs(t *testing.T) {
	if capture.MaxVLANs != roce.MaxVLANs {
		t.Errorf("capture.MaxVLANs is %d, roce.MaxVLANs %d", capture.MaxVLANs, roce.MaxVLANs)
	}
	src, err := os.ReadFile("filter.go")
	if err != nil {
		t.Fatal(err)
	}
	if shape := roceExpr("R"); !strings.Contains(string(src), "\n//\t"+shape+"\n") {
		t.Errorf("RoCEFilter's doc does not give the expression\n\t%s", shape)
	}
}

// tagged returns frame with VLAN tags of the TPIDs given inserted after
// its MACs, outermost first.
func tagged(frame []byte, tpids ...uint16) []byte {
	out := append([]byte(nil), frame[:12]...)
	for i, tp := range tpids {
		out = binary.BigEndian.AppendUint16(out, tp)
		out = binary.BigEndian.AppendUint16(out, uint16(3<<13|(i+1)*100+len(frame)%50))
	}
	return append(out, frame[12:]...)
}

// tagStacks are the VLAN tag stacks of filterFrames, outermost first:
// none, one of each TPID, two, three and four in several mixes, then
// for every count from four to roce.MaxVLANs+1 the three TPIDs in turn
// starting from each (so that the receiving end of the link, whose
// kernel takes off an outer 802.1Q or 802.1ad tag but not a 0x9100 one,
// sees each count with and without the kernel's tag), roce.MaxVLANs and
// roce.MaxVLANs+1 tags of one TPID, and ten.
func tagStacks() [][]uint16 {
	stacks := [][]uint16{{}, {0x8100}, {0x88a8}, {0x9100}, {0x88a8, 0x8100}, {0x9100, 0x8100},
		{0x8100, 0x8100, 0x8100}, {0x88a8, 0x8100, 0x8100}, {0x8100, 0x9100, 0x88a8},
		{0x8100, 0x8100, 0x8100, 0x8100}, {0x9100, 0x9100, 0x9100, 0x9100}, {0x88a8, 0x8100, 0x8100, 0x8100}}
	tpids := []uint16{0x8100, 0x88a8, 0x9100}
	for n := 4; n <= roce.MaxVLANs+1; n++ {
		for first := range tpids {
			var st []uint16
			for k := range n {
				st = append(st, tpids[(first+k)%len(tpids)])
			}
			stacks = append(stacks, st)
		}
	}
	for _, n := range []int{roce.MaxVLANs, roce.MaxVLANs + 1} {
		for _, tp := range tpids {
			stacks = append(stacks, slices.Repeat([]uint16{tp}, n))
		}
	}
	return append(stacks, slices.Repeat([]uint16{0x9100, 0x8100}, 5))
}

// filterFrames returns the frames the filter test sends: every Ethernet
// frame of the shipped and generated captures, and hand-built frames
// on either side of each of the filter's tests (RoCEv2 over IPv4 with
// options and over IPv6, RoCEv1, PFC, PAUSE, LLDP; ARP, TCP, UDP to
// another port or from 4791, fragments, IPv6 with an extension header, a
// frame too short for its UDP header, an 802.3 length field, Slow
// Protocols), each behind every stack of tagStacks, and frames cut in
// and after their tags, with whether the filter must keep each
// hand-built one: a kept kind behind at most roce.MaxVLANs tags, and
// any frame behind more.
func filterFrames(t *testing.T) (frames [][]byte, want map[string]bool) {
	for _, path := range append(testcaps.Shipped(t), testcaps.Generated(t, t.TempDir())...) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		src, err := capfile.NewSource(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for {
			data, _, lt, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if lt == capfile.LinkTypeEthernet && len(data) >= 14 && len(data) <= vethtest.MTU+14 {
				frames = append(frames, bytes.Clone(data))
			}
		}
		f.Close()
	}

	gid := func(s string) [16]byte { return netip.MustParseAddr(s).As16() }
	build := func(enc ib.Encapsulation, g ib.GRH) []byte {
		f := roce.Frame{Encap: enc, GRH: g}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpRCSendOnly, PKey: 0xffff, DestQP: 0x42, PSN: 7}
		f.Packet.Payload = []byte{1, 2, 3, 4}
		return testcaps.Build(t, &f)
	}
	v4 := build(ib.RoCEv2IPv4, ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")})
	v6 := build(ib.RoCEv2IPv6, ib.GRH{HopLmt: 64, SGID: gid("fd00::1"), DGID: gid("fd00::2")})
	v1 := build(ib.RoCEv1, ib.GRH{HopLmt: 64, SGID: gid("fe80::1"), DGID: gid("fe80::2")})
	src := [6]byte{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}
	lldp := []byte{0x01, 0x80, 0xc2, 0, 0, 0x0e, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x88, 0xcc,
		0x02, 0x07, 0x04, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, // chassis ID: MAC
		0x04, 0x07, 0x03, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, // port ID: MAC
		0x06, 0x02, 0x00, 0x78, // TTL 120 s
		0x00, 0x00} // end
	with := func(b []byte, edit func(b []byte)) []byte { b = bytes.Clone(b); edit(b); return b }
	arp := with(v4[:42], func(b []byte) { b[12], b[13] = 0x08, 0x06 })
	otherPort := with(v4, func(b []byte) { b[36], b[37] = 0x12, 0x34 })
	fromPort := with(v4, func(b []byte) { b[34], b[35], b[36], b[37] = 0x12, 0xb7, 0xc0, 0x00 })
	firstFrag := with(v4, func(b []byte) { b[20] |= 0x20 }) // MF
	laterFrag := with(v4, func(b []byte) { b[21] = 0x10 })  // offset 16 (×8), port bytes still 4791
	tcp := with(v4, func(b []byte) { b[23] = 6 })           // TCP, port 4791
	opts := append(with(v4[:34], func(b []byte) { b[14] = 0x46; b[17] += 4 }), append([]byte{1, 1, 1, 0}, v4[34:]...)...)
	ext := append(with(v6[:54], func(b []byte) { b[20] = 0; b[19] += 8 }), append([]byte{17, 0, 1, 4, 0, 0, 0, 0}, v6[54:]...)...)
	short := v4[:14+20+3]                                            // IPv4 UDP with a cut UDP header
	length := with(v4, func(b []byte) { b[12], b[13] = 0x00, 0x40 }) // 802.3 length field
	slow := with(v4, func(b []byte) { b[12], b[13] = 0x88, 0x09 })
	kept := [][]byte{v4, v6, v1, opts, lldp, pfc.AppendPFC(nil, src, 1<<3, [8]uint16{3: 500}), pfc.AppendPause(nil, src, 0xffff)}
	refused := [][]byte{arp, otherPort, fromPort, firstFrag, laterFrag, tcp, ext, short, length, slow}
	want = make(map[string]bool)
	for i, b := range append(kept, refused...) {
		for _, tags := range tagStacks() {
			f := tagged(b, tags...)
			frames = append(frames, f)
			want[string(f)] = i < len(kept) || len(tags) > roce.MaxVLANs
		}
	}
	// Cut in the tags: roce.MaxVLANs+1 of them up to the last TPID
	// (too many tags: kept), roce.MaxVLANs whole ones without the
	// EtherType after them and a frame cut in the last of them
	// (refused), of each outer TPID.
	for _, outer := range []uint16{0x8100, 0x88a8, 0x9100} {
		f := tagged(v4, slices.Repeat([]uint16{outer}, roce.MaxVLANs+1)...)
		for _, c := range []struct {
			n    int
			keep bool
		}{{12 + 4*roce.MaxVLANs + 2, true}, {12 + 4*roce.MaxVLANs, false}, {12 + 4*roce.MaxVLANs - 1, false}} {
			frames = append(frames, f[:c.n])
			want[string(f[:c.n])] = c.keep
		}
	}
	return frames, want
}

// tcpdumpLive runs tcpdump capturing on iface with expr into a pcap file
// until stop is called, which returns the frames it wrote.
func tcpdumpLive(t *testing.T, iface, expr string) (stop func() [][]byte) {
	t.Helper()
	bin := oracle.Need(t, "tcpdump")
	out := filepath.Join(t.TempDir(), iface+".pcap")
	cmd := exec.Command(bin, "-i", iface, "--immediate-mode", "-U", "-B", "65536", "-w", out, expr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.Contains(sc.Text(), "listening on") {
	}
	var rest bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&rest, stderr); close(done) }()
	return func() [][]byte {
		cmd.Process.Signal(os.Interrupt)
		<-done
		cmd.Wait()
		if !regexp.MustCompile(`(?m)^0 packets dropped by kernel`).MatchString(rest.String()) {
			t.Fatalf("tcpdump on %s: %s", iface, rest.String())
		}
		var frames [][]byte
		for _, r := range testcaps.Records(t, out) {
			frames = append(frames, r.Data)
		}
		return frames
	}
}

// readAll reads frames from h until Close has been called and the ring
// is empty, and returns them.
func readAll(h *capture.Handle) <-chan [][]byte {
	out := make(chan [][]byte, 1)
	go func() {
		var frames [][]byte
		for {
			data, ci, err := h.ReadPacketData()
			if err != nil {
				out <- frames
				return
			}
			if ci.CaptureLength != ci.Length {
				data = nil // cut: never in this test
			}
			frames = append(frames, data)
		}
	}()
	return out
}

// counts returns how many times each frame appears.
func counts(frames [][]byte) map[string]int {
	m := make(map[string]int)
	for _, f := range frames {
		m[string(f)]++
	}
	return m
}

// TestRoCEFilter sends a mix of frames on a veth pair and compares, frame
// for frame, what RoCEFilter lets through with what tcpdump's expression
// of the doc lets through, capturing at once on both ends: on the sending
// end the frames keep their tags in their data; on the receiving end the
// kernel has taken the outer 802.1Q or 802.1ad tag off into its metadata.
// Both must keep exactly the same frames, each as it was sent; every
// frame the decoder reads as RoCE (roce.Frame, dump.Record), MAC Control
// or LLDP must be among them, and every frame behind more than
// roce.MaxVLANs tags, which dump.Record must report malformed
// (unsupported); and the hand-built ones that are neither must not.
func TestRoCEFilter(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("the filter test needs a link of its own")
	}
	frames, want := filterFrames(t)
	var stops []func() [][]byte
	var ours []*capture.Handle
	var got []<-chan [][]byte
	for _, iface := range []string{link.Send, link.Recv} {
		stops = append(stops, tcpdumpLive(t, iface, tcpdumpRoCE()))
		h := open(t, iface, capture.Options{BufferSize: 64 << 20, Filter: capture.RoCEFilter()})
		ours = append(ours, h)
		got = append(got, readAll(h))
	}
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	for i := 0; i < len(frames); i += 50 {
		if n, err := tx.WritePacketBatch(frames[i:min(i+50, len(frames))]); err != nil {
			t.Fatalf("frame %d: %v", i+n, err)
		}
		time.Sleep(time.Millisecond) // tcpdump in immediate mode keeps up
	}
	time.Sleep(300 * time.Millisecond)

	sent := counts(frames)
	var rec dump.Record
	var fr roce.Frame
	for i, iface := range []string{link.Send, link.Recv} {
		theirs := counts(stops[i]())
		ours[i].Close()
		mine := counts(<-got[i])
		st, _ := ours[i].Stats()
		if st.Dropped != 0 {
			t.Fatalf("%s: %d frames dropped", iface, st.Dropped)
		}
		kept := 0
		for f, n := range sent {
			if mine[f] != theirs[f] || mine[f] != 0 && mine[f] != n {
				t.Errorf("%s: frame sent %d times, kept %d times by RoCEFilter and %d times by tcpdump: % x", iface, n, mine[f], theirs[f], []byte(f))
			}
			kept += mine[f]
			b := []byte(f)
			rec.Decode(1, captureInfo(len(b)), capfile.LinkTypeEthernet, b)
			tags, et := afterTags(b)
			decoded := fr.Decode(b) == nil || rec.Kind == dump.KindRoCE || rec.Kind == dump.KindMACControl || rec.HasDCBX ||
				rec.Kind == dump.KindNotRoCE && et == 0x88cc
			if decoded && mine[f] == 0 {
				t.Errorf("%s: a frame the decoder reads as %v is not kept: % x", iface, rec.Kind, b)
			}
			if tags > roce.MaxVLANs {
				if rec.Kind != dump.KindMalformed || !errors.Is(rec.Err, ib.ErrUnsupported) {
					t.Errorf("%s: a frame behind %d tags reads as %v (%v), want malformed (unsupported): % x", iface, tags, rec.Kind, rec.Err, b)
				}
				if mine[f] == 0 {
					t.Errorf("%s: a frame behind %d tags, which the decoder reports malformed, is not kept: % x", iface, tags, b)
				}
			}
			if w, ok := want[f]; ok && w != (mine[f] > 0) {
				t.Errorf("%s: hand-built frame kept %v, want %v: % x", iface, mine[f] > 0, w, []byte(f))
			}
		}
		for f := range mine {
			if sent[f] == 0 {
				t.Errorf("%s: kept a frame that was not sent (or not as sent): % x", iface, []byte(f))
			}
		}
		if uint64(kept) != st.Received {
			t.Errorf("%s: %d frames kept, the kernel counts %d received", iface, kept, st.Received)
		}
		t.Logf("%s: %d of %d frames kept by RoCEFilter and by tcpdump's expression", iface, kept, len(frames))
	}
}

func captureInfo(n int) gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: time.Unix(1764400000, 0), CaptureLength: n, Length: n}
}

// afterTags returns the number of VLAN tags of TPID 0x8100, 0x88a8 or
// 0x9100 after f's MACs, counted up to roce.MaxVLANs+1 (a TPID after
// roce.MaxVLANs tags counts, whether its tag is whole or not), and the
// EtherType after them: 0 when the frame ends first or after
// roce.MaxVLANs+1.
func afterTags(f []byte) (tags int, etherType uint16) {
	off := 12
	for ; off+2 <= len(f); off += 4 {
		tp := binary.BigEndian.Uint16(f[off:])
		if tp != 0x8100 && tp != 0x88a8 && tp != 0x9100 {
			return tags, tp
		}
		if tags++; tags > roce.MaxVLANs {
			break
		}
	}
	return tags, 0
}

// TestFilterRefused: a program the kernel does not take makes Open fail,
// naming SO_ATTACH_FILTER.
func TestFilterRefused(t *testing.T) {
	link := vethtest.Pair(t)
	_, err := capture.Open(link.Recv, capture.Options{Filter: []capture.Instruction{{Code: 0x15, Jt: 200}}}) // a jump past the end
	if err == nil || !strings.Contains(err.Error(), "SO_ATTACH_FILTER") {
		t.Errorf("Open with a bad program: %v, want an SO_ATTACH_FILTER error", err)
	}
}
