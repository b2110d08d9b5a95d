package dump_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/stretchr/testify/require"
)

// EditcapCut writes a copy of the pcap at path cut to snap bytes per
// frame, as `editcap -s snap in out` does, and returns the copy's path.
// It skips the test when editcap is not installed (fails it under
// CI=true). Other packages' tests (flow's) can copy this invocation.
func EditcapCut(t testing.TB, path string, snap int) string {
	t.Helper()
	bin := oracle.Need(t, "editcap")
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(path), ".pcap")+"_s"+strconv.Itoa(snap)+".pcap")
	if b, err := exec.Command(bin, "-F", "pcap", "-s", strconv.Itoa(snap), path, out).CombinedOutput(); err != nil {
		t.Fatalf("editcap -s %d %s: %v\n%s", snap, path, err, b)
	}
	return out
}

// capFrame is one record of a capture file, its bytes its own.
type capFrame struct {
	data []byte
	ci   gopacket.CaptureInfo
	lt   uint16
}

// readFrames returns every record of a capture file.
func readCapFrames(t testing.TB, path string) []capFrame {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	src, err := capfile.NewSource(f)
	require.NoError(t, err)
	var out []capFrame
	for {
		data, ci, lt, err := src.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		ci.CaptureLength = len(data)
		out = append(out, capFrame{bytes.Clone(data), ci, lt})
	}
}

// pseudoLen is how many bytes of a record come before the packet a snap
// length counts: ERF's header and extension headers, which editcap keeps
// whole; none for the other link types.
func pseudoLen(fr capFrame) int {
	if fr.lt != capfile.LinkTypeERF || len(fr.data) < 16 {
		return 0
	}
	off := 16
	for ext := fr.data[8]&0x80 != 0; ext && off+8 <= len(fr.data); off += 8 {
		ext = fr.data[off]&0x80 != 0
	}
	return off
}

// cutAt returns fr cut by a snap length of n bytes, as `editcap -s n`
// writes it (TestCutterIsEditcap checks that): the first n bytes of the
// packet, the wire length kept. editcap rewrites an ERF record: the
// packet without the record's padding, its length (rlen) the header's
// and the wire length's (wlen).
func cutAt(fr capFrame, n int) capFrame {
	pre := pseudoLen(fr)
	end := pre + n
	if pre > 0 {
		wlen := int(binary.BigEndian.Uint16(fr.data[14:]))
		end = min(end, pre+wlen)
	}
	if end >= len(fr.data) && pre == 0 {
		return fr
	}
	c := fr
	c.data = bytes.Clone(fr.data[:min(end, len(fr.data))])
	c.data = c.data[:len(c.data):len(c.data)]
	if pre > 0 {
		binary.BigEndian.PutUint16(c.data[10:], uint16(pre)+binary.BigEndian.Uint16(c.data[14:]))
	}
	c.ci.CaptureLength = len(c.data)
	return c
}

func (fr capFrame) decode(number int) *dump.Record {
	r := new(dump.Record)
	r.Decode(number, fr.ci, fr.lt, fr.data)
	return r
}

// writeFrames writes frames (of one link type) as a pcap file.
func writeFrames(t testing.TB, path string, frames []capFrame) string {
	t.Helper()
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	require.NoError(t, w.WriteFileHeader(65535, layers.LinkType(frames[0].lt)))
	for _, f := range frames {
		require.NoError(t, w.WritePacket(f.ci, f.data))
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	return path
}

// layout is where the transport headers of a whole RoCE or InfiniBand
// record lie, in the bytes a snap length counts (the Ethernet frame, or
// the packet after the ERF header): the BTH's first byte, the end of the
// extended headers, the end of the ICRC, and where each extended header
// starts.
type layout struct {
	bth, hdrEnd, end int
	start            map[ib.Header]int
}

func layoutOf(r *dump.Record) (layout, bool) {
	if r.Kind != dump.KindRoCE && r.Kind != dump.KindInfiniBand || r.RoCE.Truncated {
		return layout{}, false
	}
	p := &r.RoCE.Packet
	hs := p.Headers()
	l := layout{end: r.RoCE.WireLen, start: map[ib.Header]int{}}
	l.hdrEnd = l.end - ib.ICRCLen - len(p.BTH.Pad) - len(p.Payload)
	l.bth = l.hdrEnd - hs.Size() - ib.BTHLen
	off := l.bth + ib.BTHLen
	for i := range hs.Len() {
		l.start[hs.At(i)] = off
		off += hs.At(i).Len()
	}
	return l, true
}

// jsonOf is a record's JSON object.
func jsonOf(t testing.TB, r *dump.Record) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(r.AppendJSON(nil)))
	d.UseNumber()
	var m map[string]any
	require.NoError(t, d.Decode(&m))
	return m
}

// cutCaptures are the captures the cut tests run on: the shipped RoCE
// and InfiniBand ones (the first 200 frames of the 4,004 of
// write_only_ack), the golden ones (two frames of every opcode, RoCEv2
// over IPv4 and IPv6 and RoCEv1, tagged and not), the generated ones
// (rocegen's generator: VLAN, CE and CNPs, PFC, RoCEv1, IPv6; frames
// built by hand) and the golden SMP, PerfMgt and SA MADs.
func cutCaptures(t *testing.T) []string {
	dir := t.TempDir()
	var paths []string
	for _, name := range corpus.RoCECaptures {
		paths = append(paths, corpus.Path("captures", name))
	}
	paths = append(paths, corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	for _, name := range []string{"rocev2_ipv4.pcap", "rocev2_ipv6.pcap", "rocev1.pcap"} {
		paths = append(paths, corpus.Path("golden", name))
	}
	for _, p := range testcaps.Generated(t, dir) {
		if !strings.Contains(p, "_sll") {
			paths = append(paths, p)
		}
	}
	return append(paths, testcaps.WriteGoldenSMP(t, dir))
}

// firstFrames returns the path of a copy of the capture at path holding
// at most n of its frames.
func firstFrames(t *testing.T, path string, n int) string {
	frames := readCapFrames(t, path)
	if len(frames) <= n {
		return path
	}
	return writeFrames(t, filepath.Join(t.TempDir(), filepath.Base(path)), frames[:n])
}

// The in-process cut of the tests below is editcap's: the same records,
// byte for byte, and the same lengths, for Ethernet and ERF.
func TestCutterIsEditcap(t *testing.T) {
	oracle.Need(t, "editcap")
	for _, c := range []struct {
		name  string
		snaps []int
	}{
		{"captures/rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", []int{54, 60, 66, 80}},
		{"captures/ib_native_erf_dag_smp_ipoib_cm.pcap", []int{20, 36, 64, 100}},
		{"golden/rocev2_ipv6.pcap", []int{74, 90, 114}},
	} {
		path := corpus.Path(strings.Split(c.name, "/")...)
		whole := readCapFrames(t, path)
		for _, snap := range c.snaps {
			cut := readCapFrames(t, EditcapCut(t, path, snap))
			require.Len(t, cut, len(whole))
			for i := range whole {
				want := cutAt(whole[i], snap)
				require.Equal(t, want.data, cut[i].data, "%s -s %d frame %d", c.name, snap, i+1)
				require.Equal(t, want.ci.Length, cut[i].ci.Length, "%s -s %d frame %d", c.name, snap, i+1)
				require.Equal(t, want.ci.CaptureLength, cut[i].ci.CaptureLength, "%s -s %d frame %d", c.name, snap, i+1)
			}
		}
	}
}

// cutCase is one frame of a capture cut at one snap length.
type cutCase struct {
	frame, snap int
	tshark      bool // in the cut file tshark reads
}

// TestCutFields cuts every RoCE and InfiniBand frame of the cut
// captures at every byte from its BTH to its end, and checks the
// record of each cut against tshark 4.0:
//   - a cut inside the BTH is malformed (ErrTruncated), and tshark shows
//     no BTH either; from the end of the BTH on the frame decodes as in
//     the whole capture, cut (icrc unchecked) until the ICRC is whole;
//   - each key of the whole frame's JSON that tshark shows for the whole
//     frame is there exactly when the bytes tshark read it from
//     (tshark -x: offset and length) were captured, with tshark's value:
//     every whole header and every whole field, of the extended headers,
//     of a MAD, of IPoIB; no key is there that the whole frame lacks;
//   - tshark 4.0 itself, reading the cut copies (from the BTH to 4 bytes
//     past the extended headers), shows every header the capture kept
//     whole (and nothing of the one cut, nor of a MAD or IPoIB that is
//     not whole): each of its keys is ours, with its value.
//
// The fields tshark 4.0 lacks (XRCETH, FETH) are there exactly when
// their 4-byte header is whole.
func TestCutFields(t *testing.T) {
	oracle.Need(t, "tshark")
	tsharkArgs := append([]string{"--disable-protocol", "tftp"}, oracle.TsharkRoCEArgs...)
	var tot struct {
		frames, cuts, tsharkBTH, malformed, values, tsharkValues int
		inHeaders, inPayload                                     map[string]int // values compared of the frames cut inside their extended headers, inside their payload
	}
	tot.inHeaders, tot.inPayload = map[string]int{}, map[string]int{}
	for _, path := range cutCaptures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			path := firstFrames(t, path, 200)
			frames := readCapFrames(t, path)
			spans := oracle.TsharkSpans(t, path, tsharkArgs...)
			require.Len(t, spans, len(frames))
			var cases []cutCase
			var cutFile []capFrame
			wholeJSON := make([]map[string]any, len(frames))
			layouts := make([]layout, len(frames))
			kinds := make([]dump.Kind, len(frames))
			for i, fr := range frames {
				w := fr.decode(i + 1)
				l, ok := layoutOf(w)
				if !ok {
					continue
				}
				layouts[i], wholeJSON[i], kinds[i] = l, jsonOf(t, w), w.Kind
				tot.frames++
				for n := l.bth; n < fr.ci.CaptureLength-pseudoLen(fr); n++ {
					c := cutCase{frame: i, snap: n, tshark: n <= l.hdrEnd+4}
					if c.tshark {
						cutFile = append(cutFile, cutAt(fr, n))
					}
					cases = append(cases, c)
				}
			}
			if len(cases) == 0 {
				return
			}
			tsCut := oracle.Tshark(t, writeFrames(t, filepath.Join(t.TempDir(), "cut.pcap"), cutFile), tsharkArgs...)
			require.Len(t, tsCut, len(cutFile))
			nextCut := 0
			for _, c := range cases {
				tot.cuts++
				fr, l, wj, sp := frames[c.frame], layouts[c.frame], wholeJSON[c.frame], spans[c.frame]
				r := cutAt(fr, c.snap).decode(c.frame + 1)
				var ts oracle.Fields
				if c.tshark {
					ts = tsCut[nextCut]
					nextCut++
					if _, ok := ts.First("infiniband.bth.opcode"); ok {
						tot.tsharkBTH++
						if r.Kind == dump.KindMalformed {
							tot.malformed++
						}
					}
				}
				where := func() string {
					return filepath.Base(path) + " frame " + strconv.Itoa(c.frame+1) + " cut at " + strconv.Itoa(c.snap)
				}
				if c.snap < l.bth+ib.BTHLen {
					require.Equal(t, dump.KindMalformed, r.Kind, where())
					require.ErrorIs(t, r.Err, ib.ErrTruncated, where())
					if _, ok := ts.First("infiniband.bth.opcode"); ok {
						t.Fatalf("%s: tshark shows a BTH we do not", where())
					}
					continue
				}
				require.Equal(t, kinds[c.frame], r.Kind, "%s: %v", where(), r.Err)
				require.Equal(t, c.snap < l.end, r.ICRCUnchecked, where())
				cj := jsonOf(t, r)
				for k, v := range wj {
					if !cutKey(k) {
						continue
					}
					cv, have := cj[k]
					if ourName(k) && tsharkAlias[k] == "" {
						if h, ok := fourByteHeader(k); ok {
							if want := c.snap >= l.start[h]+4; want != have {
								t.Fatalf("%s: %s there %v, want %v (its %v ends at %d)", where(), k, have, want, h, l.start[h]+4)
							}
						}
						continue
					}
					s, ok := tsharkSpan(k, wj, sp)
					if !ok {
						continue
					}
					want := c.snap >= s.End()
					if k == "infiniband.nodedescription.nodestring" {
						// A text is there when the capture kept it through
						// its terminating NUL (the padding after it is not
						// needed).
						pkt := fr.data[pseudoLen(fr):]
						if i := bytes.IndexByte(pkt[s.Off:s.End()], 0); i >= 0 {
							want = c.snap > s.Off+i
						}
					}
					for pre, need := range cutNeeds {
						if ns, ok := tsharkSpan(need, wj, sp); ok && strings.HasPrefix(k, pre) && c.snap < ns.End() {
							want = false
						}
					}
					if want != have {
						t.Fatalf("%s: %s there %v, want %v (tshark reads it from bytes %d to %d)", where(), k, have, want, s.Off, s.End())
					}
					if have {
						tot.values++
						switch {
						case c.snap < l.hdrEnd:
							tot.inHeaders[k]++
						case c.snap > l.hdrEnd && c.snap < l.end:
							tot.inPayload[k]++
						}
						if !sameValue(k, cv, s.Value) {
							t.Fatalf("%s: %s = %v, tshark %q (whole: %v)", where(), k, cv, s.Value, v)
						}
					}
				}
				for k := range cj {
					if _, ok := wj[k]; !ok && cutKey(k) {
						t.Fatalf("%s: %s = %v, which the whole frame lacks", where(), k, cj[k])
					}
				}
				for _, k := range append(sharedKeys[:len(sharedKeys):len(sharedKeys)], sharedMADKeys()...) {
					theirs, ok := ts.First(k)
					if !ok || !strings.HasPrefix(k, "infiniband.") {
						continue
					}
					ours := k
					if _, atomic := cj["infiniband.atomiceth.va"]; atomic && strings.HasPrefix(k, "infiniband.reth.") {
						ours = strings.Replace(k, "reth", "atomiceth", 1)
					}
					if _, wrong := tsharkWrong[ours]; wrong || rdHeader(ours, wj) {
						continue
					}
					cv, have := cj[ours]
					if !have || !sameValue(ours, cv, theirs) {
						t.Fatalf("%s: tshark on the cut copy shows %s = %q, we %v", where(), k, theirs, cv)
					}
					tot.tsharkValues++
				}
				text := string(r.AppendText(nil))
				_, isMAD := wj["infiniband.mad.mgmtclass"]
				madCut := isMAD && c.snap > l.hdrEnd && c.snap < l.hdrEnd+256
				if c.snap < l.end != strings.HasSuffix(text, " icrc unchecked\n") || madCut != strings.Contains(text, " [|mad]") ||
					c.snap < l.hdrEnd != strings.Contains(strings.Replace(text, " [|mad]", "", 1), " [|") {
					t.Fatalf("%s: text %q", where(), text)
				}
			}
		})
	}
	t.Logf("%d frames cut %d times: %d values compared with tshark's on the whole frames, %d with tshark's on the cut ones; "+
		"tshark decodes a BTH in %d cut frames, %d of them malformed for us", tot.frames, tot.cuts, tot.values, tot.tsharkValues,
		tot.tsharkBTH, tot.malformed)
	t.Logf("values compared of frames cut inside their extended headers: %v", tot.inHeaders)
	t.Logf("values compared of frames cut inside their payload: %d keys", len(tot.inPayload))
	require.Zero(t, tot.malformed)
	require.Greater(t, tot.values, 1000000)
	for _, k := range []string{"infiniband.reth.va", "infiniband.reth.r_key", "infiniband.atomiceth.va", "infiniband.atomiceth.swapdt",
		"infiniband.deth.q_key", "infiniband.aeth.syndrome", "infiniband.bth.psn"} {
		require.Positive(t, tot.inHeaders[k], "%s never compared in a frame cut inside its extended headers", k)
	}
	for _, k := range []string{"infiniband.mad.attributeid", "infiniband.cm.req.localqpn", "infiniband.cm.rep.startpsn",
		"infiniband.smpdirected.hopcount", "infiniband.sminfo.guid", "infiniband.rmpp.rmpptype", "infiniband.sa.componentmask",
		"infiniband.nodeinfo.nodeguid", "infiniband.nodedescription.nodestring", "infiniband.pathrecord.dlid"} {
		require.Positive(t, tot.inPayload[k], "%s never compared in a frame cut inside its MAD", k)
	}
}

// cutKey reports whether a cut may take key k away: the keys of the
// transport headers, of a MAD and of IPoIB (not the ICRC status, which
// says "unchecked" instead).
func cutKey(k string) bool {
	return (strings.HasPrefix(k, "infiniband.") || strings.HasPrefix(k, "ipoib.")) &&
		k != "infiniband.invariant.crc.status" && k != "infiniband.payload.len"
}

// cutNeeds are the MAD fields whose structure a later field makes valid
// or not: the directed-route SMP by its hop count (at most 63), the
// IP-CM private data by its IP version (4 or 6). A cut before that
// field leaves them out, since what they are is not known.
var cutNeeds = map[string]string{
	"infiniband.smpdirected.":  "infiniband.smpdirected.hopcount",
	"infiniband.cm.req.ip_cm.": "infiniband.cm.req.ip_cm.ipv",
}

// fourByteHeader returns the header of a key tshark 4.0 lacks whose
// header is one 4-byte field (or fields sharing one 32-bit word).
func fourByteHeader(k string) (ib.Header, bool) {
	switch {
	case strings.HasPrefix(k, "infiniband.xrceth."):
		return ib.HeaderXRCETH, true
	case strings.HasPrefix(k, "infiniband.feth."):
		return ib.HeaderFETH, true
	}
	return 0, false
}

// rdHeader reports whether k is a key of an RD packet's extended
// headers, which tshark 4.0 reads 8 bytes late (from the RDETH on; see
// compareTshark).
func rdHeader(k string, wj map[string]any) bool {
	op, _ := wj["infiniband.bth.opcode"].(json.Number)
	v, err := op.Int64()
	return err == nil && v >= 0x40 && v < 0x60 && strings.HasPrefix(k, "infiniband.") &&
		!strings.HasPrefix(k, "infiniband.bth.") && !strings.HasPrefix(k, "infiniband.grh.") && !strings.HasPrefix(k, "infiniband.lrh.")
}

// tsharkSpan returns where tshark 4.0 read our key k on the whole frame:
// its field (tsharkAlias) when tshark shows it once, and the key is one
// compareTshark compares.
func tsharkSpan(k string, wj map[string]any, sp map[string][]oracle.Span) (oracle.Span, bool) {
	tk := k
	if a, ok := tsharkAlias[k]; ok {
		tk = a
	}
	if _, wrong := tsharkWrong[k]; wrong || rdHeader(k, wj) {
		return oracle.Span{}, false
	}
	if s, ok := wj[k].(string); ok && k == "infiniband.nodedescription.nodestring" && strings.ContainsFunc(s, func(r rune) bool { return r > 0x7f }) {
		return oracle.Span{}, false // tshark reads it as ASCII (compareTshark)
	}
	if len(sp[tk]) != 1 {
		return oracle.Span{}, false
	}
	return sp[tk][0], true
}

// psnResults are the per-flow results a cut must not change.
func psnResults(f *flow.FlowReport) string {
	s := &f.Stats
	return strings.Join([]string{
		"frames " + strconv.FormatUint(s.Frames, 10), "bytes " + strconv.FormatUint(s.Bytes, 10),
		"messages " + strconv.FormatUint(s.Messages, 10),
		"gaps " + strconv.FormatUint(s.PSNGaps, 10), "missing " + strconv.FormatUint(s.PSNMissing, 10),
		"duplicates " + strconv.FormatUint(s.Duplicates, 10), "out-of-order " + strconv.FormatUint(s.OutOfOrder, 10),
		"retransmitted " + strconv.FormatUint(s.Retransmitted, 10), "peer " + f.Peer,
		"reads " + strconv.FormatUint(s.Reads, 10), "matched " + strconv.FormatUint(s.ReadsMatched, 10),
		"incomplete " + strconv.FormatUint(s.ReadsIncomplete, 10), "unanswered " + strconv.FormatUint(s.ReadsUnanswered, 10),
		"unmatched " + strconv.FormatUint(s.ReadResponsesUnmatched, 10), "atomics " + strconv.FormatUint(s.Atomics, 10),
		"atomics-matched " + strconv.FormatUint(s.AtomicsMatched, 10), "cnps-to-sender " + strconv.FormatUint(s.CNPsToSender, 10),
	}, ", ")
}

// report runs the flow analysis over frames, each cut at snap (0: none),
// and returns each flow's results by its key.
func report(frames []capFrame, snap int) map[string]string {
	a := flow.New(flow.Config{})
	for i, fr := range frames {
		if snap > 0 {
			fr = cutAt(fr, snap)
		}
		a.AddRecord(fr.decode(i + 1))
	}
	out := map[string]string{}
	for _, f := range a.Report().Flows {
		out[f.Key.String()] = f.Transport + ": " + psnResults(&f)
	}
	return out
}

// TestCutStatsSamePSN: -stats gives the same per-flow results (frames,
// bytes, messages, PSN gaps, missing PSNs, duplicates, out of order,
// retransmitted, the peer flow, reads and atomics and their matching,
// CNPs to the sender) on a capture cut at every snap
// length that keeps the BTH of the flow's frames, up to 40 bytes past it
// (the longest extended headers), as on the whole capture: RoCEv2 over
// IPv4 54 to 94 (the 58 to 94 of the issue), and the same place in the
// frames of RoCEv2 over IPv6, RoCEv1, VLAN-tagged frames and native
// InfiniBand with and without a GRH.
func TestCutStatsSamePSN(t *testing.T) {
	dir := t.TempDir()
	paths := []string{corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap")}
	for _, name := range corpus.RoCECaptures {
		paths = append(paths, corpus.Path("captures", name))
	}
	for _, p := range testcaps.Generated(t, dir) {
		if strings.Contains(p, "gen_") {
			paths = append(paths, p)
		}
	}
	flows, changed, snaps := 0, 0, 0
	for _, path := range paths {
		frames := readCapFrames(t, path)
		lo, hi := 1<<30, 0
		keeps := map[string]int{} // per flow, the shortest snap length that keeps the BTH of all its frames
		for i, fr := range frames {
			r := fr.decode(i + 1)
			if l, ok := layoutOf(r); ok {
				end := l.bth + ib.BTHLen
				lo, hi = min(lo, end), max(hi, end+40)
				k, _ := flow.KeyOf(r)
				keeps[k.String()] = max(keeps[k.String()], end)
			}
		}
		require.Less(t, lo, hi, path)
		whole := report(frames, 0)
		for snap := lo; snap <= hi; snap++ {
			snaps++
			cut := report(frames, snap)
			for k, want := range whole {
				if snap < keeps[k] {
					continue
				}
				flows++
				if got := cut[k]; got != want {
					changed++
					if changed <= 10 {
						t.Errorf("%s -s %d: %s:\n  cut   %s\n  whole %s", filepath.Base(path), snap, k, got, want)
					}
				}
			}
			for k := range cut {
				if _, ok := whole[k]; !ok && snap >= keeps[k] {
					changed++
					t.Errorf("%s -s %d: flow %s, which the whole capture lacks", filepath.Base(path), snap, k)
				}
			}
		}
		t.Logf("%s: snap lengths %d to %d", filepath.Base(path), lo, hi)
	}
	t.Logf("%d per-flow results over %d cut captures, %d changed", flows, snaps, changed)
	require.Greater(t, flows, 2000)
}

// The record of a frame the capture cut anywhere after its BTH is made
// without allocating, and so are its JSON, text, verbose text and cells:
// cut inside the RETH, the AtomicETH, the AETH, the DETH, a CM MAD, an
// SMP and an SA MAD, a native InfiniBand packet's DETH and its IPoIB.
func TestCutAllocs(t *testing.T) {
	type sample struct {
		name string
		fr   capFrame
		snap int
	}
	pick := func(path string, number int) capFrame { return readCapFrames(t, path)[number-1] }
	golden := corpus.Path("golden", "rocev2_ipv4.pcap")
	rxe := corpus.Path("captures", "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	erf := corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap")
	smp := testcaps.WriteGoldenSMP(t, t.TempDir())
	// Golden frame 2n+1 is opcode n untagged (testdata/golden/README.md);
	// ERF frame 3 a UD SEND Only with a GRH carrying IPoIB.
	samples := []sample{
		{"RETH", pick(rxe, 6), 62},
		{"AtomicETH", pick(golden, 2*0x13+1), 74},
		{"AETH", pick(golden, 2*0x11+1), 55},
		{"CM MAD", pick(rxe, 1), 128},
		{"SMP", pick(smp, 1), 100},
		{"SA MAD", pick(smp, len(readCapFrames(t, smp))), 150},
		{"native DETH", pick(erf, 3), 70},
		{"native IPoIB", pick(erf, 3), 100},
	}
	var r dump.Record
	cells := dump.NewCells()
	buf := make([]byte, 0, 1<<14)
	for _, s := range samples {
		fr := cutAt(s.fr, s.snap)
		require.Less(t, len(fr.data), len(s.fr.data), s.name)
		check := func() error {
			r.Decode(1, fr.ci, fr.lt, fr.data)
			if r.Kind != dump.KindRoCE && r.Kind != dump.KindInfiniBand || !r.ICRCUnchecked {
				return errors.New(s.name + ": " + r.Kind.String())
			}
			b := r.AppendJSON(buf[:0])
			b = r.AppendText(b)
			b = r.AppendVerbose(b)
			cells.Fill(&r)
			if !bytes.Contains(b, []byte(`"infiniband.invariant.crc.status":"unchecked"`)) {
				return errors.New(s.name + ": " + string(b))
			}
			return nil
		}
		require.NoError(t, check())
		var err error
		n := testing.AllocsPerRun(50, func() {
			if e := check(); e != nil {
				err = e
			}
		})
		require.NoError(t, err)
		require.Zero(t, n, "%s: %v allocations per cut frame", s.name, n)
	}
}
