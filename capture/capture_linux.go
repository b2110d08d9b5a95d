//go:build linux && !386

package capture

import (
	"encoding/binary"
	"errors"
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
	"golang.org/x/sys/unix"
)

// Handle is a packet socket bound to one interface, reading through a
// ring it shares with the kernel. One goroutine may read while another
// writes; Close and Stats may be called from any goroutine.
type Handle struct {
	f        *os.File
	rc       syscall.RawConn
	iface    string
	ifindex  int
	mtu      int
	snaplen  int
	loopback bool
	idle     func()
	closed   atomic.Bool

	// Reading: the ring (nil for SendOnly), its geometry and where the
	// reader is in it. The reader alone uses these once it has started.
	m         *mapping
	ring      []byte
	blockSize int
	blocks    int
	cur       int    // the block being read, or waited for
	owned     bool   // block cur is the reader's (TP_STATUS_USER)
	left      int    // frames of block cur not yet returned
	next      int    // offset in ring of the next frame's header
	end       int    // offset in ring of the end of block cur
	seq       uint64 // sequence number of the last block read
	drainBy   time.Time
	readyFn   func(fd uintptr) bool
	neverFn   func(fd uintptr) bool

	// Writing: sendto's destination, the frame and the result.
	sendFn func(fd uintptr) bool
	to     unix.RawSockaddrLinklayer
	out    []byte
	werr   syscall.Errno
	batch  *batch // WritePacketBatch's arguments, made on its first call

	mu    sync.Mutex // guards stats
	stats Stats
}

// The ring's geometry. A TPACKET_V3 ring is made of blocks; the kernel
// fills one block after the other with frames, each behind its header,
// and hands a block to the reader when it is full or blockTimeout after
// the kernel opened it (the kernel's timer checks every blockTimeout),
// whichever comes first; the reader hands it back once it has read every
// frame in it. A frame that finds no block to go in is dropped and
// counted.
const (
	// minBlock is the smallest block: a 4 KiB block would hold some 20
	// small frames, and each block handed over is a wakeup.
	minBlock = 64 << 10
	// largestFrame is the largest frame a packet socket sees: a 64 KiB
	// GSO packet with its Ethernet header and a VLAN tag (on lo, whose
	// MTU is 65536, the frames are that long too).
	largestFrame = 64<<10 + 14 + vlanTagLen
	// frameRoom is what a block and a frame in it take besides the
	// frame's bytes: the block's descriptor (48 bytes), the frame's
	// header and link-layer address (68), the room for a VLAN tag (4),
	// alignment.
	frameRoom = 256
	// blockTimeout, in milliseconds, bounds how long a frame waits in a
	// block that is not full before the reader gets it: about twice
	// that at most. tcpdump's is its timeout, 1000 ms (100 ms to a
	// terminal); rocedump shows each frame as it arrives.
	blockTimeout = 10
	// vlanTagLen is the size of the VLAN tag the reader puts back in
	// front of a frame's EtherType when the kernel took it off.
	vlanTagLen = 4
	// closedProtocol is the EtherType a closed socket is bound to,
	// 0xffff (reserved): it refuses every frame anyway.
	closedProtocol = 0xffff
)

// ringGeometry returns the size and number of blocks of a ring of at
// least size bytes, rounded up to whole blocks, each of which holds a
// frame of snaplen bytes (or of largestFrame, the longest there is).
func ringGeometry(size, snaplen, pageSize int) (blockSize, blocks int) {
	need := frameRoom + min(snaplen, largestFrame)
	blockSize = max(pageSize, minBlock)
	for blockSize < need {
		blockSize <<= 1
	}
	return blockSize, max(1, (size+blockSize-1)/blockSize)
}

// mapping is the ring's memory, unmapped once.
type mapping struct {
	once sync.Once
	mem  []byte
}

func (m *mapping) release() {
	if m != nil {
		m.once.Do(func() { unix.Munmap(m.mem) })
	}
}

// Open opens a packet socket on the interface named iface (eth0, a veth
// end, lo), bound to it for every protocol, and maps its ring.
func Open(iface string, opt Options) (*Handle, error) {
	ifi, err := net.InterfaceByName(iface)
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "route" {
		// The name is not the system's (net says "route ip+net: no
		// such network interface"); tcpdump: "No such device exists".
		return nil, &Error{Iface: iface, Err: ErrNoInterface}
	} else if err != nil {
		return nil, &Error{Iface: iface, Op: "interface", Err: err}
	}
	snap := opt.Snaplen
	if snap <= 0 {
		snap = DefaultSnaplen
	}
	// Protocol 0: the socket receives nothing until it is bound to the
	// interface, so no frame of another interface slips in, nor one
	// the filter would have refused.
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, &Error{Iface: iface, Op: "socket", Err: err}
	}
	h := &Handle{iface: iface, ifindex: ifi.Index, mtu: ifi.MTU, snaplen: snap, idle: opt.Idle}
	if err := h.setup(fd, opt); err != nil {
		h.m.release()
		unix.Close(fd)
		return nil, err
	}
	h.f = os.NewFile(uintptr(fd), "packet:"+iface)
	if h.rc, err = h.f.SyscallConn(); err != nil {
		h.f.Close()
		h.m.release()
		return nil, &Error{Iface: iface, Op: "poller", Err: err}
	}
	if h.m != nil {
		// The read that returns io.EOF after Close gives the ring back;
		// a Handle not read to the end gives it back when it is
		// collected.
		runtime.AddCleanup(h, (*mapping).release, h.m)
	}
	h.readyFn, h.neverFn, h.sendFn = h.ready, func(uintptr) bool { return false }, h.send
	h.to = unix.RawSockaddrLinklayer{Family: unix.AF_PACKET, Ifindex: int32(ifi.Index)}
	return h, nil
}

// setup sets the socket's options, maps its ring, attaches the filter
// and binds it.
func (h *Handle) setup(fd int, opt Options) error {
	fail := func(op string, err error) error { return &Error{Iface: h.iface, Op: op, Err: err} }
	proto := htons(unix.ETH_P_ALL)
	if opt.SendOnly {
		proto = 0
	} else {
		if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_VERSION, unix.TPACKET_V3); err != nil {
			return fail("PACKET_VERSION", err)
		}
		// Room in front of each frame for the VLAN tag the kernel may
		// have taken off, as libpcap keeps.
		if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_RESERVE, vlanTagLen); err != nil {
			return fail("PACKET_RESERVE", err)
		}
		// Frames stamped as they arrive, not as they are copied.
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1); err != nil {
			return fail("SO_TIMESTAMPNS", err)
		}
		size := opt.BufferSize
		if size <= 0 {
			size = DefaultBufferSize
		}
		bs, n := ringGeometry(size, h.snaplen, os.Getpagesize())
		// For TPACKET_V3 a "frame" is a block.
		req := unix.TpacketReq3{Block_size: uint32(bs), Block_nr: uint32(n), Frame_size: uint32(bs), Frame_nr: uint32(n), Retire_blk_tov: blockTimeout}
		if err := unix.SetsockoptTpacketReq3(fd, unix.SOL_PACKET, unix.PACKET_RX_RING, &req); err != nil {
			return fail(fmt.Sprintf("PACKET_RX_RING of %d blocks of %d bytes", n, bs), err)
		}
		mem, err := unix.Mmap(fd, 0, bs*n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			return fail("mmap", err)
		}
		h.m, h.ring, h.blockSize, h.blocks = &mapping{mem: mem}, mem, bs, n
		if prog := h.program(opt.Filter); prog != nil {
			if err := unix.SetsockoptSockFprog(fd, unix.SOL_SOCKET, unix.SO_ATTACH_FILTER,
				&unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}); err != nil {
				return fail("SO_ATTACH_FILTER", err)
			}
		}
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: proto, Ifindex: h.ifindex}); err != nil {
		return fail("bind", err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return fail("getsockname", err)
	}
	ll, _ := sa.(*unix.SockaddrLinklayer)
	switch {
	case ll == nil:
		return fail("getsockname", ErrUnsupported)
	case ll.Hatype == unix.ARPHRD_LOOPBACK:
		h.loopback = true
		// The outgoing copies need not even be queued (Linux 4.20 on;
		// before, ZeroCopyReadPacketData skips them).
		unix.SetsockoptInt(fd, unix.SOL_PACKET, unix.PACKET_IGNORE_OUTGOING, 1)
	case ll.Hatype != unix.ARPHRD_ETHER:
		return fail("link type", fmt.Errorf("roce: hardware type %d is not Ethernet: %w", ll.Hatype, ErrUnsupported))
	}
	if !opt.NoPromiscuous && !opt.SendOnly {
		mreq := unix.PacketMreq{Ifindex: int32(h.ifindex), Type: unix.PACKET_MR_PROMISC}
		if err := unix.SetsockoptPacketMreq(fd, unix.SOL_PACKET, unix.PACKET_ADD_MEMBERSHIP, &mreq); err != nil {
			return fail("PACKET_ADD_MEMBERSHIP", err)
		}
	}
	return nil
}

// program returns the filter to attach: Options.Filter with each
// "ret #k" of a kept frame lowered to the snapshot length, or, without
// one, a program keeping every frame's first Snaplen bytes when that is
// less than a frame can be (the kernel cuts a frame only by a filter's
// verdict); nil when there is nothing to attach.
func (h *Handle) program(filter []Instruction) []unix.SockFilter {
	if len(filter) == 0 {
		if h.snaplen >= largestFrame {
			return nil
		}
		filter = []Instruction{{Code: retK, K: uint32(h.snaplen)}}
	}
	prog := make([]unix.SockFilter, len(filter))
	for i, in := range filter {
		if in.Code == retK && in.K > uint32(h.snaplen) {
			in.K = uint32(h.snaplen)
		}
		prog[i] = unix.SockFilter{Code: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	return prog
}

// htons returns v in network byte order, as the kernel wants a protocol.
func htons(v uint16) uint16 {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], v)
	return binary.NativeEndian.Uint16(b[:])
}

// LinkType returns LinkTypeEthernet: Open opens only Ethernet and
// loopback interfaces, whose frames both carry an Ethernet header. For
// gopacket.NewPacketSource, convert it: layers.LinkType(h.LinkType()).
func (h *Handle) LinkType() uint16 { return LinkTypeEthernet }

// Snaplen returns the snapshot length: the most bytes kept of a frame.
func (h *Handle) Snaplen() int { return h.snaplen }

// Offsets in a block and in a frame's header.
var (
	// blockHdr is where a block's struct tpacket_hdr_v1 starts, in its
	// struct tpacket_block_desc.
	blockHdr = int(unsafe.Offsetof(unix.TpacketBlockDesc{}.Hdr))
	// frameAddr is where a frame's struct sockaddr_ll follows its
	// struct tpacket3_hdr: TPACKET_ALIGN(sizeof(struct tpacket3_hdr)).
	frameAddr = (unix.SizeofTpacket3Hdr + unix.TPACKET_ALIGNMENT - 1) &^ (unix.TPACKET_ALIGNMENT - 1)
)

// desc returns the header of block i.
func (h *Handle) desc(i int) *unix.TpacketHdrV1 {
	return (*unix.TpacketHdrV1)(unsafe.Pointer(&h.ring[i*h.blockSize+blockHdr]))
}

// ready reports whether the kernel has handed block cur over; it is the
// read callback of the poller (false asks it to wait).
func (h *Handle) ready(uintptr) bool {
	return atomic.LoadUint32(&h.desc(h.cur).Block_status)&unix.TP_STATUS_USER != 0
}

// acquire starts reading block cur if the kernel has handed it over.
func (h *Handle) acquire() bool {
	if !h.ready(0) {
		return false
	}
	d := h.desc(h.cur)
	base := h.cur * h.blockSize
	h.owned, h.seq = true, d.Seq_num
	h.left, h.next, h.end = int(d.Num_pkts), base+int(d.Offset_to_first_pkt), base+h.blockSize
	return true
}

// release hands block cur back to the kernel and moves to the next.
func (h *Handle) release() {
	atomic.StoreUint32(&h.desc(h.cur).Block_status, unix.TP_STATUS_KERNEL)
	h.owned, h.left = false, 0
	if h.cur++; h.cur == h.blocks {
		h.cur = 0
	}
}

// pending reports, after Close, whether the block the kernel was
// filling holds frames, which its timer will hand over: the kernel opened
// it after the last block read (a block handed back keeps its old count
// until the kernel opens it again).
func (h *Handle) pending() bool {
	d := h.desc(h.cur)
	return atomic.LoadUint32(&d.Num_pkts) > 0 && d.Seq_num > h.seq
}

// ZeroCopyReadPacketData waits for the next frame and returns it, valid
// until the next read. After Close it returns the frames still in the
// ring, then io.EOF.
func (h *Handle) ZeroCopyReadPacketData() (data []byte, ci gopacket.CaptureInfo, err error) {
	if h.ring == nil { // SendOnly, or read to the end after Close
		return nil, ci, h.waitClose()
	}
	for {
		if h.left > 0 {
			if data, ci, ok := h.frame(); ok {
				return data, ci, nil
			}
			continue
		}
		if h.owned {
			h.release()
		}
		if h.acquire() {
			continue
		}
		if h.closed.Load() {
			// Closed: no frame comes in any more; the block the kernel
			// was filling comes over within two block timeouts.
			if h.drainBy.IsZero() {
				h.drainBy = time.Now().Add(4*blockTimeout*time.Millisecond + 50*time.Millisecond)
			}
			if h.pending() && time.Now().Before(h.drainBy) {
				time.Sleep(time.Millisecond)
				continue
			}
			h.m.release()
			h.ring = nil
			return nil, ci, io.EOF
		}
		if h.idle != nil {
			h.idle()
		}
		if err := h.rc.Read(h.readyFn); err != nil && !h.closed.Load() {
			return nil, ci, &Error{Iface: h.iface, Op: "read", Err: err}
		}
	}
}

// waitClose waits, on a socket that reads nothing, for Close (io.EOF)
// or the read deadline.
func (h *Handle) waitClose() error {
	if h.closed.Load() {
		return io.EOF
	}
	if err := h.rc.Read(h.neverFn); err != nil {
		if h.closed.Load() {
			return io.EOF
		}
		return &Error{Iface: h.iface, Op: "read", Err: err}
	}
	return io.EOF
}

// frame returns the frame at h.next and moves past it; false for a
// frame to skip (an outgoing copy on lo, or a header that does not fit
// the block, which ends it).
func (h *Handle) frame() (data []byte, ci gopacket.CaptureInfo, ok bool) {
	off := h.next
	if off+frameAddr+unix.SizeofSockaddrLinklayer > h.end {
		h.left = 0
		return nil, ci, false
	}
	fh := (*unix.Tpacket3Hdr)(unsafe.Pointer(&h.ring[off]))
	if h.left--; fh.Next_offset == 0 {
		h.left = 0
	}
	h.next += int(fh.Next_offset)
	start, n, wire := off+int(fh.Mac), int(fh.Snaplen), int(fh.Len)
	if start < off+frameAddr+unix.SizeofSockaddrLinklayer || start+n > h.end {
		h.left = 0
		return nil, ci, false
	}
	if h.loopback && (*unix.RawSockaddrLinklayer)(unsafe.Pointer(&h.ring[off+frameAddr])).Pkttype == unix.PACKET_OUTGOING {
		return nil, ci, false // seen again coming in
	}
	// The kernel took the outer VLAN tag off into the frame's header
	// (VLAN offload, and on every received frame): put it back after
	// the MACs, as libpcap does, in the room PACKET_RESERVE keeps.
	if (fh.Status&unix.TP_STATUS_VLAN_VALID != 0 || fh.Hv1.Vlan_tci != 0) && n >= 12 &&
		start-vlanTagLen >= off+frameAddr+unix.SizeofSockaddrLinklayer {
		tpid := uint16(0x8100)
		if fh.Status&unix.TP_STATUS_VLAN_TPID_VALID != 0 || fh.Hv1.Vlan_tpid != 0 {
			tpid = fh.Hv1.Vlan_tpid
		}
		b := h.ring[start-vlanTagLen : start+n]
		copy(b, b[vlanTagLen:vlanTagLen+12])
		binary.BigEndian.PutUint16(b[12:], tpid)
		binary.BigEndian.PutUint16(b[14:], uint16(fh.Hv1.Vlan_tci))
		start, n, wire = start-vlanTagLen, min(n+vlanTagLen, h.snaplen), wire+vlanTagLen
	}
	ci.Timestamp = time.Unix(int64(fh.Sec), int64(fh.Nsec))
	ci.CaptureLength, ci.Length, ci.InterfaceIndex = n, wire, h.ifindex
	return h.ring[start : start+n], ci, true
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
		return &Error{Iface: h.iface, Op: "write", Err: fmt.Errorf("roce: frame of %d bytes does not fit the MTU of %d bytes: %w", len(data), h.mtu, h.werr)}
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
		_, _, e := unix.Syscall6(unix.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&h.out[0])), uintptr(len(h.out)), 0,
			uintptr(unsafe.Pointer(&h.to)), unix.SizeofSockaddrLinklayer)
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
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
	if h.m == nil {
		return nil // SendOnly: nothing is received
	}
	var st *unix.TpacketStatsV3
	var serr error
	err := h.rc.Control(func(fd uintptr) {
		st, serr = unix.GetsockoptTpacketStatsV3(int(fd), unix.SOL_PACKET, unix.PACKET_STATISTICS)
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return &Error{Iface: h.iface, Op: "PACKET_STATISTICS", Err: err}
	}
	// tp_packets counts the drops too.
	h.stats.Received += uint64(st.Packets)
	h.stats.Dropped += uint64(st.Drops)
	return nil
}

// Close stops the capture and closes the socket; the reads after it
// (and one waiting) return the frames the ring still holds, then io.EOF,
// which gives the ring back (a Handle not read to io.EOF gives it back
// when it is garbage collected). The kernel's counts are kept for Stats.
func (h *Handle) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed.Load() {
		return nil
	}
	var serr error
	if h.m != nil {
		// A filter that refuses every frame, then a bind to another
		// protocol, whose unhooking waits for the deliveries under way:
		// the socket takes no more frames, the counts are final and the
		// ring holds what it will ever hold. (A packet socket cannot be
		// unbound: protocol 0 keeps the one it has.)
		h.rc.Control(func(fd uintptr) {
			refuse := unix.SockFilter{Code: retK}
			unix.SetsockoptSockFprog(int(fd), unix.SOL_SOCKET, unix.SO_ATTACH_FILTER, &unix.SockFprog{Len: 1, Filter: &refuse})
			unix.Bind(int(fd), &unix.SockaddrLinklayer{Protocol: htons(closedProtocol), Ifindex: h.ifindex})
		})
		serr = h.updateStats()
	}
	h.closed.Store(true)
	err := h.f.Close() // wakes a read waiting in the poller
	if err != nil {
		return &Error{Iface: h.iface, Op: "close", Err: err}
	}
	return serr
}
