package nvmeof_test

import (
	"testing"

	"github.com/roce-go/roce/nvmeof"
)

// TestZeroAllocs: decoding every structure, and encoding into a buffer
// with room, allocate nothing.
func TestZeroAllocs(t *testing.T) {
	gs := readGolden(t)
	var c nvmeof.Command
	var r nvmeof.Completion
	var d nvmeof.ConnectData
	var q nvmeof.CMRequest
	buf := make([]byte, 0, 2048)
	for _, g := range gs {
		var f func() error
		switch g.kind {
		case "command":
			f = func() error {
				if _, err := c.Split(g.b); err != nil {
					return err
				}
				_, err := c.AppendTo(buf[:0])
				return err
			}
		case "completion":
			f = func() error {
				if err := r.Decode(g.b); err != nil {
					return err
				}
				_, err := r.AppendTo(buf[:0])
				return err
			}
		case "connect":
			f = func() error {
				if err := d.Decode(g.b); err != nil {
					return err
				}
				_, err := d.AppendTo(buf[:0])
				return err
			}
		case "cmreq":
			f = func() error {
				if err := q.Decode(g.b); err != nil {
					return err
				}
				_, err := q.AppendTo(buf[:0])
				return err
			}
		default:
			continue
		}
		var err error
		if n := testing.AllocsPerRun(100, func() { err = f() }); n != 0 || err != nil {
			t.Errorf("%s %s: %v allocations, error %v", g.kind, g.name, n, err)
		}
	}
}
