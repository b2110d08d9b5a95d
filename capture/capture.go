package capture

import (
	"errors"
	"strings"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/internal/hdr"
)

// A Handle is a gopacket packet source, zero-copy too.
var (
	_ gopacket.PacketDataSource         = (*Handle)(nil)
	_ gopacket.ZeroCopyPacketDataSource = (*Handle)(nil)
)

// LinkTypeEthernet is the pcap link type of every frame a Handle reads
// (LINKTYPE_ETHERNET, 1), what Handle.LinkType returns.
const LinkTypeEthernet = hdr.LinkTypeEthernet

// DefaultSnaplen is the snapshot length Open uses when Options.Snaplen
// is 0: 262144 bytes, tcpdump's default, more than any frame.
const DefaultSnaplen = 262144

// DefaultBufferSize is the size of the ring Open maps when
// Options.BufferSize is 0: 2 MiB, what libpcap asks for on Linux when
// tcpdump is not given -B.
const DefaultBufferSize = 2 << 20

// ErrUnsupported is what Open returns on systems without Linux packet
// sockets, and for an interface that is not Ethernet or loopback.
var ErrUnsupported = errors.New("roce: capture: not supported")

// ErrNoInterface is what Open returns for an interface name the system
// does not have.
var ErrNoInterface = errors.New("roce: capture: no such network interface")

// Options are the settings of Open. The zero Options capture every
// frame whole in promiscuous mode through a ring of DefaultBufferSize
// bytes.
type Options struct {
	// Snaplen is how many bytes of each frame are kept; 0 means
	// DefaultSnaplen.
	Snaplen int
	// NoPromiscuous leaves the interface's promiscuous mode alone
	// (tcpdump -p): only frames to the host, broadcast and multicast.
	NoPromiscuous bool
	// BufferSize is the size in bytes of the ring the kernel writes
	// the frames into (tcpdump -B); 0 means DefaultBufferSize. It is
	// rounded up to whole blocks, at least one (see Handle).
	BufferSize int
	// Filter, if set, is a classic BPF program the kernel runs on each
	// frame before it reaches the ring (SO_ATTACH_FILTER), as tcpdump
	// runs the program of its expression: a frame for which it returns
	// 0 is neither kept nor counted in Stats; a frame for which it
	// returns n keeps at most n bytes (Snaplen still applies).
	// RoCEFilter is one. Open fails on a program the kernel refuses.
	Filter []Instruction
	// Idle, if set, is called by a read that finds no frame in the ring,
	// on the reading goroutine, before it waits for the kernel: a
	// program that prints each frame as it arrives flushes its output
	// there, once for all the frames the ring held.
	Idle func()
	// SendOnly opens the interface for WritePacketData alone: the socket
	// receives nothing and maps no ring. ReadPacketData then waits until
	// Close.
	SendOnly bool
}

// Stats are the counts of the kernel for a Handle since it was opened.
type Stats struct {
	// Received counts the frames that passed Options.Filter and reached
	// the ring, those dropped included (tcpdump's "packets received by
	// filter").
	Received uint64
	// Dropped counts the frames dropped because the ring was full
	// (tcpdump's "packets dropped by kernel").
	Dropped uint64
}

// Error is an error of a system call on an interface. It unwraps to the
// system's error (a syscall.Errno: errors.Is(err, os.ErrPermission)
// tells a missing CAP_NET_RAW) or to ErrUnsupported.
type Error struct {
	Iface string // the interface
	Op    string // what failed: "socket", "bind", "PACKET_RX_RING", ...
	Err   error
}

// Error returns "roce: capture: IFACE: OP: ERR" ("IFACE: ERR" when Op
// is empty), with the "roce: " (and "capture: ") ERR starts with left
// out: the prefix is said once.
func (e *Error) Error() string {
	msg := e.Err.Error()
	if m, ok := strings.CutPrefix(msg, "roce: "); ok {
		msg = strings.TrimPrefix(m, "capture: ")
	}
	if e.Op == "" {
		return "roce: capture: " + e.Iface + ": " + msg
	}
	return "roce: capture: " + e.Iface + ": " + e.Op + ": " + msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
