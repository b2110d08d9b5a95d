package dump

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/capfile"
)

// TestTextLeavesTableUnbuilt holds the field registry to being built on
// first use: text lines (with -e, -x and cut frames) never ask for it, so
// that a text run does not pay for building its thousands of rows. It
// runs in a process of its own, since any earlier test builds the table;
// ethFirst, which the rows set as they are made, tells whether it was.
func TestTextLeavesTableUnbuilt(t *testing.T) {
	if os.Getenv("ROCE_TEXT_ONLY") == "1" {
		if ethFirst != ([maxHeader]uint8{}) {
			os.Exit(3) // built before any frame
		}
		names, _ := filepath.Glob("../testdata/captures/*.pcap*")
		var r Record
		var b []byte
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				os.Exit(4)
			}
			for _, f := range []TextFormat{{}, {Link: true, Hex: HexASCII, Time: TimeDelta}} {
				src, err := capfile.NewSourceBytes(data)
				if err != nil {
					os.Exit(4)
				}
				if _, err := Dump(io.Discard, src, Options{Text: f}); err != nil {
					os.Exit(4)
				}
				// Each frame cut where header-only captures cut it.
				txt := (&Options{Text: f}).TextOptions()
				src, _ = capfile.NewSourceBytes(data)
				for {
					frame, ci, lt, err := src.Next()
					if re, ok := err.(*capfile.ReadError); ok && !re.Fatal {
						continue
					} else if err != nil {
						break // io.EOF
					}
					for _, n := range []int{60, 66, 80, 94, 128} {
						if n < len(frame) {
							ci.CaptureLength = n
							r.Decode(src.Number(), ci, lt, frame[:n])
							b = txt.AppendText(b[:0], &r)
						}
					}
				}
			}
		}
		if ethFirst != ([maxHeader]uint8{}) {
			os.Exit(5) // built by a text line
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTextLeavesTableUnbuilt$")
	cmd.Env = append(os.Environ(), "ROCE_TEXT_ONLY=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v (exit 3: built at start, 4: a capture unreadable, 5: built by a text line)\n%s", err, out)
	}
	// The check can fail: building the table sets ethFirst.
	fieldTable()
	if ethFirst == ([maxHeader]uint8{}) {
		t.Fatal("building the table left ethFirst unset: the check above cannot fail")
	}
}
