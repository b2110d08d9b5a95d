// Command interleave times whole commands the way docs/performance.md
// quotes them: each command run in turn, round after round (A B C A B C
// ...), output to /dev/null, the first round only warming the page
// cache; it prints per command the median wall time, the median CPU time
// (user and system, from the child's rusage) and their ratios to the
// first command and to the one named -floor.
//
//	interleave [-n ROUNDS] [-frames N] [-floor NAME] NAME=COMMAND... -- NAME=COMMAND...
//
// Commands are separated by "--"; each starts with a NAME= of one word.
// With -frames, the CPU time per frame is printed too.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type command struct {
	name      string
	argv      []string
	wall, cpu []time.Duration
}

func main() {
	rounds := flag.Int("n", 11, "timed rounds (after one warming round)")
	frames := flag.Int("frames", 0, "frames of the capture, for the CPU time per frame")
	floor := flag.String("floor", "", "the NAME of a second baseline")
	flag.Parse()
	var cmds []*command
	for _, part := range split(flag.Args()) {
		name, first, ok := strings.Cut(part[0], "=")
		if !ok || name == "" {
			fmt.Fprintln(os.Stderr, "interleave: each command starts NAME=: ", part[0])
			os.Exit(2)
		}
		argv := append([]string{first}, part[1:]...)
		if first == "" {
			argv = part[1:]
		}
		cmds = append(cmds, &command{name: name, argv: argv})
	}
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: interleave [-n ROUNDS] [-frames N] [-floor NAME] NAME=COMMAND... -- NAME=COMMAND...")
		os.Exit(2)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fail(err)
	}
	for r := 0; r <= *rounds; r++ {
		for _, c := range cmds {
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			cmd.Stdout, cmd.Stderr = null, null
			start := time.Now()
			if err := cmd.Run(); err != nil {
				if _, ok := err.(*exec.ExitError); !ok {
					fail(err)
				}
			}
			wall := time.Since(start)
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			if r > 0 {
				c.wall, c.cpu = append(c.wall, wall), append(c.cpu, cpu)
			}
		}
	}
	base, fl := median(cmds[0].wall), time.Duration(0)
	for _, c := range cmds {
		if c.name == *floor {
			fl = median(c.wall)
		}
	}
	fmt.Printf("%d rounds, medians\n", *rounds)
	for _, c := range cmds {
		w, u := median(c.wall), median(c.cpu)
		fmt.Printf("%-16s wall %8.1f ms  x%.2f %s", c.name, ms(w), float64(w)/float64(base), cmds[0].name)
		if fl > 0 {
			fmt.Printf("  x%.2f %s", float64(w)/float64(fl), *floor)
		}
		fmt.Printf("  cpu %8.1f ms", ms(u))
		if *frames > 0 {
			fmt.Printf(" (%.0f ns/frame, %.2f M frames/s)", float64(u)/float64(*frames), float64(*frames)/w.Seconds()/1e6)
		}
		fmt.Println()
	}
}

// split cuts the arguments at each "--".
func split(args []string) [][]string {
	var out [][]string
	for len(args) > 0 {
		i := slices.Index(args, "--")
		if i < 0 {
			i = len(args)
		}
		if i > 0 {
			out = append(out, args[:i])
		}
		args = args[min(i+1, len(args)):]
	}
	return out
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "interleave:", err)
	os.Exit(1)
}
