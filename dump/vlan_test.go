package dump_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/stretchr/testify/require"
)

// tagKeys returns, for one family of tag keys ("vlan." or
// "ieee8021ad."), the values of its priority, dei and id keys in JSON key
// order: the first tag's, then "inner.", "inner2." ...
func tagKeys(m map[string]any, base string) (prio, dei, id []string) {
	pres := []string{base, base + "inner."}
	for k := 2; k < 8; k++ {
		pres = append(pres, base+"inner"+strconv.Itoa(k)+".")
	}
	for _, pre := range pres {
		p, ok := m[pre+"priority"]
		if !ok {
			break
		}
		d := "0"
		if m[pre+"dei"] == true {
			d = "1"
		}
		prio, dei, id = append(prio, string(p.(json.Number))), append(dei, d), append(id, string(m[pre+"id"].(json.Number)))
	}
	return prio, dei, id
}

// TestTsharkTagKeys compares the VLAN keys of every tag, and the rest of
// each frame, with tshark 4.0 on frames behind tags of TPID 0x8100,
// 0x88a8 and 0x9100, up to eight (testcaps.Tagged): RoCE, UDP that is
// not RoCE and ARP. tshark shows a tag of 0x8100 or 0x9100 as vlan, of
// 0x88a8 as ieee8021ad, every tag under the same names (vlan.id several
// times): ours, in tag order, are the first's, then inner., inner2. ...
// Two S-tags in a row are one header to tshark, their IDs svid and cvid.
// The frame of nine tags is malformed (unsupported), whatever tshark
// makes of it.
func TestTsharkTagKeys(t *testing.T) {
	oracle.Need(t, "tshark")
	frames := testcaps.Tagged(t)
	path := oracle.WritePcap(t, t.TempDir(), "tagged.pcap", frames)
	ts := oracle.Tshark(t, path, "--disable-protocol", "tftp")
	out, _ := runDump(t, path, dump.Options{JSON: true})
	objs := parseLines(t, out)
	require.Len(t, objs, len(frames))
	for i, m := range objs {
		if i == len(objs)-1 {
			require.Contains(t, m["_error"], "roce: VLAN tags (more than 8) at offset 44: unsupported")
			continue
		}
		st := testcaps.TagStacks[i/3]
		for _, fam := range []string{"vlan.", "ieee8021ad."} {
			prio, dei, id := tagKeys(m, fam)
			n := 0
			for _, tpid := range st {
				if (tpid == 0x88a8) == (fam == "ieee8021ad.") {
					n++
				}
			}
			require.Len(t, id, n, "frame %d: %s tags", i+1, fam)
			require.Equal(t, ts[i][fam+"priority"], prio, "frame %d: %spriority", i+1, fam)
			require.Equal(t, ts[i][fam+"dei"], dei, "frame %d: %sdei", i+1, fam)
			theirs := ts[i][fam+"id"]
			if fam == "ieee8021ad." {
				theirs = append(append(theirs, ts[i]["ieee8021ad.svid"]...), ts[i]["ieee8021ad.cvid"]...)
				slices.Sort(theirs)
				id = slices.Clone(id)
				slices.Sort(id)
			}
			require.Equal(t, theirs, id, "frame %d: %sid", i+1, fam)
		}
		if i%3 == 0 {
			require.Equal(t, string(m["infiniband.bth.psn"].(json.Number)), ts[i]["infiniband.bth.psn"][0], "frame %d", i+1)
		}
	}
	c := compareTshark(t, oracle.WritePcap(t, t.TempDir(), "tagged8.pcap", frames[:len(frames)-1]))
	for _, k := range []string{"vlan.id", "ieee8021ad.priority", "ip.src", "udp.dstport", "arp.opcode", "infiniband.reth.va"} {
		require.Positive(t, c[k], "%s never compared", k)
	}
}

// TestTagsEveryPath checks that the record, the text line, JSON and the
// field table give every tag of testcaps.Tagged, outermost first.
func TestTagsEveryPath(t *testing.T) {
	frames := testcaps.Tagged(t)
	var r dump.Record
	for i, b := range frames[:len(frames)-1] {
		r.Decode(i+1, ciOf(b), capfile.LinkTypeEthernet, b)
		st := testcaps.TagStacks[i/3]
		want := []dump.Kind{dump.KindRoCE, dump.KindNotRoCE, dump.KindNotRoCE}[i%3]
		require.Equal(t, want, r.Kind, "frame %d: %v", i+1, r.Err)
		line := string(r.AppendText(nil))
		if want == dump.KindRoCE { // a line that is not RoCE shows no tags
			var tags strings.Builder
			for k := range st {
				tags.WriteString("vlan " + strconv.Itoa(100*(i/3)+k+1) + " pcp " + strconv.Itoa(k%8) + " ")
			}
			require.Contains(t, line, tags.String(), "frame %d", i+1)
			require.Equal(t, len(st), r.RoCE.NumVLANs)
			require.Contains(t, line, "RDMA WRITE Only qp 0x000012 psn "+strconv.Itoa(i/3))
		}
		ids := 0
		for _, fd := range dump.Fields() {
			if strings.HasSuffix(fd.Name, ".id") && (strings.HasPrefix(fd.Name, "vlan.") || strings.HasPrefix(fd.Name, "ieee8021ad.")) {
				if _, ok := fd.Get(&r); ok {
					ids++
				}
			}
		}
		require.Equal(t, len(st), ids, "frame %d: tag IDs in the field table", i+1)
	}
	b := frames[len(frames)-1]
	r.Decode(1, ciOf(b), capfile.LinkTypeEthernet, b)
	require.Equal(t, dump.KindMalformed, r.Kind)
	require.ErrorIs(t, r.Err, ib.ErrUnsupported)
	require.Contains(t, string(r.AppendText(nil)), "malformed: roce: VLAN tags (more than 8) at offset 44: unsupported")
}

// ciOf is the capture information of a whole frame b.
func ciOf(b []byte) gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: time.Unix(1764400000, 0), Length: len(b), CaptureLength: len(b)}
}
