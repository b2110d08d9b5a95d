package roce_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxREADME is the most README.md may weigh: it is the front door, and
// the manuals live under docs/.
const maxREADME = 25600

// TestREADMESize holds README.md to maxREADME bytes.
func TestREADMESize(t *testing.T) {
	fi, err := os.Stat("README.md")
	require.NoError(t, err)
	if fi.Size() > maxREADME {
		t.Errorf("README.md is %d bytes, more than %d: move the detail to docs/", fi.Size(), maxREADME)
	}
}

// markdownDocs are the documents the link and wording checks read:
// README.md and docs/*.md.
func markdownDocs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	return append([]string{"README.md"}, docs...)
}

// mdLink matches an inline markdown link or image: [text](target) or
// [text](target "title").
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// fencedBlocks removes the fenced code blocks of a markdown text, whose
// brackets are not links.
func fencedBlocks(s string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// anchors returns the anchors GitHub makes of a markdown file's
// headings: lower case, punctuation but '-' and '_' dropped, spaces
// turned into '-', a repeated heading numbered -1, -2, ...
func anchors(s string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(fencedBlocks(s), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f:
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+string(rune('0'+n))] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestDocLinks checks that every relative link of README.md and docs/*.md
// points at a file of the repository, and every #anchor into a markdown
// file at one of its headings.
func TestDocLinks(t *testing.T) {
	links := 0
	for _, doc := range markdownDocs(t) {
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range mdLink.FindAllStringSubmatch(fencedBlocks(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %q: no such file %s", doc, target, file)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			body, err := os.ReadFile(file)
			require.NoError(t, err)
			if !anchors(string(body))[anchor] {
				t.Errorf("%s: link %q: %s has no heading #%s", doc, target, file, anchor)
			}
		}
	}
	if links < 20 {
		t.Errorf("found %d relative links in README.md and docs/*.md; the link pattern is broken", links)
	}
}

// TestDocAnchors checks the anchor rule TestDocLinks relies on, on
// headings whose GitHub anchors are known.
func TestDocAnchors(t *testing.T) {
	a := anchors("# roce\n## Per-flow summary: `-stats`\n```\n# not a heading\n```\n## With github.com/gopacket/gopacket\n## Flags\n### Flags\n")
	for _, want := range []string{"roce", "per-flow-summary--stats", "with-githubcomgopacketgopacket", "flags", "flags-1"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line of a code block taken for a heading")
	}
}

// standAlone matches what the documents must not say: pointers to issue
// numbers a reader cannot look up.
var standAlone = regexp.MustCompile(`(?i)\bissues? [0-9]+\b`)

// TestDocsStandAlone checks that README.md, docs/*.md, the man pages,
// the READMEs under testdata and every package's doc.go say nothing
// standAlone matches.
func TestDocsStandAlone(t *testing.T) {
	files := markdownDocs(t)
	for _, pattern := range []string{"testdata/*/README.md", "docs/*.1"} {
		more, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, more...)
	}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() == "doc.go" {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			if m := standAlone.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: %s", f, i+1, strings.TrimSpace(m), strings.TrimSpace(line))
			}
		}
	}
	if !standAlone.MatchString("as issue 13 said") || !standAlone.MatchString("Issues 4 and 5") || standAlone.MatchString("the issue of 2026") {
		t.Error("the pattern of TestDocsStandAlone does not match what it should")
	}
}

// guides are the documents under docs/ whose Go blocks are examples of
// the module (docs/icrc-vectors.md shows the ICRC's reference
// computation, which is no example).
var guides = []string{"docs/library.md", "docs/rocedump.md", "docs/rocegen.md", "docs/flow.md"}

// TestDocsGoBlocks checks that every Go block of the guides is the body
// of an example of this module, line for line, as TestREADMEGoBlocks
// does for README.md.
func TestDocsGoBlocks(t *testing.T) {
	docs := guides
	examples, err := filepath.Glob("*example_test.go")
	require.NoError(t, err)
	more, err := filepath.Glob("*/example_test.go")
	require.NoError(t, err)
	var sources []string
	for _, name := range append(examples, more...) {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		sources = append(sources, "\n"+strings.Join(normLines(string(b)), "\n")+"\n")
	}
	n := 0
	for _, doc := range docs {
		for i, blk := range goBlocks(t, doc) {
			n++
			want := "\n" + strings.Join(normLines(blk), "\n") + "\n"
			found := false
			for _, src := range sources {
				if strings.Contains(src, want) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s Go block %d mirrors no example:\n%s", doc, i+1, blk)
			}
		}
	}
	if n == 0 {
		t.Errorf("%v have no Go blocks", guides)
	}
}

// setUp is the README's set-up block: the main job on a capture the
// repository ships, then the tests, which .ci/run runs as the README
// says.
const setUp = "```\ngo run ./cmd/rocedump testdata/captures/rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap\ngo test ./...\n```\n"

// TestREADMESetUp checks that the README gives the two set-up commands,
// that the capture the first names is in the repository, and that CI
// runs the second.
func TestREADMESetUp(t *testing.T) {
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	if !strings.Contains(string(b), setUp) {
		t.Errorf("README.md lacks the set-up block:\n%s", setUp)
	}
	if _, err := os.Stat("testdata/captures/rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"); err != nil {
		t.Error(err)
	}
	ci, err := os.ReadFile(".ci/run")
	require.NoError(t, err)
	if !regexp.MustCompile(`(?m)^go test \./\.\.\.$`).Match(ci) {
		t.Error(".ci/run does not run the README's go test ./...")
	}
}
