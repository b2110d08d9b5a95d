// Package flow summarizes RoCE and InfiniBand traffic per flow and PFC
// pauses per priority, streaming: an Analyzer takes one decoded packet at
// a time (Add, AddMACControl, or AddRecord for frames decoded by package
// dump), keeps a fixed amount of state per flow and a capped number of
// flows, and produces a Report, as text or JSON, whenever asked.
//
// # Flows
//
// A flow is keyed by the source and destination addresses of its packets
// (IP addresses for RoCEv2, GIDs for RoCEv1, LIDs for native InfiniBand)
// and the BTH destination QP. The BTH carries no source QP, so the two
// directions of one RC connection are two flows: the requests go to the
// responder's QP, the acknowledgements and read responses to the
// requester's QP. The Analyzer pairs them: when a response (ACK, NAK,
// RDMA READ response, ATOMIC Acknowledge) arrives on a flow B>A with no
// peer yet, it looks at the flows A>B of the same transport whose
// recent request PSNs (up to 2^22 below the next expected PSN) or pending
// RDMA READ range cover the response's PSN; if exactly one does, the two
// are peers, and the QP of the response flow is the requester QP of the
// request flow. A UD flow's requester QP is the SrcQP of its DETH. At
// most DefaultMaxFlows flows (Config.MaxFlows) are tracked one by one;
// the packets of any further flow are counted together in Report.Other,
// without PSN analysis, so memory stays flat whatever the capture.
//
// # Counters
//
// Frames and bytes (frame length on the wire) count every packet.
// Messages counts packets whose opcode ends a message: SEND and RDMA
// WRITE Last and Only (all variants) and RDMA READ Response Last and Only
// (the last packet of the read's data); UD SEND Only. The opcode
// histogram keeps 16 opcodes per flow and counts the rest as "other".
// MTU is the largest payload of a First or Middle packet (IBTA makes them
// exactly one path MTU), on the flow or, for read responses, its peer.
//
// PSN analysis runs on the requests (Opcode.IsRequest) of RC, UC and XRC
// flows. After a request at PSN p the next one is expected at p+1; after
// an RDMA READ Request of DMA length L it is expected at p+n, where n is
// the number of response packets, ceil(L/MTU) (at least 1) when the MTU
// is known and anything from ceil(L/4096) to ceil(L/256) otherwise. PSNs
// are 24 bits and wrap; distances are taken modulo 2^24, signed.
//
//   - in order: the PSN is the expected one (within the range above).
//   - gap: the PSN is ahead of the expected one. PSNGaps counts the
//     events, PSNMissing the PSNs skipped (distance from the highest
//     expected PSN).
//   - out of order: the PSN is behind the highest PSN seen, by at most
//     Window (256), and was not seen before: a late packet, often one
//     that fills a gap.
//   - duplicate: the PSN is behind and was already seen, or is more than
//     Window behind (too old to tell): a retransmission.
//
// NAKs are counted by NAK code, and RNR NAKs apart, on the flow that
// carries them (responder to requester).
//
// An RDMA READ Request at PSN p with DMA length L waits (at most
// MaxOutstanding per flow) for its responses on the peer flow, PSNs p to
// p+n-1. It is matched when a response Only arrives at PSN p, or when a
// First, Middles and a Last arrive and their number is ceil(L/m), m
// being the First's payload (the path MTU); incomplete when the Last or
// Only comes with another count; unanswered when no Last or Only came
// by the end. Read responses that fit no pending read (or arrive on a
// flow with no peer) are unmatched. An atomic request (CmpSwap,
// FetchAdd) at PSN p is matched by the ATOMIC Acknowledge with PSN p on
// the peer flow.
//
// CE counts packets whose IP ECN field is CE (RoCEv2), FECN and BECN the
// BTH bits, ICRCBad the packets whose ICRC failed. CNPs counts the CNPs
// a flow carries: a CNP from B to A for QP q is a packet of flow
// (B, A, q). Since that q is the requester QP of the flows from A to B
// it slows down, CNPsToSender of a flow A>B whose requester QP q is
// known is the CNP count of flow (B, A, q); CNPs to a QP no flow claims
// stay visible on their own flow.
//
// # Pauses
//
// AddMACControl counts PFC frames per source MAC and priority (PAUSE
// frames under priority 8): frames giving the priority a time, XOFF (time
// not zero) and XON (time zero), and the sum of the XOFF quanta, also
// converted to time at Config.Speed (every pause in full). Paused is the
// time the priority was actually paused, overlapping pauses merged as a
// receiving port would: an XOFF starts the pause or restarts its timer
// (the new time counts from the new frame), an XON ends it, and a pause
// still running at the end of the capture counts in full.
//
// # Text report
//
// WriteText prints, for example:
//
//	2 flows
//	RC 192.168.65.5 > 192.168.65.4 qp 0x000011 from qp 0x000011: frames 2 bytes 168 messages 1 mtu 1024
//	  opcodes [RC RDMA WRITE Only 1] [RC RDMA READ Request 1]
//	  psn gaps 0 missing 0 duplicates 0 out-of-order 0
//	  reads 1 matched 1 incomplete 0 unanswered 0 unmatched-responses 0
//	  atomics 0 matched 0 unanswered 0 unmatched-acks 0
//	  ce 0 fecn 0 becn 0 cnps 0 cnps-to-sender 0 icrc-bad 0
//	  peer 192.168.65.4 > 192.168.65.5 qp 0x000011
//	pfc 02:00:00:00:00:0b prio 3: frames 4 xoff 3 xon 1 quanta 132070 (676.198µs at 100Gb/s) paused 205.12µs
//
// "from qp" is the QP that sends the flow's packets, when known (SrcQP); the reads, atomics and naks
// lines appear only when not all zero. WriteJSON writes the same Report
// as one JSON object (field names in the struct tags).
package flow
