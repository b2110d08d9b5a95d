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

// DuckDBNodeVersion is the version of the npm package @duckdb/node-api
// (DuckDB 1.5.6, prebuilt for Node) that the tests query Parquet files
// with. It has no engines constraint; it runs on Node 20.
const DuckDBNodeVersion = "1.5.6-r.1"

// DuckDBNodeEnv names the environment variable that gives the directory
// @duckdb/node-api is installed in (.ci/run sets it).
const DuckDBNodeEnv = "ROCE_DUCKDB_NODE"

//go:embed duckdb.cjs
var duckdbScript []byte

// DuckDBResult is one query's result: column names, DuckDB type names
// (UINTEGER, TIMESTAMP_NS, ...) and rows of values as JSON (64-bit
// integers as decimal strings).
type DuckDBResult struct {
	Columns []string            `json:"columns"`
	Types   []string            `json:"types"`
	Rows    [][]json.RawMessage `json:"rows"`
	// Error is DuckDB's message for a query it refused (DuckDBMayFail).
	Error string `json:"error"`
}

// DuckDBDir returns the directory @duckdb/node-api is installed in: the
// one $ROCE_DUCKDB_NODE names, or one in the user's cache directory,
// installed there with npm when absent. It skips the test (fails it
// under CI) when node, npm or the package are missing.
func DuckDBDir(t testing.TB) string {
	t.Helper()
	return npmDir(t, "@duckdb/node-api", DuckDBNodeVersion, DuckDBNodeEnv)
}

// DuckDB runs the queries, in order, in one in-memory DuckDB database
// and returns their results; a query DuckDB refuses fails the test.
func DuckDB(t testing.TB, queries ...string) []DuckDBResult {
	t.Helper()
	res := DuckDBMayFail(t, queries...)
	for i, r := range res {
		if r.Error != "" {
			t.Fatalf("duckdb: %s: %s", queries[i], r.Error)
		}
	}
	return res
}

// DuckDBMayFail is DuckDB, but a query DuckDB refuses has its message
// in its result's Error, and the queries after it run.
func DuckDBMayFail(t testing.TB, queries ...string) []DuckDBResult {
	t.Helper()
	dir := DuckDBDir(t)
	script := filepath.Join(t.TempDir(), "duckdb.cjs")
	if err := os.WriteFile(script, duckdbScript, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(queries)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script, dir)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var res []DuckDBResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(queries) {
		t.Fatalf("duckdb: %d results for %d queries: %v", len(res), len(queries), err)
	}
	return res
}
