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
// requester's QP. The Analyzer pairs them, on exact PSNs only:
//
//   - A request flow remembers which of the last RecentPSNs (4096) PSNs
//     below its highest one its requests used (an RDMA READ uses its
//     responses' PSNs too), and the PSN ranges its pending RDMA READs'
//     responses may carry. It owns those PSNs.
//   - Every response carries the PSN of a request of its connection: an
//     ACK (coalesced or not) the PSN of the last request it
//     acknowledges, a NAK the PSN expected or refused, a READ response
//     one of its read's PSNs, an ATOMIC Acknowledge its atomic's PSN.
//   - A response on a flow B>A with no peer yet is checked against the
//     flows A>B of the same transport that have no peer. If exactly
//     one owns its PSN and the PSNs of the flow's earlier undecided
//     responses, the two flows are peers. If several do, the response
//     waits, with up to 16 others (read responses, atomic and other
//     acknowledgements) until a later response leaves one candidate;
//     then the waiting responses are applied in order. If none owns
//     them all but some own this one, the evidence restarts from it.
//   - While several request flows own the PSNs, the UDP source port may
//     break the tie: when exactly one of them sends from the port the
//     response flow sends from (every packet of each flow from that one
//     port), it is the peer. Linux and rdma-core derive a RoCEv2
//     connection's port from a flow label computed from both QP numbers,
//     the same in both directions, so this separates connections that
//     run in lockstep on identical PSNs; where the directions use other
//     ports, no candidate matches and the tie stands.
//   - Nothing is paired on a window or a guess: connections whose
//     responses never tell them apart (the same PSNs at the same time,
//     and no shared port) stay unpaired, and FlowReport.Ambiguous says
//     how many request flows fit. A flow whose responses fit no request
//     flow tries at its first 8 responses, then at each power of two.
//
// This holds with any number of QPs between two hosts, any first PSNs,
// PSNs that wrap, and UDP source ports that differ between directions
// (flows are keyed by addresses and DestQP only). Once paired, the QP of
// the response flow is the requester QP of the request flow, and the
// other way round. A UD flow's requester QP is the SrcQP of its DETH (when
// captured).
//
// The unpaired request flows are indexed by their addresses, their
// transport and the block of 4096 PSNs (RecentPSNs) holding the last PSN
// they may own: a flow owns PSNs from 4096 below its highest up to the
// end of its pending reads, so a response looks only at the flows of its
// PSN's block and the two after it, and at the few whose pending reads
// reach more than 4096 PSNs from their highest PSN. Pairing thus costs
// what the connections whose PSNs are near the response's cost, not what
// all the connections between the two hosts do: analysing N connections
// takes time in proportion to N when their PSNs are spread (as the first
// PSNs that NICs draw are), and only connections that share their PSNs
// cost more. State is fixed per flow: an RC connection that writes
// takes about 11 KB for its two flows (4.4 KB of request state on the
// flow that carries requests, a 2 KB histogram for each of its two
// latency kinds, 1.2 KB for each flow's counters). At most
// DefaultMaxFlows flows (Config.MaxFlows) are tracked one by one; the
// packets of any further flow are counted together in Report.Other,
// without PSN analysis, so memory stays flat whatever the capture.
//
// # Connections from CM
//
// A connection set up by the communication manager (RDMA-CM, and any
// other user of IBTA's CM) names its QPs and PSNs in its MADs, UD SEND
// Only packets to QP 1 that package mad decodes. The Analyzer reads them
// as they pass:
//
//   - a REQ from host A to host B opens a connection: A's communication
//     ID (LocalCommID) and QP (LocalQPN), the service ID (with its
//     RDMA-CM port space and port), the IP-CM private data (the
//     RDMA-CM source and destination addresses and source port) and
//     its StartingPSN;
//   - the REP from B whose RemoteCommID is A's ID gives B's ID, B's QP
//     and its StartingPSN. The connection's flows are then known: A's
//     packets to B's QP and B's packets to A's QP. They are peers from
//     their first packet (no PSN evidence needed, and no other flow is
//     tried), and the PSN analysis of each starts at the PSN the CM
//     negotiated for its requests: a first request past it is a gap.
//     A's requests start at the REP's StartingPSN and B's at the REQ's:
//     each message carries the PSN its sender expects to receive (IBTA
//     Vol 1, 12.6.5 and 12.6.8; the rxe captures in testdata show A's
//     first RDMA WRITE at the REP's StartingPSN);
//   - RTU, MRA, REJ, DREQ and DREP find their connection by the
//     sender's communication ID (LocalCommID, toward that peer) or the
//     receiver's (RemoteCommID).
//
// A connection is "requested" from its REQ, "established" after the RTU
// or the first packet on one of its flows after the REP, "disconnected"
// after a DREQ or DREP, "rejected" after a REJ (with the reason's IBTA
// name, mad.RejectReason, and the message rejected). Report.CM lists the
// connections in the order of their REQs, with the messages of each, and
// counts the CM messages (REQ, REP, RTU, REJ, MRA, DREQ, DREP, other) per
// host pair, both directions together. State is bounded: at most
// Config.MaxCMConnections connections (REQs beyond are counted as
// untracked) and Config.MaxCMPending REQs waiting for their REP or REJ
// (a newer one evicts the oldest). A CM message costs a MAD decode and a
// map lookup and, once its connection exists, allocates nothing; data
// packets pay one pointer test.
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
// is known and anything from ceil(L/4096) to ceil(L/256) otherwise; when
// the capture cut the READ's DMA length (a small snap length), anything
// from p+1 to p+RecentPSNs, the PSNs up to the next request being the
// READ's. PSNs are 24 bits and wrap; distances are taken modulo 2^24,
// signed.
//
// The highest PSN used is the highest PSN of the flow's requests so
// far, an RDMA READ counting as its n PSNs. A request's PSN is then:
//
//   - in order: the expected one (within the range above).
//   - gap: ahead of the expected one. PSNGaps counts the events,
//     PSNMissing the PSNs skipped (distance from the highest expected
//     PSN).
//   - out of order: behind the expected one, 1 to Window (256) below the
//     highest PSN used, and not used before: a late packet, often one
//     that fills a gap, or the resend of a packet the capture never saw.
//   - duplicate: behind the expected one, and used before or more than
//     Window below the highest PSN used (too old to tell). Every
//     duplicate is a retransmission (below).
//
// With 300 the highest PSN used, a first capture of PSN 44 is out of
// order, one of PSN 43 a duplicate.
//
// NAKs are counted by NAK code (and in total), and RNR NAKs apart, on
// the flow that carries them (responder to requester).
//
// # Retransmissions
//
// A duplicate request is retransmitted. Retransmissions come in go-back-N episodes: an episode begins
// with a resend that does not follow on from the previous packet's
// resend (the first after new requests, or one that goes back again),
// and goes on while each resend has the PSN after the one before. The
// episode's cause is what the peer flow carried since the previous
// episode began: a NAK PSN Sequence Error, else an RNR NAK, else nothing
// (a timeout: the requester resent without being told to). Stats counts
// the episodes and the retransmitted packets by cause. A resend of a
// packet the capture never saw the first time (lost before the capture
// point) reads as out of order, not as a retransmission; a resend more
// than Window below the highest PSN used reads as one, seen or not.
//
// # Latency
//
// Latencies come from capture timestamps, so they are as seen at the
// capture point. A packet's first capture is the first time the capture
// shows its PSN (for a packet lost before the capture point, its resend).
// An acknowledgement is a response whose AETH is an ACK: an Acknowledge,
// an RDMA READ Response First, Last or Only, an ATOMIC Acknowledge. On a
// request flow, once paired:
//
//   - ack: from the first capture of a SEND, RDMA WRITE, FLUSH or ATOMIC
//     WRITE packet to the first response that covers it. An
//     acknowledgement covers every waiting PSN up to and including its
//     own, a NAK PSN Sequence Error or RNR NAK every waiting PSN before
//     its own, whatever the order in which the packets were captured.
//     The 128 waiting packets with the highest PSNs are remembered; one
//     forgotten gives no sample.
//   - completion of a SEND or RDMA WRITE message: the message is a First
//     and the packets after it in PSN order up to the next Last, or one
//     Only (a FLUSH or an ATOMIC WRITE is a message of one packet). Its
//     completion runs from the earliest first capture of any of its
//     packets (its First's, unless the First was lost before the capture
//     point and resent after later ones) to the first response covering
//     its Last, as for ack. There is a sample only when every PSN of the
//     message, First to Last, had a first capture and waited for its
//     ACK: a message the capture saw only part of has none.
//   - completion of an RDMA READ: from its READ Request to its Last or
//     Only response (the read last latency).
//   - read first, read last: from an RDMA READ Request to its response at
//     its own PSN, and to its Last or Only response.
//   - atomic: from a CmpSwap or FetchAdd to its ATOMIC Acknowledge.
//   - ce to cnp: from a CE mark to the CNP that answers it, see below.
//
// Each kind keeps its count, minimum, mean (rounded down to the
// nanosecond) and maximum exactly, and p99: the ceil(0.99 n)-th smallest
// of its n samples. The 8 largest samples are kept, so p99 is exact as
// long as at most 7 lie above it: up to 799 samples. Beyond, every sample
// is counted in a histogram bucket: one per value below 8 ns, then each
// power of two [2^e, 2^(e+1)), up to 2^63 ns, cut in 8 buckets of width
// 2^(e-3). The p99 sample v lies in the bucket where the running count
// from the smallest bucket reaches ceil(0.99 n), in [min, max], and at or
// below the smallest of the 8 kept (at least 8 samples are above it); p99
// is the middle of the range these bounds leave. Bound: that range holds
// v and is at most one bucket wide, 2^(e-3) with 2^e <= v, so p99 is
// within 2^(e-4) <= v/16 of v (6.25%, exact below 16 ns), and it lies in
// [min, max]. A kind's histogram is allocated on its first sample in a
// flow, 2 KB (its counts are 32 bits wide until one of them would pass
// 2^32-1, then 64: 4 KB more), at most six per flow.
//
// An RDMA READ Request at PSN p with DMA length L waits (at most
// MaxOutstanding per flow) for its responses on the peer flow, PSNs p to
// p+n-1. It is matched when a response Only arrives at PSN p, or when a
// First, Middles and a Last arrive and their number is ceil(L/m), m
// being the First's payload (the path MTU), or, when the capture cut L,
// when the Last follows them without a missing PSN; incomplete when the
// Last or Only comes with another count; unanswered when no Last or Only came
// by the end. A READ Request sent again at a PSN q inside an earlier
// read's responses, past its first (p < q < p+n, n from the MTU when
// known, else the most a read of L bytes takes, ceil(L/256)), asks for
// the tail of that read: what a requester sends when some responses
// were lost, with the VA and length of what is missing. It is a read of
// its own (counted in Reads, matched by its responses from q on, as
// above, and a retransmission as every duplicate), and the earlier read,
// if it still waits, is then over: incomplete. A READ Request sent again
// at an earlier read's own PSN is the same read sent again: the read
// waits on if it still waits. Read responses that fit no waiting read
// (or arrive on a flow with no peer) are unmatched. An atomic request
// (CmpSwap, FetchAdd) at PSN p is matched by the ATOMIC Acknowledge
// with PSN p on the peer flow.
//
// CE counts packets whose IP ECN field is CE (RoCEv2), FECN and BECN the
// BTH bits, ICRCBad the packets whose ICRC failed (ICRCUnchecked those
// the capture cut before their ICRC, which count as neither). CNPs counts the CNPs
// a flow carries: a CNP from B to A for QP q is a packet of flow
// (B, A, q). Since that q is the requester QP of the flows from A to B
// it slows down, CNPsToSender of a flow A>B whose requester QP q is
// known is the CNP count of flow (B, A, q); CNPs to a QP no flow claims
// stay visible on their own flow.
//
// A CNP answers a CE mark of the flow whose sender its QP is: for RC,
// UC and XRC the peer of the flow carrying the CNP (for a write, the
// request flow; for CE-marked READ responses, the response flow), for
// UD the flow whose DETH SrcQP is the CNP's QP. The notification point
// paces CNPs (Config.CNPInterval, by default cnp.DefaultInterval, 4 µs):
// a CE mark less than that after the last mark that caused a CNP causes
// none. The marks that cause one wait in order (up to 8 per flow), and
// each CNP takes the oldest: the ce to cnp latency (CEToCNP) is the time
// from that mark to the CNP. A CNP that comes before its flow is known
// (an RC CNP before the first response has paired the two flows) keeps
// its time, the last 8 of them per flow; when the flows pair, each in
// turn takes the oldest waiting mark if that mark came before it. A CNP
// when no mark (or only a later one) waits counts, but gives no delay.
// CNPPacingViolations counts the CNPs of a flow that come less than
// Config.CNPInterval after the flow's previous CNP. With a negative
// CNPInterval no pacing is assumed: every mark causes a CNP, and no CNP
// is a violation.
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
// LongestPause is the longest of those continuous pauses, and Storm
// flags a priority whose longest pause exceeds Config.PFCStorm (100 ms
// by default, the usual switch PFC watchdog).
//
// # Events
//
// Config.Events, when set, is told of each classification as it is
// made, during the call that adds the packet: a CE mark, a CNP (with the
// flow whose sender it slows, as CNPsToSender counts it, and its delay
// from the mark it answers, when known then: a CNP that comes before its
// flows are paired is reported without one), a NAK or RNR NAK (with the request flow it
// answers, once paired), a retransmission (with its episode's cause) and
// a continuous pause of a PFC priority (when it ends; RunningPauses
// gives those still running). Package timeline draws them.
//
// # Text report
//
// WriteText prints, for example (one connection that resent after a
// NAK PSN Sequence Error, an RNR NAK and a timeout):
//
//	2 flows
//	RC 10.0.0.1 > 10.0.0.2 qp 0x000022 from qp 0x000011: frames 14 bytes 1972 messages 14
//	  opcodes [RC RDMA WRITE Only 12] [RC SEND Only 2]
//	  psn gaps 0 missing 0 duplicates 6 out-of-order 0
//	  retransmitted 6 (nak-seq 3 rnr-nak 1 timeout 2) go-back-n episodes nak-seq 1 rnr-nak 1 timeout 1
//	  latency ack n 8 min 6µs avg 264.125µs max 1.01ms p99 1.01ms
//	  latency completion n 8 min 6µs avg 264.125µs max 1.01ms p99 1.01ms
//	  ce 0 fecn 0 becn 0 cnps 0 cnps-to-sender 0 icrc-bad 0
//	  peer 10.0.0.2 > 10.0.0.1 qp 0x000011
//	RC 10.0.0.2 > 10.0.0.1 qp 0x000011 from qp 0x000022: frames 5 bytes 310 messages 0
//	  opcodes [RC Acknowledge 5]
//	  psn gaps 0 missing 0 duplicates 0 out-of-order 0
//	  naks 1 [PSN Sequence Error 1] rnr-naks 1
//	  ce 0 fecn 0 becn 0 cnps 0 cnps-to-sender 0 icrc-bad 0
//	  peer 10.0.0.1 > 10.0.0.2 qp 0x000022
//	pfc 02:00:00:00:00:0b prio 3: frames 4 xoff 3 xon 1 quanta 132070 (676.198µs at 100Gb/s) paused 205.12µs longest 200µs
//
// A capture with CM connections adds, after the flows, one block per
// connection and one line per host pair (the rxe capture in testdata):
//
//	cm 192.168.65.5 > 192.168.65.4 service 0x0000000001061d2f port 7471 (TCP port space): disconnected
//	  rdma-cm 192.168.65.5 port 37847 > 192.168.65.4 port 7471
//	  192.168.65.5 comm 0x34cfb552 qp 0x000011 start-psn 0x8c84dd; 192.168.65.4 comm 0xa980e2d3 qp 0x000011 start-psn 0xe1a47d
//	  messages req 1 rep 1 rtu 1 rej 0 dreq 1 drep 1
//	cm hosts 192.168.65.5 <> 192.168.65.4: req 1 rep 1 rtu 1 rej 0 dreq 1 drep 1
//
// "start-psn" is the first PSN of that side's requests; a rejected
// connection reads "rejected (Consumer Reject, reason 28, REQ
// rejected)". The flows of a connection end their psn line with "from cm
// start 0x8c84dd" and their peer line with "(cm)"; in JSON, PairedBy
// ("cm" or "psn") and CMStartPSN, and Report.CM.
//
// "from qp" is the QP that sends the flow's packets, when known (SrcQP).
// The reads, atomics, retransmitted, naks and latency lines appear only
// when they have something to say; so do "icrc-unchecked" and
// "cnp-pacing-violations" on the ce line, "unpaired: its responses fit N
// request flows" for an ambiguous response flow, and "STORM" on a pfc
// line. WriteJSON writes the same Report as one JSON object (field names
// in the struct tags; durations in nanoseconds).
package flow
