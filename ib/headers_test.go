package ib

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Each header, hand-encoded from the field layouts of docs/wire-format.md §1-4,
// decodes to its fields and serializes back to the same bytes.
func TestHeaderBytes(t *testing.T) {
	type layer interface {
		Decode([]byte) error
		Serialize(Buffer, SerializeOptions) error
	}
	for _, c := range []struct {
		name  string
		bytes []byte
		got   layer
		want  layer
	}{
		{"RDETH", []byte{
			0xa5,             // reserved, kept
			0x12, 0x34, 0x56, // EECnxt
		}, &RDETH{}, &RDETH{Resv8: 0xa5, EECnxt: 0x123456}},
		{"DETH", []byte{
			0x80, 0x01, 0x00, 0x00, // Q_Key (GSI)
			0x00,             // reserved
			0x00, 0x00, 0x01, // SrcQP
		}, &DETH{}, &DETH{QKey: 0x80010000, SrcQP: 1}},
		{"XRCETH", []byte{0x00, 0xab, 0xcd, 0xef}, &XRCETH{}, &XRCETH{XRCSRQ: 0xabcdef}},
		{"RETH", []byte{
			0x00, 0x00, 0x7f, 0xff, 0x12, 0x34, 0x50, 0x00, // VA
			0xde, 0xad, 0xbe, 0xef, // R_Key
			0x00, 0x00, 0x10, 0x00, // DMA Length 4096
		}, &RETH{}, &RETH{VA: 0x7fff12345000, RKey: 0xdeadbeef, DMALen: 4096}},
		{"AtomicETH", []byte{
			0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x08, // VA
			0x00, 0x00, 0x01, 0x02, // R_Key
			0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // swap/add data at offset 12
			0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, // compare data at offset 20
		}, &AtomicETH{}, &AtomicETH{VA: 0x10000008, RKey: 0x102, SwapData: 0x1122334455667788, CompareData: 0x99aabbccddeeff00}},
		{"AtomicAckETH", []byte{0, 0, 0, 0, 0, 0, 0, 42}, &AtomicAckETH{}, &AtomicAckETH{OrigRemData: 42}},
		{"AETH", []byte{
			0x60,             // syndrome: NAK, PSN sequence error
			0x00, 0x00, 0x07, // MSN
		}, &AETH{}, &AETH{Syndrome: 0x60, MSN: 7}},
		{"ImmDt", []byte{0xca, 0xfe, 0xba, 0xbe}, &ImmDt{}, &ImmDt{Data: 0xcafebabe}},
		{"IETH", []byte{0x00, 0x00, 0x12, 0x34}, &IETH{}, &IETH{RKey: 0x1234}},
		{"FETH", []byte{
			0x00, 0x00, 0x00, // reserved
			0x13, // reserved bits 0, SEL 1 (bits 5..4), PLT 3 (bits 3..0)
		}, &FETH{}, &FETH{SEL: 1, PLT: 3}},
		{"LRH", []byte{
			0x20,       // VL 2, LVer 0
			0x03,       // SL 0, LNH 3 (GRH follows)
			0x00, 0x05, // DLID
			0x00, 0x0c, // PktLen 12 words
			0x00, 0x01, // SLID
			// 40 bytes follow: stand-in for the rest of the packet
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0xab, 0xcd, // VCRC
		}, &LRH{}, &LRH{VL: 2, LNH: 3, DLID: 5, PktLen: 12, SLID: 1, VCRC: 0xabcd}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if l, ok := c.got.(*LRH); ok {
				_, _, err = l.Split(c.bytes) // the VCRC too
			} else {
				err = c.got.Decode(c.bytes)
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, c.got); d != "" {
				t.Fatalf("decode mismatch (-want +got):\n%s", d)
			}
			buf := &frontBuffer{}
			if c.name == "LRH" {
				buf.b = make([]byte, 40)
			}
			if err := c.want.Serialize(buf, SerializeOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), c.bytes) {
				t.Fatalf("encode:\n got %x\nwant %x", buf.Bytes(), c.bytes)
			}
			if c.name == "LRH" {
				return
			}
			// Every shorter input is an ErrTruncated, also io.ErrUnexpectedEOF.
			for n := 0; n < len(c.bytes); n++ {
				err := c.got.Decode(c.bytes[:n])
				if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("len %d: err = %v", n, err)
				}
				var e *Error
				if !errors.As(err, &e) || e.Layer != c.name {
					t.Fatalf("len %d: error %v does not name the layer", n, err)
				}
			}
		})
	}
}

func TestBTHBytes(t *testing.T) {
	b := []byte{
		0x0b,       // OpCode: RC RDMA WRITE Only with Immediate
		0xe2,       // SE 1, M 1, PadCnt 2, TVer 2
		0x80, 0x01, // P_Key
		0xc5,             // FECN 1, BECN 1, Resv6a 5
		0x00, 0x12, 0x34, // DestQP
		0x81,             // AckReq 1, Resv7 1
		0xab, 0xcd, 0xef, // PSN
		// RETH
		0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 7, 0, 0, 0, 2,
		// ImmDt
		0x01, 0x02, 0x03, 0x04,
		// payload, 2 bytes, then 2 pad bytes
		0xaa, 0xbb, 0x00, 0x00,
		// ICRC as received
		0x11, 0x22, 0x33, 0x44,
	}
	want := BTH{OpCode: 0x0b, SE: true, MigReq: true, PadCnt: 2, TVer: 2, PKey: 0x8001,
		FECN: true, BECN: true, Resv6a: 5, DestQP: 0x1234, AckReq: true, Resv7: 1, PSN: 0xabcdef,
		Pad: []byte{0, 0}, ICRC: [4]byte{0x11, 0x22, 0x33, 0x44}}
	var p Packet
	if err := p.Decode(b); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, p.BTH, cmpopts.IgnoreUnexported(BTH{})); d != "" {
		t.Fatalf("BTH (-want +got):\n%s", d)
	}
	if p.RETH.DMALen != 2 || p.RETH.RKey != 7 || p.RETH.VA != 0x1000 || p.ImmDt.Data != 0x01020304 {
		t.Fatalf("ETHs: %+v %+v", p.RETH, p.ImmDt)
	}
	if !bytes.Equal(p.Payload, []byte{0xaa, 0xbb}) {
		t.Fatalf("payload %x", p.Payload)
	}
	if out, err := p.AppendTo(nil); err != nil || !bytes.Equal(out, b) {
		t.Fatalf("re-encode (%v)\n got %x\nwant %x", err, out, b)
	}
}

func TestBTHErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		hex  []byte
		want error
	}{
		{"short", []byte{0x04, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}, ErrTruncated},
		// RETH needs 16 bytes; only 4 before the ICRC.
		{"header too short for opcode", append([]byte{0x0a, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1}, 1, 2, 3, 4, 9, 9, 9, 9), ErrTruncated},
		// PadCnt 3 with 2 payload bytes.
		{"pad larger than payload", []byte{0x04, 0x30, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0xaa, 0xbb, 9, 9, 9, 9}, ErrBadPad},
		// An ACK with 4 extra bytes after the AETH.
		{"payload on an ACK", []byte{0x11, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0x1f, 0, 0, 1, 1, 2, 3, 4, 9, 9, 9, 9}, ErrBadLength},
		// ATOMIC WRITE with 4 bytes of data instead of 8.
		{"atomic write not 8 bytes", append(append([]byte{0x1d, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1}, make([]byte, 16)...), 1, 2, 3, 4, 9, 9, 9, 9), ErrBadLength},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p Packet
			if err := p.Decode(c.hex); !errors.Is(err, c.want) {
				t.Fatalf("Packet.Decode: %v, want %v", err, c.want)
			}
			var h BTH
			if err := h.Decode(c.hex); !errors.Is(err, c.want) {
				t.Fatalf("BTH.Decode: %v, want %v", err, c.want)
			}
		})
	}
	// Unknown opcodes are never an error: BTH plus opaque bytes.
	var p Packet
	b := []byte{0xc7, 0x30, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0xaa, 9, 9, 9, 9}
	if err := p.Decode(b); err != nil || !bytes.Equal(p.Payload, []byte{0xaa}) || len(p.BTH.Pad) != 0 {
		t.Fatalf("vendor opcode: %v payload %x", err, p.Payload)
	}
	if out, err := p.AppendTo(nil); err != nil || !bytes.Equal(out, b) {
		t.Fatalf("vendor re-encode (%v) %x", err, out)
	}
}
