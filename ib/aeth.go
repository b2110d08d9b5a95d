package ib

import (
	"slices"
	"strconv"
	"time"

	"github.com/roce-go/roce/internal/errs"
)

// AETHLen is the size of the ACK ETH.
const AETHLen = 4

// AETH is the ACK Extended Transport Header (IBTA Vol 1, 9.3.5), carried
// by Acknowledge, ATOMIC Acknowledge and the first, last and only RDMA
// READ responses:
//
//	+---------------+-----------------------------------------------+
//	|   Syndrome    |                      MSN                      |
//	+---------------+-----------------------------------------------+
//
// The syndrome's bits 6..5 say ACK, RNR NAK or NAK; bits 4..0 carry the
// credit count, the RNR timer or the NAK code. Bit 7 is reserved and kept.
type AETH struct {
	Syndrome uint8
	MSN      uint32 // message sequence number, 24 bits
}

func (h *AETH) parse(b []byte) { h.Syndrome, h.MSN = b[0], get24(b[1:4]) }
func (h *AETH) put(b []byte)   { b[0] = h.Syndrome; put24(b[1:4], h.MSN) }

// do encodes, checks or decodes the header for Packet.eths.
func (h *AETH) do(op ethOp, b []byte) error {
	switch op {
	case ethCheck:
		return h.check()
	case ethGet:
		h.parse(b)
		return nil
	}
	h.put(b)
	return nil
}

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than AETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *AETH) Decode(data []byte) error {
	if len(data) < AETHLen {
		*h = AETH{}
		return truncated(HeaderAETH.String(), 0, AETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Validate reports a field that does not fit its field, as a
// *FieldError wrapping ErrBadValue; AppendTo and Serialize refuse what it
// refuses. It allocates only the error.
func (h *AETH) Validate() error { return h.check() }

// Len returns AETHLen, the header's size.
func (h *AETH) Len() int { return AETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, a field value that does not fit its field: the error is a *FieldError.
func (h *AETH) AppendTo(b []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return b, err
	}
	b = slices.Grow(b, AETHLen)
	h.put(b[len(b) : len(b)+AETHLen])
	return b[:len(b)+AETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *AETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, AETHLen, h)
}

// check reports a field that does not fit, as a *FieldError.
func (h *AETH) check() error { return errs.Fit("AETH.MSN", uint64(h.MSN), 24) }

// AckType is the kind of acknowledgement a syndrome carries.
type AckType uint8

// The syndrome kinds, by bits 6..5.
const (
	Ack          AckType = 0
	RNRNak       AckType = 1
	ReservedType AckType = 2
	Nak          AckType = 3
)

var ackTypeNames = [4]string{"ACK", "RNR NAK", "Reserved", "NAK"}

// String returns "ACK", "RNR NAK", "Reserved" or "NAK".
func (t AckType) String() string { return ackTypeNames[t&3] }

// Type returns the kind of acknowledgement.
func (h *AETH) Type() AckType { return AckType(h.Syndrome >> 5 & 3) }

// Value returns the syndrome's bits 4..0: the credit code of an ACK, the
// timer code of an RNR NAK or the NAK code of a NAK.
func (h *AETH) Value() uint8 { return h.Syndrome & 0x1f }

// creditTable maps ACK credit codes 0-30 to credits (IBTA Vol 1 Table 45).
var creditTable = [31]uint16{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128,
	192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
	16384, 24576, 32768}

// Credits returns the number of credits an ACK grants. ok is false for
// other syndromes and for code 31, which means "no credit information".
func (h *AETH) Credits() (n int, ok bool) {
	if h.Type() != Ack || h.Value() == 31 {
		return 0, false
	}
	return int(creditTable[h.Value()]), true
}

// rnrTimer maps RNR NAK timer codes to the minimum delay in units of 10 us
// (IBTA Vol 1 Table 46); code 0 is the longest, 655.36 ms.
var rnrTimer = [32]uint16{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
	96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144,
	8192, 12288, 16384, 24576, 32768, 49152}

// RNRDelay returns the minimum delay an RNR NAK asks for, 0 for other
// syndromes.
func (h *AETH) RNRDelay() time.Duration {
	if h.Type() != RNRNak {
		return 0
	}
	d := time.Duration(rnrTimer[h.Value()])
	if h.Value() == 0 {
		d = 65536
	}
	return d * 10 * time.Microsecond
}

// NakCode is the code of a NAK syndrome.
type NakCode uint8

// The NAK codes (IBTA Vol 1 Table 44).
const (
	NakPSNSequenceError     NakCode = 0
	NakInvalidRequest       NakCode = 1
	NakRemoteAccessError    NakCode = 2
	NakRemoteOperationalErr NakCode = 3
	NakInvalidRDRequest     NakCode = 4
)

var nakNames = [5]string{"PSN Sequence Error", "Invalid Request",
	"Remote Access Error", "Remote Operational Error", "Invalid RD Request"}

// String returns the IBTA name of the code, or "Reserved (N)".
func (c NakCode) String() string {
	if int(c) < len(nakNames) {
		return nakNames[c]
	}
	return "Reserved (" + strconv.Itoa(int(c)) + ")"
}

// NakCode returns the NAK code; ok is false unless the syndrome is a NAK.
func (h *AETH) NakCode() (c NakCode, ok bool) {
	return NakCode(h.Value()), h.Type() == Nak
}

// String describes the syndrome as Wireshark does: "ACK, credits 31",
// "RNR NAK, timer 14", "NAK, PSN Sequence Error".
func (h *AETH) String() string {
	switch h.Type() {
	case Ack:
		return "ACK, credits " + strconv.Itoa(int(h.Value()))
	case RNRNak:
		return "RNR NAK, timer " + strconv.Itoa(int(h.Value()))
	case Nak:
		return "NAK, " + NakCode(h.Value()).String()
	}
	return "Reserved syndrome 0x" + strconv.FormatUint(uint64(h.Syndrome), 16)
}
