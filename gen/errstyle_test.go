package gen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce/gen"
)

// TestErrorSentinels: every error of the option parsers and of a
// scenario's lines matches ErrConfig and says "roce: " once, first.
func TestErrorSentinels(t *testing.T) {
	c := gen.DefaultConfig()
	_, op := gen.ParseOp("jump")
	scenario := func(s string) error { return gen.CheckScenario(strings.NewReader(s), gen.DefaultConfig()) }
	for _, tc := range []struct {
		err  error
		want string
	}{
		{c.Set("size", "12q"), `roce: size: bad size "12q"`},
		{c.Set("src-mac", "zz"), `roce: src-mac: bad MAC address "zz"`},
		{c.Set("gap", "-1s"), "roce: gap: -1s is negative"},
		{c.Set("rate", "7qq"), `roce: rate: bad link speed "7qq" (want 1M to 10T bits per second, as 100G or 25Gb/s), or packets per second ending in pps (10kpps)`},
		{c.Set("nosuch", "1"), `roce: unknown option "nosuch"`},
		{op, `roce: unknown operation "jump"`},
		{scenario("op=write\nsize\n"), `roce: scenario line 2: "size" is not key=value`},
		{scenario("op=write\nsize=12q\n"), `roce: scenario line 2: size: bad size "12q"`},
		{scenario("mtu=1000\n"), "roce: scenario line 1: bad configuration: MTU 1000"},
		{scenario("# none\n"), "roce: scenario has no phases"},
	} {
		if !errors.Is(tc.err, gen.ErrConfig) || !strings.HasPrefix(tc.err.Error(), tc.want) || strings.Count(tc.err.Error(), "roce: ") != 1 {
			t.Errorf("%v, want %q matching ErrConfig", tc.err, tc.want)
		}
	}
}
