// Command rocedump prints the frames of a pcap or pcapng capture, one line
// per frame, decoding RoCEv1 and RoCEv2 down to the last InfiniBand
// transport field.
//
// Usage:
//
//	rocedump [-json] [-utc] [-r] FILE
//	rocedump [-json] [-utc] < FILE
//
// FILE "-" or no FILE reads standard input. Text lines show the time,
// the addresses, the opcode, QP, PSN, flags, extended headers, payload
// length and ICRC status; -json prints JSON Lines whose keys are
// Wireshark display-filter names (package github.com/roce-go/roce/dump
// lists them). Only Ethernet captures are decoded; frames of other link
// types get a line saying so.
//
// Exit status: 0 when every frame decoded; 1 when some RoCE frames were
// malformed, or the capture was cut short (reported on standard error
// after printing what was read); 2 for unusable input: a missing file, a
// file that is not a capture, or frames of a link type rocedump does not
// decode.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/roce-go/roce/dump"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is the whole command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rocedump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print JSON Lines, keys named as Wireshark display filters")
	utc := fs.Bool("utc", false, "print text timestamps in UTC instead of local time")
	file := fs.String("r", "", "read this capture file (- is standard input)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rocedump [-json] [-utc] [-r] [FILE|-]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	name := *file
	switch {
	case fs.NArg() > 1 || fs.NArg() == 1 && name != "":
		fs.Usage()
		return 2
	case fs.NArg() == 1:
		name = fs.Arg(0)
	}
	in := stdin
	if name != "" && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(stderr, "rocedump:", err)
			return 2
		}
		defer f.Close()
		in = f
	} else {
		name = "standard input"
	}
	src, err := dump.NewSource(in)
	if err != nil {
		fmt.Fprintf(stderr, "rocedump: %s: %v\n", name, err)
		return 2
	}
	opt := dump.Options{JSON: *jsonOut, Location: time.Local}
	if *utc {
		opt.Location = time.UTC
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	st, err := dump.Dump(w, src, opt)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	status := 0
	if st.Malformed > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d of %d frames are malformed RoCE\n", name, st.Malformed, st.Frames)
		status = 1
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("capture is truncated in the middle of a record")
		}
		fmt.Fprintf(stderr, "rocedump: %s: after %d frames: %v\n", name, st.Frames, err)
		status = 1
	}
	if st.Unsupported > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d frames of a link type rocedump does not decode\n", name, st.Unsupported)
		status = 2
	}
	return status
}
