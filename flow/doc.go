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
// other way round. The pairing costs a scan of the unpaired flows
// between the two hosts per undecided response; state is fixed per flow.
// request flow. A UD flow's requester QP is the SrcQP of its DETH (when
// captured). At most DefaultMaxFlows flows (Config.MaxFlows) are tracked one by one;
// the packets of any further flow are counted together in Report.Other,
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
// NAKs are counted by NAK code (and in total), and RNR NAKs apart, on
// the flow that carries them (responder to requester).
//
// # Retransmissions
//
// A request whose PSN was already seen is retransmitted (the duplicates
// above). Retransmissions come in go-back-N episodes: an episode begins
// with a resend that does not follow on from the previous packet's
// resend (the first after new requests, or one that goes back again),
// and goes on while each resend has the PSN after the one before. The
// episode's cause is what the peer flow carried since the previous
// episode began: a NAK PSN Sequence Error, else an RNR NAK, else nothing
// (a timeout: the requester resent without being told to). Stats counts
// the episodes and the retransmitted packets by cause. A resend of a
// packet the capture never saw the first time (lost before the capture
// point) reads as out of order, not as a retransmission.
//
// # Latency
//
// Latencies come from capture timestamps, so they are as seen at the
// capture point. On a request flow, once paired:
//
//   - ack: from a SEND, RDMA WRITE, FLUSH or ATOMIC WRITE packet's first
//     transmission to the first ACK that covers it: an ACK covers every
//     PSN up to its own, a NAK PSN Sequence Error or RNR NAK every PSN
//     before its own (the last 128 packets waiting are remembered);
//   - read first, read last: from an RDMA READ Request to its first and
//     to its last response;
//   - atomic: from a CmpSwap or FetchAdd to its ATOMIC Acknowledge;
//   - completion: from the first packet of a SEND or RDMA WRITE message
//     to the ACK covering its last, or from an RDMA READ Request to its
//     last response;
//   - ce to cnp: see below.
//
// Each kind keeps count, minimum, mean and maximum exactly, and p99 (the
// ceil(0.99 n)-th smallest sample) from a fixed histogram of 8 buckets
// per power of two: exact up to 100 samples, within 6.25% beyond
// (Latency says how). A histogram is allocated on its kind's first
// sample in a flow: 2.5 KB, at most six per flow.
//
// An RDMA READ Request at PSN p with DMA length L waits (at most
// MaxOutstanding per flow) for its responses on the peer flow, PSNs p to
// p+n-1. It is matched when a response Only arrives at PSN p, or when a
// First, Middles and a Last arrive and their number is ceil(L/m), m
// being the First's payload (the path MTU), or, when the capture cut L,
// when the Last follows them without a missing PSN; incomplete when the
// Last or Only comes with another count; unanswered when no Last or Only came
// by the end. Read responses that fit no pending read (or arrive on a
// flow with no peer) are unmatched. An atomic request (CmpSwap,
// FetchAdd) at PSN p is matched by the ATOMIC Acknowledge with PSN p on
// the peer flow.
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
// each CNP takes the oldest: CEToCNP is the time between them. A CNP
// that comes before the flows are paired, or when no mark waits, counts
// but gives no delay (the first takes its mark out of the queue when
// the flows are paired). CNPPacingViolations counts the CNPs of a flow that
// come less than Config.CNPInterval after the flow's previous CNP. With
// a negative CNPInterval no pacing is assumed: every mark causes a CNP,
// and no CNP is a violation.
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
// from the mark it answers), a NAK or RNR NAK (with the request flow it
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
