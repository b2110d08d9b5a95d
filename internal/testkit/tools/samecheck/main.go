// Command samecheck compares two builds of rocedump and rocegen: it runs
// both over the same inputs and reports every output that differs by a
// byte. A refactoring that must not change behaviour is checked with it:
//
//	dir=$(mktemp -d)
//	git worktree add "$dir/src" <commit>
//	(cd "$dir/src" && go build -o "$dir/old/" ./cmd/rocedump ./cmd/rocegen)
//	go build -o "$dir/new/" ./cmd/rocedump ./cmd/rocegen
//	go run ./internal/testkit/tools/samecheck -old "$dir/old" -new "$dir/new" testdata
//
// rocegen runs with each generator setting of the table below; its
// captures must be equal byte for byte, and they join the inputs. Each
// input is then read by rocedump in every mode of the table, with -j 1
// and -j 2: standard output, standard error, the exit status and any
// file written (-w, -parquet, -timeline) must be equal. Exit status 1 if
// any differ, 2 on a usage error.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gens are the rocegen settings whose captures are compared and read.
var gens = [][]string{
	{"-op", "write", "-size", "1K", "-mtu", "1024", "-messages", "300"},
	{"-op", "read", "-size", "8K", "-mtu", "1024", "-messages", "50", "-qps", "3"},
	{"-op", "send", "-size", "300", "-messages", "100", "-encap", "v2-ipv6", "-format", "pcapng"},
	{"-op", "write", "-size", "4K", "-mtu", "1024", "-messages", "100", "-ce-every", "7", "-pfc-every", "40", "-bad-icrc", "0.05", "-seed", "3"},
	{"-op", "fetch-add", "-messages", "40", "-encap", "v1"},
	{"-op", "write", "-size", "2K", "-messages", "30", "-cm"},
	{"-op", "send", "-transport", "ud", "-size", "64", "-messages", "100"},
}

// modes are the rocedump flag sets run over every input. OUT stands
// for a file in a fresh directory, compared after the run.
var modes = [][]string{
	{},
	{"-v"},
	{"-json"},
	{"-x"}, {"-XX"}, {"-e"}, {"-q"},
	{"-tttt", "-utc"}, {"-ttt"}, {"-nano", "-tt"},
	{"-stats"}, {"-stats", "-json"},
	{"-Y", "infiniband.bth.opcode == 10 || pfc"},
	{"-opcode", "ack", "-json"},
	{"-w", "OUT"},
	{"-parquet", "OUT"},
	{"-timeline", "OUT"},
}

func main() {
	oldDir := flag.String("old", "", "directory holding the old build's rocedump and rocegen")
	newDir := flag.String("new", "", "directory holding the new build's rocedump and rocegen")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: samecheck -old DIR -new DIR [CAPTURE|DIR...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *oldDir == "" || *newDir == "" {
		flag.Usage()
		os.Exit(2)
	}
	work, err := os.MkdirTemp("", "samecheck")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(work)

	var inputs []string
	for _, arg := range flag.Args() {
		err := filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && capture(p) {
				abs, err := filepath.Abs(p)
				if err != nil {
					return err
				}
				inputs = append(inputs, abs)
			}
			return nil
		})
		if err != nil {
			fatal(err)
		}
	}
	// Each build runs in its own directory and names its output files
	// alike, so that messages naming them are comparable.
	dirA, dirB := filepath.Join(work, "a"), filepath.Join(work, "b")
	for _, d := range []string{dirA, dirB} {
		if err := os.Mkdir(d, 0o755); err != nil {
			fatal(err)
		}
	}
	diffs, runs := 0, 0
	for i, g := range gens {
		name := fmt.Sprintf("gen%d.pcap", i)
		if contains(g, "pcapng") {
			name += "ng"
		}
		ra := run(dirA, filepath.Join(*oldDir, "rocegen"), append(append([]string{}, g...), "-w", name))
		rb := run(dirB, filepath.Join(*newDir, "rocegen"), append(append([]string{}, g...), "-w", name))
		a, b := filepath.Join(dirA, name), filepath.Join(dirB, name)
		runs++
		if ra.status != 0 {
			fatal(fmt.Errorf("rocegen %s: exit status %d: %s", strings.Join(g, " "), ra.status, ra.stderr))
		}
		if d := compare(ra, rb, a, b); d != "" {
			diffs++
			fmt.Printf("DIFF rocegen %s: %s\n", strings.Join(g, " "), d)
		}
		inputs = append(inputs, a)
	}
	for _, in := range inputs {
		for _, m := range modes {
			for _, j := range []string{"1", "2"} {
				args, out := []string{"-j", j}, ""
				for _, f := range m {
					if f == "OUT" {
						out = "out" + map[string]string{"-w": ".pcap", "-parquet": ".parquet", "-timeline": ".html"}[args[len(args)-1]]
						f = out
					}
					args = append(args, f)
				}
				args = append(args, in)
				ra := run(dirA, filepath.Join(*oldDir, "rocedump"), args)
				rb := run(dirB, filepath.Join(*newDir, "rocedump"), args)
				outA, outB := "", ""
				if out != "" {
					outA, outB = filepath.Join(dirA, out), filepath.Join(dirB, out)
				}
				runs++
				if d := compare(ra, rb, outA, outB); d != "" {
					diffs++
					fmt.Printf("DIFF rocedump %s: %s\n", strings.Join(args, " "), d)
				}
				if outA != "" {
					os.Remove(outA)
					os.Remove(outB)
				}
			}
		}
	}
	fmt.Printf("samecheck: %d runs over %d inputs, %d differ\n", runs, len(inputs), diffs)
	if diffs > 0 {
		os.Exit(1)
	}
}

// result is what one run left: its output streams and exit status.
type result struct {
	stdout, stderr []byte
	status         int
}

func run(dir, bin string, args []string) result {
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "TZ=UTC")
	err := cmd.Run()
	st := 0
	if ee, ok := err.(*exec.ExitError); ok {
		st = ee.ExitCode()
	} else if err != nil {
		fatal(err)
	}
	return result{out.Bytes(), errb.Bytes(), st}
}

// compare names the first difference between two runs and the files
// they wrote (fa, fb; "" for none), or returns "".
func compare(a, b result, fa, fb string) string {
	switch {
	case a.status != b.status:
		return fmt.Sprintf("exit status %d and %d", a.status, b.status)
	case !bytes.Equal(a.stdout, b.stdout):
		return "standard output " + firstDiff(a.stdout, b.stdout)
	case !bytes.Equal(a.stderr, b.stderr):
		return "standard error " + firstDiff(a.stderr, b.stderr)
	}
	if fa == "" {
		return ""
	}
	da, errA := os.ReadFile(fa)
	db, errB := os.ReadFile(fb)
	if (errA == nil) != (errB == nil) {
		return fmt.Sprintf("output file: %v and %v", errA, errB)
	}
	if !bytes.Equal(da, db) {
		return "output file " + firstDiff(da, db)
	}
	return ""
}

func firstDiff(a, b []byte) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	line := bytes.Count(a[:n], []byte("\n")) + 1
	return fmt.Sprintf("differs at byte %d (line %d; lengths %d and %d)", n, line, len(a), len(b))
}

func capture(p string) bool {
	for _, ext := range []string{".pcap", ".pcapng", ".erf", ".cap"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "samecheck:", err)
	os.Exit(2)
}
