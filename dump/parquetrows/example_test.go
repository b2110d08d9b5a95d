package parquetrows_test

import (
	"bytes"
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/gen"
)

// A capture's frames as a Parquet file, read back: one RDMA READ of
// 8 KiB, written by package gen.
func Example() {
	cfg := gen.DefaultConfig()
	cfg.Op, cfg.Size, cfg.PSN = gen.OpRead, 8192, 100
	g, err := gen.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var capture, out bytes.Buffer
	if _, err := gen.Write(&capture, g, capfile.FormatPcap); err != nil {
		fmt.Println(err)
		return
	}
	src, err := capfile.NewSource(&capture)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := parquetrows.NewWriter(&out, "read.pcap", parquetrows.Options{})
	if _, err := dump.Scan(src, dump.Options{Workers: 1}, w.Write); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}

	f, err := parquet.OpenFile(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.NumRows(), "rows")
	rows := make([]parquet.Row, 1)
	r := parquet.NewReader(f)
	if _, err := r.ReadRows(rows); err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"frame.number", "frame.file", "frame.time_epoch", "infiniband.bth.opcode", "infiniband.reth.va", "infiniband.reth.dmalen", "infiniband.aeth.msn"} {
		leaf, _ := f.Schema().Lookup(name)
		v := rows[0][leaf.ColumnIndex]
		fmt.Printf("%-22s %-30s %v\n", name, leaf.Node.Type(), v)
	}
	// Output:
	// 3 rows
	// frame.number           INT(32,false)                  1
	// frame.file             STRING                         read.pcap
	// frame.time_epoch       TIMESTAMP(isAdjustedToUTC=false,unit=NANOS) 1767225600000000000
	// infiniband.bth.opcode  INT(8,false)                   12
	// infiniband.reth.va     INT(64,false)                  139637984641024
	// infiniband.reth.dmalen INT(32,false)                  8192
	// infiniband.aeth.msn    INT(32,false)                  <null>
}
