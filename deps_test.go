package roce_test

import (
	"os/exec"
	"strings"
	"testing"
)

// codecPackages are the codec packages: each builds on the standard
// library and the module's internal floor alone, so that a user of the
// codecs compiles no gopacket module (googlelayers and rocelayers are the
// adapters).
var codecPackages = []string{"./ib", "./rocev1", "./rocev2", "./pfc", "./cnp", "./ecn", "./mad", "./ipoib", "./dcbx", "./nvmeof", "./iser", "./smbd", "./reassembly", "./ecmp", "."}

// notYetPure are the codec packages that still import a gopacket module,
// with what holds them there. A package leaves the list in the change
// that makes it pure; TestCodecsWithoutGopacket fails for one that is
// pure and still listed.
var notYetPure = map[string]string{}

// TestCodecsWithoutGopacket checks that no codec package depends on a
// gopacket module (github.com/google/gopacket, github.com/gopacket/gopacket).
func TestCodecsWithoutGopacket(t *testing.T) {
	for _, p := range codecPackages {
		out, err := exec.Command("go", "list", "-deps", p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		var bad []string
		for _, d := range strings.Fields(string(out)) {
			if strings.Contains(d, "gopacket") {
				bad = append(bad, d)
			}
		}
		why, listed := notYetPure[p]
		switch {
		case len(bad) > 0 && !listed:
			t.Errorf("%s depends on %s", p, strings.Join(bad, ", "))
		case len(bad) == 0 && listed:
			t.Errorf("%s is pure now (it was listed for %s): take it off notYetPure", p, why)
		}
	}
	// The check can fail: the adapter does depend on gopacket.
	out, err := exec.Command("go", "list", "-deps", "./googlelayers").Output()
	if err != nil || !strings.Contains(string(out), "github.com/google/gopacket\n") {
		t.Errorf("go list -deps ./googlelayers lists no github.com/google/gopacket: %v", err)
	}
}

// TestLibrariesWithoutParquet checks that the library packages do not
// depend on the Parquet library: only cmd/rocedump and dump/parquetrows
// (and dump/parquetrows/parquetschema) import it, so that a user of ib or rocev2 does not compile it.
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
	if err != nil || !strings.Contains(string(out), "github.com/parquet-go/parquet-go/format\n") {
		t.Errorf("go list -deps ./dump/parquetrows lists no github.com/parquet-go/parquet-go/format: %v", err)
	}
}

// TestRocedumpWithoutParquetRoot checks that rocedump and the package
// that writes its Parquet files link parquet-go's format, Thrift and
// compression packages but not the parquet-go package itself, whose
// imports (Protocol Buffers, geometry, YAML, every codec) initialise at
// each start of the command, Parquet written or not.
func TestRocedumpWithoutParquetRoot(t *testing.T) {
	banned := []string{"github.com/parquet-go/parquet-go", "google.golang.org/protobuf/", "github.com/twpayne/go-geom", "go.yaml.in/yaml/"}
	for _, p := range []string{"./cmd/rocedump", "./dump/parquetrows"} {
		out, err := exec.Command("go", "list", "-deps", p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range banned {
				if dep == b || strings.HasSuffix(b, "/") && strings.HasPrefix(dep, b) {
					t.Errorf("%s depends on %s", p, dep)
				}
			}
		}
	}
	// The check can fail: the schema's package does depend on them.
	out, err := exec.Command("go", "list", "-deps", "./dump/parquetrows/parquetschema").Output()
	if err != nil || !strings.Contains(string(out), "github.com/parquet-go/parquet-go\n") || !strings.Contains(string(out), "google.golang.org/protobuf/proto\n") {
		t.Errorf("go list -deps ./dump/parquetrows/parquetschema lists no github.com/parquet-go/parquet-go or protobuf: %v", err)
	}
}

// TestRocedumpWithoutGopacketLayers checks that rocedump and the live
// capture link no github.com/google/gopacket/layers, whose init (its
// tables of every Ethertype, port and link type) the command would pay
// at each start: they read frames with the codecs and need gopacket's
// core alone, for CaptureInfo.
func TestRocedumpWithoutGopacketLayers(t *testing.T) {
	for _, p := range []string{"./cmd/rocedump", "./capture", "./dump"} {
		out, err := exec.Command("go", "list", "-deps", p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		if strings.Contains(string(out), "github.com/google/gopacket/layers\n") {
			t.Errorf("%s depends on github.com/google/gopacket/layers", p)
		}
	}
	// The check can fail: the adapter does depend on it.
	out, err := exec.Command("go", "list", "-deps", "./googlelayers").Output()
	if err != nil || !strings.Contains(string(out), "github.com/google/gopacket/layers\n") {
		t.Errorf("go list -deps ./googlelayers lists no github.com/google/gopacket/layers: %v", err)
	}
}
