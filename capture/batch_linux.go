//go:build linux && !386

package capture

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// batchMax is the most frames WritePacketBatch hands the kernel in one
// system call.
const batchMax = 64

// mmsghdr is struct mmsghdr of <sys/socket.h>: a struct msghdr and the
// bytes sent of it (golang.org/x/sys/unix has the one, not the other).
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
}

// batch is sendmmsg's arguments, built once, and its progress.
type batch struct {
	msgs    [batchMax]mmsghdr
	iovs    [batchMax]unix.Iovec
	tos     [batchMax]unix.RawSockaddrLinklayer
	fn      func(fd uintptr) bool
	n, sent int // messages prepared, sent
}

// WritePacketBatch sends the frames in order, as WritePacketData sends
// one, up to 64 in one system call (sendmmsg). It returns how many were
// sent, and when not all, the error of the first one that was not.
func (h *Handle) WritePacketBatch(frames [][]byte) (int, error) {
	b := h.batch
	if b == nil {
		b = &batch{}
		for i := range b.msgs {
			b.tos[i] = h.to
			b.msgs[i].hdr.Name = (*byte)(unsafe.Pointer(&b.tos[i]))
			b.msgs[i].hdr.Namelen = unix.SizeofSockaddrLinklayer
			b.msgs[i].hdr.Iov = &b.iovs[i]
			b.msgs[i].hdr.Iovlen = 1
		}
		b.fn = h.sendBatch
		h.batch = b
	}
	sent := 0
	for sent < len(frames) {
		b.n, b.sent = 0, 0
		for _, f := range frames[sent:min(len(frames), sent+batchMax)] {
			if len(f) == 0 {
				break
			}
			b.iovs[b.n].Base = &f[0]
			b.iovs[b.n].SetLen(len(f))
			b.tos[b.n].Protocol = protocol(f)
			b.n++
		}
		if b.n == 0 {
			return sent, &Error{Iface: h.iface, Op: "write", Err: syscall.EINVAL}
		}
		err := h.write(b.fn)
		sent += b.sent
		for i := range b.n {
			b.iovs[i].Base = nil // hold no frame
		}
		if err != nil {
			return sent, err
		}
		if b.sent < b.n {
			return sent, h.writeErr(frames[sent])
		}
	}
	return sent, nil
}

// sendBatch is the write callback of WritePacketBatch: it sends the
// prepared messages, going on after a partial send, and leaves the errno
// of the first message not sent in h.werr.
func (h *Handle) sendBatch(fd uintptr) bool {
	b := h.batch
	for b.sent < b.n {
		n, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&b.msgs[b.sent])), uintptr(b.n-b.sent), 0, 0, 0)
		switch e {
		case 0:
			b.sent += int(n)
			continue
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		h.werr = e
		return true
	}
	h.werr = 0
	return true
}
