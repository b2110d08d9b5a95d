package fuzz

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// FuzzSourceResync reads arbitrary bytes with capfile.Source the way
// dump.Scan does: on past every ReadError that is not fatal. It checks
// that reading ends (every call consumes input or ends it), that frame
// numbers only grow, that no frame is longer than the input or
// capfile.MaxSnaplen, that every error is io.EOF or a *capfile.ReadError
// wrapping capfile.ErrUnreadable or io.ErrUnexpectedEOF, and that a fatal
// error is returned again. Under gzip, "the input" is what it
// decompresses to, and damage to the compressed stream is such an error.
func FuzzSourceResync(f *testing.F) {
	le := binary.LittleEndian
	block := func(out []byte, typ uint32, body []byte) []byte {
		out = le.AppendUint32(le.AppendUint32(out, typ), uint32(12+len(body)))
		return le.AppendUint32(append(out, body...), uint32(12+len(body)))
	}
	shb := block(nil, 0x0a0d0d0a, []byte{0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	idb := block(nil, 1, []byte{1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 1, 0, 9, 0, 0, 0, 0, 0, 0, 0}) // if_tsresol 10^-9
	pkt := bytes.Repeat([]byte{0xab}, 60)
	epb := block(nil, 6, append([]byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 0}, pkt...))
	spb := block(nil, 3, append([]byte{60, 0, 0, 0}, pkt...))
	spbLong := block(nil, 3, append([]byte{160, 0, 0, 0}, pkt...))                                   // claims 100 bytes more than it holds
	epbLong := block(nil, 6, append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, pkt...)) // captured length 65536
	pb := block(nil, 2, append([]byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 0}, pkt...))
	custom := block(nil, 0xbad, []byte{0, 0, 0x7e, 0xd9})
	ng := bytes.Join([][]byte{shb, idb, epb, spbLong, spb, custom, epbLong, pb, shb, idb, epb}, nil)
	f.Add(ng)
	f.Add(ng[:len(ng)-7])                                                                              // cut in a block
	f.Add(bytes.Join([][]byte{shb, epb, idb}, nil))                                                    // a packet before any interface
	pcap := []byte{0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0} // snap length 0
	for _, n := range []uint32{60, 300000, 60} {
		pcap = le.AppendUint32(le.AppendUint32(pcap, 1), 2)
		pcap = append(le.AppendUint32(le.AppendUint32(pcap, n), n), pkt...)
	}
	f.Add(pcap)
	for _, b := range [][]byte{pcap, ng} { // under gzip, where the decompressor finds damage too
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		f.Add(z.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := capfile.NewSource(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, capfile.ErrNotCapture) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Fatalf("NewSource: %v", err)
			}
			return
		}
		size := fzSize(data)
		last := 0
		for calls := 0; ; calls++ {
			if calls > size/4+2 {
				t.Fatalf("%d calls of Next on %d bytes", calls, size)
			}
			frame, ci, _, err := src.Next()
			if err == io.EOF {
				return
			}
			if src.Number() < last {
				t.Fatalf("frame number %d after %d", src.Number(), last)
			}
			last = src.Number()
			if err == nil {
				if len(frame) > size || len(frame) > capfile.MaxSnaplen || ci.CaptureLength != len(frame) {
					t.Fatalf("frame %d: %d bytes (capture length %d) from %d", last, len(frame), ci.CaptureLength, size)
				}
				continue
			}
			var re *capfile.ReadError
			if !errors.As(err, &re) || !errors.Is(err, capfile.ErrUnreadable) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("Next: %v (%T)", err, err)
			}
			if !strings.HasPrefix(re.Error(), "roce: ") {
				t.Fatalf("Next: %q lacks the prefix", re.Error())
			}
			if re.Fatal {
				if _, _, _, again := src.Next(); again != err {
					t.Fatalf("after a fatal %v: %v", err, again)
				}
				return
			}
		}
	})
}

// fzSize returns how many bytes of capture data holds: its length, or
// under gzip what it decompresses to (up to 64 MiB), if more.
func fzSize(data []byte) int {
	size := len(data)
	if z, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
		n, _ := io.Copy(io.Discard, io.LimitReader(z, 1<<26))
		size = max(size, int(n))
	}
	return size
}

// FuzzSourceBytes reads arbitrary bytes as a capture held in memory
// (capfile.NewSourceBytes) and as a stream (capfile.NewSource): both give the
// same frames, capture information, link types, numbers and errors, and
// the bytes are not written to. Each frame then goes through
// dump.Cells.Fill, whose values must be those of every field's Get.
func FuzzSourceBytes(f *testing.F) {
	_, files := fzLoad(f)
	for _, raw := range files {
		f.Add(raw)
		f.Add(raw[:len(raw)*2/3])
	}
	f.Add(fzPcapng(f))
	cells := dump.NewCells()
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		stream, serr := capfile.NewSource(bytes.NewReader(data))
		mapped, merr := capfile.NewSourceBytes(data[:len(data):len(data)])
		if (serr == nil) != (merr == nil) || serr != nil && serr.Error() != merr.Error() {
			t.Fatalf("NewSource: %v, NewSourceBytes: %v", serr, merr)
		}
		if serr != nil {
			return
		}
		var r dump.Record
		for n := 1; n <= fzMaxFrames; n++ {
			sf, sci, slt, serr := stream.Next()
			sf = bytes.Clone(sf)
			mf, mci, mlt, merr := mapped.Next()
			if !bytes.Equal(sf, mf) || slt != mlt || stream.Number() != mapped.Number() ||
				!sci.Timestamp.Equal(mci.Timestamp) || sci.CaptureLength != mci.CaptureLength || sci.Length != mci.Length ||
				(serr == nil) != (merr == nil) || serr != nil && serr.Error() != merr.Error() {
				t.Fatalf("frame %d: stream %x %+v %d %v, bytes %x %+v %d %v", n, sf, sci, slt, serr, mf, mci, mlt, merr)
			}
			if serr == io.EOF {
				break
			}
			var re *capfile.ReadError
			if serr != nil {
				if errors.As(serr, &re) && !re.Fatal {
					continue
				}
				break
			}
			r.Decode(n, mci, mlt, mf)
			cells.Fill(&r)
			for i := range dump.Fields() {
				fd := &dump.Fields()[i]
				v, ok := fd.Get(&r)
				if ok != cells.Has(i) || ok && string(fd.AppendValue(nil, v)) != string(fd.AppendValue(nil, cells.Values[i])) {
					t.Fatalf("frame %d: %s: Get %v %s, Cells %v %s", n, fd.Name, ok, fd.AppendValue(nil, v), cells.Has(i), fd.AppendValue(nil, cells.Values[i]))
				}
			}
		}
		if !bytes.Equal(data, orig) {
			t.Fatal("NewSourceBytes wrote to its input")
		}
	})
}
