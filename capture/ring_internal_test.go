//go:build linux && !386

package capture

import "testing"

// TestRingGeometry: the ring's blocks, as the package doc gives them:
// 128 KiB for whole frames, 64 KiB for a snapshot length up to 65,280
// bytes, as many as the buffer asks (rounded up), at least one; and
// each block holds a frame of the snapshot length (or the longest) with
// its headers.
func TestRingGeometry(t *testing.T) {
	for _, c := range []struct{ size, snaplen, block, blocks int }{
		{DefaultBufferSize, DefaultSnaplen, 128 << 10, 16},
		{DefaultBufferSize, 128, 64 << 10, 32},
		{DefaultBufferSize, 65280, 64 << 10, 32},
		{DefaultBufferSize, 65281, 128 << 10, 16},
		{1024, DefaultSnaplen, 128 << 10, 1},
		{3<<20 + 1, DefaultSnaplen, 128 << 10, 25},
		{64 << 20, 9000, 64 << 10, 1024},
	} {
		block, blocks := ringGeometry(c.size, c.snaplen, 4096)
		if block != c.block || blocks != c.blocks {
			t.Errorf("ringGeometry(%d, %d): %d blocks of %d bytes, want %d of %d", c.size, c.snaplen, blocks, block, c.blocks, c.block)
		}
		if room := block - frameRoom; room < min(c.snaplen, largestFrame) {
			t.Errorf("ringGeometry(%d, %d): a block of %d bytes holds no frame of %d", c.size, c.snaplen, block, min(c.snaplen, largestFrame))
		}
	}
}
