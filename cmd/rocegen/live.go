package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/roce-go/roce/capture"
	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/gen"
)

// liveCheck returns what is wrong with -i and -loop beside the other
// flags, or "".
func liveCheck(iface string, loops int, out, format, scenario string) string {
	switch {
	case iface == "" && loops != 1:
		return "-loop repeats what -i sends: give -i IFACE"
	case iface != "" && (out != "" || format != ""):
		return fmt.Sprintf("-i %s sends the frames, -w and -format write them to a file: one or the other", iface)
	case loops < 0:
		return fmt.Sprintf("-loop %d: want 1 or more, or 0 to send until stopped", loops)
	}
	if iface != "" && loops != 1 && scenario != "" {
		if fi, err := os.Stat(scenario); err == nil && !fi.Mode().IsRegular() {
			return fmt.Sprintf("-loop needs a scenario it can read again: %s is not a regular file", scenario)
		}
	}
	return ""
}

// sendLive is rocegen -i: the frames of the scenario go out on iface at
// the times of their timestamps, loops times (0: until SIGINT or
// SIGTERM); the achieved rate goes to stderr. g is the first loop's
// generator, closeScenario what closes its scenario file.
func sendLive(iface string, loops int, cfg gen.Config, scenario string, g *gen.Generator, closeScenario func() error, stderr io.Writer) int {
	h, err := capture.Open(iface, capture.Options{SendOnly: true})
	if err != nil {
		fmt.Fprintln(stderr, "rocegen:", cli.Message(err))
		if errors.Is(err, os.ErrPermission) {
			fmt.Fprintln(stderr, "rocegen: sending on an interface needs root or the CAP_NET_RAW capability")
		}
		return 2
	}
	defer h.Close()
	stop := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			signal.Stop(sig) // a second ^C kills at once
			close(stop)
		}
	}()
	first := true
	var last *gen.Generator
	next := func() (*gen.Generator, error) {
		if first {
			first = false
		} else {
			closeScenario()
			if g, closeScenario, err = newGenerator(cfg, scenario); err != nil {
				return nil, err
			}
		}
		last = g
		return g, nil
	}
	st, err := gen.Send(h, next, gen.SendOptions{Loops: loops, Stop: stop})
	closeScenario()
	fmt.Fprintf(stderr, "rocegen: sent %d frames, %d bytes on %s in %.6f s (%d %s): %.0f packets/s, %s on the wire (FCS, preamble and gap counted)\n",
		st.Frames, st.Bytes, iface, st.Elapsed.Seconds(), st.Loops, plural(st.Loops, "loop", "loops"), st.PacketsPerSecond(), bitRate(st.BitsPerSecond()))
	if err != nil {
		if last != nil && err == last.Err() && scenario != "" {
			err = fmt.Errorf("%s: %w", scenario, err)
		}
		fmt.Fprintln(stderr, "rocegen:", cli.Message(err))
		if errors.Is(err, syscall.EMSGSIZE) {
			fmt.Fprintf(stderr, "rocegen: raise the MTU (ip link set dev %s mtu 9000) or lower -mtu\n", iface)
		}
		return 1
	}
	return 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// bitRate formats bits per second with k, M, G or T.
func bitRate(b float64) string {
	units := []string{"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	return fmt.Sprintf("%.4g %s", b, units[i])
}
