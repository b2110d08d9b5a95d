// Reads Parquet files with hyparquet (a Parquet reader in JavaScript
// alone, independent of DuckDB and of parquet-go), for the tests of the
// Parquet output: the file names come on standard input as a JSON
// array; each file goes to standard output as one element of a JSON
// array: {"columns": [...], "rows": [[...], ...], "chunks": [...]}.
// Values: numbers, booleans, strings; 64-bit integers as decimal
// strings; timestamps as decimal strings of their nanoseconds; the
// DECIMAL columns as decimal strings of their unscaled value (the
// script reads their bytes as the two's complement integer the format
// says they are, since hyparquet's DECIMAL conversion gives a
// JavaScript number, which holds 53 bits). chunks holds, per row group
// and column, the encodings, whether a dictionary page is there, and
// the page index as hyparquet reads it: per page its first row, NULL
// count, whether it is all NULL, its min and max. argv[2] is the
// directory the npm package hyparquet is installed in (its
// node_modules' parent).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const hp = await import(pathToFileURL(path.join(process.argv[2], 'node_modules', 'hyparquet', 'src', 'index.js')).href);

function value(v) {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) { // a DECIMAL's bytes: big-endian two's complement
    let n = 0n;
    for (const b of v) n = n * 256n + BigInt(b);
    if (v.length > 0 && v[0] & 0x80) n -= 1n << BigInt(8 * v.length);
    return n.toString();
  }
  if (v === undefined) return null;
  return v;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const file of JSON.parse(input)) {
  const b = fs.readFileSync(file);
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  const metadata = hp.parquetMetadata(ab);
  const leaves = metadata.schema.slice(1);
  for (const e of leaves) {
    if (e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL') {
      delete e.converted_type; // its bytes, converted above
      delete e.logical_type;
    }
  }
  const parsers = { timestampFromNanoseconds: (n) => n };
  let rows;
  await hp.parquetRead({ file: ab, metadata, parsers, rowFormat: 'array', onComplete: (r) => { rows = r; } });
  const columns = leaves.map((e) => e.name);
  const chunks = [];
  metadata.row_groups.forEach((rg, g) => {
    rg.columns.forEach((cc, c) => {
      const md = cc.meta_data;
      const ch = {
        row_group: g, rows: value(rg.num_rows), column: md.path_in_schema.join('.'), encodings: md.encodings,
        dictionary: md.dictionary_page_offset !== undefined,
        null_count: value(md.statistics?.null_count),
        pages: [],
      };
      if (cc.column_index_offset !== undefined && cc.offset_index_offset !== undefined) {
        const view = (off, len) => ({ view: new DataView(ab, Number(off), len), offset: 0 });
        const ci = hp.readColumnIndex(view(cc.column_index_offset, cc.column_index_length), leaves[c], parsers);
        const oi = hp.readOffsetIndex(view(cc.offset_index_offset, cc.offset_index_length));
        ch.boundary_order = ci.boundary_order;
        oi.page_locations.forEach((loc, i) => {
          ch.pages.push({
            offset: value(loc.offset), size: loc.compressed_page_size, first_row: value(loc.first_row_index),
            null_page: ci.null_pages[i], null_count: value(ci.null_counts?.[i]),
            min: ci.null_pages[i] ? null : value(ci.min_values[i]), max: ci.null_pages[i] ? null : value(ci.max_values[i]),
          });
        });
      }
      chunks.push(ch);
    });
  });
  out.push({ columns, rows: rows.map((r) => r.map(value)), chunks });
}
process.stdout.write(JSON.stringify(out));
