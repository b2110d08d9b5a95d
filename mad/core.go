package mad

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/gpbuf"
)

// The gopacket-free entry points of the layers, for the layers of the
// other gopacket module (the nested module rocelayers): DecodeFromBytes
// takes either module's DecodeFeedback (it only calls SetTruncated, and
// nil is fine), Serialize is SerializeTo through an ib.Buffer with the
// options as ib.SerializeOptions, and Follow links a layer to the MAD it
// follows, as a Layers set does.

// Serialize is SerializeTo writing through b.
func (m *MAD) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return m.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (r *RMPP) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return r.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (c *CM) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return c.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (s *SA) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return s.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Follow makes r read the class of m, the MAD it follows, for its next
// layer, as in a Layers set.
func (r *RMPP) Follow(m *MAD) { r.mad = m }

// Follow makes c read the attribute ID of m, the MAD it follows, as in a
// Layers set.
func (c *CM) Follow(m *MAD) { c.link(m) }

// Follow makes s follow m, as in a Layers set.
func (s *SA) Follow(m *MAD) { s.link(m) }

// Follow makes the SMP, SMPDirected or PerfMgt body follow m, the MAD
// whose header it carries, as in a Layers set.
func (c *classBody) Follow(m *MAD) { c.link(m) }
