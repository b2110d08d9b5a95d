package ib

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand"
	"testing"
)

// The worked vectors V1-V5 of docs/icrc-vectors.md, checked there against
// zlib, a transcription of Linux rxe and Scapy 2.5.0. Frames start at the
// Ethernet destination; netOff is where the GRH or IP header starts.
var icrcVectors = []struct {
	name   string
	enc    Encapsulation
	netOff int
	want   uint32
	frame  string
}{
	{"V1 RoCEv2/IPv4 RC SEND Only", RoCEv2IPv4, 14, 0x0FA0BC85,
		"02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f"},
	{"V2 RoCEv2/IPv6 RC SEND Only", RoCEv2IPv6, 14, 0x2D7B8B03,
		"02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d"},
	{"V3 RoCEv1 RC SEND Only", RoCEv1, 14, 0x6B2406B9,
		"02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b"},
	{"V4 CNP RoCEv2/IPv4", RoCEv2IPv4, 14, 0x1E72070D,
		"020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101c00112b7002800008100ffff4000003400000000000000000000000000000000000000000d07721e"},
	{"V5 RC Acknowledge RoCEv2/IPv4", RoCEv2IPv4, 14, 0x7CA6A7AE,
		"020000000001020000000002080045020030000140004011b766c0a80102c0a80101c00012b7001c00001100ffff00000011000000011f000005aea7a67c"},
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// referenceICRC is the slow, obviously right ICRC: copy, mask, prepend
// eight 0xFF bytes, crc32.ChecksumIEEE.
func referenceICRC(enc Encapsulation, pkt []byte) uint32 {
	b := append([]byte(nil), pkt[:len(pkt)-4]...)
	bth := 28
	switch enc {
	case RoCEv2IPv4:
		b[1], b[8], b[10], b[11] = 0xff, 0xff, 0xff, 0xff
		b[26], b[27] = 0xff, 0xff
	case RoCEv2IPv6:
		b[0] |= 0x0f
		b[1], b[2], b[3], b[7] = 0xff, 0xff, 0xff, 0xff
		b[46], b[47] = 0xff, 0xff
		bth = 48
	case RoCEv1:
		b[0] |= 0x0f
		b[1], b[2], b[3], b[7] = 0xff, 0xff, 0xff, 0xff
		bth = 40
	}
	b[bth+4] = 0xff
	return crc32.ChecksumIEEE(append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, b...))
}

func TestICRCVectors(t *testing.T) {
	for _, v := range icrcVectors {
		t.Run(v.name, func(t *testing.T) {
			pkt := mustHex(t, v.frame)[v.netOff:]
			got, err := ComputeICRC(v.enc, pkt)
			if err != nil {
				t.Fatal(err)
			}
			if got != v.want {
				t.Errorf("ComputeICRC = %#08x, want %#08x", got, v.want)
			}
			if r := ReceivedICRC(pkt); r != v.want {
				t.Errorf("ReceivedICRC = %#08x, want %#08x", r, v.want)
			}
			if ref := referenceICRC(v.enc, pkt); ref != v.want {
				t.Errorf("reference = %#08x, want %#08x", ref, v.want)
			}
			if err := VerifyICRC(v.enc, pkt); err != nil {
				t.Errorf("VerifyICRC: %v", err)
			}
		})
	}
}

// Every single-bit flip of an invariant byte must be detected; every change
// confined to variant fields must not.
func TestICRCBitFlips(t *testing.T) {
	for _, v := range icrcVectors {
		t.Run(v.name, func(t *testing.T) {
			pkt := mustHex(t, v.frame)[v.netOff:]
			variant := variantBits(v.enc, len(pkt))
			checked := 0
			for i := 0; i < len(pkt)-ICRCLen; i++ {
				for bit := 0; bit < 8; bit++ {
					pkt[i] ^= 1 << bit
					err := VerifyICRC(v.enc, pkt)
					if variant[i]&(1<<bit) != 0 {
						if err != nil {
							t.Errorf("flip of variant byte %d bit %d broke the ICRC: %v", i, bit, err)
						}
					} else if v.enc == RoCEv2IPv4 && i == 0 && err != nil {
						checked++ // a changed version or IHL is refused outright
					} else if !errors.Is(err, ErrBadICRC) {
						t.Errorf("flip of invariant byte %d bit %d: err = %v, want ErrBadICRC", i, bit, err)
					} else {
						checked++
					}
					pkt[i] ^= 1 << bit
				}
			}
			if checked < 8*(len(pkt)-ICRCLen-8) {
				t.Errorf("only %d invariant flips checked", checked)
			}
		})
	}
}

// variantBits returns, per byte, the bits the ICRC masks.
func variantBits(enc Encapsulation, n int) []byte {
	v := make([]byte, n)
	bth := 28
	switch enc {
	case RoCEv2IPv4:
		v[1], v[8], v[10], v[11], v[26], v[27] = 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	case RoCEv2IPv6:
		v[0], v[1], v[2], v[3], v[7], v[46], v[47] = 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
		bth = 48
	case RoCEv1:
		v[0], v[1], v[2], v[3], v[7] = 0x0f, 0xff, 0xff, 0xff, 0xff
		bth = 40
	}
	v[bth+4] = 0xff
	return v
}

// TestICRCMatchesReference checks ComputeICRC against the definition on
// random packets: every length from the shortest to 300 bytes more, the
// lengths where crc32.Update changes method (16-byte blocks from 64 bytes,
// wider ones from 1 KiB), around the 4 KiB MTU, and random lengths up to
// the largest a UDP length allows and past it. Every seventh length also
// has its headers all zeros, then all ones.
func TestICRCMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var long []int
	for n := 300; n < 1024+300; n++ {
		long = append(long, n)
	}
	for n := 4096 - 64; n < 4096+128; n++ {
		long = append(long, n)
	}
	for range 300 {
		long = append(long, 600+r.Intn(65535-600))
	}
	long = append(long, 65535+20, 1<<20)
	for _, enc := range []Encapsulation{RoCEv1, RoCEv2IPv4, RoCEv2IPv6} {
		var lengths []int
		for n := variants[enc].n + ICRCLen; n < variants[enc].n+ICRCLen+300; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range append(lengths, long...) {
			pkt := make([]byte, n)
			r.Read(pkt)
			fills := []int{-1}
			if n%7 == 0 {
				fills = append(fills, 0x00, 0xff)
			}
			for _, fill := range fills {
				if fill >= 0 {
					for i := range min(64, n) {
						pkt[i] = byte(fill)
					}
				}
				if enc == RoCEv2IPv4 {
					pkt[0] = 0x45
				}
				got, err := ComputeICRC(enc, pkt)
				if err != nil {
					t.Fatal(err)
				}
				if want := referenceICRC(enc, pkt); got != want {
					t.Fatalf("%v len %d: got %#08x want %#08x", enc, n, got, want)
				}
			}
		}
	}
}

func TestICRCErrors(t *testing.T) {
	pkt := mustHex(t, icrcVectors[0].frame)[14:]
	if _, err := ComputeICRC(RoCEv2IPv4, pkt[:43]); !errors.Is(err, ErrTruncated) {
		t.Errorf("short: %v", err)
	}
	pkt[0] = 0x46
	if _, err := ComputeICRC(RoCEv2IPv4, pkt); !errors.Is(err, ErrUnsupported) {
		t.Errorf("options: %v", err)
	}
	if _, err := ComputeICRC(9, pkt); !errors.Is(err, ErrUnsupported) {
		t.Errorf("bad encapsulation: %v", err)
	}
}

// TestICRCEveryVariantValue sets each variant byte to each of its 256
// values in turn: every entry of every seed table is used once.
func TestICRCEveryVariantValue(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, enc := range []Encapsulation{RoCEv1, RoCEv2IPv4, RoCEv2IPv6} {
		pkt := make([]byte, variants[enc].n+100)
		r.Read(pkt)
		pkt[0] = 0x45
		if enc != RoCEv2IPv4 {
			pkt[0] = 0x60
		}
		for _, v := range variants[enc].bytes {
			for b := range 256 {
				if v.off == 0 && byte(b)>>4 != pkt[0]>>4 {
					continue // the version nibble is not variant
				}
				pkt[v.off] = byte(b)
				got, err := ComputeICRC(enc, pkt)
				if err != nil {
					t.Fatal(err)
				}
				if want := referenceICRC(enc, pkt); got != want {
					t.Fatalf("%v byte %d = %#02x: got %#08x want %#08x", enc, v.off, b, got, want)
				}
			}
		}
	}
}

// BenchmarkComputeICRC runs the engine over packets of several sizes; the
// CRC32 sub-benchmarks run crc32.ChecksumIEEE over as many bytes as the
// ICRC covers, for comparison in the same run.
func BenchmarkComputeICRC(b *testing.B) {
	for _, size := range []int{64, 256, 1024, 4096} {
		for _, enc := range []Encapsulation{RoCEv1, RoCEv2IPv4, RoCEv2IPv6} {
			pkt := make([]byte, variants[enc].n+size+ICRCLen)
			for i := range pkt {
				pkt[i] = byte(i)
			}
			pkt[0] = 0x45
			b.Run(fmt.Sprintf("%v/%d", enc, size), func(b *testing.B) {
				b.SetBytes(int64(len(pkt) - ICRCLen + 8))
				for b.Loop() {
					if _, err := ComputeICRC(enc, pkt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		data := make([]byte, variants[RoCEv2IPv4].n+size+8)
		b.Run(fmt.Sprintf("CRC32/%d", size), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var sink uint32
			for b.Loop() {
				sink += crc32.ChecksumIEEE(data)
			}
			_ = sink
		})
	}
}

// referenceNativeICRC is the ICRC of a native InfiniBand packet without a
// GRH by the definition: copy, mask the VL and the BTH's byte 4, CRC-32.
func referenceNativeICRC(pkt []byte) uint32 {
	b := append([]byte(nil), pkt[:len(pkt)-4]...)
	b[0] |= 0xf0
	b[LRHLen+4] = 0xff
	return crc32.ChecksumIEEE(b)
}

// referenceNativeGlobalICRC is the ICRC of a native InfiniBand packet with
// a GRH by the definition (IBTA Vol 1, 7.8.1): copy, set the whole LRH
// and the GRH's TClass, FlowLabel and HopLmt and the BTH's byte 4 to
// ones, CRC-32 over the lot.
func referenceNativeGlobalICRC(pkt []byte) uint32 {
	b := append([]byte(nil), pkt[:len(pkt)-4]...)
	for i := range 8 {
		b[i] = 0xff // LRH
	}
	b[8] |= 0x0f                          // TClass, high nibble
	b[9], b[10], b[11] = 0xff, 0xff, 0xff // TClass, low nibble; FlowLabel
	b[8+7] = 0xff                         // HopLmt
	b[8+40+4] = 0xff                      // BTH byte 4
	return crc32.ChecksumIEEE(b)
}

func TestNativeICRC(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	lengths := []int{LRHLen + BTHLen + ICRCLen}
	for range 200 {
		lengths = append(lengths, LRHLen+BTHLen+ICRCLen+r.Intn(4200))
	}
	for _, n := range lengths {
		pkt := make([]byte, n)
		r.Read(pkt)
		pkt[1] = pkt[1]&^3 | LNHIBALocal
		got, err := ComputeNativeICRC(pkt)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceNativeICRC(pkt); got != want {
			t.Fatalf("local, len %d: got %#08x want %#08x", n, got, want)
		}
		// Every value of the variant bytes, and a bit outside them.
		for _, off := range []int{0, LRHLen + 4} {
			for b := range 256 {
				pkt[off] = byte(b)
				pkt[1] = pkt[1]&^3 | LNHIBALocal
				if got, _ := ComputeNativeICRC(pkt); got != referenceNativeICRC(pkt) {
					t.Fatalf("local, byte %d = %#02x: got %#08x", off, b, got)
				}
			}
		}
		binary.LittleEndian.PutUint32(pkt[n-4:], referenceNativeICRC(pkt))
		if err := VerifyNativeICRC(pkt); err != nil {
			t.Fatal(err)
		}
		pkt[0] ^= 0x0f // LVer is covered
		if err := VerifyNativeICRC(pkt); !errors.Is(err, ErrBadICRC) {
			t.Fatalf("LVer changed: %v", err)
		}
		if n < LRHLen+GRHLen+BTHLen+ICRCLen {
			continue
		}
		pkt[1] = pkt[1]&^3 | LNHIBAGlobal
		pkt[LRHLen] = 0x60 | pkt[LRHLen]&0x0f // GRH IPVer 6
		want := referenceNativeGlobalICRC(pkt)
		if got, err := ComputeNativeICRC(pkt); err != nil || got != want {
			t.Fatalf("global, len %d: got %#08x, %v; want %#08x", n, got, err, want)
		}
	}
	for _, lnh := range []byte{LNHRaw, LNHIPv6} {
		pkt := make([]byte, 64)
		pkt[1] = lnh
		if _, err := ComputeNativeICRC(pkt); !errors.Is(err, ErrUnsupported) {
			t.Errorf("LNH %d: %v", lnh, err)
		}
	}
	short := []byte{0, LNHIBALocal, 0, 0, 0, 0, 0, 0, 1, 2, 3}
	for i := range len(short) + 1 {
		if _, err := ComputeNativeICRC(short[:i]); !errors.Is(err, ErrTruncated) {
			t.Errorf("%d bytes: %v", i, err)
		}
	}
}

// TestUpdateIsCRC32 holds update to the standard library's crc32.Update
// for every length to 300 bytes (every rest after the 16-byte blocks,
// below and above the 64 bytes where the library's kernel starts), at
// every alignment of 0 to 15, from several start values.
func TestUpdateIsCRC32(t *testing.T) {
	rng := rand.New(rand.NewSource(719))
	buf := make([]byte, 320)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for _, start := range []uint32{0, 0xffffffff, 0x2144df1c, rng.Uint32()} {
		for off := range 16 {
			for n := 0; n+off <= 300; n++ {
				p := buf[off : off+n]
				if got, want := update(start, p), crc32.Update(start, crc32.IEEETable, p); got != want {
					t.Fatalf("update(%#x, %d bytes at %d) = %#x, crc32.Update %#x", start, n, off, got, want)
				}
			}
		}
	}
}
