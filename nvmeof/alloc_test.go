package nvmeof_test

import (
	"testing"

	"github.com/roce-go/roce/nvmeof"
)

// codec is the method set every structure of the package has.
type codec interface {
	Decode([]byte) error
	AppendTo([]byte) ([]byte, error)
}

// TestZeroAllocs: decoding every structure, and encoding into a buffer
// with room, allocate nothing.
func TestZeroAllocs(t *testing.T) {
	kinds := map[string]codec{"command": new(nvmeof.Command), "completion": new(nvmeof.Completion), "connect": new(nvmeof.ConnectData),
		"cmreq": new(nvmeof.CMRequest), "cmrep": new(nvmeof.CMAccept), "cmrej": new(nvmeof.CMReject)}
	buf := make([]byte, 0, 2048)
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
}
