// Package manpage checks a command's documentation against the command:
// that every flag its flag set defines has an entry in the OPTIONS
// section of its man(7) page and a mention in its guide, that every entry
// of the page is a flag the command has, and that groff renders the page
// without a warning. The commands' tests call it with the flags their -h
// lists, which is the flag set itself (flag.FlagSet.PrintDefaults).
package manpage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// defaultLine is a flag's line in flag.FlagSet.PrintDefaults: two
// spaces, the flag's name with one dash, then its value name or usage.
var defaultLine = regexp.MustCompile(`^  -([A-Za-z0-9][-A-Za-z0-9]*)(?:[ \t]|$)`)

// Flags returns the flag names (without the dash) of a command's -h
// output, in the order it lists them.
func Flags(help string) []string {
	var out []string
	for _, line := range strings.Split(help, "\n") {
		if m := defaultLine.FindStringSubmatch(line); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// entry is the first line after a .TP of the OPTIONS section: .B or .BI
// and the flag, its dashes escaped.
var entry = regexp.MustCompile(`^\.BI? +\\-((?:\\-|[A-Za-z0-9])+)`)

// Entries returns the flags (without the dash) that the OPTIONS section
// of a man(7) page gives an entry, a .TP paragraph whose tag is .B or .BI
// and the flag. It fails when the page has no OPTIONS section.
func Entries(page string) ([]string, error) {
	lines := strings.Split(page, "\n")
	in, found := false, false
	var out []string
	for i, line := range lines {
		if strings.HasPrefix(line, ".SH ") {
			in = strings.TrimSpace(strings.Trim(strings.TrimPrefix(line, ".SH "), `"`)) == "OPTIONS"
			found = found || in
			continue
		}
		if !in || strings.TrimSpace(line) != ".TP" || i+1 >= len(lines) {
			continue
		}
		if m := entry.FindStringSubmatch(lines[i+1]); m != nil {
			out = append(out, strings.ReplaceAll(m[1], `\-`, "-"))
		}
	}
	if !found {
		return nil, ErrNoOptions
	}
	return out, nil
}

// Unmentioned returns the flags that text (a markdown guide) never
// names as -FLAG, a dash and the name standing as a word of their own.
func Unmentioned(flags []string, text string) []string {
	var out []string
	for _, f := range flags {
		re := regexp.MustCompile(`(^|[^-A-Za-z0-9])-` + regexp.QuoteMeta(f) + `($|[^-A-Za-z0-9])`)
		if !re.MatchString(text) {
			out = append(out, f)
		}
	}
	return out
}

// Diff returns the names of want missing from have, and those of have
// missing from want, each sorted.
func Diff(want, have []string) (missing, extra []string) {
	w, h := map[string]bool{}, map[string]bool{}
	for _, f := range want {
		w[f] = true
	}
	for _, f := range have {
		h[f] = true
	}
	for f := range w {
		if !h[f] {
			missing = append(missing, f)
		}
	}
	for f := range h {
		if !w[f] {
			extra = append(extra, f)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

// ErrNoGroff is Render's error when groff is not installed.
var ErrNoGroff = errors.New("roce: groff is not installed (Debian: apt-get install groff-base)")

// ErrNoOptions is Entries' error for a page without an OPTIONS section.
var ErrNoOptions = errors.New("roce: no OPTIONS section")

// Render formats the man page at path with groff -man -Tutf8, every
// warning on (-ww), and returns what groff said on standard error: a
// page that renders cleanly returns "". It returns ErrNoGroff when groff
// is not installed.
func Render(path string) (warnings string, err error) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		return "", ErrNoGroff
	}
	if _, err := os.Stat(path); err != nil {
		return "", err
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return stderr.String(), fmt.Errorf("roce: groff: %w", err)
	}
	return stderr.String(), nil
}

// Check checks a command's documentation against its flags (Flags of
// its -h output): every flag has an OPTIONS entry in the man page and a
// mention in the guide, the page documents no flag the command lacks,
// and groff renders the page without a warning (skipped when groff is
// absent, unless CI is "true").
func Check(t testing.TB, flags []string, page, guide string) {
	t.Helper()
	man, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Entries(string(man))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	missing, extra := Diff(flags, entries)
	for _, f := range missing {
		t.Errorf("%s: no OPTIONS entry for -%s", page, f)
	}
	for _, f := range extra {
		t.Errorf("%s: an OPTIONS entry for -%s, which the command does not have", page, f)
	}
	text, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Unmentioned(flags, string(text)) {
		t.Errorf("%s never mentions -%s", guide, f)
	}
	warnings, err := Render(page)
	if errors.Is(err, ErrNoGroff) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil || warnings != "" {
		t.Errorf("groff -man -Tutf8 -ww %s: %v\n%s", page, err, warnings)
	}
}
