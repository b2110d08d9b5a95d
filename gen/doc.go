// Package gen generates realistic RoCE traffic for test rigs: the frames a
// capture between two RDMA NICs would show, built with this module's
// encoders and written by cmd/rocegen or by any harness that wants them.
//
// A Config describes one phase of traffic: the encapsulation (RoCEv1,
// RoCEv2 over IPv4 or IPv6), VLAN tag and priority, DSCP and ECN, MTU,
// transport (RC, UC, UD, XRC), operation, message size, number of messages
// and of queue pairs, and the events of the network: CE marks and the
// CNPs they cause, PFC frames, frames with a bad ICRC. A Generator plays
// one Config (New), a list of them (NewScenario, ParseScenario) or a
// scenario file read one line at a time (StreamScenario) and hands out
// the frames one at a time:
//
//	g, err := gen.New(gen.DefaultConfig())
//	for g.Next() {
//		frame, ci := g.Frame(), g.CaptureInfo()
//		...
//	}
//	err = g.Err()
//
// or writes them all as a pcap or pcapng file with Write (through
// capfile.Writer, in a capfile.Format), or sends them
// on a live interface at the times of their timestamps with Send (a
// Pacer keeps the schedule; see cmd/rocegen -i).
//
// # What the traffic looks like
//
// Messages go round-robin over the queue pairs: message m of a phase
// belongs to queue pair m mod QPs, and each queue pair sends Messages of
// them. A SEND or RDMA WRITE of Size bytes is cut into packets of MTU
// bytes, FIRST, MIDDLE... and LAST (ONLY when it fits in one, including an
// empty message), with consecutive PSNs that wrap at 24 bits. The RETH,
// whose DMA length is the message size, is on WRITE FIRST or ONLY; the
// ImmDt or IETH on LAST or ONLY. An RDMA READ Request takes one PSN per
// response packet, ceil(Size/MTU) of them (one for Size 0), and is
// answered by READ Response FIRST, MIDDLE... LAST or ONLY carrying the
// request's PSNs, with an AETH on FIRST, LAST and ONLY. CmpSwap and
// FetchAdd are answered by an ATOMIC Acknowledge holding the value before
// the operation (the generator keeps each queue pair's remote word, so the
// values chain); FLUSH by an RDMA READ Response ONLY with an AETH and no
// payload, as Linux rxe answers it; ATOMIC WRITE (RETH and 8 bytes) by an
// Acknowledge.
//
// Acknowledgements: on RC and XRC the requester sets AckReq on the last
// packet of every message, and with AckEvery = N also on every Nth packet
// of a message; the responder sends one Acknowledge for each packet with
// AckReq set (a coalesced ACK of everything up to that PSN), Delay after
// it. The MSN of every AETH counts the request messages the responder has
// completed, this one included: the ACK of a message's last packet, the
// READ responses and the ATOMIC Acknowledge all carry the new count, an
// ACK in the middle of a message the count before it. UC and UD have no
// responses; UD requests carry a DETH (Q_Key, source QP) and must fit in
// one MTU; XRC requests carry an XRCETH naming the shared receive queue.
// Every request goes to the responder's queue pair, every response to the
// requester's. Queue pair i of a phase is LocalQP+i on the requester and
// RemoteQP+i on the responder; its UDP source port, the same in both
// directions, and its IPv6 or GRH flow label come from
// rocev2.CalcFlowLabel and rocev2.FlowLabelToUDPSrcPort, as Linux derives
// them (Config.SrcPort fixes one port for them all). The BTH M bit is set except on UD, as NICs in the migrated state
// send; P_Key and Q_Key are settings.
//
// Data packets are the requests and the READ responses. CEEvery and
// CEFraction mark some of them CE; the receiver answers each with a CNP
// built by cnp.Reply (DSCP 48, to the sender's queue pair), paced per
// queue pair when CNPInterval is set. PFCEvery sends, every N data
// packets, a PFC frame from the responder's port pausing PFCPrio; when
// that is the traffic's priority (PCP) the requests wait out the pause.
// BadICRC flips one ICRC bit in a fraction of the RoCE frames after they
// are built (the traffic continues as if they had arrived).
//
// # Faults
//
// Config.Faults (rocegen -loss, -ack-loss, -dup, -rnr...) make an RC
// phase of SENDs, RDMA WRITEs or RDMA READs suffer faults on demand, and
// the generator plays what an RC requester and responder do about them
// (IBTA Vol 1, 9.7.5 and 9.9). Data packets (requests and READ
// responses, resends included) are lost at random, every Nth or in a
// burst, before the capture point (the capture lacks them; their wire
// time stays a hole) or after it (the capture shows them, their receiver
// never gets them); ACKs are lost at random, requests duplicated. The
// responder expects one PSN: a request at it is carried out and
// answered, unless it needs a receive WQE (SEND First or Only, RDMA
// WRITE with immediate Last or Only) that the responder refuses with an
// RNR NAK; the first request past it of an episode gets a NAK PSN
// Sequence Error with the expected PSN, later ones are dropped; one
// behind it is a duplicate, acknowledged again (an RDMA READ is read
// again from its PSN). The requester keeps, per queue pair, its first
// unacknowledged PSN, its local ACK timer (4.096 µs * 2^Timeout,
// restarted by every acknowledgement that makes progress) and its retry
// counts. A NAK makes it go back N: it resends from the NAK's PSN every
// packet it had sent, ahead of new ones; a READ response past the one
// it expects makes it ask for the rest of the read at once, with a READ
// Request at the first missing PSN whose VA and length are the rest; a
// timeout makes it resend from the first unacknowledged PSN; an RNR NAK
// stops the queue pair for the RNR timer, then it resends from the
// NAK's PSN. RetryCnt resends without progress after timeouts, NAKs
// and READ gaps, RNRRetry after RNR NAKs (7: without end), then the
// queue pair goes to the error state and sends nothing more. Stats
// counts what the faults did and what the capture shows of it. A phase
// without faults is generated exactly as before.
//
// # RDMA-CM
//
// With Config.CM (rocegen -cm), on RC and UC, every queue pair of a phase
// connects before the phase's first data and disconnects after its last
// frame, as RDMA-CM does: REQ from the requester, REP from the
// responder, RTU; then DREQ and DREP. Each is a CM MAD (built with
// package mad) in a UD SEND Only from QP 1 to QP 1 with DETH Q_Key
// 0x80010000, AckReq set, consecutive PSNs per direction; the messages
// of one connection go one after the other, Delay apart. The REQ carries
// the requester's QP (LocalQPN), the RDMA-CM service ID of the TCP port
// space and CMPort (7471 by default), the IP-CM private data (the
// requester's and responder's addresses, a source port drawn from the
// seed), the P_Key, path MTU, primary path GIDs, hop limit and SL; the
// REP the responder's QP and, as StartingPSN, the first PSN of the
// requester's requests. Each side's StartingPSN is the PSN it expects
// to receive, as Linux's CM fills it in: the REQ's is the first PSN of
// the responder's own requests (drawn from the seed; the generator's
// responder sends none). Communication and transaction IDs are drawn
// from the seed. With CMReject the responder answers each REQ with a REJ
// of that reason, and the phase sends no data. A later phase that uses
// the same queue pairs connects them again.
//
// # NVMe over Fabrics
//
// With Config.ULP set to ULPNVMe (rocegen -ulp nvme) a phase plays an
// NVMe/RDMA host (the requester's side) and target (the responder's)
// instead of Op's messages, as Linux's nvme-rdma and nvmet-rdma do,
// the capsules built by package nvmeof. Queue pair 0 of the phase is
// the admin queue (QID 0, 32 entries), queue pairs 1 to QPs the I/O
// queues (QID i, 128 entries). Every queue connects with RDMA-CM as
// above (CM is implied), to port NVMePort (4420) unless CMPort says
// otherwise: the REQ's IP-CM private data carries RDMA_CM_REQUEST
// (record format 0, the QID, HRQSIZE, HSQSIZE, the CNTLID: 0xffff on
// the admin queue), the REP RDMA_CM_ACCEPT (CRQSIZE), a REJ
// RDMA_CM_REJECT (status 6, No resources). Then, one command at a time:
// the admin queue's Connect (KATO 5 s, Connect data with CNTLID 0xffff,
// the host ID, a UUID drawn from the seed, its NQN and the subsystem's,
// behind a Keyed SGL that the target reads with an RDMA READ, as Linux
// does on the admin queue), the Property Gets and Set that enable the
// controller (CAP, VS, CC with EN set, CSTS, whose completions carry the
// values of Linux's nvmet), an Identify Controller (4 KiB the target
// RDMA WRITEs to the host), each I/O queue's Connect with its data in
// the capsule, and Messages I/O commands per I/O queue, round-robin, of
// Size bytes from LBA 0 on (512-byte blocks): OpRead a Read (the target
// RDMA WRITEs the data to the host's Keyed SGL, then SENDs the
// completion), OpWrite a Write (the target RDMA READs the data, the host
// answers with READ Responses), OpSend a Write with in-capsule data (at
// most 4096 bytes), OpSendInv a Read whose SGL asks for the key's
// invalidation, which the completion does in a SEND with Invalidate.
// Command capsules go host to target in SENDs, completions target to
// host. Each side numbers its own requests: the host from the REP's
// StartingPSN, the target from the REQ's; every message with AckReq is
// acknowledged by the other side, Delay after it, and each step of a
// command answers the one before Delay after it. The Keyed SGLs name a
// buffer of the queue pair and an R_Key whose low byte changes with
// every command, as fast-registered memory does.
//
// # iSER
//
// With Config.ULP set to ULPISER (rocegen -ulp iser) a phase plays an
// iSCSI initiator (the requester's side) and target (the responder's)
// over iSER (RFC 7145), as Linux's iser and isert do, the PDUs built by
// package iser. Each of the QPs queue pairs is a connection of its own
// session, connected with RDMA-CM (CM is implied) to port ISERPort
// (3260) unless CMPort says otherwise, the REQ's and REP's private data
// the iSER CM data (no zero-based virtual addresses, no SEND with
// Invalidate). Each connection logs in first: a Login Request (ISID
// 0x00023d000000 plus the low 16 bits of the queue pair number, CmdSN
// 1, the initiator's and target's
// names and the operational keys, RDMAExtensions=Yes among them) that
// goes from the operational stage straight to full feature phase, and
// the target's Login Response (status success, a TSIH, the target's
// first StatSN drawn from the seed). Then Messages SCSI commands per
// connection, round-robin, of Size bytes (a multiple of the 512-byte
// block, below 16 MiB), each in an iSER control-type message with the
// STag and base offset of a buffer of the queue pair (an R_Key whose
// low byte changes with every command): OpRead a READ, the header's
// Read STag valid, the target RDMA WRITEs the data there and SENDs the
// SCSI Response; OpWrite a WRITE, the Write STag valid, the target RDMA
// READs the data (the initiator answers with READ Responses), then the
// SCSI Response. The first connection's commands are READ(10) and
// WRITE(10) from LBA 0 on; the others' go to LBA 2^32 times their index
// on, in READ(16) and WRITE(16). CmdSN, ExpStatSN, StatSN, ExpCmdSN
// and MaxCmdSN (128 commands deep) go on as RFC 7143 numbers them. Every
// message with AckReq is acknowledged, as with NVMe/RDMA.
//
// # Timing
//
// Frames are laid out on one timeline at the line rate Rate, as a tap
// that merges both directions would record them: each frame occupies the
// wire for its length plus 4 bytes of FCS, 8 of preamble and 12 of
// inter-frame gap; with PacketRate set, each frame occupies 1/PacketRate
// seconds instead. Requests are sent back to back; a response, CNP or PFC
// frame becomes due Delay after the packet that caused it has left the
// wire and goes out as soon as the wire is free, ahead of further
// requests; a burst of READ responses goes out back to back once due.
// Responses and PFC frames go out in the order they became due, a burst
// holding those after it until its last packet; a CNP goes out when due
// whatever waits, between two packets of a burst if need be, in either
// direction (the responder's CNP for a CE-marked request, the
// requester's for a CE-marked READ response). The first frame is at Start
// (a fixed date by default, so captures are reproducible) plus the first
// phase's Gap.
//
// Every timestamp is exact or an error. The clock counts picoseconds in
// an int64 from the end of the phase before, so Delay and Gap are at most
// MaxDuration (about 53 days) and a phase may last about 106 days; the
// capture lies between FirstTime (1970) and LastTime (2262, the end of
// int64 nanoseconds since 1970). Config.Set and New refuse a time
// outside these limits, naming the option; a frame that would fall past
// them stops Next with an error wrapping ErrTimeRange. Write also refuses
// a time its format cannot hold: a pcap file ends in 2106 (its seconds
// are 32 bits wide), see CheckTime.
//
// # Errors
//
// Every error message starts with "roce: " and wraps one of two
// sentinels, which errors.Is matches: ErrConfig for a setting refused
// (Config.Set, ParseOp, a scenario's lines, New's checks),
// ErrTimeRange for a time the clock or the capture format cannot hold.
// The words that place an error come after the prefix: "roce: scenario
// line 3: size: bad size \"12q\"".
//
// # Determinism
//
// Every random choice (starting PSNs, R_Keys and addresses of remote
// buffers, payload bytes, CE and bad-ICRC draws) comes from Seed through
// math/rand/v2's PCG: the same scenario gives byte-identical output on
// every run and platform.
//
// # Scenario files
//
// A scenario is a text file of phases, one per line, written as the
// flags of cmd/rocegen without their dash (see ParseScenario). A line
// format was chosen over JSON because a phase is a flat list of the same
// settings the command line takes: the names, the value syntax and the
// defaults are shared with the flags, a phase that changes one setting is
// one short line, and comments are allowed. StreamScenario reads and
// checks one line when the phase before it ends, so a scenario of any
// length plays in the memory of one phase; CheckScenario checks a whole
// file the same way, to find a bad line before generating anything.
//
// # Allocation contract
//
// New, NewScenario and StreamScenario allocate the Generator, its buffers
// and its queue pairs; starting a phase allocates for the queue pairs it
// adds and, in StreamScenario, for reading its line. Next allocates
// nothing in steady state: every frame is built in
// one reused buffer, which Frame returns (valid until the next call to
// Next). The queue of pending responses grows, by doubling, only when a
// scenario keeps more of them waiting than ever before (64 at first).
// Write allocates its buffered writers once per call.
package gen
