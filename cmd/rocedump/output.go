package main

import (
	"errors"

	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/dump"
)

// textFlags are tcpdump's output flags, as rocedump takes them. Like
// tcpdump's letters they count: -t -t is -tt, -t -tt is -ttt, -x -x is
// -xx; -X wins over -x, and it is -X's count (-X or -XX) that says
// whether the link-level header is shown.
type textFlags struct {
	t, x, X    int
	e, q, nano *bool
	number     bool
	unresolved int // -n, -nn: nothing is resolved anyway
}

// outputFlags defines the output flags on cmd.
func outputFlags(cmd *cli.Command, e *eFlag) *textFlags {
	f := &textFlags{e: &e.link}
	fs := cmd.Flags
	for i, use := range []string{
		"no time on the lines",
		"time as seconds since 1970, with the fraction",
		"time since the previous line printed",
		"date and time of day",
		"time since the first line printed",
	} {
		name := "ttttt"[:i+1]
		if i == 0 {
			use += "; the -t flags add up as tcpdump's letters do: -t -tt is -ttt"
		}
		cmd.Count(&f.t, name, i+1, "text: "+use+" (tcpdump -"+name+")")
	}
	cmd.Count(&f.x, "x", 1, "text: each line followed by the frame in hex, without the link-level header (tcpdump -x)")
	cmd.Count(&f.x, "xx", 2, "text: as -x, with the link-level header")
	cmd.Count(&f.X, "X", 1, "text: each line followed by the frame in hex and ASCII, without the link-level header (tcpdump -X)")
	cmd.Count(&f.X, "XX", 2, "text: as -X, with the link-level header")
	f.q = fs.Bool("q", false, "text: shorter lines: no BTH flags, extended headers or ECN; the ICRC only when not good (tcpdump -q)")
	f.nano = fs.Bool("nano", false, "text: times to the nanosecond (tcpdump --nano)")
	fs.BoolVar(&f.number, "number", false, "text: each line starts with the frame's number in its capture (tcpdump --number)")
	fs.BoolVar(&f.number, "#", false, "text: as --number (tcpdump -#)")
	cmd.Count(&f.unresolved, "n", 1, "addresses, ports and QPs are never resolved to names, so -n, as tcpdump's and tshark's, changes nothing")
	cmd.Count(&f.unresolved, "nn", 2, "as -n")
	return f
}

// format returns the text format the flags ask for.
func (f *textFlags) format() (dump.TextFormat, error) {
	if f.t > int(dump.TimeSinceFirst) {
		return dump.TextFormat{}, errors.New("only -t, -tt, -ttt, -tttt and -ttttt are supported (the -t flags add up, as tcpdump's do: -t -tt is -ttt)")
	}
	tf := dump.TextFormat{Time: dump.TimeFormat(f.t), Nano: *f.nano, Link: *f.e, Quiet: *f.q, Number: f.number}
	switch {
	case f.X > 0:
		tf.Hex, tf.HexLink = dump.HexASCII, f.X > 1
	case f.x > 0:
		tf.Hex, tf.HexLink = dump.Hex, f.x > 1
	}
	return tf, nil
}
