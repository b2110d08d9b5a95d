package roce_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibrariesWithoutParquet checks that the library packages do not
// depend on the Parquet library: only cmd/rocedump and dump/parquetrows
// import it, so that a user of ib or rocev2 does not compile it.
func TestLibrariesWithoutParquet(t *testing.T) {
	pkgs := []string{"./ib", "./rocev1", "./rocev2", "./pfc", "./cnp", "./ecn", "./dump", "./flow", "./dfilter", "./gen", "."}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "parquet") {
			t.Errorf("%v depend on %s", pkgs, p)
		}
	}
	// The check can fail: the package that writes the rows does depend on it.
	out, err = exec.Command("go", "list", "-deps", "./dump/parquetrows").Output()
	if err != nil || !strings.Contains(string(out), "github.com/parquet-go/parquet-go\n") {
		t.Errorf("go list -deps ./dump/parquetrows lists no github.com/parquet-go/parquet-go: %v", err)
	}
}
