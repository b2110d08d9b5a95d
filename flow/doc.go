// Package flow summarizes RoCE and InfiniBand traffic per flow and PFC
// pauses per priority, streaming: an Analyzer takes one decoded packet at
// a time (Add, AddMACControl, or AddRecord for frames decoded by package
// dump), keeps a fixed amount of state per flow and a capped number of
// flows, and produces a Report, as text (WriteText) or JSON (WriteJSON),
// whenever asked. It is what rocedump -stats prints; docs/flow.md in the
// repository walks through its reports by example.
//
// The contract: every counter below is defined once, here; nothing is
// paired, matched or classified on a guess (what the capture cannot tell
// is reported as such); state is fixed per flow (an RC connection that
// writes takes about 12 KB for its two flows), at most Config.MaxFlows
// flows (DefaultMaxFlows) are tracked one by one and the packets of any
// further flow are counted together in Report.Other, without PSN
// analysis, so memory stays flat whatever the capture.
//
// # Flows
//
// A flow is keyed by the source and destination addresses of its packets
// (IP addresses for RoCEv2, GIDs for RoCEv1, LIDs for native InfiniBand)
// and the BTH destination QP. The BTH carries no source QP, so the two
// directions of one RC connection are two flows: the requests go to the
// responder's QP, the acknowledgements and read responses to the
// requester's QP. The Analyzer pairs them (peers), on exact PSNs only:
//
//   - A request flow owns the PSNs its requests used among the last
//     RecentPSNs (4096) below its highest one (an RDMA READ uses its
//     responses' PSNs too), and the PSN ranges its pending RDMA READs'
//     responses may carry.
//   - Every response carries the PSN of a request of its connection: an
//     ACK (coalesced or not) the PSN of the last request it
//     acknowledges, a NAK the PSN expected or refused, a READ response
//     one of its read's PSNs, an ATOMIC Acknowledge its atomic's PSN.
//     The PSN a NAK PSN Sequence Error expects may be one the capture
//     never showed (the request was lost before the capture point): for
//     that NAK a request flow owns it too when its PSNs skipped it (it
//     lies among the RecentPSNs below the highest, unused), and it is
//     no evidence for later responses.
//   - A response on a flow B>A with no peer yet is checked against the
//     flows A>B of the same transport that have no peer. If exactly
//     one owns its PSN and the PSNs of the flow's earlier undecided
//     responses, the two flows are peers. If several do, the response
//     waits, with up to 16 others, until a later response leaves one
//     candidate; then the waiting responses are applied in order. If
//     none owns them all but some own this one, the evidence restarts
//     from it.
//   - While several request flows own the PSNs, the UDP source port
//     breaks the tie when exactly one of them sends from the port the
//     response flow sends from (every packet of each flow from that one
//     port).
//   - Connections whose responses never tell them apart stay unpaired,
//     and FlowReport.Ambiguous says how many request flows fit. A flow
//     whose responses fit no request flow tries at its first 8
//     responses, then at each power of two.
//
// Once paired, the QP of the response flow is the requester QP of the
// request flow (FlowReport.SrcQP, "from qp"), and the other way round. A
// UD flow's requester QP is the SrcQP of its DETH (when captured).
// Stats.Answers marks the flow that carries the responses.
//
// # Connections from CM
//
// A connection set up by the communication manager names its QPs and
// PSNs in its MADs (UD SEND Only packets to QP 1, which package mad
// decodes). A REQ from host A to host B opens a connection; the REP from
// B whose RemoteCommID is A's LocalCommID completes it; RTU, MRA, REJ,
// DREQ and DREP find their connection by either communication ID. The
// connection's two flows (A's packets to B's QP, B's packets to A's QP)
// are then peers from their first packet (FlowReport.PairedBy "cm";
// "psn" for flows paired by their PSNs), and the PSN analysis of each
// starts at the PSN the CM negotiated for its requests
// (FlowReport.CMStartPSN): A's requests at the REP's StartingPSN, B's at
// the REQ's, since each message carries the PSN its sender expects to
// receive (IBTA Vol 1, 12.6.5 and 12.6.8).
//
// A connection's state (CMConnection.State) is "requested" from its REQ,
// "established" after the RTU or the first packet on one of its flows
// after the REP, "disconnected" after a DREQ or DREP, "rejected" after a
// REJ (with the reason's IBTA name, mad.RejectReason, and the message
// rejected). Report.CM lists the connections in the order of their REQs,
// with the messages of each (CMCounts), and counts the CM messages per
// host pair, both directions together. At most Config.MaxCMConnections
// connections are tracked (REQs beyond: CMReport.Untracked) and
// Config.MaxCMPending REQs wait for their REP or REJ (a newer one evicts
// the oldest: CMReport.Evicted).
//
// # Counters
//
// The fields of Stats, per flow (JSON keys in the struct tags):
//
//   - Frames: every packet of the flow. Bytes: their lengths on the wire.
//   - Messages: packets whose opcode ends a message: SEND and RDMA WRITE
//     Last and Only (every variant, UD SEND Only included) and RDMA READ
//     Response Last and Only.
//   - MTU: the largest payload of a First or Middle packet (IBTA makes
//     them exactly one path MTU), on the flow or, for read responses,
//     its peer; 0 if none was seen.
//   - PSNGaps, PSNMissing, OutOfOrder, Duplicates: the PSN
//     classification of requests, below.
//   - NAKs (by NAK code; FlowReport.NAKs lists them) and NAKTotal: the
//     NAKs the flow carries (responder to requester), RNR NAKs apart;
//     RNRNAKs: the RNR NAKs.
//   - Retransmitted: the requests sent again, the same packets as
//     Duplicates; RetransmittedNakSeq, RetransmittedRNR and
//     RetransmittedTimeout split them by the cause of their go-back-N
//     episode, and GBNNakSeq, GBNRNR and GBNTimeout count the episodes
//     (see Retransmissions).
//   - Reads, ReadsMatched, ReadsIncomplete, ReadsUnanswered,
//     ReadResponsesUnmatched; Atomics, AtomicsMatched, AtomicsUnanswered,
//     AtomicAcksUnmatched: see Reads and atomics. They sit on the request
//     flow once its responses' flow is paired with it, on the response
//     flow otherwise.
//   - CE: packets whose IP ECN field is CE (RoCEv2). FECN, BECN: packets
//     with that BTH bit set (CNPs, which set BECN, included).
//   - CNPs: the CNPs the flow carries (a CNP from B to A for QP q is a
//     packet of flow (B, A, q)). CNPsToSender: of a flow A>B whose
//     requester QP q is known, the CNPs of flow (B, A, q), the CNPs that
//     slow its sender down; CNPs to a QP no flow claims stay visible on
//     their own flow. CNPPacingViolations: the CNPs of the flow that came
//     less than Config.CNPInterval after the flow's previous CNP (none
//     when CNPInterval is negative).
//   - ICRCBad: packets whose ICRC failed. ICRCUnchecked: packets the
//     capture cut before their ICRC, which count as neither good nor bad.
//
// The opcode histogram (FlowReport.Opcodes) keeps 16 opcodes per flow and
// counts the rest under opcode -1, "other".
//
// # PSNs
//
// PSN analysis runs on the requests (Opcode.IsRequest) of RC, UC and XRC
// flows. After a request at PSN p the next one is expected at p+1; after
// an RDMA READ Request of DMA length L it is expected at p+n, where n is
// the number of response packets, ceil(L/MTU) (at least 1) when the MTU
// is known and anything from ceil(L/4096) to ceil(L/256) otherwise; when
// the capture cut the READ's DMA length, anything from p+1 to
// p+RecentPSNs. The responses of a read tell more, for a READ sent
// before the MTU was known: each response's PSN is one the read took,
// a First response at p, whose payload is the MTU, says that it took
// ceil(L/MTU) PSNs, a Last or Only at q that it ended at q; when the
// read is the flow's last request, the next one is expected after them.
// PSNs are 24 bits and wrap; distances are taken modulo
// 2^24, signed. The highest PSN used is the highest PSN of the flow's
// requests so far, an RDMA READ counting as its n PSNs. A request's PSN
// is then:
//
//   - in order: the expected one (within the range above);
//   - a gap: ahead of the expected one. PSNGaps counts the events,
//     PSNMissing the PSNs skipped (distance from the highest expected
//     PSN);
//   - out of order (OutOfOrder): behind the expected one, 1 to Window
//     (256) below the highest PSN used, and not used before;
//   - a duplicate (Duplicates): behind the expected one, and used before
//     or more than Window below the highest PSN used. Every duplicate is
//     a retransmission.
//
// # Retransmissions
//
// Retransmissions come in go-back-N episodes: an episode begins with a
// resend that does not follow on from the previous packet's resend (the
// first after new requests, one that goes back again, or one that skips
// ahead after a NAK), and goes on while each resend has the PSN after the
// one before, or a later one with no NAK in between (the resends of the
// PSNs skipped were lost before the capture point). The episode's cause
// is what the peer flow carried since the previous episode began: a NAK
// PSN Sequence Error (nak-seq), else an RNR NAK (rnr-nak), else nothing
// (timeout: the requester resent without being told to). A resend of a
// packet the capture never saw the first time reads as out of order, not
// as a retransmission (it continues the episode when it follows on from
// the previous resend, and ends it when it goes back before it, so that
// the resends after it begin the next); a resend more than Window below the highest PSN
// used reads as one, seen or not.
//
// # Reads and atomics
//
// An RDMA READ Request at PSN p with DMA length L (counted in Reads)
// waits, with at most MaxOutstanding others per flow, for its responses
// on the peer flow, PSNs p to p+n-1. It is matched (ReadsMatched) when a
// response Only arrives at PSN p, or when a First, Middles and a Last
// arrive and their number is ceil(L/m), m being the First's payload, or,
// when the capture cut L, when the Last follows them without a missing
// PSN; incomplete (ReadsIncomplete) when the Last or Only comes with
// another count; unanswered (ReadsUnanswered) when no Last or Only came by
// the end, or when MaxOutstanding newer reads pushed it out. A READ
// Request sent again at a PSN q inside an earlier read's responses, past
// its first (p < q < p+n, n from the MTU when known, else ceil(L/256)),
// asks for the tail of that read: it is a read of its own, matched by
// its responses from q on, and the earlier read, if it still waits, is
// then incomplete. A READ Request sent again at an earlier read's own
// PSN is the same read sent again. Read responses that fit no waiting
// read, or arrive on a flow with no peer, are unmatched
// (ReadResponsesUnmatched).
//
// An atomic request (CmpSwap, FetchAdd; Atomics) at PSN p is matched
// (AtomicsMatched) by the ATOMIC Acknowledge with PSN p on the peer flow;
// unanswered (AtomicsUnanswered) when none came by the end, or when
// MaxOutstanding newer atomics pushed it out. An ATOMIC Acknowledge that
// fits no waiting atomic, or arrives on a flow with no peer, is unmatched
// (AtomicAcksUnmatched).
//
// # Latency
//
// Latencies (FlowReport.Latency) come from capture timestamps, as seen at
// the capture point. A packet's first capture is the first time the
// capture shows its PSN. An acknowledgement is a response whose AETH is
// an ACK: an Acknowledge, an RDMA READ Response First, Last or Only, an
// ATOMIC Acknowledge. On a request flow, once paired:
//
//   - ack: from the first capture of a SEND, RDMA WRITE, FLUSH or ATOMIC
//     WRITE packet to the first response that covers it. An
//     acknowledgement covers every waiting PSN up to and including its
//     own, a NAK PSN Sequence Error or RNR NAK every waiting PSN before
//     its own, whatever the order in which the packets were captured.
//     The 128 waiting packets with the highest PSNs are remembered; one
//     forgotten gives no sample.
//   - completion of a SEND or RDMA WRITE message (a First and the
//     packets after it in PSN order up to the next Last, or one Only; a
//     FLUSH or an ATOMIC WRITE is a message of one packet): from the
//     earliest first capture of any of its packets to the first response
//     covering its Last, as for ack; a sample only when every PSN of the
//     message had a first capture and waited for its ACK. Completion of
//     an RDMA READ: from its READ Request to its Last or Only response.
//   - read first, read last: from an RDMA READ Request to its response at
//     its own PSN, and to its Last or Only response.
//   - atomic: from a CmpSwap or FetchAdd to its ATOMIC Acknowledge.
//   - ce to cnp (CEToCNP): from a CE mark to the CNP that answers it.
//
// Each kind keeps its count, minimum, mean (rounded down to the
// nanosecond) and maximum exactly, and p99: the ceil(0.99 n)-th smallest
// of its n samples, exact up to 799 samples (the 8 largest are kept) and
// beyond that within 6.25% of it (2^(e-4) for a sample in [2^e,
// 2^(e+1)), from a histogram of 8 buckets per power of two), never
// outside [min, max].
//
// A CNP answers a CE mark of the flow whose sender its QP is: for RC, UC
// and XRC the peer of the flow carrying the CNP (for a write, the request
// flow; for CE-marked READ responses, the response flow), for UD the flow
// whose DETH SrcQP is the CNP's QP. The notification point paces CNPs
// (Config.CNPInterval, by default cnp.DefaultInterval, 4 µs): a CE mark
// less than that after the last mark that caused a CNP causes none. The
// marks wait in order, and each CNP takes the oldest one that causes a
// CNP, passing over those that do not. A CNP that comes less than
// CNPInterval after the flow's last one (a pacing violation) shows that
// the notification point answers every mark: from then on each CNP takes
// the oldest waiting mark, whether the pacing would have passed over it
// or not. The first 32 waiting marks keep their times; a CNP that takes
// one after them gives no delay rather than another mark's time, and if
// a mark the pacing passes over found no room before the flow showed it
// was answering every mark, which mark each CNP answers is not known and
// none of its CNPs is timed from then on. A CNP that comes before its
// flows are paired keeps its time (the last 8 per flow) and takes its
// mark when they pair. A CNP when no mark (or only a later one) waits
// counts, but gives no delay. With a negative CNPInterval every mark
// causes a CNP.
//
// # Pauses
//
// AddMACControl counts PFC frames per source MAC and priority (PAUSE
// frames under priority 8), in PFCReport: Frames, the frames giving the
// priority a time; XOFF, those with a time not zero; XON, those with a
// time of zero; Quanta, the sum of the XOFF times, and QuantaTime, that
// sum at Config.Speed (every pause in full). Paused is the time the
// priority was actually paused, overlapping pauses merged as a receiving
// port would: an XOFF starts the pause or restarts its timer, an XON
// ends it, and a pause still running at the end of the capture counts in
// full. LongestPause is the longest of those continuous pauses, and Storm
// flags a priority whose LongestPause exceeds Config.PFCStorm
// (DefaultPFCStorm, 100 ms, the usual switch PFC watchdog).
//
// # UDP source ports and ECMP
//
// RoCEv2 sends every packet to UDP port 4791, so the UDP source port is
// the only field of the 5-tuple that an ECMP or LAG hash can use to put
// the QPs between two hosts on different paths (package ecmp). Each
// flow counts the frames and bytes of each source port of its UDP
// packets (FlowReport.SrcPorts; the first 8 ports one by one, the
// packets of any further ones under port -1), and checks them against
// its flow label, when one is known (FlowReport.FlowLabel): the IPv6
// flow label of each packet, or else the primary path flow label of the
// REQ of the flow's CM connection (for the packets after the REP bound
// the flow to it); a packet follows Linux when its source port is
// rocev2.FlowLabelToUDPSrcPort of that label, 0xC000 | ((fl & 0x3FFF) ^
// ((fl & 0xFC000) >> 14)). A label of 0 gives none (RFC 6437: no
// label), and an IPv4 packet has none of its own.
//
// Report.HostPorts sums them per host pair, one direction at a time (an
// ECMP path is chosen per direction): the data flows from Src to Dst,
// each a QP (flows to QP 0 and QP 1, the management QPs, apart). For
// each source port, the QPs that used it; the Shannon entropy of the QPs
// over the ports (ecmp.Entropy: 0 bits when every QP uses one port, log2
// n when n QPs use n ports), and two findings: SharedPorts, the ports
// several QPs used, and Narrow, an entropy below the lesser of
// NarrowEntropy (2 bits: an even spread over 4 paths) and log2 of the
// QPs (what they could reach). Then the QPs whose flow label is known,
// and how many of them follow Linux (every packet) or not.
//
// With Config.ECMPPaths, Report.ECMP hashes each 5-tuple of the tracked
// flows (every UDP packet: data, responses, CNPs and MADs) onto that many
// paths with each of ecmp.Hashes and gives the bytes and 5-tuples per
// path, the largest and mean bytes per path and their ratio, the
// imbalance (1 for an even spread, the number of paths when one path
// carries everything). The flows beyond MaxFlows are left out of both.
//
// # Events
//
// Config.Events, when set, is told of each classification as it is made,
// during the call that adds the packet: a CE mark, a CNP (with the flow
// whose sender it slows and its delay from the mark it answers, when
// known then), a NAK or RNR NAK (with the request flow it answers, once
// paired), a retransmission (with its episode's cause) and a continuous
// pause of a PFC priority (when it ends; RunningPauses gives those still
// running). Package timeline draws them.
//
// # Text report
//
// WriteText prints one block per flow: a line with the transport,
// addresses, QP, "from qp" and frames, bytes, messages and mtu; the
// opcodes; the PSN line ("from cm start" for a CM connection); the
// reads and atomics lines, the retransmitted line, the naks line and
// one line per latency kind only when they have something to say; the
// ce line ("icrc-unchecked" and "cnp-pacing-violations" only when not
// zero); the peer line ("(cm)" when paired by the CM), or "unpaired: its
// responses fit N request flows" for an ambiguous response flow. Then
// the CM connections and host pairs; the source ports of each host pair
// of at least two QPs (or with a QP whose ports differ from its flow
// label): a line "udp SRC > DST: qps N src-ports N (LOW-HIGH) entropy E
// bits of MAX", then "shared src-ports", "narrow spread" and
// "flow-label" lines when they have something to say; the ECMP
// what-if, a line "ecmp N paths" and one line per hash with its
// max/mean and bytes per path; and one line per PFC priority ("STORM"
// when Storm). WriteJSON writes the same Report as one JSON
// object (field names in the struct tags; durations in nanoseconds).
package flow
