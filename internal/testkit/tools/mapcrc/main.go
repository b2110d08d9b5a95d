// Command mapcrc is the floor rocedump's speed is measured against: the
// limit of reading a capture. It maps a pcap file into memory, computes
// the CRC-32 of every frame where it lies and prints only the number of
// frames and the sum of their CRCs. Nothing is copied, decoded or
// formatted; rocedump's wall time over this program's, on the same
// capture in the same run, is what decoding and printing cost (see
// docs/performance.md).
package main

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/roce-go/roce/internal/mmap"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mapcrc FILE.pcap")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fail(err)
	}
	m, ok := mmap.Map(f)
	if !ok {
		fail(fmt.Errorf("%s: cannot be mapped", os.Args[1]))
	}
	frames, sum, err := scan(m.Bytes())
	if err != nil {
		fail(fmt.Errorf("%s: %v", os.Args[1], err))
	}
	fmt.Printf("frames %d crc-sum %08x\n", frames, sum)
}

// scan CRC-32s each frame of the pcap file b.
func scan(b []byte) (frames int, sum uint32, err error) {
	if len(b) < 24 {
		return 0, 0, fmt.Errorf("not a pcap file")
	}
	var bo binary.ByteOrder
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4, 0xa1b23c4d:
		bo = binary.LittleEndian
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	default:
		return 0, 0, fmt.Errorf("not a pcap file (pcapng is not read)")
	}
	for off := 24; off < len(b); frames++ {
		if len(b)-off < 16 {
			return frames, sum, fmt.Errorf("cut short at offset %d", off)
		}
		n := int(bo.Uint32(b[off+8:]))
		off += 16
		if n > len(b)-off {
			return frames, sum, fmt.Errorf("cut short at offset %d", off-16)
		}
		sum += crc32.ChecksumIEEE(b[off : off+n])
		off += n
	}
	return frames, sum, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mapcrc:", err)
	os.Exit(1)
}
