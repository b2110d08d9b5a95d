package oracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// HyparquetVersion is the version of the npm package hyparquet (a
// Parquet reader written in JavaScript alone, MIT) that the tests read
// Parquet files with, besides DuckDB: a second reader, which shares no
// code with DuckDB's or with parquet-go's.
const HyparquetVersion = "1.33.0"

// HyparquetEnv names the environment variable that gives the directory
// hyparquet is installed in (.ci/run sets it).
const HyparquetEnv = "ROCE_HYPARQUET"

//go:embed hyparquet.mjs
var hyparquetScript []byte

// HyparquetFile is one file as hyparquet reads it: its columns' names,
// its rows (numbers, booleans and strings as JSON; 64-bit integers,
// timestamps in nanoseconds and the unscaled DECIMAL values as decimal
// strings; null for NULL), and each column chunk's metadata and page
// index.
type HyparquetFile struct {
	Columns []string            `json:"columns"`
	Rows    [][]json.RawMessage `json:"rows"`
	Chunks  []HyparquetChunk    `json:"chunks"`
}

// HyparquetChunk is a column chunk: its row group and the group's rows,
// its column, encodings,
// whether it has a dictionary page, its statistics' NULL count, and its
// pages as the page index gives them (BoundaryOrder its ColumnIndex's).
type HyparquetChunk struct {
	RowGroup      int             `json:"row_group"`
	Rows          string          `json:"rows"`
	Column        string          `json:"column"`
	Encodings     []string        `json:"encodings"`
	Dictionary    bool            `json:"dictionary"`
	NullCount     string          `json:"null_count"`
	BoundaryOrder string          `json:"boundary_order"`
	Pages         []HyparquetPage `json:"pages"`
}

// HyparquetPage is a page's entry in the page index: its OffsetIndex
// location and its ColumnIndex entry (Min and Max as the rows' values).
type HyparquetPage struct {
	Offset    string          `json:"offset"`
	Size      int             `json:"size"`
	FirstRow  string          `json:"first_row"`
	NullPage  bool            `json:"null_page"`
	NullCount string          `json:"null_count"`
	Min       json.RawMessage `json:"min"`
	Max       json.RawMessage `json:"max"`
}

// npmDir returns the directory the npm package pkg at version is
// installed in: the one $env names, or one in the user's cache
// directory, installed there with npm when absent. It skips the test
// (fails it under CI) when node, npm or the package are missing.
func npmDir(t testing.TB, pkg, version, env string) string {
	t.Helper()
	Need(t, "node")
	has := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
		return err == nil
	}
	if dir := os.Getenv(env); dir != "" {
		if !has(dir) {
			missingNpm(t, pkg, version, "$"+env+"="+dir+" holds no node_modules/"+pkg)
		}
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		missingNpm(t, pkg, version, err.Error())
	}
	dir := filepath.Join(cache, "roce", filepath.Base(pkg)+"-"+version)
	if pkg == "@duckdb/node-api" {
		dir = filepath.Join(cache, "roce", "duckdb-node-"+version)
	}
	if has(dir) {
		return dir
	}
	npm := Need(t, "npm")
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, pkg+"@"+version)
	if out, err := cmd.CombinedOutput(); err != nil || !has(dir) {
		missingNpm(t, pkg, version, "npm install "+pkg+"@"+version+": "+string(out))
	}
	return dir
}

func missingNpm(t testing.TB, pkg, version, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("oracle %s (npm) is missing in CI: %s", pkg, why)
	}
	t.Skipf("oracle %s@%s (npm) not available: %s", pkg, version, why)
}

// HyparquetDir returns the directory hyparquet is installed in, as
// DuckDBDir does for DuckDB.
func HyparquetDir(t testing.TB) string {
	t.Helper()
	return npmDir(t, "hyparquet", HyparquetVersion, HyparquetEnv)
}

// Hyparquet reads the Parquet files with hyparquet.
func Hyparquet(t testing.TB, files ...string) []HyparquetFile {
	t.Helper()
	dir := HyparquetDir(t)
	script := filepath.Join(t.TempDir(), "hyparquet.mjs")
	if err := os.WriteFile(script, hyparquetScript, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script, dir)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hyparquet: %v\n%s", err, stderr.String())
	}
	var res []HyparquetFile
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(files) {
		t.Fatalf("hyparquet: %d results for %d files: %v", len(res), len(files), err)
	}
	return res
}
