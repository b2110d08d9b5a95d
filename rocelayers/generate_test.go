package rocelayers_test

import (
	"os/exec"
	"testing"
)

// TestGeneratedFiles fails when a file generated from googlelayers
// (internal/gen, which go generate runs) is stale.
func TestGeneratedFiles(t *testing.T) {
	out, err := exec.Command("go", "run", "./internal/gen", "-check").CombinedOutput()
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
}
