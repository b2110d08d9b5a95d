package pfc

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The PFC and PAUSE vectors of docs/icrc-vectors.md, checked there
// against tshark 4.0.17.
const (
	// PFC, priorities 3 and 7 enabled, time[3] = 0xFFFF, time[7] = 0x1234.
	vecPFC = "0180c2000001" + // destination 01-80-C2-00-00-01
		"020000000001" + // source
		"8808" + // Ethertype: MAC Control
		"0101" + // opcode: PFC
		"0088" + // priority_enable_vector: 3 and 7
		"0000" + "0000" + "0000" + "ffff" + // time[0..3]
		"0000" + "0000" + "0000" + "1234" + // time[4..7]
		"0000000000000000000000000000000000000000000000000000" // 26 bytes of padding
	// PAUSE, pause_time 0xFFFF.
	vecPause = "0180c2000001" + "020000000001" + "8808" +
		"0001" + // opcode: PAUSE
		"ffff" + // pause_time
		"000000000000000000000000000000000000000000000000000000000000000000000000000000000000" // 42 bytes of padding
)

// mustAppend is m.AppendTo(b), failing the test on an error.
func mustAppend(t testing.TB, m *MACControl, b []byte) []byte {
	t.Helper()
	b, err := m.AppendTo(b)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testSrc = [6]byte{0x02, 0, 0, 0, 0, 0x01}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ignoreSlices compares the decoded fields, not the aliasing slices,
// which the tests check separately.
var ignoreSlices = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".Pad", ".Body":
		return true
	}
	return false
}, cmp.Ignore())

func TestVectors(t *testing.T) {
	tests := []struct {
		name    string
		frame   string
		want    MACControl
		xoff    Priorities
		xon     Priorities
		build   func(b []byte) []byte
		padding int
	}{
		{
			name:  "PFC",
			frame: vecPFC,
			want: MACControl{
				Opcode:               OpcodePFC,
				PriorityEnableVector: 0x0088,
				Time:                 [8]uint16{3: 0xffff, 7: 0x1234},
			},
			xoff: 1<<3 | 1<<7,
			build: func(b []byte) []byte {
				return AppendPFC(b, testSrc, 1<<3|1<<7, [8]uint16{3: 0xffff, 7: 0x1234})
			},
			padding: 26,
		},
		{
			name:    "PAUSE",
			frame:   vecPause,
			want:    MACControl{Opcode: OpcodePause, PauseTime: 0xffff},
			xoff:    AllPriorities,
			build:   func(b []byte) []byte { return AppendPause(b, testSrc, 0xffff) },
			padding: 42,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := unhex(t, tt.frame)
			if len(frame) != MinFrameLen {
				t.Fatalf("vector is %d bytes, want %d", len(frame), MinFrameLen)
			}
			var m MACControl
			if err := m.Decode(frame[EthernetHeaderLen:]); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, m, ignoreSlices); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
			if len(m.Pad) != tt.padding || !bytes.Equal(m.Pad, make([]byte, tt.padding)) {
				t.Errorf("Pad = %x, want %d zero bytes", m.Pad, tt.padding)
			}
			if &m.Pad[0] != &frame[MinFrameLen-tt.padding] {
				t.Error("Pad does not alias the input")
			}
			if got := m.XOFF(); got != tt.xoff {
				t.Errorf("XOFF = %v, want %v", got, tt.xoff)
			}
			if got := m.XON(); got != tt.xon {
				t.Errorf("XON = %v, want %v", got, tt.xon)
			}
			if got := mustAppend(t, &m, append([]byte(nil), frame[:EthernetHeaderLen]...)); !bytes.Equal(got, frame) {
				t.Errorf("AppendTo:\n got %x\nwant %x", got, frame)
			}
			if got := tt.build(nil); !bytes.Equal(got, frame) {
				t.Errorf("builder:\n got %x\nwant %x", got, frame)
			}
			prefix := []byte{0xaa, 0xbb}
			if got := tt.build(prefix); !bytes.Equal(got[:2], prefix) || !bytes.Equal(got[2:], frame) {
				t.Errorf("builder after a prefix: %x", got)
			}
		})
	}
}

// TestLayouts decodes frames with and without padding and FCS, PAUSE,
// PFC and opaque opcodes, checks every field and re-encodes them byte
// for byte through AppendTo (googlelayers.MACControl's tests take the
// same frames through gopacket).
func TestLayouts(t *testing.T) {
	pfc := unhex(t, vecPFC)[EthernetHeaderLen:]
	pause := unhex(t, vecPause)[EthernetHeaderLen:]
	fcs := []byte{0xde, 0xad, 0xbe, 0xef}
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	mpcp := unhex(t, "0002"+"12345678"+"aabbccdd") // GATE: timestamp and more
	pfcWant := MACControl{Opcode: OpcodePFC, PriorityEnableVector: 0x88, Time: [8]uint16{3: 0xffff, 7: 0x1234}}
	pauseWant := MACControl{Opcode: OpcodePause, PauseTime: 0xffff}
	tests := []struct {
		name string
		body []byte
		want MACControl
		rest []byte
	}{
		{"PFC padded", pfc, pfcWant, pfc[PFCLen:]},
		{"PFC unpadded", pfc[:PFCLen], pfcWant, nil},
		{"PFC padded with FCS", cat(pfc, fcs), pfcWant, cat(pfc[PFCLen:], fcs)},
		{"PFC unpadded with FCS", cat(pfc[:PFCLen], fcs), pfcWant, fcs},
		{"PFC reserved bits and non-zero pad", unhex(t, "0101ff01000100020003000400050006000700087777"),
			MACControl{Opcode: OpcodePFC, PriorityEnableVector: 0xff01, Time: [8]uint16{1, 2, 3, 4, 5, 6, 7, 8}}, []byte{0x77, 0x77}},
		{"PAUSE padded", pause, pauseWant, pause[PauseLen:]},
		{"PAUSE unpadded", pause[:PauseLen], pauseWant, nil},
		{"PAUSE padded with FCS", cat(pause, fcs), pauseWant, cat(pause[PauseLen:], fcs)},
		{"PAUSE unpadded with FCS", cat(pause[:PauseLen], fcs), pauseWant, fcs},
		{"GATE opaque", mpcp, MACControl{Opcode: OpcodeGate}, mpcp[OpcodeLen:]},
		{"unknown opcode", unhex(t, "abcd0102"), MACControl{Opcode: 0xabcd}, []byte{1, 2}},
		{"opcode only", unhex(t, "0007"), MACControl{Opcode: 7}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m MACControl
			// Leftovers from a previous decode must not survive.
			m.Body, m.Pad, m.PauseTime, m.Time[0] = []byte{1}, []byte{2}, 3, 4
			if err := m.Decode(tt.body); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, m, ignoreSlices); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
			rest := m.Pad
			if tt.want.Opcode != OpcodePause && tt.want.Opcode != OpcodePFC {
				rest = m.Body
				if m.Pad != nil {
					t.Errorf("Pad = %x on an opaque opcode", m.Pad)
				}
			} else if m.Body != nil {
				t.Errorf("Body = %x on %v", m.Body, m.Opcode)
			}
			if !bytes.Equal(rest, tt.rest) {
				t.Errorf("rest = %x, want %x", rest, tt.rest)
			}
			if m.Len() != len(tt.body) {
				t.Errorf("Len = %d, want %d", m.Len(), len(tt.body))
			}
			if got := mustAppend(t, &m, nil); !bytes.Equal(got, tt.body) {
				t.Errorf("AppendTo:\n got %x\nwant %x", got, tt.body)
			}
		})
	}
}

// TestTruncated cuts every frame at every length short of what its
// opcode needs.
func TestTruncated(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  []byte
		need  int
		layer string
	}{
		{"PFC", unhex(t, vecPFC)[EthernetHeaderLen:], PFCLen, "PFC"},
		{"PAUSE", unhex(t, vecPause)[EthernetHeaderLen:], PauseLen, "PAUSE"},
	} {
		for n := 0; n < tc.need; n++ {
			var m MACControl
			body := bytes.Clone(tc.body[:n])
			err := m.Decode(body)
			if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s cut to %d bytes: err = %v, want ErrTruncated", tc.name, n, err)
				continue
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not *Error", err)
			}
			want := &Error{Layer: tc.layer, Want: tc.need, Have: n, Err: ErrTruncated}
			if n < OpcodeLen {
				want.Layer, want.Want = "MACControl", OpcodeLen
			}
			if *e != *want {
				t.Errorf("%s cut to %d bytes: %+v, want %+v", tc.name, n, *e, *want)
			}
		}
	}
	// Opaque opcodes need the opcode only.
	var m MACControl
	if err := m.Decode([]byte{0}); !errors.Is(err, ErrTruncated) {
		t.Errorf("1 byte: %v", err)
	}
	if err := m.Decode([]byte{0, 2}); err != nil {
		t.Errorf("GATE opcode only: %v", err)
	}
	assert.Equal(t, "roce: PFC at offset 0: truncated (want 20 bytes, have 5)", errPFC[5].Error())
	assert.Equal(t, "roce: MACControl at offset 0: truncated (want 2 bytes, have 1)", errOpcode[1].Error())
}

func TestPriorities(t *testing.T) {
	for _, tt := range []struct {
		name      string
		m         MACControl
		enabled   Priorities
		xoff, xon Priorities
		quanta    [8]uint16
	}{
		{"PAUSE XOFF", MACControl{Opcode: OpcodePause, PauseTime: 7}, 0xff, 0xff, 0, [8]uint16{7, 7, 7, 7, 7, 7, 7, 7}},
		{"PAUSE XON", MACControl{Opcode: OpcodePause}, 0xff, 0, 0xff, [8]uint16{}},
		{
			name: "PFC mixed",
			// 0: enabled XOFF; 1: enabled XON; 2: time but not enabled;
			// 3..7 disabled; reserved bits set and ignored.
			m:       MACControl{Opcode: OpcodePFC, PriorityEnableVector: 0xff03, Time: [8]uint16{10, 0, 20}},
			enabled: 0x03, xoff: 0x01, xon: 0x02,
			quanta: [8]uint16{10},
		},
		{"opaque", MACControl{Opcode: OpcodeGate, PauseTime: 1, PriorityEnableVector: 0xff, Time: [8]uint16{1, 1, 1, 1, 1, 1, 1, 1}}, 0, 0, 0, [8]uint16{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.Enabled(); got != tt.enabled {
				t.Errorf("Enabled = %v, want %v", got, tt.enabled)
			}
			if got := tt.m.XOFF(); got != tt.xoff {
				t.Errorf("XOFF = %v, want %v", got, tt.xoff)
			}
			if got := tt.m.XON(); got != tt.xon {
				t.Errorf("XON = %v, want %v", got, tt.xon)
			}
			for p := -1; p <= NumPriorities; p++ {
				q, ok := tt.m.Quanta(p)
				wantOK := tt.enabled.Has(p)
				var wantQ uint16
				if wantOK {
					wantQ = tt.quanta[p]
				}
				if q != wantQ || ok != wantOK {
					t.Errorf("Quanta(%d) = %d, %v; want %d, %v", p, q, ok, wantQ, wantOK)
				}
				if got := tt.m.Paused(p); got != tt.xoff.Has(p) {
					t.Errorf("Paused(%d) = %v", p, got)
				}
			}
		})
	}
	if s := Priorities(0x88).String(); s != "[3 7]" {
		t.Errorf("String = %q", s)
	}
	if s := Priorities(0).String(); s != "[]" {
		t.Errorf("String = %q", s)
	}
	if n := AllPriorities.Len(); n != 8 {
		t.Errorf("Len = %d", n)
	}
}

func TestOpcodeString(t *testing.T) {
	for o, want := range map[Opcode]string{
		OpcodePause: "PAUSE", OpcodePFC: "PFC", OpcodeGate: "GATE", OpcodeReport: "REPORT",
		OpcodeRegisterReq: "REGISTER_REQ", OpcodeRegister: "REGISTER", OpcodeRegisterAck: "REGISTER_ACK",
		0x0007: "0x0007", 0xabcd: "0xabcd",
	} {
		if got := o.String(); got != want {
			t.Errorf("Opcode(%#x).String() = %q, want %q", uint16(o), got, want)
		}
	}
}

// TestNoPanic decodes every slice of some odd bodies, with and without
// and re-encodes what it decoded: nothing panics, every failure is a
// truncation (*Error wrapping ErrTruncated, one "roce: " prefix), and every success re-encodes to the bytes it came from.
func TestNoPanic(t *testing.T) {
	var m MACControl
	bodies := [][]byte{
		unhex(t, vecPFC)[EthernetHeaderLen:], unhex(t, vecPause)[EthernetHeaderLen:],
		bytes.Repeat([]byte{0xff}, 70), bytes.Repeat([]byte{0x01}, 70),
	}
	decoded, failed := 0, 0
	for _, b := range bodies {
		for i := range b {
			for j := i; j <= len(b); j++ {
				in := bytes.Clone(b[i:j]) // exact capacity: a read past j faults
				{
					err := m.Decode(in)
					if err != nil {
						failed++
						var e *Error
						require.ErrorAs(t, err, &e, "% x", in)
						require.ErrorIs(t, err, ErrTruncated, "% x", in)
						require.Equal(t, 1, strings.Count(err.Error(), "roce: "), err.Error())
						// Reset: at most the opcode of this body, nothing of the last.
						want := MACControl{}
						if len(in) >= OpcodeLen {
							want.Opcode = Opcode(in[0])<<8 | Opcode(in[1])
						}
						require.Equal(t, want, m, "% x", in)
						continue
					}
					decoded++
					require.Equal(t, in, mustAppend(t, &m, nil), "re-encoding % x", in)
					require.Equal(t, m.XOFF()|m.XON(), m.Enabled())
				}
			}
		}
	}
	t.Logf("%d decodes, %d refusals", decoded, failed)
	require.NotZero(t, decoded)
	require.NotZero(t, failed)
}

// TestDecodeResets decodes a PFC frame, then a PAUSE frame and a short
// body into the same receiver: nothing of the earlier frame survives.
func TestDecodeResets(t *testing.T) {
	var m MACControl
	require.NoError(t, m.Decode(unhex(t, vecPFC)[EthernetHeaderLen:]))
	require.NoError(t, m.Decode(unhex(t, vecPause)[EthernetHeaderLen:]))
	assert.Zero(t, m.PriorityEnableVector)
	assert.Equal(t, [NumPriorities]uint16{}, m.Time)
	assert.Equal(t, uint16(0xffff), m.PauseTime)
	require.ErrorIs(t, m.Decode([]byte{0x01}), ErrTruncated)
	assert.Equal(t, MACControl{}, m)
}

func TestParseSpeed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Speed
	}{
		{"100G", Speed100G}, {"25Gb/s", 25e9}, {"2.5G", 2.5e9}, {"400000Mbps", 400e9},
		{"10g", 10e9}, {"1M", 1e6}, {"10T", 10e12}, {"1000000", 1e6}, {"800Gbps", 800e9},
	} {
		got, err := ParseSpeed(tc.in)
		if assert.NoError(t, err, tc.in) {
			assert.Equal(t, tc.want, got, tc.in)
		}
	}
	for _, in := range []string{"", "G", "fast", "100X", "999k", "10.1T", "NaN", "-100G", "1e400G", "Gb/s"} {
		_, err := ParseSpeed(in)
		if assert.Error(t, err, in) {
			assert.Equal(t, "roce: bad link speed "+strconv.Quote(in)+" (want 1M to 10T bits per second, as 100G or 25Gb/s)", err.Error())
			assert.ErrorIs(t, err, ErrBadValue, in)
		}
	}
}

// TestValidate checks that AppendTo refuses the bytes the opcode would
// not write (a Body after PAUSE or PFC fields, a Pad after another
// opcode) rather than drop them, naming the field, and that what
// Decode makes always passes.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		m    MACControl
		want string
	}{
		{MACControl{Opcode: OpcodePFC, Body: []byte{1}}, "roce: MACControl.Body of 1 bytes: PFC carries its trailing bytes in Pad"},
		{MACControl{Opcode: OpcodePause, Body: []byte{1, 2}}, "roce: MACControl.Body of 2 bytes: PAUSE carries its trailing bytes in Pad"},
		{MACControl{Opcode: OpcodeGate, Pad: []byte{0}}, "roce: MACControl.Pad of 1 bytes: opcode GATE carries its trailing bytes in Body"},
	} {
		b, err := tc.m.AppendTo([]byte{0xaa})
		var fe *FieldError
		if !errors.As(err, &fe) || !errors.Is(err, ErrBadValue) || err.Error() != tc.want {
			t.Errorf("%+v: AppendTo error %v, want %q wrapping ErrBadValue", tc.m, err, tc.want)
		}
		if !bytes.Equal(b, []byte{0xaa}) {
			t.Errorf("%+v: AppendTo returned %x after refusing, want the input", tc.m, b)
		}
		if tc.m.Validate() == nil {
			t.Errorf("%+v: Validate passes", tc.m)
		}
	}
	for _, v := range []string{vecPFC, vecPause, "0180c2000001020000000001" + "8808" + "00021234"} {
		var m MACControl
		require.NoError(t, m.Decode(unhex(t, v)[EthernetHeaderLen:]))
		require.NoError(t, m.Validate())
	}
}
