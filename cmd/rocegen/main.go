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
//	rocegen [flags] [-w FILE] [-format pcap|pcapng] [-scenario FILE|-]
//	rocegen [flags] -i IFACE [-loop N] [-scenario FILE]
//
// With no flags at all rocegen writes the default scenario: one RC RDMA
// WRITE of 64 KiB at MTU 4096 over RoCEv2/IPv4 (16 WRITE packets, First,
// 14 Middle and Last) and its Acknowledge, 17 frames. Without -w the
// capture goes to standard output when that is not a terminal (a file, a
// pipe or /dev/null), and only on a terminal to rocegen.pcap in the
// current directory. -format defaults to pcapng for a -w name ending in
// .pcapng and to pcap otherwise; both have nanosecond timestamps.
//
// Every setting of the traffic is a flag: -op, -size, -mtu, -transport,
// -encap, -qps, -messages, -vlan, -pcp, -dscp, -ecn, -ce-every,
// -ce-fraction, -cnp-interval, -pfc-every, -pfc-prio, -pfc-quanta,
// -bad-icrc, -seed, -rate and more (rocegen -h lists them with their
// defaults). -cm wraps each RC or UC connection in the RDMA-CM handshake
// (REQ, REP, RTU before the data, DREQ, DREP after; -cm-port sets the
// service port, default 7471, -cm-reject a REJ reason instead). -ulp
// nvme plays an NVMe/RDMA host and target instead: CM to port 4420 with
// the NVMe/RDMA private data, the admin queue's Connect, Property Gets
// and Set and Identify,
// each I/O queue's Connect, then -op read, write, send (in-capsule data)
// or send-inv I/O commands of -size bytes. A scenario file (-scenario) plays several phases one after
// the other: one phase per line, key=value with the flag names, each line
// starting from the command-line settings:
//
//	# 4 connections write 1 MiB each; a switch marks every 100th packet CE
//	op=write size=1M qps=4 ce-every=100
//	op=read size=1M qps=4 gap=10us
//	transport=ud op=send-imm size=1K messages=64 pfc-every=16
//
// rocegen reads a scenario file one line at a time, so its memory does
// not grow with the file; a regular file is checked whole before anything
// is written. -scenario - reads the scenario from standard input (a
// terminal there is refused with a hint).
//
// The command line behaves as rocedump's: -h lists the flags and exits 0;
// a flag given twice, an unknown flag or a stray argument is named, with
// the usage line, and exits 2; a bad value is named with its flag in one
// line (rocegen: -size: bad size "1Q"), without the usage.
//
// Times are exact or refused: -start from 1970 to 2106 in a pcap file (to
// 2262 in pcapng), -delay and -gap at most 1281h1m26.018427387s (53 days).
// A capture that would run past the last time its format holds, or a
// phase longer than 106 days, stops with an error rather than wrap.
//
// With -i IFACE (Linux packet sockets; root or CAP_NET_RAW) rocegen sends
// the frames it would write on the interface instead, in the same order,
// each when its timestamp falls due after the first frame's, as tcpreplay
// replays a capture; the timestamps follow -rate, which is thus the
// sending rate: bits per second on the wire with FCS, preamble and
// inter-frame gap counted (25G, 25Gbps; the default 100G is faster than
// a host sends, so as fast as possible), or packets per second ending in
// pps (100kpps). Deadlines are absolute: a late frame goes at once and
// the schedule holds. -loop N sends the scenario N times, the same frames
// each time (0: until SIGINT or SIGTERM, which stop it cleanly). The
// achieved rate goes to standard error: frames, bytes, seconds, packets
// per second and bits per second on the wire.
//
// The same seed and settings give byte-identical files. rocegen reports
// what it wrote on standard error. Exit status: 0 on success, 2 for bad
// flags or scenario (a time the capture cannot hold included), 1 when
// writing fails. A file rocegen fails to write is removed.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/cmd/internal/tty"
	"github.com/roce-go/roce/gen"
)

// usageLine is the first line of rocegen's usage.
const usageLine = "usage: rocegen [flags] [-w FILE] [-format pcap|pcapng] [-scenario FILE|-]"

// stdin is where -scenario - reads; tests replace it.
var stdin = os.Stdin

// defaultFile is where the capture goes when no -w is given and standard
// output is a terminal.
const defaultFile = "rocegen.pcap"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, tty.IsTerminal(os.Stdout), os.Stderr))
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

// IsBoolFlag says that the option is a switch (-cm), given without a
// value.
func (o optionFlag) IsBoolFlag() bool {
	for _, g := range gen.Options() {
		if g.Name == o.name {
			return g.Bool
		}
	}
	return false
}

// Set sets the option; its error leaves out the option's name, which the
// flag package's message already gives.
func (o optionFlag) Set(v string) error {
	err := o.cfg.Set(o.name, v)
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// run is the whole command; it returns the exit status. stdoutTTY says
// whether stdout is a terminal.
func run(args []string, stdout io.Writer, stdoutTTY bool, stderr io.Writer) int {
	cmd := cli.New("rocegen", usageLine, stderr)
	cmd.Stdout = stdout
	cmd.Help = "Without -w the capture goes to standard output (a file, a pipe, /dev/null),\n" +
		"or to " + defaultFile + " when standard output is a terminal."
	cfg := gen.DefaultConfig()
	out := cmd.String("w", "", "write the capture to this file, - for standard output (default: standard output,\nor "+defaultFile+" when standard output is a terminal)")
	format := cmd.String("format", "", "capture format, pcap or pcapng (default: pcapng for a .pcapng file name, else pcap)")
	scenario := cmd.String("scenario", "", "play the phases of this scenario file, one per line (key=value with the flag names); - reads standard input")
	iface := cmd.String("i", "", "send the frames on network interface `IFACE` (Linux; root or CAP_NET_RAW) at the times of their timestamps (see -rate) instead of writing a file")
	var verbose int
	cmd.Count(&verbose, "v", 1, "print on standard error what the faults did (-loss, -ack-loss, -dup, -rnr...): packets lost, NAKs, RNR NAKs,\ntimeouts, packets resent and go-back-N episodes, queue pairs in error")
	loops := cmd.Int("loop", 1, "-i: send the scenario `N` times, the same frames each time (0: until SIGINT or SIGTERM)")
	for _, o := range gen.Options() {
		cmd.Once(optionFlag{&cfg, o.Name}, o.Name, o.Usage)
	}
	pos, status, ok := cmd.Parse(args)
	if !ok {
		return status
	}
	if st := cmd.Stray(pos, 0, "rocegen takes flags only (a scenario file is -scenario FILE)"); st != 0 {
		return st
	}
	if *scenario == "-" && cli.TerminalStdin(stdin, stderr, "rocegen", "pipe the scenario in (rocegen -scenario - < phases.txt) or name its file (-scenario FILE)") {
		return 2
	}
	if msg := liveCheck(*iface, *loops, *out, *format, *scenario); msg != "" {
		fmt.Fprintln(stderr, "rocegen:", msg)
		return 2
	}
	name := *out
	if name == "" {
		name = "-"
		if stdoutTTY {
			name = defaultFile
		}
	}
	ff := capfile.FormatOf(name)
	if *format != "" {
		var err error
		if ff, err = capfile.ParseFormat(*format); err != nil {
			fmt.Fprintln(stderr, "rocegen:", cli.Message(err))
			return 2
		}
	}
	g, closeScenario, err := newGenerator(cfg, *scenario)
	if err == nil {
		defer closeScenario()
		if err = gen.CheckTime(ff, g.Start()); err != nil {
			err = fmt.Errorf("-start: %w", err)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "rocegen:", cli.Message(err))
		return 2
	}
	if *iface != "" {
		return sendLive(*iface, *loops, cfg, *scenario, g, closeScenario, stderr)
	}
	n, err := writeCapture(name, stdout, g, ff)
	if err != nil {
		// The generator's own errors are the scenario's: a line of a
		// file read as it plays, a time the clock cannot hold.
		scenarioErr := err == g.Err()
		if scenarioErr && *scenario != "" {
			err = fmt.Errorf("%s: %w", *scenario, err)
		}
		fmt.Fprintln(stderr, "rocegen:", cli.Message(err))
		if scenarioErr || errors.Is(err, gen.ErrTimeRange) {
			return 2
		}
		return 1
	}
	s := g.Stats()
	where := name
	if name == "-" {
		where = "standard output"
	}
	cm := ""
	if s.CM > 0 {
		cm = fmt.Sprintf(", %d CM", s.CM)
	}
	fmt.Fprintf(stderr, "rocegen: wrote %d frames, %d bytes (%s) to %s: %d requests, %d responses, %d CE marks, %d CNPs, %d PFC, %d bad ICRC%s\n",
		n, s.Bytes, ff, where, s.Requests, s.Responses, s.CE, s.CNPs, s.PFC, s.BadICRC, cm)
	if verbose > 0 {
		fmt.Fprintf(stderr, "rocegen: faults: %d data packets lost (%d before the capture point), %d ACKs lost, %d requests duplicated, "+
			"%d NAKs, %d RNR NAKs, %d timeouts; %d packets resent in %d go-back-N episodes (nak-seq %d rnr-nak %d timeout %d read-gap %d), %d queue pairs in error\n",
			s.Lost, s.LostUnseen, s.AcksLost, s.Duplicated, s.NAKs, s.RNRNAKs, s.Timeouts, s.Resent,
			s.EpisodesNAK+s.EpisodesRNR+s.EpisodesTimeout+s.EpisodesReadGap, s.EpisodesNAK, s.EpisodesRNR, s.EpisodesTimeout, s.EpisodesReadGap, s.QPErrors)
		fmt.Fprintf(stderr, "rocegen: the capture shows: %d PSN gaps (%d missing), %d out of order, %d retransmissions (%d resent, %d duplicated) in %d episodes\n",
			s.PSNGaps, s.PSNMissing, s.OutOfOrder, s.ResentSeen+s.Duplicated, s.ResentSeen, s.Duplicated, s.EpisodesShown)
	}
	return 0
}

// newGenerator returns the generator of cfg, or of the phases of the
// scenario file when one is named (each phase starting from cfg), and
// what closes the file. The scenario is streamed, one line at a time; a
// regular file is checked whole first, so that a bad line anywhere stops
// rocegen before it writes anything.
func newGenerator(cfg gen.Config, scenario string) (*gen.Generator, func() error, error) {
	if scenario == "" {
		g, err := gen.New(cfg)
		return g, func() error { return nil }, err
	}
	f, closeFile, err := openScenario(scenario)
	if err != nil {
		return nil, nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if err = gen.CheckScenario(f, cfg); err == nil {
			_, err = f.Seek(0, io.SeekStart)
		}
		if err != nil {
			closeFile()
			return nil, nil, fmt.Errorf("%s: %w", scenario, err)
		}
	}
	g, err := gen.StreamScenario(f, cfg)
	if err != nil {
		closeFile()
		return nil, nil, fmt.Errorf("%s: %w", scenario, err)
	}
	return g, closeFile, nil
}

// openScenario opens the scenario file, or takes standard input for "-"
// (a regular file there is checked whole first, as a named one is).
func openScenario(name string) (f *os.File, closeFile func() error, err error) {
	if name == "-" {
		return stdin, func() error { return nil }, nil
	}
	if f, err = os.Open(name); err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// writeCapture writes every frame of g to the file name ("-" is stdout)
// and returns the number of frames written. It removes a file it fails
// to write.
func writeCapture(name string, stdout io.Writer, g *gen.Generator, ff capfile.Format) (int, error) {
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
	if err != nil {
		os.Remove(name)
	}
	return n, err
}
