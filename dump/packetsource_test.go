package dump_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// TestPacketSource: a capture read through pcapgo's reader, a gopacket
// packet data source, prints as the file itself does, text and JSON.
func TestPacketSource(t *testing.T) {
	for _, name := range []string{"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap"} {
		path := filepath.Join(capDir, name)
		for _, js := range []bool{false, true} {
			opt := dump.Options{JSON: js, Workers: 1}
			want, wst := runDump(t, path, opt)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := pcapgo.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			gst, err := dump.Dump(&got, capfile.NewPacketSource(r, uint16(r.LinkType())), opt)
			f.Close()
			if err != nil || gst != wst || !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s json %v: %v, stats %+v, want %+v; output equal %v", name, js, err, gst, wst, bytes.Equal(got.Bytes(), want))
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
	frame := firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 6) // RDMA READ Request
	var numbers []int
	st, err := dump.Scan(capfile.NewPacketSource(&replay{frame: frame, n: 3, err: io.EOF}, capfile.LinkTypeEthernet), dump.Options{Workers: 1},
		func(r *dump.Record) error { numbers = append(numbers, r.Number); return nil })
	if err != nil || st.Frames != 3 || st.RoCE != 3 || len(numbers) != 3 || numbers[2] != 3 {
		t.Errorf("Scan: %v, %+v, numbers %v", err, st, numbers)
	}
	bad := errors.New("interface went away")
	if _, err := dump.Scan(capfile.NewPacketSource(&replay{frame: frame, n: 1, err: bad}, capfile.LinkTypeEthernet), dump.Options{Workers: 1},
		func(*dump.Record) error { return nil }); err != bad {
		t.Errorf("Scan ended by %v, want the source's error", err)
	}
	src := capfile.NewPacketSource(&replay{frame: frame, n: 1 << 30}, capfile.LinkTypeEthernet)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, _, _, err := src.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times a frame", allocs)
	}
}
