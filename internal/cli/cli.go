// Package cli is the command-line mechanism rocedump and rocegen share,
// so that both behave alike: -h lists the flags and exits 0; flags may
// follow the positional arguments, as tcpdump takes them; a flag that
// takes one value refuses a second ("given twice"); a bad command line
// says what was wrong, then the usage line and where to find the flags,
// and exits 2; a terminal on standard input is refused with a one-line
// hint. Counted flags repeat as tcpdump's letters do (-t -t is -tt).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/internal/tty"
)

// Command is a command's flag set with its name and usage line.
type Command struct {
	Name  string // the command's name, first in its messages
	Usage string // the usage line: "usage: NAME [flags] ..."
	// Help, if set, is printed after the usage line for -h, before the
	// flags.
	Help   string
	Flags  *flag.FlagSet
	stderr io.Writer
}

// New returns a Command whose flag set writes its messages to stderr
// and leaves the usage to Parse.
func New(name, usage string, stderr io.Writer) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // Parse answers parse errors and -h
	return &Command{Name: name, Usage: usage, Flags: fs, stderr: stderr}
}

// once is a flag that takes one value: given twice, it is refused.
type once struct {
	flag.Value
	set bool
}

func (o *once) String() string {
	if o == nil || o.Value == nil {
		return ""
	}
	return o.Value.String()
}

func (o *once) Set(s string) error {
	if o.set {
		return fmt.Errorf("given twice (already %q): it takes one value", o.Value.String())
	}
	o.set = true
	return o.Value.Set(s)
}

// IsBoolFlag passes on what the wrapped value says.
func (o *once) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Once defines a flag of value v that may be given once.
func (c *Command) Once(v flag.Value, name, usage string) {
	c.Flags.Var(&once{Value: v}, name, usage)
}

// String defines a string flag that may be given once.
func (c *Command) String(name, value, usage string) *string {
	p := new(string)
	c.StringVar(p, name, value, usage)
	return p
}

// StringVar defines a string flag that may be given once, held in *p.
func (c *Command) StringVar(p *string, name, value, usage string) {
	*p = value
	c.Once(stringValue{p}, name, usage)
}

// Int defines an int flag (decimal, 0x hex) that may be given once.
func (c *Command) Int(name string, value int, usage string) *int {
	p := new(int)
	v := flag.NewFlagSet("", flag.ContinueOnError)
	v.IntVar(p, name, value, "")
	c.Once(v.Lookup(name).Value, name, usage)
	return p
}

// Duration defines a time.Duration flag that may be given once.
func (c *Command) Duration(name string, value time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	v := flag.NewFlagSet("", flag.ContinueOnError)
	v.DurationVar(p, name, value, "")
	c.Once(v.Lookup(name).Value, name, usage)
	return p
}

// Count defines a flag without a value that adds n to *p each time it
// is given, as a repeated getopt letter counts: with Count(p, "t", 1)
// and Count(p, "tt", 2), "-t -tt" leaves 3 in *p, as tcpdump's -t -tt
// is -ttt.
func (c *Command) Count(p *int, name string, n int, usage string) {
	c.Flags.Var(counter{p, n}, name, usage)
}

// counter is a Count flag.
type counter struct {
	p *int
	n int
}

func (v counter) String() string   { return "" }
func (v counter) IsBoolFlag() bool { return true }
func (v counter) Set(s string) error {
	if b, err := strconv.ParseBool(s); err != nil || !b {
		return errors.New("takes no value")
	}
	*v.p += v.n
	return nil
}

// stringValue is a flag.Value of a string.
type stringValue struct{ p *string }

func (v stringValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}
func (v stringValue) Set(s string) error { *v.p = s; return nil }

// Parse parses args, flags before, between and after the positional
// arguments ("--" ends the flags), and returns the positional arguments.
// It reports ok false, having said why on stderr, when the command line
// is unusable or asked for help: status is then the exit status, 0 for
// -h (the usage line, Help and the flags), 2 otherwise (the flag
// package's message, the usage line and a pointer to -h).
func (c *Command) Parse(args []string) (pos []string, status int, ok bool) {
	fs := c.Flags
	for {
		if err := fs.Parse(args); err != nil {
			fmt.Fprintln(c.stderr, c.Usage)
			if errors.Is(err, flag.ErrHelp) {
				if c.Help != "" {
					fmt.Fprintln(c.stderr, c.Help)
				}
				fs.PrintDefaults()
				return nil, 0, false
			}
			fmt.Fprintf(c.stderr, "(%s -h lists the flags)\n", c.Name)
			return nil, 2, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// Fail says on stderr what was wrong with the command line ("NAME: "
// and the message), then the usage line and a pointer to -h; it returns
// the exit status, 2.
func (c *Command) Fail(format string, a ...any) int {
	fmt.Fprintf(c.stderr, c.Name+": "+format+"\n", a...)
	fmt.Fprintf(c.stderr, "%s\n(%s -h lists the flags)\n", c.Usage, c.Name)
	return 2
}

// Stray fails for the first positional argument past the max a command
// takes, naming it and what it follows; it returns 0 when there is none.
func (c *Command) Stray(pos []string, max int, takes string) int {
	switch {
	case len(pos) <= max:
		return 0
	case max == 0:
		return c.Fail("unexpected argument %q: %s", pos[0], takes)
	}
	return c.Fail("unexpected argument %q after %q: %s", pos[max], strings.Join(pos[:max], " "), takes)
}

// TerminalStdin reports whether stdin is a terminal, in which case it
// has written "NAME: standard input is a terminal: " and the hint on one
// line of stderr: a command that would read a file there refuses rather
// than wait silently.
func TerminalStdin(stdin io.Reader, stderr io.Writer, name, hint string) bool {
	f, ok := stdin.(*os.File)
	if !ok || !tty.IsTerminal(f) {
		return false
	}
	fmt.Fprintf(stderr, "%s: standard input is a terminal: %s\n", name, hint)
	return true
}
