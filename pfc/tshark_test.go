package pfc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/testkit/oracle"
)

// TestTshark builds a PFC frame for each of the 256 priority-enable
// vectors, with seeded random times (a quarter of them zero, to give
// XON), plus PAUSE frames, PFC frames with reserved bits set and an EPON
// GATE frame, and checks every macc.* field tshark prints against this
// package's decode of the same bytes. It also checks that the decode
// equals what the frames were built from and that tshark emits no macc.*
// field the test does not compare.
func TestTshark(t *testing.T) {
	rng := rand.New(rand.NewPCG(0x8808, 0x0101))
	randTime := func() uint16 {
		if rng.IntN(4) == 0 {
			return 0
		}
		return uint16(rng.UintN(0x10000))
	}
	type built struct {
		frame []byte
		want  MACControl // the fields the frame was built from
	}
	var frames []built
	for v := range 256 {
		var times [NumPriorities]uint16
		for i := range times {
			times[i] = randTime()
		}
		frames = append(frames, built{
			AppendPFC(nil, testSrc, Priorities(v), times),
			MACControl{Opcode: OpcodePFC, PriorityEnableVector: uint16(v), Time: times},
		})
	}
	for _, q := range []uint16{0, 1, 0x1234, 0xffff, randTime(), randTime()} {
		frames = append(frames, built{AppendPause(nil, testSrc, q), MACControl{Opcode: OpcodePause, PauseTime: q}})
	}
	// Reserved upper bits of the enable vector, which AppendPFC cannot
	// write: built through MACControl.AppendTo.
	for _, v := range []uint16{0x0100, 0xff88, 0x8001} {
		m := MACControl{Opcode: OpcodePFC, PriorityEnableVector: v, Time: [8]uint16{randTime(), randTime(), 3: 0xffff, 7: 1}}
		frames = append(frames, built{padded(mustAppend(t, &m, ethHeader())), m})
	}
	gate := MACControl{Opcode: OpcodeGate, Body: []byte{0x12, 0x34, 0x56, 0x78, 0xaa}}
	frames = append(frames, built{padded(mustAppend(t, &gate, ethHeader())), MACControl{Opcode: OpcodeGate}})

	raw := make([][]byte, len(frames))
	for i, f := range frames {
		raw[i] = f.frame
	}
	pcap := oracle.WritePcap(t, t.TempDir(), "pfc.pcap", raw)
	got := oracle.Tshark(t, pcap)
	if len(got) != len(frames) {
		t.Fatalf("tshark decoded %d frames, want %d", len(got), len(frames))
	}

	var (
		mc      MACControl
		nfields int
	)
	for i, f := range frames {
		if et := binary.BigEndian.Uint16(f.frame[EthernetHeaderLen-2:]); et != EthernetTypeMACControl {
			t.Fatalf("frame %d: Ethertype %#04x", i+1, et)
		}
		if err := mc.Decode(f.frame[EthernetHeaderLen:]); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		if mc.Opcode != f.want.Opcode || mc.PauseTime != f.want.PauseTime ||
			mc.PriorityEnableVector != f.want.PriorityEnableVector || mc.Time != f.want.Time {
			t.Errorf("frame %d: decoded %+v, built from %+v", i+1, mc, f.want)
		}
		want := expectFields(&mc)
		want["frame.len"] = strconv.Itoa(len(f.frame))
		want["eth.dst"] = "01:80:c2:00:00:01"
		want["eth.type"] = "0x8808"
		for name, w := range want {
			g, ok := got[i].First(name)
			if !ok {
				if w != absent {
					t.Errorf("frame %d: tshark shows no %s, want %q", i+1, name, w)
				}
				continue
			}
			if g != w {
				t.Errorf("frame %d: %s: tshark %q, pfc %q", i+1, name, g, w)
			}
			nfields++
		}
		for name := range got[i] {
			if _, ok := want[name]; strings.HasPrefix(name, "macc.") && !ok {
				t.Errorf("frame %d: tshark field %s = %q not compared", i+1, name, got[i][name])
			}
		}
	}
	t.Logf("compared %d frames, %d fields with tshark", len(frames), nfields)
	// Each PFC frame has 21: opcode, enbv, 8 flags, 8 times, frame.len,
	// eth.dst, eth.type.
	if least := 256 * 21; nfields < least {
		t.Errorf("compared only %d fields, want at least %d", nfields, least)
	}
}

// absent marks a field tshark must not show.
const absent = "\x00absent"

// expectFields returns the macc.* fields tshark 4.0.17 prints for m, as
// it formats them: the opcode and the enable vector in 4-digit hex, the
// enable flags as 0 or 1, times in decimal.
func expectFields(m *MACControl) map[string]string {
	f := map[string]string{
		"macc.opcode":              fmt.Sprintf("0x%04x", uint16(m.Opcode)),
		"macc.dst_address_invalid": absent,
	}
	switch m.Opcode {
	case OpcodePause:
		f["macc.pause_time"] = strconv.Itoa(int(m.PauseTime))
	case OpcodePFC:
		f["macc.cbfc.enbv"] = fmt.Sprintf("0x%04x", m.PriorityEnableVector)
		for n := range NumPriorities {
			f[fmt.Sprintf("macc.cbfc.enbv.c%d", n)] = map[bool]string{false: "0", true: "1"}[m.Enabled().Has(n)]
			f[fmt.Sprintf("macc.cbfc.pause_time.c%d", n)] = strconv.Itoa(int(m.Time[n]))
		}
		f["macc.cbfc.enbv.not_zero"] = absent // the expert warning
		if m.PriorityEnableVector>>8 != 0 {
			f["macc.cbfc.enbv.not_zero"] = ""
		}
	case OpcodeGate, OpcodeReport, OpcodeRegisterReq, OpcodeRegister, OpcodeRegisterAck:
		// MPCP messages start with a 32-bit timestamp; tshark decodes
		// it, this package leaves it in Body.
		if len(m.Body) >= 4 {
			f["macc.timestamp"] = strconv.FormatUint(uint64(binary.BigEndian.Uint32(m.Body)), 10)
		}
	}
	return f
}

func ethHeader() []byte {
	h := append(bytes.Clone(MulticastAddr[:]), testSrc[:]...)
	return binary.BigEndian.AppendUint16(h, uint16(EthernetTypeMACControl))
}

func padded(b []byte) []byte {
	if len(b) < MinFrameLen {
		b = append(b, make([]byte, MinFrameLen-len(b))...)
	}
	return b
}
