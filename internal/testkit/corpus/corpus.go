// Package corpus gives the tests of this module the frames they share: the
// real captures under testdata/captures and hex-written vectors. It is for
// tests only.
package corpus

import (
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/gopacket/pcapgo"
)

// RoCECaptures names the real captures that carry RoCEv2 (4,129 RoCE
// frames in all; see testdata/captures/README.md).
var RoCECaptures = []string{
	"rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap",
	"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap",
	"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap",
	"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap",
}

// Path returns the path of a file under the module's testdata directory,
// wherever the test runs from.
func Path(elem ...string) string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
	return filepath.Join(append([]string{root}, elem...)...)
}

// Capture returns every frame of testdata/captures/name, a pcap file.
func Capture(t testing.TB, name string) [][]byte {
	t.Helper()
	return File(t, "captures", name)
}

// File returns every frame of the pcap file at Path(elem...).
func File(t testing.TB, elem ...string) [][]byte {
	t.Helper()
	return ReadPcap(t, Path(elem...))
}

// ReadPcap returns every frame of the pcap file at path.
func ReadPcap(t testing.TB, path string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, f := range readN(t, path, -1) {
		out = append(out, f.Data)
	}
	return out
}

// readN reads the first n frames (every frame if n < 0) of a pcap
// file, with its link type.
func readN(t testing.TB, path string, n int) []Frame {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r, err := pcapgo.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	var out []Frame
	for n < 0 || len(out) < n {
		data, _, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Frame{uint16(r.LinkType()), data})
	}
	return out
}

// Hex decodes a hex string or fails the test.
func Hex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Spec decodes golden bytes written one field per line: the hex words at
// the start of each line, up to the first word that is not an even run of
// hex digits, are the bytes; the rest of the line describes them. A spec
// is a constant of a test, so a bad one panics.
func Spec(s string) []byte {
	var digits strings.Builder
	for _, line := range strings.Split(s, "\n") {
		for _, w := range strings.Fields(line) {
			if _, err := hex.DecodeString(w); err != nil || len(w)%2 != 0 {
				break
			}
			digits.WriteString(w)
		}
	}
	b, err := hex.DecodeString(digits.String())
	if err != nil {
		panic(err)
	}
	return b
}
