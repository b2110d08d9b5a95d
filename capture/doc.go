// Package capture opens a network interface for live capture and
// injection through Linux packet sockets (AF_PACKET, SOCK_RAW), in pure
// Go on the standard library's syscall package: no cgo, no libpcap.
//
// A Handle is bound to one interface and sees every frame of every
// protocol on it (ETH_P_ALL), in both directions as tcpdump shows them:
// the frames the host receives and those it sends. On the loopback
// interface, where each frame is seen going out and coming in, only the
// incoming copy is kept, as libpcap does. By default the interface is put
// in promiscuous mode for the life of the Handle (a packet-socket
// membership the kernel drops when the socket closes).
//
// Each frame comes with the kernel's receive timestamp to the nanosecond
// (SO_TIMESTAMPNS) and its length on the wire: a frame longer than the
// snapshot length (Options.Snaplen) is cut to it, and CaptureInfo.Length
// still says how long it was (recvmsg with MSG_TRUNC). Handle has the
// methods of gopacket's packet sources and pcap handles:
// ReadPacketData, ZeroCopyReadPacketData, WritePacketData, LinkType,
// Stats and Close, so it plugs into gopacket.NewPacketSource and into
// dump.NewPacketSource; WritePacketBatch sends several frames in one
// system call (sendmmsg).
//
// The socket is non-blocking and waits in the Go runtime's network
// poller, so Close, from any goroutine, ends a read that is waiting:
// it returns io.EOF. SetReadDeadline bounds a read (the error then
// matches os.ErrDeadlineExceeded).
//
// Stats reports what the kernel counted (PACKET_STATISTICS): frames
// that reached the socket, drops included, and frames dropped because
// the socket's buffer was full, as tcpdump's closing lines "packets
// received by filter" and "packets dropped by kernel" do.
//
// Opening a packet socket needs CAP_NET_RAW (root): the error then
// matches os.ErrPermission. Only Ethernet and loopback interfaces are
// opened (link type Ethernet). On other systems than Linux, Open returns
// an error matching ErrUnsupported, as on linux/386, whose socket calls
// go through socketcall(2); the package builds everywhere.
package capture
