package dump_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/corpus"
	"github.com/roce-go/roce/internal/oracle"
	"github.com/stretchr/testify/require"
)

// snapLengths are the snap lengths the cut captures are made with: inside
// the IP header of a RoCEv2 frame, inside the BTH, just after a RETH,
// inside the payload.
var snapLengths = []int{54, 66, 80, 94, 128}

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

// readRecords decodes every frame of a capture file.
func readRecords(t *testing.T, path string) []dump.Record {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	src, err := dump.NewSource(f)
	require.NoError(t, err)
	var recs []dump.Record
	_, err = dump.Scan(src, dump.Options{}, func(r *dump.Record) error {
		var c dump.Record
		data := append([]byte(nil), r.Data...)
		c.Decode(r.Number, gopacket.CaptureInfo{Timestamp: r.Time, Length: r.Len, CaptureLength: len(data)}, r.LinkType, data)
		recs = append(recs, c)
		return nil
	})
	require.NoError(t, err)
	return recs
}

// cutCaptures returns the captures the cut test runs on: the shipped
// ones, the golden ones and a generated one with several operations.
func cutCaptures(t *testing.T) []string {
	paths, err := filepath.Glob(corpus.Path("captures", "*.pcap"))
	require.NoError(t, err)
	golden, err := filepath.Glob(corpus.Path("golden", "*.pcap"))
	require.NoError(t, err)
	paths = append(paths, golden...)
	dir := t.TempDir()
	for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6, ib.RoCEv1} {
		var phases []gen.Config
		for _, op := range []gen.Op{gen.OpWrite, gen.OpRead, gen.OpSendImm, gen.OpCmpSwap, gen.OpFetchAdd} {
			c := gen.DefaultConfig()
			c.Encap, c.Op, c.MTU, c.Size, c.Messages, c.QPs = enc, op, 256, 1000, 2, 2
			if op == gen.OpCmpSwap || op == gen.OpFetchAdd {
				c.Size = 8
			}
			phases = append(phases, c)
		}
		g, err := gen.NewScenario(phases)
		require.NoError(t, err)
		path := filepath.Join(dir, "gen_"+strings.ReplaceAll(enc.String(), "/", "_")+".pcap")
		f, err := os.Create(path)
		require.NoError(t, err)
		w := pcapgo.NewWriter(f)
		require.NoError(t, w.WriteFileHeader(65535, layers.LinkTypeEthernet))
		for g.Next() {
			require.NoError(t, w.WritePacket(g.CaptureInfo(), g.Frame()))
		}
		require.NoError(t, g.Err())
		require.NoError(t, f.Close())
		paths = append(paths, path)
	}
	return paths
}

// TestEditcapCut cuts every capture with editcap -s N and checks that
// every RoCE (and native InfiniBand) frame whose headers fit is still
// decoded as such, with the same BTH and extended headers as in the whole
// capture, the same wire length and the ICRC unchecked when the ICRC was
// cut; that only frames whose headers are cut are malformed; and that
// tshark reads the same BTH fields from the cut file.
func TestEditcapCut(t *testing.T) {
	oracle.Need(t, "editcap")
	for _, path := range cutCaptures(t) {
		whole := readRecords(t, path)
		for _, snap := range snapLengths {
			t.Run(filepath.Base(path)+"/s"+strconv.Itoa(snap), func(t *testing.T) {
				cutPath := EditcapCut(t, path, snap)
				cut := readRecords(t, cutPath)
				require.Len(t, cut, len(whole))
				roce, unchecked := 0, 0
				for i := range whole {
					w, c := &whole[i], &cut[i]
					require.Equal(t, w.Len, c.Len, "frame %d: wire length", i+1)
					if w.Kind != dump.KindRoCE && w.Kind != dump.KindInfiniBand {
						continue
					}
					roce++
					if c.Kind == dump.KindMalformed {
						require.ErrorIs(t, c.Err, ib.ErrTruncated, "frame %d", i+1)
						if c.Frame() != nil {
							require.Less(t, len(c.Frame()), headersEnd(w), "frame %d: headers fit but malformed: %v", i+1, c.Err)
						}
						continue
					}
					require.Equal(t, w.Kind, c.Kind, "frame %d", i+1)
					cp, wp := &c.RoCE.Packet, &w.RoCE.Packet
					if c.RoCE.Truncated {
						unchecked++
						require.True(t, c.ICRCUnchecked && !c.ICRCGood, "frame %d", i+1)
						require.Contains(t, string(c.AppendText(nil)), " icrc unchecked\n")
						require.Contains(t, string(c.AppendJSON(nil)), `"infiniband.invariant.crc.status":"unchecked"`)
						require.NotContains(t, string(c.AppendJSON(nil)), `"infiniband.invariant.crc":`)
					} else {
						require.Equal(t, w.ICRCGood, c.ICRCGood, "frame %d", i+1)
					}
					require.Equal(t, w.RoCE.WireLen, c.RoCE.WireLen, "frame %d", i+1)
					wb, cb := wp.BTH, cp.BTH
					wb.BaseLayer, cb.BaseLayer = layers.BaseLayer{}, layers.BaseLayer{}
					wb.Pad, cb.Pad, wb.ICRC, cb.ICRC, wb.Truncated, cb.Truncated = nil, nil, [4]byte{}, [4]byte{}, false, false
					require.Equal(t, wb, cb, "frame %d: BTH", i+1)
					require.Equal(t, wp.RETH.VA, cp.RETH.VA)
					require.Equal(t, wp.AETH, cp.AETH)
					require.Equal(t, wp.AtomicETH, cp.AtomicETH)
					require.Equal(t, wp.ImmDt, cp.ImmDt)
					require.Equal(t, wp.DETH, cp.DETH)
					// A MAD the capture cut stays opaque, as in text: no MAD keys.
					require.Equal(t, jsonNoCRC(w, c.RoCE.Truncated), jsonNoCRC(c, c.RoCE.Truncated), "frame %d: JSON", i+1)
				}
				if roce > 0 && snap >= 94 {
					require.Positive(t, roce-countMalformed(cut), "no RoCE frame left at snap length %d", snap)
				}
				t.Logf("%d RoCE frames, %d cut and unchecked", roce, unchecked)
				compareCutWithTshark(t, cutPath, cut)
			})
		}
	}
}

// headersEnd returns how many bytes of a whole record's Ethernet frame
// the headers take, through the last extended header.
func headersEnd(r *dump.Record) int {
	p := &r.RoCE.Packet
	return r.RoCE.WireLen - len(p.Payload) - len(p.BTH.Pad) - ib.ICRCLen
}

func countMalformed(recs []dump.Record) int {
	n := 0
	for i := range recs {
		if recs[i].Kind == dump.KindMalformed {
			n++
		}
	}
	return n
}

// jsonNoCRC is a record's JSON without the keys that a cut changes (the
// ICRC and its status, the captured length), and with noMAD without the
// MAD keys.
func jsonNoCRC(r *dump.Record, noMAD bool) string {
	var keep []string
	for _, kv := range strings.Split(strings.TrimSuffix(strings.TrimSpace(string(r.AppendJSON(nil))), "}"), ",") {
		if strings.HasPrefix(kv, `"infiniband.invariant.crc`) || strings.HasPrefix(kv, `"frame.cap_len"`) || strings.HasPrefix(kv, `"infiniband.variant.crc`) ||
			strings.HasPrefix(kv, `"_cnp_error`) {
			continue
		}
		if noMAD && slices.ContainsFunc([]string{`"infiniband.mad.`, `"infiniband.cm.`, `"infiniband.rmpp.`, `"infiniband.sa.`, `"infiniband.pathrecord.`,
			`"infiniband.smp`, `"infiniband.sminfo.`},
			func(p string) bool { return strings.HasPrefix(kv, p) }) {
			continue
		}
		// What IPoIB carries in a native packet's payload, which the
		// capture may have cut.
		if noMAD && r.Frame() == nil && slices.ContainsFunc([]string{`"ip.`, `"ipv6.`, `"udp.`, `"tcp.`, `"arp.`},
			func(p string) bool { return strings.HasPrefix(kv, p) }) {
			continue
		}
		keep = append(keep, kv)
	}
	return strings.Join(keep, ",")
}

// compareCutWithTshark checks, on a cut file, that every frame for which
// tshark 4.0 shows the BTH opcode, QP and PSN we decoded as RoCE with the
// same values, unless its extended headers are cut (then it is malformed:
// a BTH alone does not say what the frame does); and that we decode no
// BTH tshark does not show.
func compareCutWithTshark(t *testing.T, path string, recs []dump.Record) {
	t.Helper()
	if os.Getenv("CI") != "true" {
		if _, err := exec.LookPath("tshark"); err != nil {
			return
		}
	}
	bin := oracle.Need(t, "tshark")
	cmd := exec.Command(bin, "-n", "-r", path, "--disable-protocol", "tftp", "-T", "fields",
		"-e", "infiniband.bth.opcode", "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("tshark: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	require.Len(t, lines, len(recs))
	compared, headersCut := 0, 0
	for i, line := range lines {
		f := strings.Split(line, "\t")
		r := &recs[i]
		if len(f) < 3 || f[0] == "" || f[2] == "" {
			// tshark 4.0 drops a cut packet whole when a header of its
			// own (DC's, for example) is short: "IB truncated".
			if r.Kind == dump.KindRoCE && !r.RoCE.Truncated {
				t.Fatalf("frame %d: we decode a BTH tshark does not show", i+1)
			}
			continue
		}
		if r.Kind == dump.KindMalformed && errors.Is(r.Err, ib.ErrTruncated) {
			headersCut++ // the BTH captured, an extended header not: tshark shows the BTH
			continue
		}
		require.Contains(t, []dump.Kind{dump.KindRoCE, dump.KindInfiniBand}, r.Kind, "frame %d: tshark decodes BTH %q; we: %v", i+1, line, r.Err)
		h := &r.RoCE.Packet.BTH
		require.Equal(t, []string{strconv.Itoa(int(h.OpCode)), strconv.Itoa(int(h.DestQP)), strconv.Itoa(int(h.PSN))},
			[]string{f[0], hexOrDec(f[1]), f[2]}, "frame %d", i+1)
		compared++
	}
	t.Logf("%d frames compared with tshark, %d with their extended headers cut", compared, headersCut)
}

// hexOrDec turns tshark's "0x000011" into "17".
func hexOrDec(s string) string {
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return s
	}
	return strconv.FormatUint(v, 10)
}
