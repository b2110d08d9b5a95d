package mad

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/gpbuf"
)

// Serialize of the subnet and performance management MADs, for the
// layers of the other gopacket module (see core.go).

// Serialize is SerializeTo writing through b.
func (s *SMP) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return s.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (s *SMPDirected) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return s.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (m *PerfMgt) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return m.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}
