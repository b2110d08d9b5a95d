// Package cli is the command-line mechanism rocedump and rocegen share,
// so that both behave alike: -h lists the flags and exits 0; flags may
// follow the positional arguments, as tcpdump takes them; a flag that
// takes one value refuses a second ("given twice"); a bad command line
// exits 2 after one message "NAME: what was wrong", which names the flag
// and the value; a terminal on standard input is refused with a one-line
// hint. Counted flags repeat as tcpdump's letters do (-t -t is -tt).
//
// As tcpdump does, only a command line of the wrong shape (a flag the
// command does not know, a flag without its value, an argument too
// many) is followed by the usage line and where to find the flags; a bad
// value or flags that do not go together are said in one line (a display
// filter's error with its caret under it), without the usage.
//
// Message is the text of an error of the module's packages as the
// commands print it: without the "roce: " every such error starts with,
// nor the package name some carry after it ("dump: ", "capture: ").
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/cmd/internal/tty"
)

// Command is a command's flag set with its name and usage line.
type Command struct {
	Name  string // the command's name, first in its messages
	Usage string // the usage line: "usage: NAME [flags] ..."
	// Help, if set, is printed after the usage line for -h, before the
	// flags.
	Help  string
	Flags *flag.FlagSet
	// Stdout, if set, takes what -h and --version print, as tcpdump and
	// tshark print them; stderr otherwise.
	Stdout io.Writer
	stderr io.Writer
	// bad is the flag whose value the last Parse refused, with the
	// value and why.
	bad     *valueError
	version bool // --version was given
}

// valueError is a flag's value refused by its Set.
type valueError struct {
	name, value string
	err         error
}

// Error returns "-NAME: ERR", or "-NAME "VALUE": ERR" when ERR does not
// show the value.
func (e *valueError) Error() string {
	msg := Message(e.err)
	if shows(msg, e.value) {
		return "-" + e.name + ": " + msg
	}
	return fmt.Sprintf("-%s %q: %s", e.name, e.value, msg)
}

// shows reports whether msg gives v: quoted, or as a word of its own.
func shows(msg, v string) bool {
	if v == "" {
		return false
	}
	if strings.Contains(msg, strconv.Quote(v)) {
		return true
	}
	word := func(r byte) bool {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(msg[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !word(msg[j-1])) && (end == len(msg) || !word(msg[end])) {
			return true
		}
		i = j + 1
	}
}

// recorder is a flag's Value as Parse sees it: it notes the value its
// Set refuses, which the flag package's message would give without the
// command's name.
type recorder struct {
	flag.Value
	name string
	c    *Command
}

func (r recorder) Set(s string) error {
	err := r.Value.Set(s)
	if err != nil {
		r.c.bad = &valueError{name: r.name, value: s, err: err}
	}
	return err
}

// IsBoolFlag passes on what the wrapped value says.
func (r recorder) IsBoolFlag() bool {
	b, ok := r.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// New returns a Command whose flag set writes its messages to stderr
// and leaves the usage to Parse.
func New(name, usage string, stderr io.Writer) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Parse says what went wrong
	fs.Usage = func() {}     // Parse answers parse errors and -h
	c := &Command{Name: name, Usage: usage, Flags: fs, stderr: stderr}
	fs.BoolVar(&c.version, "version", false, "print the version of "+name+" and of Go, and exit")
	return c
}

// Version returns the command's version line: its name, the module's
// version (or "(devel)" for a build from a checkout, with the commit
// when the build recorded it) and the Go release that built it.
func (c *Command) Version() string {
	v, extra := "(unknown)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			extra = ", commit " + rev[:min(len(rev), 12)]
			if modified == "true" {
				extra += " with local changes"
			}
		}
	}
	return fmt.Sprintf("%s version %s (github.com/roce-go/roce%s), %s %s/%s", c.Name, v, extra, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// out is where -h and --version print.
func (c *Command) out() io.Writer {
	if c.Stdout != nil {
		return c.Stdout
	}
	return c.stderr
}

// Unbundle returns args with each cluster of one-letter flags split as
// getopt splits tcpdump's: "-nr FILE" is "-n -r FILE", "-c1" is "-c 1",
// "-xX" is "-x -X", "-ttt" stays "-ttt" (a flag of its own). An argument
// that is a flag's name (or NAME=VALUE) is left alone, as are the value
// after a flag that takes one, the arguments after "--", and a cluster
// one of whose letters is no flag (the flag package then names it).
func (c *Command) Unbundle(args []string) []string {
	var out []string
	takesValue := func(f *flag.Flag) bool {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return !ok || !b.IsBoolFlag()
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		if f := c.Flags.Lookup(name); f != nil || strings.HasPrefix(a, "--") || len(name) < 2 {
			out = append(out, a)
			if f != nil && !hasValue && takesValue(f) && i+1 < len(args) {
				i++
				out = append(out, args[i]) // its value, whatever it looks like
			}
			continue
		}
		split, value, ok := c.cluster(a[1:], takesValue)
		if !ok {
			out = append(out, a)
			continue
		}
		out = append(out, split...)
		if value && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// cluster splits the letters l of a cluster into flags; value reports
// that the last takes the next argument as its value.
func (c *Command) cluster(l string, takesValue func(*flag.Flag) bool) (split []string, value, ok bool) {
	for j := 0; j < len(l); j++ {
		f := c.Flags.Lookup(l[j : j+1])
		if f == nil {
			return nil, false, false
		}
		split = append(split, "-"+l[j:j+1])
		if takesValue(f) {
			if rest := l[j+1:]; rest != "" {
				return append(split, rest), false, true
			}
			return split, true, true
		}
	}
	return split, false, true
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

// errShape marks the errors of a flag used the wrong way, given twice
// or given a value it does not take: Parse follows them with the usage
// line.
var errShape = errors.New("shape")

// shapeError is an error of errShape.
type shapeError string

func (e shapeError) Error() string        { return string(e) }
func (e shapeError) Is(target error) bool { return target == errShape }

func (o *once) Set(s string) error {
	if o.set {
		return shapeError(fmt.Sprintf("given twice (already %q): it takes one value", o.Value.String()))
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
	p := &value
	c.Once(intValue{p}, name, usage)
	return p
}

// Duration defines a time.Duration flag that may be given once.
func (c *Command) Duration(name string, value time.Duration, usage string) *time.Duration {
	p := &value
	c.Once(durationValue{p}, name, usage)
	return p
}

// intValue is a flag.Value of an int, decimal or with Go's prefixes
// (0x, 0o, 0b).
type intValue struct{ p *int }

func (v intValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v intValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return errors.New("out of range")
	case err != nil:
		return errors.New("not a whole number")
	}
	*v.p = int(n)
	return nil
}

// durationValue is a flag.Value of a time.Duration.
type durationValue struct{ p *time.Duration }

func (v durationValue) String() string {
	if v.p == nil {
		return "0s"
	}
	return v.p.String()
}

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a duration (a number and a unit: 4us, 100ms, 2s)")
	}
	*v.p = d
	return nil
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
		return shapeError("takes no value")
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
// -h (the usage line, Help and the flags), 2 otherwise: for a value a
// flag refuses, "NAME: -FLAG: why" alone; for a flag it does not know or
// one without its value, the flag package's message after "NAME: ", the
// usage line and a pointer to -h.
func (c *Command) Parse(args []string) (pos []string, status int, ok bool) {
	fs := c.Flags
	// Each flag's value behind a recorder while the flags are parsed.
	fs.VisitAll(func(f *flag.Flag) { f.Value = recorder{Value: f.Value, name: f.Name, c: c} })
	unwrap := func() {
		fs.VisitAll(func(f *flag.Flag) {
			if r, ok := f.Value.(recorder); ok {
				f.Value = r.Value
			}
		})
	}
	defer unwrap()
	args = c.Unbundle(args)
	for {
		c.bad = nil
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(c.out(), c.Usage)
				if c.Help != "" {
					fmt.Fprintln(c.out(), c.Help)
				}
				unwrap()
				fs.SetOutput(c.out())
				fs.PrintDefaults()
				fs.SetOutput(io.Discard)
				return nil, 0, false
			}
			if c.bad != nil && !errors.Is(c.bad.err, errShape) {
				return nil, c.Fail("%v", c.bad), false
			}
			if c.bad != nil {
				return nil, c.usage("%v", c.bad), false
			}
			return nil, c.usage("%v", err), false
		}
		if c.version {
			fmt.Fprintln(c.out(), c.Version())
			return nil, 0, false
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

// Fail says on stderr what was wrong with the command line: "NAME: "
// and the message, which names the flags or the value (a bad value,
// flags that do not go together); it returns the exit status, 2.
func (c *Command) Fail(format string, a ...any) int {
	fmt.Fprintf(c.stderr, c.Name+": "+format+"\n", a...)
	return 2
}

// usage is Fail for a command line of the wrong shape: the message, then
// the usage line and a pointer to -h.
func (c *Command) usage(format string, a ...any) int {
	c.Fail(format, a...)
	fmt.Fprintf(c.stderr, "%s\n(%s -h lists the flags)\n", c.Usage, c.Name)
	return 2
}

// Stray fails for the first positional argument past the max a command
// takes, naming it and what it follows, with the usage line; it returns
// 0 when there is none.
func (c *Command) Stray(pos []string, max int, takes string) int {
	switch {
	case len(pos) <= max:
		return 0
	case max == 0:
		return c.usage("unexpected argument %q: %s", pos[0], takes)
	}
	return c.usage("unexpected argument %q after %q: %s", pos[max], strings.Join(pos[:max], " "), takes)
}

// Given reports whether the flag name was on the command line.
func (c *Command) Given(name string) bool {
	given := false
	c.Flags.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// prefixes are the package names some of the module's errors carry after
// "roce: " (or, for a few, alone at the start), which a command's
// message leaves out.
var prefixes = []string{"capture: ", "dump: ", "gen: ", "parquet: "}

// Message returns err's text as a command prints it: without the
// "roce: " that starts the module's errors, at the start or after the
// ": " of an error that wraps one, nor a package name of prefixes
// following it (or starting the text). The rest, the names and numbers
// the error gives, is kept.
func Message(err error) string {
	s := err.Error()
	trim := func(s string, any bool) (string, bool) {
		r, ok := strings.CutPrefix(s, "roce: ")
		if !ok && !any {
			return s, false
		}
		for _, p := range prefixes {
			if t, cut := strings.CutPrefix(r, p); cut {
				return t, true
			}
		}
		return r, ok
	}
	s, _ = trim(s, true)
	for cut := true; cut; {
		s, cut = trim(s, false)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, ": roce: ")
		if i < 0 {
			break
		}
		b.WriteString(s[:i+2])
		s = s[i+2:]
		for cut := true; cut; {
			s, cut = trim(s, false)
		}
	}
	b.WriteString(s)
	return b.String()
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
