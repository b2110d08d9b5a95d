package smbd_test

import (
	"testing"

	"github.com/roce-go/roce/smbd"
)

// codec is the method set every structure of the package has.
type codec interface {
	Decode([]byte) error
	AppendTo([]byte) ([]byte, error)
}

// TestZeroAllocs: decoding every structure, and encoding into a buffer
// with room, allocate nothing; nor do the refusals, nor a Reassembler
// once its buffer has grown.
func TestZeroAllocs(t *testing.T) {
	kinds := map[string]codec{"negreq": new(smbd.NegotiateRequest), "negresp": new(smbd.NegotiateResponse), "data": new(smbd.DataTransfer),
		"desc": new(smbd.BufferDescriptor), "header": new(smbd.Header), "readreq": new(smbd.ReadRequest), "writereq": new(smbd.WriteRequest),
		"readresp": new(smbd.ReadResponse), "writeresp": new(smbd.WriteResponse)}
	buf := make([]byte, 0, 256)
	for _, g := range readGolden(t) {
		c := kinds[g.kind]
		var err error
		n := testing.AllocsPerRun(100, func() {
			if err = c.Decode(g.b); err == nil {
				_, err = c.AppendTo(buf[:0])
			}
		})
		if n != 0 || err != nil {
			t.Errorf("%s %s: %v allocations, error %v", g.kind, g.name, n, err)
		}
	}
	var d smbd.DataTransfer
	bad := make([]byte, 20)
	bad[12], bad[16] = 20, 1
	short := make([]byte, 30)
	var h smbd.Header
	var err1, err2 error
	if n := testing.AllocsPerRun(100, func() { err1, err2 = d.Decode(bad), h.Decode(short) }); n != 0 || err1 == nil || err2 == nil {
		t.Errorf("refusals: %v allocations, errors %v %v", n, err1, err2)
	}

	msg := make([]byte, 4000)
	hs, ds := fragments(msg, 1000)
	var r smbd.Reassembler
	var got []byte
	var err error
	n := testing.AllocsPerRun(100, func() {
		for i := range hs {
			if got, err = r.Add(&hs[i], ds[i]); err != nil {
				return
			}
		}
	})
	if n != 0 || err != nil || len(got) != 4000 {
		t.Errorf("Reassembler: %v allocations, error %v, %d bytes", n, err, len(got))
	}
}
