package main

import (
	"bytes"
	"github.com/roce-go/roce/cmd/internal/tty"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the command itself when the test binary is started as
// rocegen by the tests below.
func TestMain(m *testing.M) {
	if os.Getenv("ROCEGEN_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// rocegen returns the command for this test binary run as rocegen with
// args, in directory dir.
func rocegen(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ROCEGEN_TEST_MAIN=1")
	return cmd
}

func TestIsTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tc := range []struct {
		name string
		f    *os.File
	}{{"regular file", file}, {"pipe", w}, {os.DevNull, null}} {
		if tty.IsTerminal(tc.f) {
			t.Errorf("%s taken for a terminal", tc.name)
		}
	}
	// Another character device stands for a terminal.
	if zero, err := os.OpenFile("/dev/zero", os.O_WRONLY, 0); err == nil {
		if !tty.IsTerminal(zero) {
			t.Error("/dev/zero, a character device, not taken for a terminal")
		}
		zero.Close()
	}
}

// TestStdout runs rocegen with no -w and its standard output a regular
// file, a pipe and /dev/null: the capture goes there, never to
// rocegen.pcap.
func TestStdout(t *testing.T) {
	dir := t.TempDir()
	check := func(name string, b []byte) {
		t.Helper()
		if n := len(readPcap(t, b)); n != 17 {
			t.Errorf("%s: %d frames, want 17", name, n)
		}
		if _, err := os.Stat(filepath.Join(dir, defaultFile)); err == nil {
			t.Fatalf("%s: rocegen wrote %s", name, defaultFile)
		}
	}

	// A regular file.
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := rocegen(t, dir)
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("file: %v: %s", err, errOut.String())
	}
	out.Close()
	b, _ := os.ReadFile(out.Name())
	check("file", b)

	// A pipe.
	cmd = rocegen(t, dir)
	errOut.Reset()
	cmd.Stderr = &errOut
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(pipe)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("pipe: %v: %s", err, errOut.String())
	}
	check("pipe", b)

	// /dev/null.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd = rocegen(t, dir)
	cmd.Stdout = null
	errOut.Reset()
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("/dev/null: %v: %s", err, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, defaultFile)); err == nil {
		t.Errorf("rocegen > /dev/null wrote %s", defaultFile)
	}
	if !strings.Contains(errOut.String(), "wrote 17 frames") || !strings.Contains(errOut.String(), "to standard output") {
		t.Errorf("/dev/null: stderr %q", errOut.String())
	}
}

// TestHelpOutput: -h says where the capture goes without -w.
func TestHelpOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	run([]string{"-h"}, &out, false, &errOut)
	if s := out.String(); !strings.Contains(s, "standard output") || !strings.Contains(s, "terminal") || !strings.Contains(s, defaultFile) {
		t.Errorf("-h does not say where the capture goes:\n%s", s)
	}
}
