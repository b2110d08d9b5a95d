package mad_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"net/netip"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// codecUnderTest is what every attribute and record type offers.
type codecUnderTest interface {
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// goldenTypes maps the names of testdata/golden/mad_attributes.txt to a
// fresh value of the type that decodes them.
var goldenTypes = map[string]func() codecUnderTest{
	"CM.MRA":            func() codecUnderTest { return new(mad.MRA) },
	"CM.REJ":            func() codecUnderTest { return new(mad.REJ) },
	"CM.SIDR_REQ":       func() codecUnderTest { return new(mad.SIDRREQ) },
	"CM.SIDR_REP":       func() codecUnderTest { return new(mad.SIDRREP) },
	"CM.LAP":            func() codecUnderTest { return new(mad.LAP) },
	"CM.APR":            func() codecUnderTest { return new(mad.APR) },
	"CM.ClassPortInfo":  func() codecUnderTest { return new(mad.ClassPortInfo) },
	"RMPP":              func() codecUnderTest { return new(mad.RMPP) },
	"SA.NodeRecord":     func() codecUnderTest { return new(mad.NodeRecord) },
	"SA.PortInfoRecord": func() codecUnderTest { return new(mad.PortInfoRecord) },
	"SA.ServiceRecord":  func() codecUnderTest { return new(mad.ServiceRecord) },
	"SA.MCMemberRecord": func() codecUnderTest { return new(mad.MCMemberRecord) },
}

// goldenAttr is one attribute of the golden file: its bytes and the
// field values its comments give.
type goldenAttr struct {
	name   string
	raw    []byte
	fields [][2]string // field path, value
}

func readGolden(t *testing.T) []goldenAttr {
	t.Helper()
	f, err := os.Open(corpus.Path("golden", "mad_attributes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenAttr
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "== "):
			out = append(out, goldenAttr{name: strings.TrimPrefix(line, "== ")})
			continue
		case len(out) == 0:
			t.Fatalf("bytes before an attribute: %q", line)
		}
		a := &out[len(out)-1]
		words := strings.Fields(line)
		i := 0
		for ; i < len(words) && isHexWord(words[i]); i++ {
			a.raw = append(a.raw, hexWord(t, words[i])...)
		}
		for _, asg := range strings.Split(strings.Join(words[i:], " "), ";") {
			if k, v, ok := strings.Cut(asg, "="); ok {
				a.fields = append(a.fields, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
			}
		}
	}
	return out
}

func isHexWord(w string) bool {
	h, _, _ := strings.Cut(w, "*")
	_, err := hex.DecodeString(h)
	return len(h) == 2 && err == nil
}

func hexWord(t testing.TB, w string) []byte {
	h, n, rep := strings.Cut(w, "*")
	b, _ := hex.DecodeString(h)
	if !rep {
		return b
	}
	k, err := strconv.Atoi(n)
	if err != nil {
		t.Fatalf("bad repeat %q", w)
	}
	return bytes.Repeat(b, k)
}

// TestGoldenAttributes decodes every attribute of the golden file, checks
// each field its comments name, and encodes the decoded value back to
// the same bytes.
func TestGoldenAttributes(t *testing.T) {
	attrs := readGolden(t)
	if len(attrs) != len(goldenTypes) {
		t.Errorf("%d attributes in the golden file, %d types", len(attrs), len(goldenTypes))
	}
	nFields := 0
	for _, a := range attrs {
		newT, ok := goldenTypes[a.name]
		if !ok {
			t.Errorf("%s: no type", a.name)
			continue
		}
		v := newT()
		if err := v.Decode(a.raw); err != nil {
			t.Errorf("%s (%d bytes): %v", a.name, len(a.raw), err)
			continue
		}
		for _, fv := range a.fields {
			if strings.HasPrefix(fv[0], "(") {
				continue
			}
			got, err := fieldValue(reflect.ValueOf(v).Elem(), fv[0])
			if err != "" {
				t.Errorf("%s.%s: %s", a.name, fv[0], err)
				continue
			}
			if !sameGolden(got, fv[1]) {
				t.Errorf("%s.%s = %v, golden %s", a.name, fv[0], got.Interface(), fv[1])
			}
			nFields++
		}
		out, err := v.AppendTo(nil)
		if err != nil || !bytes.Equal(out, a.raw) {
			t.Errorf("%s encodes to %x (%v), golden %x", a.name, out, err, a.raw)
		}
	}
	t.Logf("%d attributes, %d fields checked against the golden file", len(attrs), nFields)
}

// fieldValue follows a path such as "PrivateData[1]" or
// "NodeInfo.NodeGUID" into v.
func fieldValue(v reflect.Value, path string) (reflect.Value, string) {
	if outer, inner, ok := strings.Cut(path, "."); ok {
		f, err := fieldValue(v, outer)
		if err != "" {
			return f, err
		}
		return fieldValue(f, inner)
	}
	name, idx, hasIdx := strings.Cut(path, "[")
	f := v.FieldByName(name)
	if !f.IsValid() {
		return f, "no such field"
	}
	if hasIdx {
		i, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
		if err != nil || i >= f.Len() {
			return f, "bad index"
		}
		f = f.Index(i)
	}
	return f, ""
}

func sameGolden(v reflect.Value, want string) bool {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()) == want
	case reflect.Array:
		if v.Len() == 16 && v.Type().Elem().Kind() == reflect.Uint8 {
			a, err := netip.ParseAddr(want)
			var g [16]byte
			reflect.ValueOf(&g).Elem().Set(v)
			return err == nil && a.As16() == g
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w, err := strconv.ParseUint(want, 0, 64)
		return err == nil && v.Uint() == w
	}
	return false
}

// TestGoldenREJ checks what the REJ of the golden file means: IBTA's
// reason name of reason 4 and its ARI, the timed-out CA's GUID (IBTA Vol
// 1, Table 105).
func TestGoldenREJ(t *testing.T) {
	for _, a := range readGolden(t) {
		if a.name != "CM.REJ" {
			continue
		}
		var r mad.REJ
		if err := r.Decode(a.raw); err != nil {
			t.Fatal(err)
		}
		g, ok := r.ARIGUID()
		if r.Reason.String() != "Timeout" || r.Reason.ARIKind() != mad.ARIGUID || !ok || g != 0x505400fffe0aaaba {
			t.Errorf("REJ reason %v (ARI %v), ARI GUID %#x %v", r.Reason, r.Reason.ARIKind(), g, ok)
		}
		if _, ok := r.ARIGID(); ok {
			t.Error("a Timeout REJ has no GID")
		}
	}
}
