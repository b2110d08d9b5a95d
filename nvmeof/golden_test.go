package nvmeof_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/nvmeof"
)

// golden is one structure of testdata/golden/nvmeof_capsules.txt: its
// bytes and the fields the file says they hold.
type golden struct {
	kind, name string
	b          []byte
	fields     map[string]string
}

func readGolden(t *testing.T) []golden {
	t.Helper()
	f, err := os.Open("../testdata/golden/nvmeof_capsules.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if h, ok := strings.CutPrefix(line, "== "); ok {
			kind, name, _ := strings.Cut(h, " ")
			out = append(out, golden{kind: kind, name: name, fields: map[string]string{}})
			continue
		}
		g := &out[len(out)-1]
		toks := strings.Fields(line)
		i := 0
		for ; i < len(toks); i++ {
			hexs, rep, _ := strings.Cut(toks[i], "*")
			b, err := hex.DecodeString(hexs)
			if err != nil || len(b) != 1 {
				break
			}
			n := 1
			if rep != "" {
				if n, err = strconv.Atoi(rep); err != nil {
					t.Fatalf("%q: %v", toks[i], err)
				}
			}
			g.b = append(g.b, bytes.Repeat(b, n)...)
		}
		if rest := strings.Join(toks[i:], " "); rest != "" {
			for _, kv := range strings.Split(rest, ";") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("%s: field %q", g.name, kv)
				}
				g.fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return out
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// values returns the fields a kind of structure decodes, by the names
// the golden file uses: numbers, or for the NQNs their text.
func values(t *testing.T, g golden) (map[string]any, []byte) {
	t.Helper()
	var re []byte
	var err error
	switch g.kind {
	case "command":
		var c nvmeof.Command
		if err := c.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = c.AppendTo(nil)
		s := &c.SGL1
		return map[string]any{"Opcode": uint64(c.Opcode), "Fuse": uint64(c.Fuse), "PSDT": uint64(c.PSDT), "CID": uint64(c.CID), "NSID": uint64(c.NSID),
			"MPTR": c.MPTR, "FabricsType": uint64(c.FabricsType()), "SGL.Address": s.Address, "SGL.Length": uint64(s.Length), "SGL.Key": uint64(s.Key),
			"SGL.Type": uint64(s.Type), "SGL.SubType": uint64(s.SubType), "Keyed": b2u(s.Keyed()), "InCapsule": b2u(s.InCapsule()),
			"RecFmt": uint64(c.RecFmt()), "QID": uint64(c.QID()), "SQSize": uint64(c.SQSize()), "CAttr": uint64(c.CAttr()), "KATO": uint64(c.KATO()),
			"PropertySize": uint64(c.PropertySize()), "PropertyOffset": uint64(c.PropertyOffset()), "PropertyValue": c.PropertyValue(),
			"SLBA": c.SLBA(), "NLB": uint64(c.NLB()), "CNS": uint64(c.CNS()), "LogID": uint64(c.LogID()), "FeatureID": uint64(c.FeatureID()),
			"Ranges": uint64(c.Ranges())}, mustNil(t, re, err)
	case "completion":
		var c nvmeof.Completion
		if err := c.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = c.AppendTo(nil)
		s := c.Status
		return map[string]any{"DW0": uint64(c.DW0), "DW1": uint64(c.DW1), "SQHD": uint64(c.SQHD), "SQID": uint64(c.SQID), "CID": uint64(c.CID),
			"Phase": b2u(c.Phase), "Status": uint64(s), "SC": uint64(s.SC()), "SCT": uint64(s.SCT()), "CRD": uint64(s.CRD()), "More": b2u(s.More()),
			"DNR": b2u(s.DNR()), "OK": b2u(s.OK())}, mustNil(t, re, err)
	case "cmreq":
		var r nvmeof.CMRequest
		if err := r.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = r.AppendTo(nil)
		return map[string]any{"RecFmt": uint64(r.RecFmt), "QID": uint64(r.QID), "HRQSize": uint64(r.HRQSize), "HSQSize": uint64(r.HSQSize), "CntlID": uint64(r.CntlID)}, mustNil(t, re, err)
	case "cmrep":
		var a nvmeof.CMAccept
		if err := a.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = a.AppendTo(nil)
		return map[string]any{"RecFmt": uint64(a.RecFmt), "CRQSize": uint64(a.CRQSize)}, mustNil(t, re, err)
	case "cmrej":
		var j nvmeof.CMReject
		if err := j.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = j.AppendTo(nil)
		return map[string]any{"RecFmt": uint64(j.RecFmt), "Status": uint64(j.Status)}, mustNil(t, re, err)
	case "connect":
		var d nvmeof.ConnectData
		if err := d.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = d.AppendTo(nil)
		return map[string]any{"HostID[0]": uint64(d.HostID[0]), "HostID[15]": uint64(d.HostID[15]), "CntlID": uint64(d.CntlID),
			"SubNQN": string(d.SubNQN), "HostNQN": string(d.HostNQN)}, mustNil(t, re, err)
	}
	t.Fatalf("kind %q", g.kind)
	return nil, nil
}

func mustNil(t *testing.T, b []byte, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGolden decodes every structure of the golden file: each field the
// file names has its value, the structure encodes back to the same
// bytes, and every shorter input is refused with ErrTruncated.
func TestGolden(t *testing.T) {
	gs := readGolden(t)
	checked := 0
	for _, g := range gs {
		t.Run(g.kind+" "+g.name, func(t *testing.T) {
			got, re := values(t, g)
			for k, want := range g.fields {
				v, ok := got[k]
				if !ok {
					t.Fatalf("no field %s", k)
				}
				if s, isText := v.(string); isText {
					if s != want {
						t.Errorf("%s = %q, want %q", k, s, want)
					}
				} else if w, err := strconv.ParseUint(want, 0, 64); err != nil || v.(uint64) != w {
					t.Errorf("%s = %#x, want %s", k, v, want)
				}
				checked++
			}
			if !bytes.Equal(re, g.b) {
				t.Errorf("encoded back:\n%x\nwant\n%x", re, g.b)
			}
		})
	}
	if len(gs) < 17 || checked < 100 {
		t.Errorf("%d structures, %d fields checked", len(gs), checked)
	}
	t.Logf("%d structures, %d fields checked", len(gs), checked)
}

// TestTruncated: each decoder refuses every input shorter than its
// structure with an error matching ErrTruncated, naming the structure.
func TestTruncated(t *testing.T) {
	type decoder interface{ Decode([]byte) error }
	for _, c := range []struct {
		d decoder
		n int
	}{{new(nvmeof.Command), nvmeof.CommandLen}, {new(nvmeof.Completion), nvmeof.CompletionLen}, {new(nvmeof.SGL), nvmeof.SGLLen},
		{new(nvmeof.CMRequest), nvmeof.CMRequestLen}, {new(nvmeof.CMAccept), nvmeof.CMAcceptLen}, {new(nvmeof.CMReject), nvmeof.CMRejectLen},
		{new(nvmeof.ConnectData), nvmeof.ConnectDataLen}} {
		b := make([]byte, c.n)
		for n := range c.n {
			err := c.d.Decode(b[:n])
			if !errors.Is(err, nvmeof.ErrTruncated) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Errorf("%T of %d bytes: %v", c.d, n, err)
			}
		}
		if err := c.d.Decode(b); err != nil {
			t.Errorf("%T of %d bytes: %v", c.d, c.n, err)
		}
	}
}

// TestConnectDataFullNQN: an NQN that fills its 256 bytes, which Decode
// reads whole (no NUL ends it), is written back as it was; one byte more,
// or a NUL inside, is refused naming the field.
func TestConnectDataFullNQN(t *testing.T) {
	d := nvmeof.ConnectData{SubNQN: bytes.Repeat([]byte{'s'}, 256), HostNQN: []byte("nqn.2014-08.org.nvmexpress:uuid:host")}
	b, err := d.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got nvmeof.ConnectData
	if err := got.Decode(b); err != nil || !bytes.Equal(got.SubNQN, d.SubNQN) || !bytes.Equal(got.HostNQN, d.HostNQN) {
		t.Fatalf("%v: %q %q", err, got.SubNQN, got.HostNQN)
	}
	for _, bad := range []nvmeof.ConnectData{{SubNQN: bytes.Repeat([]byte{'s'}, 257)}, {HostNQN: []byte("a\x00b")}} {
		if _, err := bad.AppendTo(nil); !errors.Is(err, nvmeof.ErrBadValue) || !strings.Contains(err.Error(), "ConnectData.") {
			t.Errorf("%v", err)
		}
	}
}
