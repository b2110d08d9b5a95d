package dfilter_test

import (
	"fmt"
	"os"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/dump"
)

// Select the RDMA READ responses with an AETH to queue pair 0x11 in a
// capture, and name the column of a bad expression.
func Example() {
	f, err := dfilter.Compile("infiniband.bth.destqp == 0x11 && infiniband.bth.opcode in {13..16} && infiniband.aeth")
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := os.Open("../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Close()
	src, err := capfile.NewSource(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = dump.Scan(src, dump.Options{Match: f.Match}, func(r *dump.Record) error {
		fmt.Print(string(r.AppendText(nil)))
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}

	_, err = dfilter.Compile("infiniband.bth.opcode == 300")
	fmt.Println(err)
	// Output:
	// 09:39:11.559510 192.168.65.4:57236 > 192.168.65.5:4791 RoCEv2 RC RDMA READ Response First qp 0x000011 psn 9209054 aeth ACK msn 2 payload 1024 icrc good
	// 09:39:11.559540 192.168.65.4:57236 > 192.168.65.5:4791 RoCEv2 RC RDMA READ Response Last qp 0x000011 psn 9209057 aeth ACK msn 2 payload 1024 icrc good
	// roce: display filter: column 26: 300 is too large for infiniband.bth.opcode (at most 255)
}
