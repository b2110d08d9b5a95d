// Package reassembly puts the packets of InfiniBand transport messages
// back together: the SEND First, Middles and Last (or the SEND Only) of
// one send, the RDMA WRITE packets of one write (with immediate data or
// not), the RDMA READ Response packets of one read, each delivered as one
// Message with its payload in PSN order. The upper-layer protocols that
// RDMA carries (NVMe over Fabrics capsules, iSER and SMB Direct messages,
// RPC-over-RDMA) are decoded from these messages, not from packets.
//
// An Assembler is fed decoded packets (ib.Packet) one at a time, in
// capture order, each with a key the caller chooses for the direction of
// the connection it belongs to (for RoCEv2, the source and destination
// addresses and the destination QP; a capture at one point of the fabric
// sees each QP's requests and its peer's responses as two directions).
// Within a key, the requests a QP sends (SEND, RDMA WRITE, RDMA READ
// Request, atomics) and the READ responses it sends share the direction
// but not the PSN space: they are two streams, reassembled apart.
//
// What a capture shows of a reliable connection is not what the
// responder accepted: a packet may be seen and then lost (its resend is
// captured again), lost before the capture point (a PSN is missing, then
// comes after a NAK or a timeout, followed by every packet after it again,
// go-back-N), or seen out of order where the capture merges paths. The
// Assembler delivers each message once, in PSN order:
//
//   - A packet at the expected PSN is taken; one ahead of it (at most
//     Config.Window PSNs) waits for the PSNs before it; one behind it (a
//     resend of what was taken, or of what was given up) is a Duplicate
//     and is dropped.
//   - A request consumes one PSN, except an RDMA READ Request of DMA
//     length L, which consumes one per response packet: ceil(L/MTU) (at
//     least 1), the path MTU learnt from the payload of any First or
//     Middle packet of the key (IBTA makes them exactly one MTU). Until
//     the MTU is known, any PSN from ceil(L/4096) to ceil(L/256) after the
//     READ is taken as the next.
//   - READ responses have their request's PSNs: after a response message
//     ends, the next response message may begin at any later PSN (so
//     reordering is restored within a read's responses; a response of
//     one read captured after the first response of the next is a
//     Duplicate).
//   - A stream begins at its first packet: the requests at the PSN of the
//     first one captured (a Middle or Last there is an Orphan), the READ
//     responses at the first First or Only. What was sent before it and
//     is captured after it is a Duplicate.
//   - A gap that does not fill is given up (Skipped) when a packet comes
//     more than Window PSNs ahead, when the packets waiting hold more than
//     Config.MaxBuffered bytes, or at Flush. The message it cut is
//     Abandoned; the Middle and Last packets after it that lack their
//     First are Orphans.
//   - A First while a message is open abandons that message (its Last
//     was never seen) and opens a new one.
//
// UD SEND Only packets are messages of their own, delivered as they come
// (UD has no ordering to restore). A packet the capture cut short (a
// small snap length, ib.BTH.Truncated) still counts in its message, which
// is marked Cut: its Payload then ends where the first cut packet's
// captured bytes end.
//
// Memory is bounded per stream: Window slots for waiting packets (made on
// the first packet that has to wait), MaxBuffered bytes in them, and
// MaxMessage bytes of payload per message (a longer message is delivered
// with its first MaxMessage bytes and Clipped set). The buffers are
// reused: once they have grown to the traffic's sizes, Add allocates
// nothing. Each new key allocates its streams once.
package reassembly
