package roce_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The module's layers, lowest first. A package may import only packages
// of a lower rank (never its own rank or above), so that every arrow of
// the import graph runs downwards; docs/ARCHITECTURE.md draws the same
// table. Ranks in one band share its rules on what outside the module a
// package may import (see allowedOutside).
var layerRank = map[string]int{
	// The floor: byte-level helpers every codec stands on.
	"internal/hdr":  1,
	"internal/errs": 1,
	"internal/mmap": 1,
	"internal/wire": 2,

	// The codecs: the standard library and the floor only.
	"ib":     10,
	"dcbx":   10,
	"ecn":    11,
	"pfc":    11,
	"rocev1": 11,
	"rocev2": 11,
	"mad":    11,
	"ipoib":  11,
	"nvmeof": 11,
	"iser":   11,
	"smbd":   11,
	"":       12, // the root package: Frame
	"cnp":    12,

	// Above the codecs, the standard library and the codecs only.
	"reassembly": 13, // RC messages from their packets
	"ecmp":       13, // how ECMP and LAG hashes spread 5-tuples

	// The gopacket adapters.
	"internal/layertype": 19, // the layer types of both adapters
	"googlelayers":       20,

	// Capture files, the decoded record and the tools built on them.
	"internal/hdrgen":                29, // writes the per-header code of ib and googlelayers, for go generate
	"capfile":                        29,
	"capture":                        29,
	"fields":                         30,
	"dump":                           30,
	"gen":                            30,
	"flow":                           31,
	"dfilter":                        31,
	"dump/parquetrows":               31,
	"dump/internal/keysmd":           31,
	"dump/parquetrows/parquetschema": 32,
	"timeline":                       32,
	"cmd/internal/tty":               40,
	"cmd/internal/cli":               41,
	"cmd/rocedump":                   42,
	"cmd/rocegen":                    42,
	"internal/testkit/":              50, // every other package of the test kit
	"internal/testkit/testcaps":      51,
	"internal/testkit/tools/":        52,
	"fuzz":                           53,
}

// rankOf returns the layer of the module package rel (its path inside
// the module), and false for a package the table does not place.
func rankOf(rel string) (int, bool) {
	if r, ok := layerRank[rel]; ok {
		return r, true
	}
	for _, prefix := range []string{"internal/testkit/tools/", "internal/testkit/"} {
		if strings.HasPrefix(rel, prefix) {
			return layerRank[prefix], true
		}
	}
	return 0, false
}

// allowedOutside says whether a package of rank r may import path, a
// package from outside the module.
func allowedOutside(r int, path string) bool {
	std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
	switch {
	case std:
		return true
	case r < 10: // the floor: the system calls package beside the standard library
		return strings.HasPrefix(path, "golang.org/x/sys/")
	case r < 19: // the codecs: the standard library alone
		return false
	default:
		return true
	}
}

// knownViolations are the arrows that still run the wrong way, while
// the codecs are being freed of gopacket; each goes from the list when
// it is fixed (the test logs the ones that are).
var knownViolations = map[string]bool{}

// TestLayering checks every import of every non-test package of the
// module against layerRank: each package has a layer, imports within the
// module run from a higher rank to a lower one, and the floor and the
// codecs import nothing from outside the standard library but the
// system calls package.
func TestLayering(t *testing.T) {
	const module = "github.com/roce-go/roce"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var found []string
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		rel := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		r, ok := rankOf(rel)
		if !ok {
			t.Errorf("package %s has no layer: place it in layerRank (and docs/ARCHITECTURE.md)", f[0])
			continue
		}
		for _, imp := range f[1:] {
			checked++
			var bad string
			if imp == module || strings.HasPrefix(imp, module+"/") {
				irel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
				ir, ok := rankOf(irel)
				if ok && ir >= r {
					bad = f[0] + " -> " + imp
				}
			} else if !allowedOutside(r, imp) {
				bad = f[0] + " -> " + imp
			}
			if bad != "" {
				found = append(found, bad)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d imports checked: go list printed %q", checked, out)
	}
	sort.Strings(found)
	seen := map[string]bool{}
	for _, v := range found {
		seen[v] = true
		if !knownViolations[v] {
			t.Errorf("import against the layers: %s", v)
		}
	}
	for v := range knownViolations {
		if !seen[v] {
			t.Logf("%s is fixed: remove it from knownViolations", v)
		}
	}
}

// TestLayeringCatches checks that the rules reject what they must: an
// arrow upwards, one within a rank, and a codec importing gopacket.
func TestLayeringCatches(t *testing.T) {
	ib, _ := rankOf("ib")
	root, _ := rankOf("")
	cnp, _ := rankOf("cnp")
	dump, _ := rankOf("dump")
	if !(ib < root && root == cnp && root < dump) {
		t.Errorf("ranks ib %d, root %d, cnp %d, dump %d: want ib < root = cnp < dump", ib, root, cnp, dump)
	}
	if allowedOutside(ib, "github.com/google/gopacket/layers") {
		t.Error("a codec may import github.com/google/gopacket/layers")
	}
	if !allowedOutside(ib, "encoding/binary") {
		t.Error("a codec may not import encoding/binary")
	}
	if r, _ := rankOf("googlelayers"); !allowedOutside(r, "github.com/google/gopacket") {
		t.Error("googlelayers may not import github.com/google/gopacket")
	}
	if r, _ := rankOf("internal/testkit/oracle"); r <= dump {
		t.Errorf("the test kit's rank %d is not above dump's %d", r, dump)
	}
}
