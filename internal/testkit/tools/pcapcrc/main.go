// Command pcapcrc is the baseline rocedump's speed is measured against:
// the least a capture printer does. It reads a pcap or pcapng file with
// gopacket's pcapgo, computes the CRC-32 of every frame and prints one
// line per frame. The README's performance section compares rocedump's
// wall time with this program's on the same capture, in the same run.
package main

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"

	"github.com/google/gopacket/pcapgo"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pcapcrc FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, err := pcapgo.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	line := make([]byte, 0, 64)
	for n := 1; ; n++ {
		data, ci, err := r.ZeroCopyReadPacketData()
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		line = strconv.AppendInt(line[:0], int64(n), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(ci.Length), 10)
		line = append(line, " crc "...)
		line = strconv.AppendUint(line, uint64(crc32.ChecksumIEEE(data)), 16)
		line = append(line, '\n')
		w.Write(line)
	}
}
