// Package oracle runs the independent tools the tests compare against:
// tshark (Wireshark's dissectors) and Scapy. When a tool is missing the
// test is skipped with a message, except under CI (CI=true), where a
// missing oracle is a failure.
package oracle

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// Need returns the path of the program named, or skips the test (fails it
// under CI) when it is not installed.
func Need(t testing.TB, program string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("oracle %s is missing in CI: %v", program, err)
		}
		t.Skipf("oracle %s not installed (apt-get install -y tshark tcpdump python3-scapy): %v", program, err)
	}
	return p
}

// WritePcap writes frames as an Ethernet pcap file in dir and returns its
// path.
func WritePcap(t testing.TB, dir, name string, frames [][]byte) string {
	t.Helper()
	return WritePcapLinkType(t, dir, name, layers.LinkTypeEthernet, frames)
}

// WritePcapLinkType writes frames as a pcap file of link type lt in dir
// and returns its path.
func WritePcapLinkType(t testing.TB, dir, name string, lt layers.LinkType, frames [][]byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := pcapgo.NewWriter(f)
	if err := w.WriteFileHeader(65535, lt); err != nil {
		t.Fatal(err)
	}
	ts := time.Unix(1764400000, 0)
	for i, fr := range frames {
		ci := pcapCaptureInfo(ts.Add(time.Duration(i)*time.Microsecond), len(fr))
		if err := w.WritePacket(ci, fr); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// Fields is one frame as tshark decodes it: every field name (as in a
// display filter) with the values it took, in order.
type Fields map[string][]string

// Tshark decodes a pcap file with `tshark -T json` (duplicate keys kept as
// arrays) plus any extra arguments, and returns the fields of each frame.
func Tshark(t testing.TB, pcap string, extra ...string) []Fields {
	t.Helper()
	frames := tsharkJSON(t, pcap, false, extra...)
	res := make([]Fields, len(frames))
	for i, fr := range frames {
		res[i] = Fields{}
		flatten(res[i], fr.Source.Layers)
	}
	return res
}

// tsharkFrame is one frame of `tshark -T json`.
type tsharkFrame struct {
	Source struct {
		Layers map[string]any `json:"layers"`
	} `json:"_source"`
}

// tsharkJSON runs `tshark -T json` (duplicate keys kept as arrays, with
// the raw bytes of each field when raw) over a capture plus any extra
// arguments, and returns its frames; numbers stay json.Number.
func tsharkJSON(t testing.TB, pcap string, raw bool, extra ...string) []tsharkFrame {
	t.Helper()
	bin := Need(t, "tshark")
	args := []string{"-n", "-r", pcap, "-T", "json", "--no-duplicate-keys"}
	if raw {
		args = append(args, "-x")
	}
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no user preferences
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark %v: %v\n%s", args, err, stderr.String())
	}
	var frames []tsharkFrame
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&frames); err != nil {
		t.Fatalf("tshark json: %v", err)
	}
	return frames
}

// TsharkFields runs `tshark -T fields` over a capture for the fields
// named and returns, per frame, each field's values in the order of
// tshark's tree. Tshark's JSON sorts sibling subtrees by their labels;
// this keeps the order of the packet (of the TLVs of an LLDPDU, say).
func TsharkFields(t testing.TB, pcap string, names []string) []map[string][]string {
	t.Helper()
	bin := Need(t, "tshark")
	args := []string{"-n", "-r", pcap, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=,"}
	for _, k := range names {
		args = append(args, "-e", k)
	}
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark %v: %v\n%s", args, err, stderr.String())
	}
	var res []map[string][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != len(names) {
			t.Fatalf("tshark -T fields: %d columns, want %d: %q", len(cols), len(names), line)
		}
		m := map[string][]string{}
		for i, c := range cols {
			if c != "" {
				m[names[i]] = strings.Split(c, ",")
			}
		}
		res = append(res, m)
	}
	return res
}

// flatten collects every "name": value pair of tshark's JSON tree whose
// value is a string (or a list of strings), descending into objects.
func flatten(dst Fields, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch val := x[k].(type) {
			case string:
				dst[k] = append(dst[k], val)
			case []any:
				for _, e := range val {
					if s, ok := e.(string); ok {
						dst[k] = append(dst[k], s)
					} else {
						flatten(dst, e)
					}
				}
			default:
				flatten(dst, val)
			}
		}
	case []any:
		for _, e := range x {
			flatten(dst, e)
		}
	}
}

// First returns the first value of a field and whether tshark showed it.
func (f Fields) First(name string) (string, bool) {
	v := f[name]
	if len(v) == 0 {
		return "", false
	}
	return v[0], true
}
