package gen

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/roce-go/roce/internal/errs"
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
// ParseScenario holds every phase in memory; StreamScenario plays a
// scenario of any length, one line at a time. The phases are checked by
// NewScenario, not here.
func ParseScenario(r io.Reader, base Config) ([]Config, error) {
	var phases []Config
	s := newScenarioReader(r, base)
	for {
		c, err := s.parse()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		phases = append(phases, c)
	}
	if len(phases) == 0 {
		return nil, errNoPhases
	}
	return phases, nil
}

// StreamScenario returns a Generator that plays the scenario read from r,
// as ParseScenario reads it and NewScenario plays it, byte for byte, but
// holding only the phase playing: it reads and checks a line when the
// phase before has ended, so its memory does not grow with the number
// of lines. r must stay readable until Next returns false. The first
// phase is read and checked here; an error in a later line stops Next,
// and Err returns it with the line's number. CheckScenario finds such
// errors before any frame is generated.
func StreamScenario(r io.Reader, base Config) (*Generator, error) {
	s := newScenarioReader(r, base)
	first, err := s.next()
	if err == io.EOF {
		return nil, errNoPhases
	}
	if err != nil {
		return nil, err
	}
	s.first, s.hasFirst = first, true
	return newGenerator(s, &first), nil
}

// CheckScenario reads the scenario from r as StreamScenario does and
// checks every phase as NewScenario does, holding one line at a time. It
// returns the first error, naming its line.
func CheckScenario(r io.Reader, base Config) error {
	s := newScenarioReader(r, base)
	n := 0
	for ; ; n++ {
		_, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if n == 0 {
		return errNoPhases
	}
	return nil
}

var errNoPhases = errs.Kind(ErrConfig, "scenario has no phases")

// scenarioReader reads the phases of a scenario file one line at a time.
// It is the phaseSource of StreamScenario.
type scenarioReader struct {
	sc       *bufio.Scanner
	base     Config
	line     int    // lines read
	phase    int    // line of the phase returned last
	first    Config // the first phase, read ahead by StreamScenario
	hasFirst bool
}

func newScenarioReader(r io.Reader, base Config) *scenarioReader {
	return &scenarioReader{sc: bufio.NewScanner(r), base: base}
}

// parse returns the next phase, not checked, or io.EOF after the last.
func (s *scenarioReader) parse() (Config, error) {
	for s.sc.Scan() {
		s.line++
		text, _, _ := strings.Cut(s.sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		s.phase = s.line
		c := s.base
		for _, f := range fields {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return c, errs.Kind(ErrConfig, fmt.Sprintf("scenario line %d: %q is not key=value", s.line, f))
			}
			if err := c.Set(strings.TrimPrefix(k, "-"), v); err != nil {
				return c, errs.Context("scenario line "+strconv.Itoa(s.line), err)
			}
		}
		return c, nil
	}
	if err := s.sc.Err(); err != nil {
		return Config{}, errs.Context("scenario line "+strconv.Itoa(s.line+1), err)
	}
	return Config{}, io.EOF
}

// next returns the next phase, checked, or io.EOF after the last.
func (s *scenarioReader) next() (Config, error) {
	if s.hasFirst {
		s.hasFirst = false
		return s.first, nil
	}
	c, err := s.parse()
	if err == nil {
		if err = c.check(); err != nil {
			err = s.wrap(err)
		}
	}
	return c, err
}

func (s *scenarioReader) wrap(err error) error {
	return errs.Context("scenario line "+strconv.Itoa(s.phase), err)
}
