// Runs SQL queries with DuckDB, for the tests of the Parquet output: the
// queries come on standard input as a JSON array of strings; each
// result goes to standard output as one element of a JSON array:
// {"columns": [...], "types": [...], "rows": [[...], ...]} or, for a
// query DuckDB refuses, {"error": "..."}, values as
// @duckdb/node-api's getRowsJson gives them (64-bit integers as decimal
// strings, so that none is rounded). argv[2] is the directory the npm
// package @duckdb/node-api is installed in (its node_modules' parent).
'use strict';
const path = require('path');
const { DuckDBInstance } = require(path.join(process.argv[2], 'node_modules', '@duckdb', 'node-api'));

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const queries = JSON.parse(input);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out = [];
  for (const q of queries) {
    let r;
    try {
      r = await conn.runAndReadAll(q);
    } catch (e) {
      out.push({ error: String(e && e.message || e) });
      continue;
    }
    out.push({
      columns: r.columnNames(),
      types: r.columnTypes().map((t) => t.toString()),
      rows: r.getRowsJson(),
    });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
