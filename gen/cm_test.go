package gen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
)

// TestCMAllocs: the CM messages cost no allocation either.
func TestCMAllocs(t *testing.T) {
	c := gen.DefaultConfig()
	c.CM, c.QPs, c.Size = true, 4000, 64
	g, err := gen.New(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		g.Next()
	}
	allocs := testing.AllocsPerRun(3000, func() {
		if !g.Next() || g.Kind() != gen.KindCM {
			t.Fatalf("want a CM frame: %v %v", g.Kind(), g.Err())
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %.2f times per CM frame", allocs)
	}
}

// TestCMOrder checks the frames of a phase with CM: each queue pair's
// REQ, REP and RTU before any data, then the data, then each queue
// pair's DREQ and DREP; with cm-reject, REQ and REJ and nothing else.
func TestCMOrder(t *testing.T) {
	c := gen.DefaultConfig()
	c.CM, c.QPs, c.Size, c.MTU = true, 2, 2048, 1024
	var kinds []string
	for _, f := range generate(t, c) {
		kinds = append(kinds, f.kind.String())
	}
	want := "cm cm cm cm cm cm request request request request ack ack cm cm cm cm"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("frames %q, want %q", got, want)
	}
	c.CMReject = 28
	fs := generate(t, c)
	if len(fs) != 4 {
		t.Errorf("a rejected phase of 2 queue pairs: %d frames, want 4 (REQ, REJ each)", len(fs))
	}
}

// TestCMOptions checks the cm options and the configurations New refuses.
func TestCMOptions(t *testing.T) {
	c := gen.DefaultConfig()
	for name, v := range map[string]string{"cm": "true", "cm-port": "18515", "cm-reject": "28"} {
		if err := c.Set(name, v); err != nil {
			t.Fatal(err)
		}
		if got := c.Get(name); got != v {
			t.Errorf("%s: Get %q after Set %q", name, got, v)
		}
	}
	if !c.CM || c.CMPort != 18515 || c.CMReject != 28 {
		t.Errorf("config %v %v %v", c.CM, c.CMPort, c.CMReject)
	}
	if err := c.Set("cm", "maybe"); err == nil {
		t.Error("cm=maybe accepted")
	}
	phases, err := gen.ParseScenario(strings.NewReader("cm=true qps=2\n"), gen.DefaultConfig())
	if err != nil || !phases[0].CM {
		t.Errorf("scenario cm=true: %v", err)
	}
	for _, f := range []func(c *gen.Config){
		func(c *gen.Config) { c.CM, c.Transport = true, ib.UD },
		func(c *gen.Config) { c.CM, c.Transport = true, ib.XRC },
		func(c *gen.Config) { c.CMReject = 28 },
	} {
		c := gen.DefaultConfig()
		f(&c)
		if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
			t.Errorf("%+v: New = %v, want ErrConfig", c, err)
		}
	}
}
