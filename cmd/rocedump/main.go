// Command rocedump prints the frames of a pcap or pcapng capture, one line
// per frame, decoding RoCEv1, RoCEv2, native InfiniBand, PFC and PAUSE
// frames down to the last field, or summarizes the capture per flow.
//
// Usage:
//
//	rocedump [flags] [-r] FILE [flags]
//	rocedump [flags] FILE|DIR... [flags]
//	rocedump [flags] < FILE
//	rocedump [flags] -i IFACE [-s SNAPLEN] [-p] [-B KiB] [-all]
//
// FILE "-" or no FILE reads standard input (a terminal there is refused
// with a hint). Flags may follow the file, as with tcpdump. -h lists the
// flags and exits 0; a flag that takes one value may be given once. The
// flags:
//
//	-r FILE     read this capture (pcap, pcapng, gzip-compressed pcap)
//	-json       JSON Lines, one object per frame, keys named as Wireshark
//	            display-filter fields (package github.com/roce-go/roce/dump
//	            lists them); with -stats, the summary as one JSON object
//	-utc        text timestamps in UTC instead of local time
//	-t, -tt, -ttt, -tttt, -ttttt  the time as tcpdump's flags give it:
//	            none, seconds since 1970, since the previous line printed,
//	            date and time of day, since the first line printed; the
//	            -t flags add up as tcpdump's letters do (-t -tt is -ttt)
//	-nano       times to the nanosecond (tcpdump --nano)
//	-x, -xx     each line followed by the frame in hex, as tcpdump -x:
//	            without the link-level header (-x) or with it (-xx)
//	-X, -XX     the same in hex and ASCII (-X wins over -x)
//	-e          the link-level header on each line, as tcpdump -e: MACs,
//	            VLAN tags, Ethertypes and length
//	-q          short lines: opcode, QP, PSN and payload length, the ICRC
//	            only when it is not good
//	-speed S    link speed for pause quanta, bits per second with k, M, G
//	            or T: 100G (the default), 25Gb/s, 2.5G, ...
//	-qp N       only frames to destination QP N (decimal or 0x hex);
//	            repeated, frames to any of them
//	-opcode OP  only frames of this BTH opcode: IBTA name as printed,
//	            case-insensitive ("RC SEND Only", "rc_send_only", "CNP"),
//	            number, or family: send, write, read (READ requests and
//	            responses), atomic (CmpSwap, FetchAdd, ATOMIC Acknowledge,
//	            ATOMIC WRITE), ack (Acknowledge), cnp, mad (UD SEND Only
//	            to QP 0 or 1); repeated, frames of any of them
//	-Y FILTER   only frames that pass this Wireshark display filter, as
//	            tshark -Y takes it: 'infiniband.bth.destqp == 0x12 &&
//	            ip.src == 10.0.0.1', 'vlan.id in {10, 20}', 'infiniband.reth'
//	            (fields named as the JSON keys; package
//	            github.com/roce-go/roce/dfilter says what is supported);
//	            with -qp and -opcode, frames must pass all three; a bad
//	            filter is refused naming its column (exit 2)
//	-v          after each text line, every header of the frame on its own
//	            line with all its fields, a compact tshark -V
//	-c N        stop after N frames (that pass -Y, -qp and -opcode)
//	-w FILE     write the frames that pass -Y, -qp, -opcode and -c to FILE
//	            instead of printing them: bytes, lengths, timestamps (to
//	            the nanosecond) and link types unchanged; "-" is standard
//	            output. Frames of several link types need pcapng
//	-F FORMAT   the format of the -w file: pcap or pcapng (default:
//	            pcapng for a name ending in .pcapng, pcap otherwise)
//	-parquet OUT  write the frames that pass -Y, -qp, -opcode and -c as a
//	            Parquet file instead of printing them: one row per frame,
//	            one typed, nullable column per JSON key, named as the key,
//	            and frame.file, the capture's name (package
//	            github.com/roce-go/roce/dump/parquetrows gives the types);
//	            OUT a directory (existing, or ending in /): OUT/NAME.parquet
//	            for each capture; "-" is standard output
//	-stats      print a per-flow and per-priority summary instead of the
//	            frames (package github.com/roce-go/roce/flow explains it);
//	            like tshark -Y with -z, the flows are those of the frames
//	            that pass -Y, -qp and -opcode (the closing frame counts
//	            are of every frame read)
//	-max-flows N  flows -stats tracks one by one (default 4096); others are
//	            counted together as "other"
//	-cnp-interval D  the least time a receiver leaves between two CNPs
//	            to one QP (default 4µs, cnp.DefaultInterval, the ConnectX
//	            default): closer CNPs are pacing violations, and CE marks
//	            sooner than this after one that caused a CNP are taken to
//	            cause none; 0 means the receiver does not pace
//	-pfc-storm D  flag a PFC priority paused without a break for longer
//	            than this (default 100ms, the usual switch watchdog)
//	-ecmp N     with -stats: a what-if of ECMP or LAG over N paths (2 to
//	            1024): every 5-tuple hashed with each hash of package
//	            github.com/roce-go/roce/ecmp (crc16-ccitt, crc32,
//	            xor-fold), the bytes per path and the max/mean imbalance
//	-j N        decode with N goroutines, reading ahead in batches
//	            (default: the number of CPUs for a file, 1 for a pipe,
//	            whose frames then show as they arrive); the output is
//	            the same whatever N. With several captures, up to N of
//	            them are decoded at once
//	-i IFACE    capture live on a network interface instead of reading a
//	            file (Linux packet sockets; root or CAP_NET_RAW), with
//	            every filter and output mode; only RoCE, PFC/PAUSE and
//	            LLDP frames reach rocedump (a kernel filter) unless -all
//	            or -Y; frames are read one at a time (-j 1 unless given)
//	            and each line shows as its frame arrives (within about
//	            20 ms). SIGINT or SIGTERM stops it cleanly (-stats
//	            printed, the -w file complete); standard error then gets
//	            tcpdump's "N packets captured", "N packets received by
//	            filter" and "N packets dropped by kernel"
//	-s SNAPLEN  -i: keep the first SNAPLEN bytes of each frame (default
//	            and 0: 262144); the original length is kept
//	-p          -i: leave the interface out of promiscuous mode
//	-B KiB      -i: the capture's ring buffer (default 2048, 2 MiB, as
//	            tcpdump's)
//	-all        -i: every frame of the interface, not only those rocedump
//	            reads
//	-R          read the directories given recursively
//	-per-file   with -stats and several captures: one summary per
//	            capture instead of one for all
//	-timeline F write a congestion timeline of the captures to the
//	            HTML page F (instead of printing the frames); "-" is
//	            standard output
//	-timeline-flows N  flows the timeline draws, the N with the most
//	            bytes (default 8)
//
// Several captures (FILE..., directories: their files named *.pcap,
// *.pcapng, *.cap, tcpdump's rotated *.pcapN, each possibly .gz, in
// name order; with -R their subdirectories too) print one after another
// in the order given, each preceded in text by a line "==> FILE <==",
// and in JSON with the key "frame.file" naming the capture; frame
// numbers count from 1 in each capture. -stats summarizes them as one
// capture merged by time (see dump.Merge), -per-file each apart;
// -parquet OUT/ writes one file per capture; -w, and -parquet to a file
// or standard output, hold one capture and are refused. Each output
// works on one capture, several, a directory, standard input and -i
// alike.
//
// No flag is ignored: a flag that changes nothing beside the others is
// refused, naming both, with exit status 2, before anything is read or
// written. The output flags -v, -utc, -e, -q, -x, -X, -t... and -nano
// shape text lines: they are refused where no text line is printed
// (-json, -stats, -w, -parquet, -timeline); -json goes with the lines
// or the -stats summary; -w, -parquet and -timeline exclude one
// another, -parquet excludes -stats; -max-flows, -cnp-interval and
// -pfc-storm need -stats or -timeline, -ecmp -stats, -timeline-flows -timeline,
// -per-file -stats, -speed text lines, -stats or -timeline, -R a DIR,
// -F -w, and -s, -p and -B -i. With one capture -per-file changes
// nothing.
//
// No output overwrites an input: a -w, -parquet or -timeline file, or
// standard output redirected to a file, that is a capture being read
// (by whatever name, a symbolic or a hard link, standard input), another
// output, or a file not there yet that a directory being read would
// take for one of its captures, is refused with exit status 2.
//
// Link types: Ethernet, Linux cooked captures v1 and v2 (tcpdump -i any),
// and ERF records of native InfiniBand (type 21) or Ethernet (type 2).
// Text lines show the time, the addresses, the opcode, QP, PSN, BTH flags
// (SE, M, A, FECN, BECN), extended headers, payload length, ECN codepoint
// and ICRC status; CNPs print as "CNP qp 0x000034 becn", PFC frames as
// "PFC pause [3 7] c3 65535q=335.54us c7 4660q=23.86us resume [1]".
//
// On a terminal, a progress line is kept on standard error for captures
// that take more than two seconds.
//
// Exit status: 0 when every frame decoded (frames the capture cut after
// their headers decode, "icrc unchecked"); 1 when some frames did not
// decode (malformed RoCE, InfiniBand, MAC Control or cooked frames, ERF
// records of a type rocedump does not decode), some records could not be
// read (each reported with its frame number and byte offset, the rest
// read on), or the capture was cut short (reported on standard error
// after printing what was read, with the frame, the offset and what is
// wrong); 2 for unusable input: bad flags or flags that do not go
// together, an output that cannot be made or would overwrite an input, a
// missing file, a file that is not a capture, or frames of a link type
// rocedump does not decode.
//
// Messages on standard error start "rocedump: ", name the flag and the
// value, or the capture, the frame and the byte offset; the usage line
// follows only a flag rocedump does not know, one without its value or
// given twice.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/internal/mmap"
	"github.com/roce-go/roce/pfc"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A batch command whose heap is small and short-lived: collect
		// it a fourth as often as Go's default (GOGC=100) would.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, status, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return status
	}
	if c.live.iface != "" {
		if msg := clobbers(&c, nil, nil, stdout); msg != "" {
			fmt.Fprintln(stderr, "rocedump:", msg)
			return 2
		}
		return runLive(c, stdout, stderr)
	}
	if (c.file == "" || c.file == "-") && cli.TerminalStdin(stdin, stderr, "rocedump", "give a capture file (rocedump FILE) or pipe one in (tcpdump -w - | rocedump)") {
		return 2
	}
	var files, problems []string
	if c.multi() {
		files, problems = expand(c.many.files, *c.many.recursive)
	} else if c.file != "" {
		files = []string{c.file}
	}
	if msg := clobbers(&c, files, stdin, stdout); msg != "" {
		fmt.Fprintln(stderr, "rocedump:", msg)
		return 2
	}
	if c.multi() {
		return runMulti(c, files, problems, stdin, stdout, stderr)
	}
	in, size, name, closeIn, err := openInput(c.file, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rocedump:", cli.Message(err))
		return 2
	}
	defer closeIn()
	if c.opt.Workers == 0 && !regular(in) {
		c.opt.Workers = 1 // a pipe: each frame as it comes
	}
	src, err := newSource(in)
	if err != nil {
		fmt.Fprintf(stderr, "rocedump: %s: %s\n", name, cli.Message(err))
		return 2
	}
	c.opt.Unreadable = func(e *capfile.ReadError) { fmt.Fprintf(stderr, "rocedump: %s: %s\n", name, cli.Message(e)) }
	prog := newProgress(stderr, size)
	if prog != nil {
		c.opt.Progress = prog.update
	}
	st, err := scan(c, src, in, stdout, prog)
	return exitStatus(stderr, name, st, err)
}

// scan is the work on an open source: the frames printed, written (-w,
// -parquet), summarized (-stats) or drawn (-timeline) to stdout or to
// their files. prog may be nil.
func scan(c config, src *capfile.Source, in io.Reader, stdout io.Writer, prog *progress) (dump.Stats, error) {
	w := bufio.NewWriterSize(stdout, 64<<10)
	var st dump.Stats
	var err error
	switch {
	case c.parquet != "":
		capture, path := parquetCapture(c)
		st, err = writeParquet(c, src, capture, path, stdout)
	case c.out != "":
		st, err = writeCapture(c, src, w, stdout)
	case *c.many.timeline != "":
		st, err = drawTimeline(c, src, captureName(c), w, prog)
	case c.stats:
		an := flow.New(c.flowConfig())
		if c.opt.Workers == 1 {
			st, err = dump.Scan(src, c.opt, func(r *dump.Record) error { an.AddRecord(r); return nil })
		} else {
			// The decoding goroutines take what the analysis reads of
			// each frame; this one only runs the analysis, in order.
			st, err = dump.ScanParts(src, c.opt, func() dump.Part { return flow.NewBatch() },
				func(p dump.Part) error { an.AddBatch(p.(*flow.Batch)); return nil })
		}
		prog.clear()
		if werr := writeSummary(w, an.Report(), st, c.opt.JSON); err == nil {
			err = werr
		}
	default:
		writeFieldsHeader(w, c)
		st, err = dump.Dump(c.live.lines(w), src, c.opt)
	}
	prog.clear()
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	return st, err
}

// captureName is the name of the command's one capture: the interface
// of -i, the file, or "standard input".
func captureName(c config) string {
	switch {
	case c.live.iface != "":
		return c.live.iface
	case c.file == "" || c.file == "-":
		return "standard input"
	}
	return c.file
}

// flowConfig is the configuration of the flow analysis of -stats and
// -timeline.
func (c *config) flowConfig() flow.Config {
	return flow.Config{MaxFlows: c.maxFlows, Speed: c.opt.Speed, CNPInterval: c.cnpInterval, PFCStorm: c.pfcStorm,
		ECMPPaths: c.ecmpPaths}
}

// outputError is an output file that could not be made: nothing was
// read, and the command's exit status is 2.
type outputError struct {
	flag string // -w, -parquet, -timeline
	err  error
}

func (e *outputError) Error() string { return e.flag + ": " + cli.Message(e.err) }
func (e *outputError) Unwrap() error { return e.err }

// createOutput creates the output file path of flag ("-": stdout, which
// close leaves open).
func createOutput(flag, path string, stdout io.Writer) (w io.Writer, close func() error, err error) {
	if path == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, &outputError{flag, err}
	}
	return f, f.Close, nil
}

// config is what the command line asks for.
type config struct {
	opt       dump.Options // printing, filter and count
	stats     bool         // a per-flow summary instead of the frames
	maxFlows  int          // flows the summary tracks one by one
	ecmpPaths int          // -ecmp: the paths of the what-if (0: none)
	// cnpInterval is the CNP pacing the summary assumes (negative:
	// none); pfcStorm the pause that makes a PFC storm.
	cnpInterval, pfcStorm time.Duration
	file                  string // the capture; "" or "-" is standard input
	many                         // several captures, -per-file, -timeline (multi.go)
	out                   string // -w: the capture to write ("-": standard output)
	format                capfile.Format
	live                  liveConfig // -i: a live capture
	parquet               string     // -parquet: the Parquet file or directory to write
}

// ulpNames are the names -ulp takes, as the usage line lists them.
var ulpNames = ulpList("|", false)

// ulpList returns the names of the protocols -ulp takes (dump.ULPs),
// joined by sep, each with what it decodes in parentheses when docs.
func ulpList(sep string, docs bool) string {
	var b strings.Builder
	for i, u := range dump.ULPs() {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(u.String())
		if docs {
			b.WriteString(" (" + u.Doc() + ")")
		}
	}
	return b.String()
}

var usageLine = "usage: rocedump [-json] [-stats [-per-file]] [-timeline OUT.html [-timeline-flows N]] [-utc] [-v] [-e] [-q] [-x|-xx|-X|-XX] [-t|-tt|-ttt|-tttt|-ttttt] [-nano] [-speed S] [-ulp " + ulpNames + "] [-Y FILTER] [-qp N]... [-opcode OP]... [-c N] [-w FILE [-F pcap|pcapng]] [-parquet OUT] [-max-flows N] [-cnp-interval D] [-pfc-storm D] [-ecmp N] [-j N] [-R] [-i IFACE [-s SNAPLEN] [-p] [-B KiB] [-all] | [-r] FILE|DIR...|-] [flags]"

// parseFlags reads the command line. It reports ok false, having said
// why on stderr, when the command line is unusable or asked for help:
// status is then the exit status, 0 for -h, 2 otherwise.
func parseFlags(args []string, stdout, stderr io.Writer) (c config, status int, ok bool) {
	cmd := cli.New("rocedump", usageLine, stderr)
	cmd.Stdout = stdout
	fs := cmd.Flags
	oneString, oneInt, oneDuration := cmd.String, cmd.Int, cmd.Duration
	jsonOut := fs.Bool("json", false, "print JSON Lines, keys named as Wireshark display filters (with -stats: one JSON object)")
	utc := fs.Bool("utc", false, "print text timestamps in UTC instead of local time")
	file := oneString("r", "", "read this capture `FILE` (- is standard input)")
	speed := oneString("speed", "100G", "link `speed` for pause quanta: 100G, 25Gb/s, 2.5G, ...")
	ulp := oneString("ulp", "", "decode the payloads of RC SEND Only messages as this upper-layer `protocol`: "+ulpList(", ", true))
	fs.Func("qp", "only frames to destination `QP` (decimal or 0x hex); repeated: to any of them", func(s string) error {
		v, err := dump.ParseQP(s)
		if err == nil {
			c.opt.Filter.AddQP(v)
		}
		return err
	})
	fs.Func("opcode", "only frames of this BTH `opcode`: IBTA name as printed (case-insensitive), number, or family: "+
		strings.Join(dump.OpcodeFamilies, ", ")+"; repeated: any of them", c.opt.Filter.AddOpcodes)
	count := oneInt("c", 0, "stop after `N` frames that pass -Y, -qp and -opcode (0: all)")
	out := oneString("w", "", "write the frames that pass -Y, -qp, -opcode and -c to capture `FILE`, unchanged, instead of printing them (- is standard output)")
	format := oneString("F", "", "`format` of the -w file: pcap or pcapng (default: pcapng for a name ending in .pcapng, else pcap)")
	stats := fs.Bool("stats", false, "print a per-flow and per-priority summary instead of the frames")
	maxFlows := oneInt("max-flows", flow.DefaultMaxFlows, "`N` flows -stats tracks one by one; the others are counted as other")
	cnpInterval := oneDuration("cnp-interval", cnp.DefaultInterval, "-stats: least `time` between two CNPs to one QP; closer ones are pacing violations (0: no pacing)")
	pfcStorm := oneDuration("pfc-storm", flow.DefaultPFCStorm, "-stats: flag a PFC priority paused without a break for longer than this `time`")
	ecmpPaths := oneInt("ecmp", 0, "-stats: what-if: hash every 5-tuple onto `N` paths (2 to 1024) with each ECMP hash (crc16-ccitt, crc32, xor-fold) and give the bytes per path")
	workers := oneInt("j", 0, "decode with `N` goroutines (0: the number of CPUs for a file, 1 for a pipe)")
	tf := addFieldsFlags(cmd, asksFields(args))
	text := outputFlags(cmd, tf.e)
	display := addDisplayFlags(fs, oneString)
	c.live.register(cmd)
	pq := addParquetFlags(oneString)
	c.many.flags(fs, oneString, oneInt)
	fail := func(format string, a ...any) (config, int, bool) { return c, cmd.Fail(format, a...), false }
	// Flags after the file, as tcpdump takes them: rocedump FILE -qp 5.
	pos, status, ok := cmd.Parse(args)
	if !ok {
		return c, status, false
	}
	c.opt.JSON, c.opt.Location, c.opt.Count = *jsonOut, time.Local, *count
	c.stats, c.maxFlows = *stats, *maxFlows
	if *utc {
		c.opt.Location = time.UTC
	}
	var err error
	if c.opt.Speed, err = pfc.ParseSpeed(*speed); err != nil {
		return fail("-speed: %s", cli.Message(err))
	}
	if *ulp != "" {
		if c.opt.ULP, err = dump.ParseULP(*ulp); err != nil {
			return fail("-ulp: %q is not a protocol rocedump decodes (%s)", *ulp, ulpList(", ", false))
		}
	}
	if *count < 0 || *maxFlows < 1 {
		return fail("-c and -max-flows must be positive")
	}
	if cmd.Given("ecmp") && (*ecmpPaths < 2 || *ecmpPaths > flow.MaxECMPPaths) {
		return fail("-ecmp: %d paths: want 2 to %d", *ecmpPaths, flow.MaxECMPPaths)
	}
	c.ecmpPaths = *ecmpPaths
	if *workers < 0 {
		return fail("-j must not be negative")
	}
	c.opt.Workers = *workers
	if err := display.apply(&c); err != nil {
		return fail("%v", err)
	}
	if *cnpInterval < 0 || *pfcStorm <= 0 {
		return fail("-cnp-interval must not be negative, -pfc-storm must be positive")
	}
	c.cnpInterval, c.pfcStorm = *cnpInterval, *pfcStorm
	if c.cnpInterval == 0 {
		c.cnpInterval = -1 // flow.Config: no pacing
	}
	c.out = *out
	c.format = capfile.FormatOf(c.out)
	if *format != "" {
		if c.format, err = capfile.ParseFormat(*format); err != nil {
			return fail("-F: %s", cli.Message(err))
		}
		if c.out == "" {
			return fail("-F says the format of the -w file: give -w FILE")
		}
	}
	if c.opt.Text, err = text.format(); err != nil {
		return fail("%v", err)
	}
	pq.apply(&c)
	if msg := tf.apply(&c, pos); msg != "" {
		return fail("%s", msg)
	}
	c.file = *file
	if c.file != "" {
		pos = append([]string{c.file}, pos...)
	}
	if len(pos) > 0 {
		c.file = pos[0]
	}
	if msg := c.many.check(pos); msg != "" {
		return fail("%s", msg)
	}
	if msg := c.live.check(c.file); msg != "" {
		return fail("%s", msg)
	}
	if msg := combination(cmd, &c, pos); msg != "" {
		return fail("%s", msg)
	}
	return c, 0, true
}

// writeCapture is -w: the frames that pass the filters go to c.out,
// unchanged; with -stats, the summary goes to w (on standard output).
func writeCapture(c config, src *capfile.Source, w *bufio.Writer, stdout io.Writer) (dump.Stats, error) {
	of, closeOut, err := createOutput("-w", c.out, stdout)
	if err != nil {
		return dump.Stats{}, err
	}
	defer closeOut()
	bw := bufio.NewWriterSize(of, 256<<10)
	lt, ok := src.LinkType()
	if !ok {
		lt = capfile.LinkTypeEthernet
	}
	cw := capfile.NewWriter(bw, c.format, lt)
	fn := func(r *dump.Record) error { return dump.WriteRecord(cw, r) }
	var an *flow.Analyzer
	if c.stats {
		an = flow.New(c.flowConfig())
		fn = func(r *dump.Record) error { an.AddRecord(r); return dump.WriteRecord(cw, r) }
	}
	st, err := dump.Scan(src, c.opt, fn)
	if cerr := cw.Close(); err == nil {
		err = cerr
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if an != nil {
		if werr := writeSummary(w, an.Report(), st, c.opt.JSON); err == nil {
			err = werr
		}
	}
	return st, err
}

// openInput opens the capture file, or takes stdin for "" and "-". It
// returns the name to use in messages, and the file's size when it is a
// regular file (0 otherwise) for the progress line.
func openInput(file string, stdin io.Reader) (in io.Reader, size int64, name string, closeIn func() error, err error) {
	if file == "" || file == "-" {
		return stdin, 0, "standard input", func() error { return nil }, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, 0, "", nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	if m, ok := mmap.Map(f); ok {
		return &mapped{Reader: bytes.NewReader(m.Bytes()), m: m, f: f}, size, file, func() error {
			err := m.Close()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}, nil
	}
	return f, size, file, f.Close, nil
}

// mapped is a capture file mapped into memory (internal/mmap): newSource
// reads its frames in place.
type mapped struct {
	*bytes.Reader
	m *mmap.File
	f *os.File
}

// inputFile returns the file that in reads, if it reads one.
func inputFile(in io.Reader) (*os.File, bool) {
	if m, ok := in.(*mapped); ok {
		return m.f, true
	}
	f, ok := in.(*os.File)
	return f, ok
}

// newSource reads the file header of the capture in.
func newSource(in io.Reader) (*capfile.Source, error) {
	if m, ok := in.(*mapped); ok {
		return capfile.NewSourceMapped(m.m)
	}
	return capfile.NewSource(in)
}

// regular reports whether in is a regular file, which the pipeline may
// read ahead in without delaying any line.
func regular(in io.Reader) bool {
	f, ok := inputFile(in)
	if !ok {
		// Not a file: a reader of bytes already there (tests), or
		// something that can block; only the former is known here.
		_, ok = in.(interface{ Len() int })
		return ok
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// writeSummary writes the -stats report, text or JSON; both give the
// frame counts, the text one on its last line, the JSON one as "totals".
func writeSummary(w io.Writer, rep *flow.Report, st dump.Stats, jsonOut bool) error {
	if jsonOut {
		rep.Totals = &flow.Totals{Frames: st.Frames, RoCE: st.RoCE, InfiniBand: st.InfiniBand, MACControl: st.MACControl,
			NotRoCE: st.NotRoCE, Malformed: st.Malformed, Unsupported: st.Unsupported, BadICRC: st.BadICRC,
			ICRCUnchecked: st.Truncated, Unreadable: st.Unreadable}
		return rep.WriteJSON(w)
	}
	if err := rep.WriteText(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "frames %d: RoCE %d, InfiniBand %d, MAC Control %d, not RoCE %d, malformed %d, unsupported %d, bad ICRC %d, ICRC unchecked %d, unreadable %d\n",
		st.Frames, st.RoCE, st.InfiniBand, st.MACControl, st.NotRoCE, st.Malformed, st.Unsupported, st.BadICRC, st.Truncated, st.Unreadable)
	return err
}

// exitStatus reports on stderr what went wrong, if anything, and returns
// the exit status: 1 for frames that did not decode or a read or write
// error, 2 for an output that could not be made (nothing was read) or
// for frames of a link type rocedump does not decode.
func exitStatus(stderr io.Writer, name string, st dump.Stats, err error) int {
	var oe *outputError
	if err != nil && st.Frames == 0 && errors.As(err, &oe) {
		fmt.Fprintln(stderr, "rocedump:", err)
		return 2
	}
	status := 0
	if st.Malformed > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d of %d frames did not decode\n", name, st.Malformed, st.Frames)
		status = 1
	}
	if st.UnsupportedERF > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d of %d frames are ERF records of a type rocedump does not decode (it decodes types %d, Ethernet, and %d, InfiniBand)\n",
			name, st.UnsupportedERF, st.Frames, dump.ERFTypeEthernet, dump.ERFTypeInfiniBand)
		status = 1
	}
	if st.Unreadable > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d records could not be read and were skipped\n", name, st.Unreadable)
		status = 1
	}
	if err != nil {
		var re *capfile.ReadError
		msg := cli.Message(err)
		switch {
		case errors.Is(err, capfile.ErrShrank):
			msg = "the file shrank while it was read; the frames up to its new end were read"
		case !errors.As(err, &re) && errors.Is(err, io.ErrUnexpectedEOF):
			msg = "the capture is cut short in the middle of a record"
		}
		fmt.Fprintf(stderr, "rocedump: %s: after %d frames: %s\n", name, st.Frames, msg)
		status = 1
	}
	if n := st.Unsupported - st.UnsupportedERF; n > 0 {
		fmt.Fprintf(stderr, "rocedump: %s: %d frames of a link type rocedump does not decode\n", name, n)
		status = 2
	}
	return status
}

// progress keeps a line on a terminal's standard error.
type progress struct {
	w           io.Writer
	size        int64
	start, last time.Time
	shown       bool
}

// newProgress returns nil unless stderr is a terminal (a character
// device).
func newProgress(stderr io.Writer, size int64) *progress {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	now := time.Now()
	return &progress{w: stderr, size: size, start: now, last: now}
}

// update prints the line at most four times a second, from two seconds
// on.
func (p *progress) update(frames int, offset int64) {
	now := time.Now()
	if now.Sub(p.start) < 2*time.Second || now.Sub(p.last) < 250*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	rate := float64(frames) / now.Sub(p.start).Seconds()
	if p.size > 0 {
		pct := 100 * float64(offset) / float64(p.size)
		if pct > 100 {
			pct = 100
		}
		fmt.Fprintf(p.w, "\rrocedump: %d frames, %.0f%%, %.0f frames/s ", frames, pct, rate)
	} else {
		fmt.Fprintf(p.w, "\rrocedump: %d frames, %.0f frames/s ", frames, rate)
	}
}

// clear erases the progress line, if one was shown.
func (p *progress) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
