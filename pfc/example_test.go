package pfc_test

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/roce-go/roce/pfc"
)

// Pause priority 3 for 100 µs on a 100 Gb/s link. 100 µs is 19531.25
// quanta of 5.12 ns; Quanta rounds up so the pause is not cut short.
func Example_pause() {
	link := pfc.Speed100G
	q := link.Quanta(100 * time.Microsecond)
	fmt.Println("quanta:", q, "exact:", link.QuantaFloat(100*time.Microsecond))
	fmt.Println("pause lasts:", link.Duration(q))

	src := [6]byte{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}
	var times [pfc.NumPriorities]uint16
	times[3] = q
	buf := make([]byte, 0, pfc.MinFrameLen) // reused: no allocation
	frame := pfc.AppendPFC(buf, src, 1<<3, times)
	fmt.Println(len(frame), "bytes:", hex.EncodeToString(frame))
	// Output:
	// quanta: 19532 exact: 19531.25
	// pause lasts: 100.004µs
	// 60 bytes: 0180c20000010200000000018808010100080000000000004c4c00000000000000000000000000000000000000000000000000000000000000000000
}

// Decode a PFC frame and say which priorities it pauses, which it
// resumes, and for how long at 100 Gb/s.
func ExampleMACControl_Decode() {
	frame, _ := hex.DecodeString("0180c2000001020000000001" + "8808" +
		"0101" + "008a" + // PFC, priorities 1, 3 and 7 enabled
		"0000" + "0000" + "0000" + "ffff" + "0000" + "0000" + "0000" + "1234" +
		"0000000000000000000000000000000000000000000000000000")
	var m pfc.MACControl
	if err := m.Decode(frame[pfc.EthernetHeaderLen:]); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Opcode, "pauses", m.XOFF(), "resumes", m.XON())
	for p := range pfc.NumPriorities {
		if m.Paused(p) {
			q, _ := m.Quanta(p)
			fmt.Printf("priority %d: %d quanta = %v (%d ps)\n", p, q, pfc.Speed100G.Duration(q), pfc.Speed100G.Picoseconds(q))
		}
	}
	// Output:
	// PFC pauses [3 7] resumes [1]
	// priority 3: 65535 quanta = 335.539µs (335539200 ps)
	// priority 7: 4660 quanta = 23.859µs (23859200 ps)
}

// An 802.3x PAUSE frame stops every priority.
func ExampleAppendPause() {
	src := [6]byte{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}
	frame := pfc.AppendPause(nil, src, 0xffff)
	var m pfc.MACControl
	_ = m.Decode(frame[pfc.EthernetHeaderLen:])
	fmt.Println(m.Opcode, m.PauseTime, "pauses", m.XOFF(), "for", pfc.Speed10G.Duration(m.PauseTime), "at", pfc.Speed10G)
	// Output:
	// PAUSE 65535 pauses [0 1 2 3 4 5 6 7] for 3.355392ms at 10Gb/s
}
