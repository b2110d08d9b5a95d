package hdr

import (
	"encoding/hex"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checksumSlow is RFC 1071's sum, sixteen bits at a time.
func checksumSlow(sum uint32, b []byte) uint16 {
	for ; len(b) >= 2; b = b[2:] {
		sum += uint32(b[0])<<8 | uint32(b[1])
	}
	if len(b) == 1 {
		sum += uint32(b[0]) << 8
	}
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return uint16(sum)
}

func TestChecksum(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for n := 0; n < 600; n++ {
		b := make([]byte, n)
		r.Read(b)
		if n%5 == 0 {
			for i := range b {
				b[i] = 0xff // sums that fold many times
			}
		}
		seed := uint32(r.Intn(1 << 20))
		require.Equal(t, checksumSlow(seed, b), Checksum(seed, b), "len %d seed %#x", n, seed)
	}
}

// RFC 1624, section 4: HC 0xDD2F, m 0x5555 -> m' 0x3285 gives 0x0000,
// where RFC 1141's form gives 0xFFFF.
func TestUpdateChecksum(t *testing.T) {
	assert.Equal(t, uint16(0x0000), UpdateChecksum(0xdd2f, 0x5555, 0x3285))
}

// The header of vector V1 (docs/icrc-vectors.md): every accessor, then
// Encode from the fields read gives the same bytes.
func TestIPv4(t *testing.T) {
	b, _ := hex.DecodeString("4502003c123440004011a527c0a80101c0a80102") // V1: TOS 2, length 60, ID 0x1234, DF, TTL 64, UDP, 192.168.1.1 -> .2
	h := IPv4(b)
	assert.Equal(t, uint8(4), h.Version())
	assert.Equal(t, 20, h.HeaderLen())
	assert.Equal(t, uint8(2), h.TOS())
	assert.Equal(t, uint16(60), h.TotalLen())
	assert.Equal(t, uint16(0x1234), h.ID())
	assert.Equal(t, uint16(IPv4FlagDF), h.FlagsFrag())
	assert.False(t, h.IsFragment())
	assert.Equal(t, uint8(64), h.TTL())
	assert.Equal(t, uint8(IPProtocolUDP), h.Protocol())
	assert.Equal(t, uint16(0xa527), h.Checksum())
	assert.Equal(t, [4]byte{192, 168, 1, 1}, h.Src())
	assert.Equal(t, [4]byte{192, 168, 1, 2}, h.Dst())
	out := make(IPv4, IPv4MinLen)
	out.Encode(&IPv4Fields{TOS: 2, TotalLen: 60, ID: 0x1234, FlagsFrag: IPv4FlagDF, TTL: 64, Protocol: IPProtocolUDP, Src: h.Src(), Dst: h.Dst()})
	assert.Equal(t, b, []byte(out))
	out.SetTOS(0x03) // CE: the incremental update equals a recomputation
	c := out.Checksum()
	out.FixChecksum()
	assert.Equal(t, out.Checksum(), c)
}

func TestIPv6(t *testing.T) {
	b, _ := hex.DecodeString("6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002")
	h := IPv6(b)
	assert.Equal(t, uint8(6), h.Version())
	assert.Equal(t, uint8(2), h.TrafficClass())
	assert.Equal(t, uint32(0x12345), h.FlowLabel())
	assert.Equal(t, uint16(40), h.PayloadLen())
	assert.Equal(t, uint8(17), h.NextHeader())
	assert.Equal(t, uint8(64), h.HopLimit())
	out := make(IPv6, IPv6Len)
	out.Encode(&IPv6Fields{TrafficClass: 2, FlowLabel: 0x12345, PayloadLen: 40, NextHeader: 17, HopLimit: 64, Src: h.Src(), Dst: h.Dst()})
	assert.Equal(t, b, []byte(out))
	out.SetTrafficClass(0xff)
	assert.Equal(t, uint8(0xff), out.TrafficClass())
	assert.Equal(t, uint32(0x12345), out.FlowLabel())
	assert.Equal(t, uint8(6), out.Version())
}

func TestVLANTag(t *testing.T) {
	frame := make([]byte, NetOffset(2))
	Ethernet(frame).SetAddresses([6]byte{1, 2, 3, 4, 5, 6}, [6]byte{7, 8, 9, 10, 11, 12})
	VLANTag(frame[TagOffset(0):]).Set(EtherTypeQinQ, 5, true, 7)
	VLANTag(frame[TagOffset(1):]).Set(EtherTypeDot1Q, MaxPCP, false, MaxVID)
	PutEtherType(frame, 2, EtherTypeIPv6)
	want, _ := hex.DecodeString("010203040506" + "0708090a0b0c" + "88a8b007" + "8100efff" + "86dd")
	assert.Equal(t, want, frame)
	t0 := VLANTag(frame[TagOffset(0):])
	assert.Equal(t, []any{uint16(EtherTypeQinQ), uint8(5), true, uint16(7), uint16(0xb007)}, []any{t0.TPID(), t0.PCP(), t0.DEI(), t0.VID(), t0.TCI()})
	t0.SetPCP(1)
	assert.Equal(t, []any{uint8(1), true, uint16(7)}, []any{t0.PCP(), t0.DEI(), t0.VID()})
	assert.True(t, IsTPID(Ethernet(frame).Type()))
}

// A UDP checksum of vector V2 (IPv6), reported correct by tshark: 0xc683.
func TestUDPChecksumOf(t *testing.T) {
	b, _ := hex.DecodeString("6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d")
	u := UDP(b[IPv6Len:])
	assert.Equal(t, uint16(0xc683), u.Checksum())
	u.FixChecksum(b)
	assert.Equal(t, uint16(0xc683), u.Checksum())
	assert.Equal(t, uint16(0xc683), UDPChecksumOf(b, u))
}
