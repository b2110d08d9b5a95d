package fuzz

import (
	"bytes"
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/reassembly"
)

// fzPayload is the payload every packet at PSN q carries in
// FuzzReassembly, whichever its opcode and however often it is sent: a
// message's data is then known from its PSNs alone.
func fzPayload(q uint32) []byte { return bytes.Repeat([]byte{byte(q)}, int(q*7%50)) }

// FuzzReassembly feeds reassembly.Assembler packets the input describes,
// three bytes each: an opcode (of the transports RC, UC, UD and XRC and
// the READ responses), a signed PSN step from the previous packet (so
// that resends, gaps, reordering and the 24-bit wrap all occur) and a
// byte whose low bits pick the key and whether the capture cut the
// packet. A small window and buffer make gaps be given up. Each message
// delivered must span consecutive PSNs, one per packet, and hold the
// payloads of those PSNs in order (a prefix of them when cut or clipped);
// nothing may panic.
func FuzzReassembly(f *testing.F) {
	f.Add([]byte{0x00, 1, 0, 0x01, 1, 0, 0x02, 1, 0, 0x04, 1, 0})
	f.Add([]byte{0x0d, 2, 1, 0x0f, 0xff, 1, 0x0e, 1, 1, 0x10, 5, 2, 0x0c, 1, 0})
	f.Add([]byte{0x06, 3, 0, 0x08, 0xfe, 0, 0x07, 1, 4, 0x64, 1, 0, 0xe4, 9, 0})
	const maxMessage = 120
	f.Fuzz(func(t *testing.T, data []byte) {
		a := reassembly.New(reassembly.Config{Window: 8, MaxBuffered: 200, MaxMessage: maxMessage}, func(m *reassembly.Message[uint8]) {
			if m.Packets < 1 || m.Packets > 1 && int((m.LastPSN-m.FirstPSN)&(1<<24-1)) != m.Packets-1 {
				t.Fatalf("message of %d packets from PSN %d to %d", m.Packets, m.FirstPSN, m.LastPSN)
			}
			var want []byte
			for i := range m.Packets {
				want = append(want, fzPayload((m.FirstPSN+uint32(i))&(1<<24-1))...)
			}
			if len(m.Payload) > maxMessage || len(m.Payload) > m.Len || m.Len > len(want) ||
				!bytes.HasPrefix(want, m.Payload) || !m.Cut && !m.Clipped && !bytes.Equal(m.Payload, want) {
				t.Fatalf("message PSN %d-%d (cut %v, clipped %v, len %d): %x, want %x", m.FirstPSN, m.LastPSN, m.Cut, m.Clipped, m.Len, m.Payload, want)
			}
		})
		psn := uint32(1<<24 - 20)
		var p ib.Packet
		for i := 0; i+3 <= len(data); i += 3 {
			psn = (psn + uint32(int8(data[i+1]))) & (1<<24 - 1)
			payload := fzPayload(psn)
			p = ib.Packet{}
			p.BTH.OpCode, p.BTH.PSN, p.Payload = ib.Opcode(data[i]), psn, payload
			if data[i+2]&4 != 0 && len(payload) > 0 {
				p.BTH.Truncated, p.Payload = true, payload[:len(payload)/2]
			}
			a.Add(data[i+2]&3, reassembly.Mark{Frame: i/3 + 1}, &p)
		}
		a.Flush()
		st := a.Stats()
		if st.Messages > st.Packets || st.Waited > st.Packets || st.Duplicates > st.Packets || st.Orphans > st.Packets {
			t.Fatalf("stats %+v", st)
		}
	})
}
