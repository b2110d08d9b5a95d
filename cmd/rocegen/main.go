// Command rocegen writes captures of RoCE traffic for test rigs: RDMA
// operations on RC, UC, UD or XRC queue pairs over RoCEv1 or RoCEv2 (IPv4
// or IPv6), segmented by the MTU, with the acknowledgements and READ
// responses of the other side, CE marks and the CNPs they cause, PFC
// frames and, on request, frames with a bad ICRC. Package
// github.com/roce-go/roce/gen does the work; rocegen parses flags and
// writes the file.
//
// Usage:
//
//	rocegen [flags] [-w FILE] [-format pcap|pcapng] [-scenario FILE]
//
// With no flags at all rocegen writes the default scenario: one RC RDMA
// WRITE of 64 KiB at MTU 4096 over RoCEv2/IPv4 (16 WRITE packets, First,
// 14 Middle and Last) and its Acknowledge, 17 frames. Without -w the
// capture goes to standard output when that is not a terminal (a pipe or
// a file), and otherwise to rocegen.pcap in the current directory.
// -format defaults to pcapng for a -w name ending in .pcapng and to pcap
// otherwise; both have nanosecond timestamps.
//
// Every setting of the traffic is a flag: -op, -size, -mtu, -transport,
// -encap, -qps, -messages, -vlan, -pcp, -dscp, -ecn, -ce-every,
// -ce-fraction, -cnp-interval, -pfc-every, -pfc-prio, -pfc-quanta,
// -bad-icrc, -seed, -rate and more (rocegen -h lists them with their
// defaults). A scenario file (-scenario) plays several phases one after
// the other: one phase per line, key=value with the flag names, each line
// starting from the command-line settings:
//
//	# 4 connections write 1 MiB each; a switch marks every 100th packet CE
//	op=write size=1M qps=4 ce-every=100
//	op=read size=1M qps=4 gap=10us
//	transport=ud op=send-imm size=1K messages=64 pfc-every=16
//
// The same seed and settings give byte-identical files. rocegen reports
// what it wrote on standard error. Exit status: 0 on success, 2 for bad
// flags or scenario, 1 when writing fails.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/roce-go/roce/gen"
)

// defaultFile is where the capture goes when no -w is given and standard
// output is a terminal.
const defaultFile = "rocegen.pcap"

func main() {
	tty := false
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		tty = true
	}
	os.Exit(run(os.Args[1:], os.Stdout, tty, os.Stderr))
}

// optionFlag sets one gen option from the command line.
type optionFlag struct {
	cfg  *gen.Config
	name string
}

func (o optionFlag) String() string {
	if o.cfg == nil {
		return ""
	}
	return o.cfg.Get(o.name)
}

func (o optionFlag) Set(v string) error { return o.cfg.Set(o.name, v) }

// run is the whole command; it returns the exit status. stdoutTTY says
// whether stdout is a terminal.
func run(args []string, stdout io.Writer, stdoutTTY bool, stderr io.Writer) int {
	fs := flag.NewFlagSet("rocegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := gen.DefaultConfig()
	out := fs.String("w", "", "write the capture to this file (- is standard output)")
	format := fs.String("format", "", "capture format, pcap or pcapng (default: pcapng for a .pcapng file name, else pcap)")
	scenario := fs.String("scenario", "", "play the phases of this scenario file, one per line (key=value with the flag names)")
	for _, o := range gen.Options() {
		fs.Var(optionFlag{&cfg, o.Name}, o.Name, o.Usage)
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rocegen [flags] [-w FILE] [-format pcap|pcapng] [-scenario FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rocegen: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	g, err := newGenerator(cfg, *scenario)
	if err != nil {
		fmt.Fprintln(stderr, "rocegen:", err)
		return 2
	}
	name := *out
	if name == "" {
		name = "-"
		if stdoutTTY {
			name = defaultFile
		}
	}
	ff := gen.FormatOf(name)
	if *format != "" {
		if ff, err = gen.ParseFormat(*format); err != nil {
			fmt.Fprintln(stderr, "rocegen:", err)
			return 2
		}
	}
	n, err := writeCapture(name, stdout, g, ff)
	if err != nil {
		fmt.Fprintln(stderr, "rocegen:", err)
		return 1
	}
	s := g.Stats()
	where := name
	if name == "-" {
		where = "standard output"
	}
	fmt.Fprintf(stderr, "rocegen: wrote %d frames, %d bytes (%s) to %s: %d requests, %d responses, %d CE marks, %d CNPs, %d PFC, %d bad ICRC\n",
		n, s.Bytes, ff, where, s.Requests, s.Responses, s.CE, s.CNPs, s.PFC, s.BadICRC)
	return 0
}

// newGenerator returns the generator of cfg, or of the phases of the
// scenario file when one is named (each phase starting from cfg).
func newGenerator(cfg gen.Config, scenario string) (*gen.Generator, error) {
	phases := []gen.Config{cfg}
	if scenario != "" {
		f, err := os.Open(scenario)
		if err != nil {
			return nil, err
		}
		phases, err = gen.ParseScenario(f, cfg)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", scenario, err)
		}
	}
	return gen.NewScenario(phases)
}

// writeCapture writes every frame of g to the file name ("-" is stdout)
// and returns the number of frames written.
func writeCapture(name string, stdout io.Writer, g *gen.Generator, ff gen.Format) (int, error) {
	if name == "-" {
		return gen.Write(stdout, g, ff)
	}
	file, err := os.Create(name)
	if err != nil {
		return 0, err
	}
	n, err := gen.Write(file, g, ff)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return n, err
}
