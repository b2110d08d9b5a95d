package capture

import (
	"errors"

	"github.com/google/gopacket"
)

// A Handle is a gopacket packet source, zero-copy too.
var (
	_ gopacket.PacketDataSource         = (*Handle)(nil)
	_ gopacket.ZeroCopyPacketDataSource = (*Handle)(nil)
)

// DefaultSnaplen is the snapshot length Open uses when Options.Snaplen
// is 0: 262144 bytes, tcpdump's default, more than any frame.
const DefaultSnaplen = 262144

// ErrUnsupported is what Open returns on systems without Linux packet
// sockets, and for an interface that is not Ethernet or loopback.
var ErrUnsupported = errors.New("roce: capture: not supported")

// Options are the settings of Open. The zero Options capture whole
// frames in promiscuous mode with the kernel's default buffer.
type Options struct {
	// Snaplen is how many bytes of each frame are kept; 0 means
	// DefaultSnaplen.
	Snaplen int
	// NoPromiscuous leaves the interface's promiscuous mode alone
	// (tcpdump -p): only frames to the host, broadcast and multicast.
	NoPromiscuous bool
	// BufferSize is the socket's receive buffer in bytes (tcpdump -B);
	// 0 keeps the kernel's default (net.core.rmem_default). As root it
	// may exceed net.core.rmem_max.
	BufferSize int
	// SendOnly opens the interface for WritePacketData alone: the socket
	// receives nothing, so frames do not pile up in a buffer nobody
	// reads. ReadPacketData then waits until Close.
	SendOnly bool
}

// Stats are the counts of the kernel for a Handle since it was opened.
type Stats struct {
	// Received counts the frames that reached the socket, those
	// dropped included (tcpdump's "packets received by filter").
	Received uint64
	// Dropped counts the frames dropped because the socket's buffer was
	// full (tcpdump's "packets dropped by kernel").
	Dropped uint64
}

// Error is an error of a system call on an interface. It unwraps to the
// system's error (a syscall.Errno: errors.Is(err, os.ErrPermission)
// tells a missing CAP_NET_RAW) or to ErrUnsupported.
type Error struct {
	Iface string // the interface
	Op    string // what failed: "socket", "bind", "recvmsg", ...
	Err   error
}

// Error returns "roce: capture: IFACE: OP: ERR".
func (e *Error) Error() string {
	return "roce: capture: " + e.Iface + ": " + e.Op + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
