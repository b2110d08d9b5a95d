package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cmd/internal/cli"

	"github.com/roce-go/roce/capture"
)

// defaultBufferKiB is the ring of -i without -B: 2 MiB, libpcap's
// default (tcpdump's -B).
const defaultBufferKiB = capture.DefaultBufferSize >> 10

// liveConfig is what -i and its flags ask for.
type liveConfig struct {
	iface     string   // -i: the interface; "" reads a file
	snaplen   int      // -s: bytes kept of each frame (0: capture.DefaultSnaplen)
	noPromisc bool     // -p
	bufferKiB int      // -B: the ring's size
	all       bool     // -all: every frame, no kernel filter
	set       bool     // -s or -B given
	workers   int      // -j of the capture, set by runLive
	out       *liveOut // shared by the copies of the config
}

// liveOut is where lines leaves the flush of the lines written, which
// the capture calls when it has no frame to hand on.
type liveOut struct{ flush func() error }

// intValue is a flag.Value of an int that notes it was set.
type intValue struct {
	p   *int
	set *bool
}

func (v intValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not a whole number")
	}
	*v.p, *v.set = n, true
	return nil
}

// register adds -i, -s, -p, -B and -all to cmd.
func (l *liveConfig) register(cmd *cli.Command) {
	fs := cmd.Flags
	cmd.StringVar(&l.iface, "i", "", "capture live on network interface `IFACE` (Linux; root or CAP_NET_RAW) instead of reading a file; stop with SIGINT (^C), SIGTERM or -c")
	l.snaplen = capture.DefaultSnaplen
	cmd.Once(intValue{&l.snaplen, &l.set}, "s", "-i: keep the first `SNAPLEN` bytes of each frame, as tcpdump (0: 262144)")
	fs.BoolVar(&l.noPromisc, "p", false, "-i: do not put the interface in promiscuous mode")
	l.bufferKiB = defaultBufferKiB
	cmd.Once(intValue{&l.bufferKiB, &l.set}, "B", "-i: the capture's ring buffer in `KiB`, as tcpdump's -B (default 2048); more rides out longer bursts without drops")
	fs.BoolVar(&l.all, "all", false, "-i: every frame of the interface, not only RoCE, PFC/PAUSE and LLDP (which a kernel filter lets through otherwise, unless -Y)")
}

// filter returns the kernel filter of the capture: RoCEFilter unless
// -all asks for every frame or a display filter, which may select any
// frame (tshark -Y sees them all), is given.
func (l *liveConfig) filter(c config) []capture.Instruction {
	if l.all || c.opt.Match != nil {
		return nil
	}
	return capture.RoCEFilter()
}

// check returns what is wrong with the live flags beside the capture
// file named on the command line, or "".
func (l *liveConfig) check(file string) string {
	switch {
	case l.iface == "" && (l.set || l.noPromisc || l.all):
		return "-s, -p, -B and -all are for a live capture: give -i IFACE"
	case l.iface != "" && file != "":
		return fmt.Sprintf("-i %s and capture file %q: capture live or read a file, not both", l.iface, file)
	case l.snaplen < 0 || l.snaplen > capfile.MaxSnaplen:
		return fmt.Sprintf("-s %d: want 1 to %d bytes (0: %d)", l.snaplen, capfile.MaxSnaplen, capture.DefaultSnaplen)
	case l.bufferKiB < 1 || l.bufferKiB > 1<<21:
		return fmt.Sprintf("-B %d: want 1 to %d KiB", l.bufferKiB, 1<<21)
	}
	return ""
}

// lines returns where Dump writes its lines: w itself for a file, and
// for a live capture w flushed whenever the capture has no frame waiting
// (read and written one at a time, -j 1), or after each line (-j N reads
// ahead on another goroutine), so that every frame shows as it arrives.
func (l *liveConfig) lines(w *bufio.Writer) io.Writer {
	if l.iface == "" {
		return w
	}
	if l.workers == 1 && l.out != nil {
		l.out.flush = w.Flush
		return w
	}
	return flushEach{w}
}

// idle is the capture's Options.Idle: it flushes the lines written (on
// the goroutine that writes them, with -j 1).
func (o *liveOut) idle() {
	if o.flush != nil {
		o.flush()
	}
}

// flushEach flushes its buffered writer after every write.
type flushEach struct{ w *bufio.Writer }

func (f flushEach) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}

// runLive is rocedump -i: the frames of the interface (those the kernel
// filter lets through) go through scan as a file's would, until -c is
// reached or SIGINT or SIGTERM closes the capture; then tcpdump's closing
// lines go to stderr.
func runLive(c config, stdout, stderr io.Writer) int {
	if c.opt.Workers == 0 {
		c.opt.Workers = 1 // each frame as it comes
	}
	c.live.workers, c.live.out = c.opt.Workers, &liveOut{}
	h, err := capture.Open(c.live.iface, capture.Options{
		Snaplen: c.live.snaplen, NoPromiscuous: c.live.noPromisc, BufferSize: c.live.bufferKiB << 10,
		Filter: c.live.filter(c), Idle: c.live.out.idle})
	if err != nil {
		fmt.Fprintln(stderr, "rocedump:", cli.Message(err))
		if errors.Is(err, os.ErrPermission) {
			fmt.Fprintln(stderr, "rocedump: a live capture needs root or the CAP_NET_RAW capability")
		}
		return 2
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-sig:
			signal.Stop(sig) // a second ^C kills at once
			h.Close()        // the reads return what the ring holds, then io.EOF: scan ends as at the end of a file
		case <-done:
		}
	}()
	defer signal.Stop(sig)
	fmt.Fprintf(stderr, "rocedump: listening on %s, link-type EN10MB (Ethernet), snapshot length %d bytes\n", c.live.iface, h.Snaplen())
	st, err := scan(c, capfile.NewPacketSource(h, uint16(h.LinkType())), nil, stdout, nil)
	close(done)
	<-stopped
	if cerr := h.Close(); err == nil && cerr != nil {
		err = cerr
	}
	ks, _ := h.Stats()
	fmt.Fprintf(stderr, "%d %s captured\n%d %s received by filter\n%d %s dropped by kernel\n",
		st.Frames, packets(uint64(st.Frames)), ks.Received, packets(ks.Received), ks.Dropped, packets(ks.Dropped))
	return exitStatus(stderr, c.live.iface, st, err)
}

// packets is "packet" or "packets", as tcpdump writes its counts.
func packets(n uint64) string {
	if n == 1 {
		return "packet"
	}
	return "packets"
}
