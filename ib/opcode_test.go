package ib

import (
	"testing"
)

// The opcodes IBTA defines, per transport, as listed in the opcode table
// of docs/wire-format.md (section 3), written out independently of the
// table.
func TestOpcodeCoverage(t *testing.T) {
	want := map[Transport][]int{
		RC:  append(span(0x00, 0x14), 0x16, 0x17, 0x1c, 0x1d),
		UC:  span(0x20, 0x2b),
		RD:  append(span(0x40, 0x55), 0x5c, 0x5d),
		UD:  {0x64, 0x65},
		CNP: {0x81},
		XRC: append(span(0xa0, 0xb4), 0xb6, 0xb7),
	}
	got := map[Transport][]int{}
	for i := 0; i < 256; i++ {
		if Opcode(i).Known() {
			got[Opcode(i).Transport()] = append(got[Opcode(i).Transport()], i)
		}
	}
	total := 0
	for tr, w := range want {
		if !equalInts(got[tr], w) {
			t.Errorf("%v: known opcodes %#x, want %#x", tr, got[tr], w)
		}
		total += len(w)
	}
	if total != 87 {
		t.Fatalf("expected 87 opcodes in the opcode table, counted %d", total)
	}
}

func span(a, b int) []int {
	var s []int
	for i := a; i <= b; i++ {
		s = append(s, i)
	}
	return s
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Header lists in wire order, from the opcode table of docs/wire-format.md
// and its notes.
func TestOpcodeHeaders(t *testing.T) {
	for _, c := range []struct {
		op      Opcode
		name    string
		headers string
		payload PayloadRule
	}{
		{0x00, "RC SEND First", "", PayloadAny},
		{0x04, "RC SEND Only", "", PayloadAny},
		{0x05, "RC SEND Only with Immediate", "ImmDt", PayloadAny},
		{0x0a, "RC RDMA WRITE Only", "RETH", PayloadAny},
		{0x0b, "RC RDMA WRITE Only with Immediate", "RETH ImmDt", PayloadAny},
		{0x0c, "RC RDMA READ Request", "RETH", PayloadNone},
		{0x0d, "RC RDMA READ Response First", "AETH", PayloadAny},
		{0x0e, "RC RDMA READ Response Middle", "", PayloadAny},
		{0x10, "RC RDMA READ Response Only", "AETH", PayloadAny},
		{0x11, "RC Acknowledge", "AETH", PayloadNone},
		{0x12, "RC ATOMIC Acknowledge", "AETH AtomicAckETH", PayloadNone},
		{0x13, "RC CmpSwap", "AtomicETH", PayloadNone},
		{0x14, "RC FetchAdd", "AtomicETH", PayloadNone},
		{0x16, "RC SEND Last with Invalidate", "IETH", PayloadAny},
		{0x17, "RC SEND Only with Invalidate", "IETH", PayloadAny},
		{0x1c, "RC FLUSH", "FETH RETH", PayloadNone},
		{0x1d, "RC ATOMIC WRITE", "RETH", PayloadExact8},
		{0x29, "UC RDMA WRITE Last with Immediate", "ImmDt", PayloadAny},
		{0x40, "RD SEND First", "RDETH DETH", PayloadAny},
		{0x41, "RD SEND Middle", "RDETH DETH", PayloadAny},
		{0x4b, "RD RDMA WRITE Only with Immediate", "RDETH DETH RETH ImmDt", PayloadAny},
		{0x4d, "RD RDMA READ Response First", "RDETH AETH", PayloadAny},
		{0x4e, "RD RDMA READ Response Middle", "RDETH", PayloadAny},
		{0x52, "RD ATOMIC Acknowledge", "RDETH AETH AtomicAckETH", PayloadNone},
		{0x53, "RD CmpSwap", "RDETH DETH AtomicETH", PayloadNone},
		{0x55, "RD RESYNC", "RDETH DETH", PayloadNone},
		{0x64, "UD SEND Only", "DETH", PayloadAny},
		{0x65, "UD SEND Only with Immediate", "DETH ImmDt", PayloadAny},
		{0x81, "CNP", "", PayloadAny},
		{0xa0, "XRC SEND First", "XRCETH", PayloadAny},
		{0xab, "XRC RDMA WRITE Only with Immediate", "XRCETH RETH ImmDt", PayloadAny},
		{0xac, "XRC RDMA READ Request", "XRCETH RETH", PayloadNone},
		{0xad, "XRC RDMA READ Response First", "AETH", PayloadAny},
		{0xb1, "XRC Acknowledge", "AETH", PayloadNone},
		{0xb3, "XRC CmpSwap", "XRCETH AtomicETH", PayloadNone},
		{0xb7, "XRC SEND Only with Invalidate", "XRCETH IETH", PayloadAny},
		{0x15, "Reserved (0x15)", "", PayloadAny},
		{0x80, "Reserved (0x80)", "", PayloadAny},
		{0xc3, "Vendor (0xc3)", "", PayloadAny},
		{0xff, "Vendor (0xff)", "", PayloadAny},
	} {
		if got := c.op.String(); got != c.name {
			t.Errorf("%#02x: String() = %q, want %q", uint8(c.op), got, c.name)
		}
		hs := c.op.Headers()
		if got := hs.String(); got != c.headers {
			t.Errorf("%v: Headers() = %q, want %q", c.op, got, c.headers)
		}
		size := 0
		for i := 0; i < hs.Len(); i++ {
			size += hs.At(i).Len()
		}
		if hs.Size() != size {
			t.Errorf("%v: Size() = %d, want %d", c.op, hs.Size(), size)
		}
		if got := c.op.Payload(); got != c.payload {
			t.Errorf("%v: Payload() = %v, want %v", c.op, got, c.payload)
		}
	}
}

func TestAETHSyndrome(t *testing.T) {
	for _, c := range []struct {
		syn     uint8
		typ     AckType
		credits int
		ok      bool
		text    string
	}{
		{0x1f, Ack, 0, false, "ACK, credits 31"},
		{0x00, Ack, 0, true, "ACK, credits 0"},
		{0x05, Ack, 6, true, "ACK, credits 5"},
		{0x1e, Ack, 32768, true, "ACK, credits 30"},
		{0x2e, RNRNak, 0, false, "RNR NAK, timer 14"},
		{0x60, Nak, 0, false, "NAK, PSN Sequence Error"},
		{0x62, Nak, 0, false, "NAK, Remote Access Error"},
		{0x64, Nak, 0, false, "NAK, Invalid RD Request"},
		{0x67, Nak, 0, false, "NAK, Reserved (7)"},
		{0x41, ReservedType, 0, false, "Reserved syndrome 0x41"},
	} {
		a := AETH{Syndrome: c.syn}
		if a.Type() != c.typ {
			t.Errorf("%#x: Type %v want %v", c.syn, a.Type(), c.typ)
		}
		if n, ok := a.Credits(); n != c.credits || ok != c.ok {
			t.Errorf("%#x: Credits %d %v want %d %v", c.syn, n, ok, c.credits, c.ok)
		}
		if a.String() != c.text {
			t.Errorf("%#x: %q want %q", c.syn, a.String(), c.text)
		}
	}
	// RNR timer: code 0 is the longest delay, 655.36 ms; 14 is 1.28 ms.
	if d := (&AETH{Syndrome: 0x20}).RNRDelay().Microseconds(); d != 655360 {
		t.Errorf("timer 0: %d us", d)
	}
	if d := (&AETH{Syndrome: 0x2e}).RNRDelay().Microseconds(); d != 1280 {
		t.Errorf("timer 14: %d us", d)
	}
	if d := (&AETH{Syndrome: 0x3f}).RNRDelay().Microseconds(); d != 491520 {
		t.Errorf("timer 31: %d us", d)
	}
	if c, ok := (&AETH{Syndrome: 0x63}).NakCode(); !ok || c != NakRemoteOperationalErr {
		t.Errorf("NakCode 0x63 = %v %v", c, ok)
	}
}

func TestOpcodeStringNoAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() {
		for i := 0; i < 256; i++ {
			_ = Opcode(i).String()
		}
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
