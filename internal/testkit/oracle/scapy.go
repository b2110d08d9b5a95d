package oracle

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// Python returns the system Python that Debian's python3-scapy installs
// into, skipping the test (failing it under CI) when Scapy is missing.
func Python(t testing.TB) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err == nil {
		if exec.Command(py, "-c", "import scapy.contrib.roce").Run() == nil {
			return py
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("oracle Scapy (%s with python3-scapy) is missing in CI", py)
	}
	t.Skipf("oracle Scapy not installed (apt-get install -y python3-scapy)")
	return ""
}

// RunPython runs a Python script with the system Python and returns its
// standard output.
func RunPython(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	py := Python(t)
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return out
}
