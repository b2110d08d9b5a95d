package dump_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
)

// Dump prints a capture one line per frame. Here the capture is one RDMA
// WRITE of 1 KiB and its acknowledgement, written by package gen.
func ExampleDump() {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.PSN = 1024, 100
	g, err := gen.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var capture bytes.Buffer
	if _, err := gen.Write(&capture, g, capfile.FormatPcap); err != nil {
		fmt.Println(err)
		return
	}
	src, err := capfile.NewSource(&capture)
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := dump.Dump(os.Stdout, src, dump.Options{}) // nil Location: UTC
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d frames, %d RoCE, %d bad ICRC\n", st.Frames, st.RoCE, st.BadICRC)
	// Output:
	// 00:00:00.000000 192.0.2.1:49160 > 192.0.2.2:4791 RoCEv2 RC RDMA WRITE Only qp 0x000200 psn 100 [M,A] reth va 0x00007f000078c000 rkey 0x9927a129 dmalen 1024 payload 1024 ecn ECT(0) icrc good
	// 00:00:00.000001 192.0.2.2:49160 > 192.0.2.1:4791 RoCEv2 RC Acknowledge qp 0x000100 psn 100 [M] aeth ACK msn 1 payload 0 ecn ECT(0) icrc good
	// 2 frames, 2 RoCE, 0 bad ICRC
}

// ParseOpcode takes the name rocedump prints, in any case and with '_'
// or '-' for spaces, or a number.
func ExampleParseOpcode() {
	for _, s := range []string{"RC RDMA WRITE Only", "uc_send_only", "CNP", "0x11", "RC FOO"} {
		op, err := dump.ParseOpcode(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q: 0x%02x %v\n", s, uint8(op), op)
	}
	// Output:
	// "RC RDMA WRITE Only": 0x0a RC RDMA WRITE Only
	// "uc_send_only": 0x24 UC SEND Only
	// "CNP": 0x81 CNP
	// "0x11": 0x11 RC Acknowledge
	// roce: unknown opcode "RC FOO": give an IBTA name such as "RC SEND Only" or a number
}

// Cells holds a frame's values field by field, for a writer that stores
// every field of every frame (a table); NewSourceBytes reads a capture
// held in memory in place.
func ExampleCells() {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.PSN = 1024, 100
	g, err := gen.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var capture bytes.Buffer
	if _, err := gen.Write(&capture, g, capfile.FormatPcap); err != nil {
		fmt.Println(err)
		return
	}
	src, err := capfile.NewSourceBytes(capture.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	psn, _ := dump.LookupField("infiniband.bth.psn")
	cells := dump.NewCells()
	_, err = dump.Scan(src, dump.Options{Workers: 1}, func(r *dump.Record) error {
		cells.Fill(r)
		fields := dump.Fields()
		for i := cells.Next(0); i >= 0; i = cells.Next(i + 1) {
			if f := &fields[i]; f == psn || f.Name == "infiniband.bth.opcode" {
				fmt.Printf("%s=%s ", f.Name, f.AppendValue(nil, cells.Values[i]))
			}
		}
		fmt.Println(len(cells.Fields()), "fields")
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// infiniband.bth.opcode=10 infiniband.bth.psn=100 33 fields
	// infiniband.bth.opcode=17 infiniband.bth.psn=100 32 fields
}
