//go:build !linux || 386

package capture

import (
	"time"

	"github.com/google/gopacket"
)

// Handle is a packet socket bound to one interface; on this system Open
// never returns one.
type Handle struct{}

// Open returns an error matching ErrUnsupported: packet sockets are
// Linux's (and this package reaches them on 64-bit and 32-bit ARM and
// MIPS Linux, not linux/386).
func Open(iface string, opt Options) (*Handle, error) {
	return nil, &Error{Iface: iface, Op: "open", Err: ErrUnsupported}
}

// LinkType returns LinkTypeEthernet.
func (h *Handle) LinkType() uint16 { return LinkTypeEthernet }

// Snaplen returns 0.
func (h *Handle) Snaplen() int { return 0 }

// ZeroCopyReadPacketData returns ErrUnsupported.
func (h *Handle) ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	return nil, gopacket.CaptureInfo{}, ErrUnsupported
}

// ReadPacketData returns ErrUnsupported.
func (h *Handle) ReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	return nil, gopacket.CaptureInfo{}, ErrUnsupported
}

// WritePacketData returns ErrUnsupported.
func (h *Handle) WritePacketData(data []byte) error { return ErrUnsupported }

// WritePacketBatch returns ErrUnsupported.
func (h *Handle) WritePacketBatch(frames [][]byte) (int, error) { return 0, ErrUnsupported }

// SetReadDeadline returns ErrUnsupported.
func (h *Handle) SetReadDeadline(t time.Time) error { return ErrUnsupported }

// Stats returns ErrUnsupported.
func (h *Handle) Stats() (Stats, error) { return Stats{}, ErrUnsupported }

// Close does nothing.
func (h *Handle) Close() error { return nil }
