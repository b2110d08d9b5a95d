package testcaps

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// GoldenSMPMADs reads the MADs of testdata/golden/mad_smp_perf.txt: the
// hex bytes before "|" on each data line ("xx" or "xx*N" for N copies),
// one 256-byte MAD per "== name" block.
func GoldenSMPMADs(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open(corpus.Path("golden", "mad_smp_perf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "== "):
			out = append(out, nil)
			continue
		}
		data, _, _ := strings.Cut(line, "|")
		for _, tok := range strings.Fields(data) {
			word, times, _ := strings.Cut(tok, "*")
			n := 1
			if times != "" {
				if n, err = strconv.Atoi(times); err != nil {
					t.Fatalf("golden: %q: %v", tok, err)
				}
			}
			b, err := hex.DecodeString(word)
			if err != nil || len(b) != 1 || len(out) == 0 {
				t.Fatalf("golden: bad byte %q", tok)
			}
			out[len(out)-1] = append(out[len(out)-1], bytes.Repeat(b, n)...)
		}
	}
	for i, m := range out {
		if len(m) != mad.Len {
			t.Fatalf("golden MAD %d: %d bytes, want %d", i+1, len(m), mad.Len)
		}
	}
	return out
}

// GoldenNotes reads the notes of testdata/golden/mad_smp_perf.txt: per
// MAD, in GoldenSMPMADs' order, each "Layout.Field = value" note's value
// by "Layout.Field" (values as written: 0x1f, 7, true, "text").
func GoldenNotes(t testing.TB) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(corpus.Path("golden", "mad_smp_perf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "== "):
			out = append(out, map[string]string{})
			continue
		}
		_, notes, ok := strings.Cut(line, "|")
		if !ok || len(out) == 0 {
			continue
		}
		for _, n := range strings.Split(notes, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(n), " = "); ok && strings.Contains(k, ".") && !strings.Contains(k, " ") {
				out[len(out)-1][k] = v
			}
		}
	}
	return out
}

// MADs are the MADs GoldenSMP wraps: the golden SMP and PerfMgt MADs,
// SAMCMember's, then SARecords'.
func MADs(t testing.TB) [][]byte {
	t.Helper()
	out := append(GoldenSMPMADs(t), SAMCMember(t))
	for _, r := range SARecords(t) {
		out = append(out, r.MAD)
	}
	return out
}

// GoldenSMP wraps each of MADs in a RoCEv2 UD SEND Only, the SMPs to
// QP 0, the others to QP 1 with the GSI Q_Key.
func GoldenSMP(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	for i, m := range MADs(t) {
		qp, qkey := uint32(ib.QPSMI), uint32(0)
		if c := mad.Class(m[1]); c != mad.ClassSubnLID && c != mad.ClassSubnDR {
			qp, qkey = ib.QPGSI, ib.GSIQKey
		}
		f := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: qp, PSN: uint32(i + 1)}
		f.Packet.DETH = ib.DETH{QKey: qkey, SrcQP: qp}
		f.Packet.Payload = m
		out = append(out, Build(t, &f))
	}
	return out
}

// WriteGoldenSMP writes GoldenSMP's frames into dir as golden_smp.pcap
// and returns its path.
func WriteGoldenSMP(t testing.TB, dir string) string {
	t.Helper()
	frames := GoldenSMP(t)
	cis := make([]gopacket.CaptureInfo, len(frames))
	for i, f := range frames {
		cis[i] = gopacket.CaptureInfo{Timestamp: time.Unix(1764500000, int64(i)*1000), Length: len(f), CaptureLength: len(f)}
	}
	return write(t, filepath.Join(dir, "golden_smp.pcap"), frames, cis)
}

// SAMCMember is an SA GetResp(MCMemberRecord) MAD, RMPP inactive, with
// the values of testdata/golden/mad_attributes.txt's SA.MCMemberRecord
// and distinct ones where that record has zeros (TClass, SL, FlowLabel).
func SAMCMember(t testing.TB) []byte {
	t.Helper()
	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2, Method: mad.MethodGet, Response: true,
		TransactionID: 0x5a5a, AttributeID: mad.AttrMCMemberRecord}
	b, _ := h.AppendTo(nil)
	b = append(b, make([]byte, 12)...) // RMPP header, inactive
	sa := make([]byte, mad.SAHeaderLen)
	sa[9] = (mad.MCMemberRecordLen + 7) / 8 // AttributeOffset, 8-byte words
	sa[19] = 0x03                           // ComponentMask: MGID, PortGID
	b = append(b, sa...)
	r := mad.MCMemberRecord{MGID: gid("ff12:401b:ffff::ffff:ffff"), PortGID: gid("fe80::2:c902:24:f636"), QKey: 0xb, MLID: 0xc001,
		MTUSelector: 2, MTU: 4, TClass: 0x20, PKey: 0xffff, RateSelector: 2, Rate: 3, PacketLifeTimeSelector: 2, PacketLifeTime: 18,
		SL: 5, FlowLabel: 0x12345, HopLimit: 64, Scope: 2, JoinState: 1, ProxyJoin: true}
	b, err := r.AppendTo(b)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, make([]byte, mad.Len-len(b))...)
}
