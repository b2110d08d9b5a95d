//go:build linux && !386

package capture

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// Handle is a packet socket bound to one interface. One goroutine may
// read while another writes; Close and Stats may be called from any
// goroutine.
type Handle struct {
	f        *os.File
	rc       syscall.RawConn
	iface    string
	ifindex  int
	mtu      int
	loopback bool
	closed   atomic.Bool

	// Reading: recvmsg's arguments, built once, and its results.
	buf     []byte
	oob     []byte
	from    syscall.RawSockaddrLinklayer
	iov     syscall.Iovec
	msg     syscall.Msghdr
	recvFn  func(fd uintptr) bool
	n, oobn int
	rerr    syscall.Errno

	// Writing: sendto's destination, the frame and the result.
	sendFn func(fd uintptr) bool
	to     syscall.RawSockaddrLinklayer
	out    []byte
	werr   syscall.Errno
	batch  *batch // WritePacketBatch's arguments, made on its first call

	mu    sync.Mutex // guards stats
	stats Stats
}

// Open opens a packet socket on the interface named iface (eth0, a veth
// end, lo), bound to it for every protocol.
func Open(iface string, opt Options) (*Handle, error) {
	ifi, err := net.InterfaceByName(iface)
	if err != nil {
		return nil, &Error{Iface: iface, Op: "interface", Err: err}
	}
	snap := opt.Snaplen
	if snap <= 0 {
		snap = DefaultSnaplen
	}
	// Protocol 0: the socket receives nothing until it is bound to the
	// interface, so no frame of another interface slips in.
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, &Error{Iface: iface, Op: "socket", Err: err}
	}
	h := &Handle{iface: iface, ifindex: ifi.Index, mtu: ifi.MTU}
	if err := h.setup(fd, ifi.Index, opt); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	h.f = os.NewFile(uintptr(fd), "packet:"+iface)
	if h.rc, err = h.f.SyscallConn(); err != nil {
		h.f.Close()
		return nil, &Error{Iface: iface, Op: "poller", Err: err}
	}
	h.buf = make([]byte, snap)
	h.oob = make([]byte, syscall.CmsgSpace(int(unsafe.Sizeof(syscall.Timespec{})))+64)
	h.iov.Base = &h.buf[0]
	h.iov.SetLen(len(h.buf))
	h.msg.Name = (*byte)(unsafe.Pointer(&h.from))
	h.msg.Iov = &h.iov
	h.msg.Iovlen = 1
	h.msg.Control = &h.oob[0]
	h.recvFn, h.sendFn = h.recv, h.send
	h.to = syscall.RawSockaddrLinklayer{Family: syscall.AF_PACKET, Ifindex: int32(ifi.Index)}
	return h, nil
}

// setup sets the socket's options and binds it.
func (h *Handle) setup(fd, ifindex int, opt Options) error {
	fail := func(op string, err error) error { return &Error{Iface: h.iface, Op: op, Err: err} }
	proto := htons(syscall.ETH_P_ALL)
	if opt.SendOnly {
		proto = 0
	} else {
		if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1); err != nil {
			return fail("SO_TIMESTAMPNS", err)
		}
		if opt.BufferSize > 0 {
			if syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUFFORCE, opt.BufferSize) != nil {
				if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, opt.BufferSize); err != nil {
					return fail("SO_RCVBUF", err)
				}
			}
		}
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: proto, Ifindex: ifindex}); err != nil {
		return fail("bind", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		return fail("getsockname", err)
	}
	ll, _ := sa.(*syscall.SockaddrLinklayer)
	switch {
	case ll == nil:
		return fail("getsockname", ErrUnsupported)
	case ll.Hatype == syscall.ARPHRD_LOOPBACK:
		h.loopback = true
		// The outgoing copies need not even be queued (Linux 4.20 on;
		// before, ZeroCopyReadPacketData skips them).
		syscall.SetsockoptInt(fd, syscall.SOL_PACKET, packetIgnoreOutgoing, 1)
	case ll.Hatype != syscall.ARPHRD_ETHER:
		return fail("link type", fmt.Errorf("hardware type %d is not Ethernet: %w", ll.Hatype, ErrUnsupported))
	}
	if !opt.NoPromiscuous && !opt.SendOnly {
		mreq := packetMreq{ifindex: int32(ifindex), typ: syscall.PACKET_MR_PROMISC}
		if _, _, e := syscall.Syscall6(syscall.SYS_SETSOCKOPT, uintptr(fd), syscall.SOL_PACKET, syscall.PACKET_ADD_MEMBERSHIP,
			uintptr(unsafe.Pointer(&mreq)), unsafe.Sizeof(mreq), 0); e != 0 {
			return fail("PACKET_ADD_MEMBERSHIP", e)
		}
	}
	return nil
}

// packetIgnoreOutgoing is PACKET_IGNORE_OUTGOING of <linux/if_packet.h>.
const packetIgnoreOutgoing = 23

// packetMreq is struct packet_mreq of <linux/if_packet.h>.
type packetMreq struct {
	ifindex int32
	typ     uint16
	alen    uint16
	addr    [8]byte
}

// tpacketStats is struct tpacket_stats of <linux/if_packet.h>.
type tpacketStats struct {
	packets, drops uint32
}

// htons returns v in network byte order, as the kernel wants a protocol.
func htons(v uint16) uint16 {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], v)
	return binary.NativeEndian.Uint16(b[:])
}

// LinkType returns layers.LinkTypeEthernet: Open opens only Ethernet
// and loopback interfaces, whose frames both carry an Ethernet header.
func (h *Handle) LinkType() layers.LinkType { return layers.LinkTypeEthernet }

// Snaplen returns the snapshot length: the most bytes kept of a frame.
func (h *Handle) Snaplen() int { return len(h.buf) }

// ZeroCopyReadPacketData waits for the next frame and returns it, valid
// until the next read. After Close the error is io.EOF.
func (h *Handle) ZeroCopyReadPacketData() (data []byte, ci gopacket.CaptureInfo, err error) {
	for {
		if err := h.rc.Read(h.recvFn); err != nil {
			if h.closed.Load() {
				return nil, ci, io.EOF
			}
			return nil, ci, &Error{Iface: h.iface, Op: "read", Err: err}
		}
		if h.rerr != 0 {
			return nil, ci, &Error{Iface: h.iface, Op: "recvmsg", Err: h.rerr}
		}
		if h.loopback && h.from.Pkttype == syscall.PACKET_OUTGOING {
			continue // seen again coming in
		}
		ci.Length = h.n
		ci.CaptureLength = min(h.n, len(h.buf))
		ci.InterfaceIndex = h.ifindex
		ci.Timestamp = h.timestamp()
		return h.buf[:ci.CaptureLength], ci, nil
	}
}

// ReadPacketData is ZeroCopyReadPacketData with the frame copied into a
// new slice, the caller's to keep.
func (h *Handle) ReadPacketData() (data []byte, ci gopacket.CaptureInfo, err error) {
	data, ci, err = h.ZeroCopyReadPacketData()
	if err != nil {
		return nil, ci, err
	}
	return append([]byte(nil), data...), ci, nil
}

// recv is the read callback of the poller: false asks it to wait.
func (h *Handle) recv(fd uintptr) bool {
	for {
		h.msg.Namelen = syscall.SizeofSockaddrLinklayer
		h.msg.SetControllen(len(h.oob))
		h.msg.Flags = 0
		n, _, e := syscall.Syscall(syscall.SYS_RECVMSG, fd, uintptr(unsafe.Pointer(&h.msg)), syscall.MSG_TRUNC)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		h.n, h.oobn, h.rerr = int(n), int(h.msg.Controllen), e
		return true
	}
}

// timestamp returns the kernel's timestamp of the frame just read, or
// the time now when the kernel gave none.
func (h *Handle) timestamp() time.Time {
	hdrLen := syscall.CmsgLen(0)
	for off := 0; off+hdrLen <= h.oobn; {
		c := (*syscall.Cmsghdr)(unsafe.Pointer(&h.oob[off]))
		l := int(c.Len)
		if l < hdrLen || off+l > h.oobn {
			break
		}
		if c.Level == syscall.SOL_SOCKET && c.Type == syscall.SCM_TIMESTAMPNS && l-hdrLen >= int(unsafe.Sizeof(syscall.Timespec{})) {
			ts := (*syscall.Timespec)(unsafe.Pointer(&h.oob[off+hdrLen]))
			return time.Unix(ts.Unix())
		}
		off += syscall.CmsgSpace(l - hdrLen)
	}
	return time.Now()
}

// WritePacketData sends the frame data, whole, on the interface. It
// waits while the interface's queue is full (EAGAIN, ENOBUFS), for a
// second at most. A frame longer than the interface's MTU and Ethernet
// header allow is refused with an error matching syscall.EMSGSIZE.
func (h *Handle) WritePacketData(data []byte) error {
	if len(data) == 0 {
		return &Error{Iface: h.iface, Op: "write", Err: syscall.EINVAL}
	}
	h.out = data
	err := h.write(h.sendFn)
	h.out = nil
	if err != nil {
		return err
	}
	return h.writeErr(data)
}

// write calls the poller's write with fn, again while the kernel says
// ENOBUFS (for a second at most); fn leaves its errno in h.werr.
func (h *Handle) write(fn func(fd uintptr) bool) error {
	var deadline time.Time
	for {
		if err := h.rc.Write(fn); err != nil {
			if h.closed.Load() {
				err = os.ErrClosed
			}
			return &Error{Iface: h.iface, Op: "write", Err: err}
		}
		if h.werr != syscall.ENOBUFS {
			return nil
		}
		if deadline.IsZero() {
			deadline = time.Now().Add(time.Second)
		} else if time.Now().After(deadline) {
			return nil
		}
		runtime.Gosched()
	}
}

// writeErr returns the error of h.werr for the frame data, nil for none.
func (h *Handle) writeErr(data []byte) error {
	switch h.werr {
	case 0:
		return nil
	case syscall.EMSGSIZE:
		return &Error{Iface: h.iface, Op: "write", Err: fmt.Errorf("frame of %d bytes does not fit the MTU of %d bytes: %w", len(data), h.mtu, h.werr)}
	}
	return &Error{Iface: h.iface, Op: "write", Err: h.werr}
}

// protocol returns the EtherType of a frame as the kernel takes a
// packet socket's protocol: in network byte order in memory.
func protocol(frame []byte) uint16 {
	if len(frame) < 14 {
		return 0
	}
	return binary.NativeEndian.Uint16(frame[12:14])
}

// send is the write callback of the poller. The frame goes to the
// interface with its own EtherType as the protocol (what the kernel
// takes for skb->protocol; the socket of SendOnly is bound to none).
func (h *Handle) send(fd uintptr) bool {
	h.to.Protocol = protocol(h.out)
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&h.out[0])), uintptr(len(h.out)), 0,
			uintptr(unsafe.Pointer(&h.to)), syscall.SizeofSockaddrLinklayer)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		h.werr = e
		return true
	}
}

// SetReadDeadline makes a read waiting past t return an error matching
// os.ErrDeadlineExceeded; the zero time waits for ever.
func (h *Handle) SetReadDeadline(t time.Time) error { return h.f.SetReadDeadline(t) }

// Stats returns the kernel's counts since Open (after Close, those at
// Close).
func (h *Handle) Stats() (Stats, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed.Load() {
		return h.stats, nil
	}
	return h.stats, h.updateStats()
}

// updateStats adds the kernel's counts since the last call, which the
// kernel resets as it reports them. h.mu is held.
func (h *Handle) updateStats() error {
	var st tpacketStats
	var serr syscall.Errno
	err := h.rc.Control(func(fd uintptr) {
		l := uint32(unsafe.Sizeof(st))
		_, _, serr = syscall.Syscall6(syscall.SYS_GETSOCKOPT, fd, syscall.SOL_PACKET, syscall.PACKET_STATISTICS,
			uintptr(unsafe.Pointer(&st)), uintptr(unsafe.Pointer(&l)), 0)
	})
	if err == nil && serr != 0 {
		err = serr
	}
	if err != nil {
		return &Error{Iface: h.iface, Op: "PACKET_STATISTICS", Err: err}
	}
	// tp_packets counts the drops too.
	h.stats.Received += uint64(st.packets)
	h.stats.Dropped += uint64(st.drops)
	return nil
}

// Close closes the socket; a read waiting on it returns io.EOF. The
// kernel's counts are kept for Stats.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed.Load() {
		return nil
	}
	serr := h.updateStats()
	h.closed.Store(true)
	if err := h.f.Close(); err != nil {
		return &Error{Iface: h.iface, Op: "close", Err: err}
	}
	return serr
}
