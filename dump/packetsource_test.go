package dump_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/dump"
)

// TestPacketSource: a capture read through pcapgo's reader, a gopacket
// packet data source, prints as the file itself does, text and JSON.
func TestPacketSource(t *testing.T) {
	for _, name := range []string{"../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", "../testdata/golden/rocev2_ipv6.pcap"} {
		for _, js := range []bool{false, true} {
			opt := dump.Options{JSON: js, Workers: 1}
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			src, err := dump.NewSource(f)
			if err != nil {
				t.Fatal(err)
			}
			var want, got bytes.Buffer
			wst, err := dump.Dump(&want, src, opt)
			if err != nil {
				t.Fatal(err)
			}
			f.Seek(0, io.SeekStart)
			r, err := pcapgo.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			gst, err := dump.Dump(&got, dump.NewPacketSource(r, uint16(r.LinkType())), opt)
			f.Close()
			if err != nil || gst != wst || got.String() != want.String() {
				t.Errorf("%s json %v: %v, stats %+v, want %+v; output equal %v", name, js, err, gst, wst, got.String() == want.String())
			}
		}
	}
}

// replay is a zero-copy packet data source that hands out one frame n
// times, then an error.
type replay struct {
	frame []byte
	n     int
	err   error
}

func (r *replay) ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	if r.n == 0 {
		return nil, gopacket.CaptureInfo{}, r.err
	}
	r.n--
	return r.frame, gopacket.CaptureInfo{CaptureLength: len(r.frame), Length: len(r.frame)}, nil
}

func (r *replay) ReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	panic("Source must use ZeroCopyReadPacketData")
}

// TestPacketSourceEnd: io.EOF ends Scan without error, another error
// ends it with that error; frames are numbered from 1; reading a
// zero-copy source allocates nothing.
func TestPacketSourceEnd(t *testing.T) {
	frame := goldenFrame(t)
	var numbers []int
	st, err := dump.Scan(dump.NewPacketSource(&replay{frame: frame, n: 3, err: io.EOF}, dump.LinkTypeEthernet), dump.Options{Workers: 1},
		func(r *dump.Record) error { numbers = append(numbers, r.Number); return nil })
	if err != nil || st.Frames != 3 || st.RoCE != 3 || len(numbers) != 3 || numbers[2] != 3 {
		t.Errorf("Scan: %v, %+v, numbers %v", err, st, numbers)
	}
	bad := errors.New("interface went away")
	if _, err := dump.Scan(dump.NewPacketSource(&replay{frame: frame, n: 1, err: bad}, dump.LinkTypeEthernet), dump.Options{Workers: 1},
		func(*dump.Record) error { return nil }); err != bad {
		t.Errorf("Scan ended by %v, want the source's error", err)
	}
	src := dump.NewPacketSource(&replay{frame: frame, n: 1 << 30}, dump.LinkTypeEthernet)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, _, _, err := src.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times a frame", allocs)
	}
}

// goldenFrame is the first frame of a golden capture.
func goldenFrame(t *testing.T) []byte {
	t.Helper()
	f, err := os.Open("../testdata/golden/rocev2_ipv4.pcap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := r.ReadPacketData()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
