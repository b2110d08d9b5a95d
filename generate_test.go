package roce_test

import (
	"os/exec"
	"testing"
)

// TestGeneratedFiles fails when a file internal/hdrgen writes from the
// tables of the extended headers (ib/opcode.go, internal/layertype) is
// stale: go generate ./ib ./googlelayers rewrites them (then go generate
// in rocelayers, which copies googlelayers' files).
func TestGeneratedFiles(t *testing.T) {
	out, err := exec.Command("go", "run", "./internal/hdrgen", "-check").CombinedOutput()
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
}
