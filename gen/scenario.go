package gen

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ParseScenario reads a scenario file: one phase per line, each a list of
// key=value settings separated by blanks, the keys being the option names
// of Options (the flags of cmd/rocegen without their dash). Every phase
// starts from base, usually what the command line set, so a line says
// only how its phase differs. A # starts a comment that runs to the end of
// the line; blank lines are skipped. For example:
//
//	# 4 connections write 1 MiB each, a switch marks every 100th packet CE
//	op=write size=1M qps=4 ce-every=100
//	# then read it back, 10 µs later
//	op=read size=1M qps=4 gap=10us
//	# and a burst of UD datagrams paused by PFC on priority 3
//	transport=ud op=send-imm size=1K messages=64 pfc-every=16 pfc-prio=3
//
// The phases are checked by NewScenario, not here.
func ParseScenario(r io.Reader, base Config) ([]Config, error) {
	var phases []Config
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		c := base
		for _, f := range fields {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, fmt.Errorf("scenario line %d: %q is not key=value", line, f)
			}
			if err := c.Set(strings.TrimPrefix(k, "-"), v); err != nil {
				return nil, fmt.Errorf("scenario line %d: %w", line, err)
			}
		}
		phases = append(phases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(phases) == 0 {
		return nil, fmt.Errorf("scenario has no phases")
	}
	return phases, nil
}
