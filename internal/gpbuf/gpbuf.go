// Package gpbuf lets a layer written against google/gopacket's
// SerializeBuffer write through an ib.Buffer, the part of a
// SerializeBuffer of either gopacket module that a header's encoder uses.
// It is how the layers of packages mad and ipoib get their gopacket-free
// Serialize: one encoder, SerializeTo, reached from both modules.
package gpbuf

import "github.com/google/gopacket"

// Buffer is ib.Buffer: the methods of a gopacket.SerializeBuffer an
// encoder writes through.
type Buffer interface {
	Bytes() []byte
	PrependBytes(n int) ([]byte, error)
	AppendBytes(n int) ([]byte, error)
}

// Google returns b as a google/gopacket SerializeBuffer: b itself when it
// is one, else b with the bookkeeping methods an encoder does not call
// (Clear passed on when b has one, no layer list).
func Google(b Buffer) gopacket.SerializeBuffer {
	if g, ok := b.(gopacket.SerializeBuffer); ok {
		return g
	}
	return google{b}
}

// google is a Buffer with the rest of gopacket.SerializeBuffer.
type google struct{ Buffer }

// Clear calls the Clear of the buffer, if it has one.
func (g google) Clear() error {
	if c, ok := g.Buffer.(interface{ Clear() error }); ok {
		return c.Clear()
	}
	return nil
}

// Layers returns nil: the buffer keeps no list of google layer types.
func (google) Layers() []gopacket.LayerType { return nil }

// PushLayer does nothing (see Layers).
func (google) PushLayer(gopacket.LayerType) {}
