// Package capture opens a network interface for live capture and
// injection through Linux packet sockets (AF_PACKET, SOCK_RAW), in pure
// Go on golang.org/x/sys/unix: no cgo, no libpcap.
//
// A Handle is bound to one interface and sees every frame of every
// protocol on it (ETH_P_ALL), in both directions as tcpdump shows them:
// the frames the host receives and those it sends. On the loopback
// interface, where each frame is seen going out and coming in, only the
// incoming copy is kept, as libpcap does. By default the interface is put
// in promiscuous mode for the life of the Handle (a packet-socket
// membership the kernel drops when the socket closes).
//
// Frames come through a ring of memory the kernel shares with the reader
// (PACKET_RX_RING, TPACKET_V3, as libpcap reads them): the kernel copies
// each frame into it, behind a header, with no system call per frame,
// and the reader returns it from there without a copy. The ring holds
// Options.BufferSize bytes, 2 MiB by default as libpcap's does (tcpdump
// without -B): about 13,000 frames of 64 bytes, 500 of 4 KiB. It is made
// of blocks (128 KiB for whole frames, 64 KiB when Options.Snaplen is at
// most 65,280); the kernel hands a block over when it is full or 10 to
// 20 ms after it opened it, whichever comes first, so a frame waits at
// most about 20 ms for its reader. A frame that finds the ring full is
// dropped and counted.
//
// Each frame comes with the kernel's receive timestamp to the nanosecond
// and its length on the wire: a frame longer than the snapshot length
// (Options.Snaplen) is cut to it, and CaptureInfo.Length still says how
// long it was. The kernel takes the outer 802.1Q or 802.1ad tag off every
// frame it receives (and off those a NIC's VLAN offload hands it) into
// the frame's metadata; the reader puts it back in front of the
// EtherType, with its TPID, as libpcap does, so a frame reads as it was
// on the wire.
//
// Options.Filter attaches a classic BPF program (SO_ATTACH_FILTER) that
// the kernel runs on each frame before the ring, as tcpdump attaches the
// program of its expression: the frames it refuses cost the reader
// nothing and take no room. RoCEFilter is such a program: RoCE, PFC,
// PAUSE and LLDP frames only, untagged or behind up to MaxVLANs VLAN
// tags (the decoders' bound; a frame behind more is kept, for a decoder
// to report it malformed). It is assembled from instructions with
// labels, its walk through the tags unrolled up to MaxVLANs.
//
// Handle has the methods of gopacket's packet sources and pcap handles:
// ReadPacketData, ZeroCopyReadPacketData, WritePacketData, LinkType,
// Stats and Close, so it plugs into gopacket.NewPacketSource (its
// LinkType is the pcap number, LinkTypeEthernet: convert it with
// layers.LinkType) and into capfile.NewPacketSource; the package links
// gopacket's core alone, not its layers; WritePacketBatch sends several frames in one
// system call (sendmmsg). Reading allocates nothing
// (ZeroCopyReadPacketData), nor does writing.
//
// The socket is non-blocking and waits in the Go runtime's network
// poller, so Close, from any goroutine, ends a read that is waiting: the
// capture stops, the reads return what the ring still holds (the block
// the kernel was filling included), then io.EOF. SetReadDeadline bounds
// a read (the error then matches os.ErrDeadlineExceeded).
//
// Stats reports what the kernel counted (PACKET_STATISTICS): frames
// that passed the filter and reached the ring, drops included, and
// frames dropped because the ring was full, as tcpdump's closing lines
// "packets received by filter" and "packets dropped by kernel" do.
//
// Opening a packet socket needs CAP_NET_RAW (root): the error then
// matches os.ErrPermission. Only Ethernet and loopback interfaces are
// opened (link type Ethernet). On other systems than Linux, Open returns
// an error matching ErrUnsupported, as on linux/386; the package builds
// everywhere.
package capture
