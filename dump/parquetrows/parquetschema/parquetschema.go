// Package parquetschema gives the schema of the Parquet files package
// parquetrows writes as a parquet-go Schema, for a program that reads
// them with parquet-go. It is apart from parquetrows so that a program
// that only writes the files (rocedump) does not link the parquet-go
// package itself, whose initialisation (Protocol Buffers, geometry,
// YAML) every run would pay at start-up.
package parquetschema

import (
	"bytes"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/roce-go/roce/dump/parquetrows"
)

var (
	once   sync.Once
	schema *parquet.Schema
)

// Schema returns the schema of every file parquetrows.Writer writes:
// its columns are the field table's (see parquetrows' package doc),
// whatever the capture holds. It is read once from the footer of a file
// of no rows, and shared.
func Schema() *parquet.Schema {
	once.Do(func() {
		var b bytes.Buffer
		if err := parquetrows.NewWriter(&b, "", parquetrows.Options{}).Close(); err != nil {
			panic("parquetschema: " + err.Error())
		}
		f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			panic("parquetschema: " + err.Error())
		}
		schema = f.Schema()
	})
	return schema
}
