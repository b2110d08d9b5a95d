// Package fuzz holds the native Go fuzz targets of this module's decoders,
// a truncation sweep over every frame of testdata, and the interop
// summary against tshark. It has no API: everything is in its test files.
//
// # Targets
//
//   - FuzzBTH: a transport packet (BTH through ICRC) through
//     ib.Packet.Decode, the BTH layer's DecodeFromBytes and
//     gopacket.NewPacket from LayerTypeBTH.
//   - FuzzETH: the first input byte selects one of the ten extended
//     transport headers (RDETH, DETH, XRCETH, RETH, AtomicETH,
//     AtomicAckETH, AETH, ImmDt, IETH, FETH); the rest goes to its
//     DecodeFromBytes and to gopacket.NewPacket.
//   - FuzzGRH and FuzzLRH: the GRH (DecodeFromBytes, Decode, Encode) and
//     the native InfiniBand LRH, each also as the first layer of
//     gopacket.NewPacket.
//   - FuzzFrameDecode: an Ethernet frame through roce.Frame.Decode,
//     roce.VerifyFrame, gopacket.NewPacket and the googlelayers.Layers parser,
//     which must agree.
//   - FuzzFrameRoundTrip: a frame Frame.Decode accepts through
//     Frame.AppendTo and Decode again: accepted, self-verifying, equal,
//     and a fixed point.
//   - FuzzFrameBuild: the input sets the fields of a roce.Frame (every
//     exported integer and bool in declaration order, the rest is the
//     payload), so values the wire cannot carry (a 25-bit DestQP, VLAN
//     PCP 9, a non-mapped GID on IPv4) reach Frame.AppendTo, which must
//     either refuse them with a *ib.FieldError or write a frame that
//     decodes back to them.
//   - FuzzReassembly: packets of several keys, opcodes and PSN steps
//     (resends, gaps, reordering, the wrap, cut packets) through
//     reassembly.Assembler with a small window: every message spans
//     consecutive PSNs and holds their payloads in order.
//   - FuzzStorage: the first byte selects a structure of nvmeof (command,
//     completion, the CM private data, Connect data) or iser (the iSER
//     header, the iSCSI basic header segment, the CM private data); the
//     rest goes to its Decode, which fails only when cut short, and what
//     it decodes encodes to a fixed point.
//   - FuzzSMBD: the same for the structures of smbd (the SMB Direct
//     negotiation and data transfer messages, the buffer descriptor, the
//     SMB2 header, READ and WRITE), whose decoders may also refuse a bad
//     length or protocol id; the input, cut in data transfer messages,
//     also goes through a bounded smbd.Reassembler.
//   - FuzzMACControl: the body of a MAC Control frame (pfc), alone and
//     behind an Ethernet header through gopacket.NewPacket.
//   - FuzzCNP: cnp.IsCNP, cnp.Decode, cnp.Check and cnp.Reply (with fuzzed
//     QP, DSCP, priority and AnyECN).
//   - FuzzICRCVerify: the first byte selects the encapsulation (0 is
//     invalid); ib.ComputeICRC, VerifyICRC and PutICRC over the rest, with
//     one fuzzed bit flipped.
//   - FuzzECNMark: ecn.MarkCE twice, SetFrameECN and FrameECN, in place.
//   - FuzzIPoIB: an IPoIB packet (ipoib.Header, ipoib.ARP, ipoib.Match)
//     and, behind a 40-byte link header, a link type 242 record through
//     ipoib.LinkHeader, gopacket.NewPacket and dump.Record.
//   - FuzzDCBX: an LLDPDU through dcbx.TLVs.Decode, each DCBX TLV
//     re-encoded, and gopacket's LLDP layer through googlelayers.DCBX.
//   - FuzzMAD: arbitrary bytes as a management datagram through a
//     DecodingLayerParser over mad.Layers and gopacket.NewPacket from
//     mad.LayerTypeMAD (the class table's dispatch to RMPP, CM, SA, SMP,
//     SMPDirected, PerfMgt or opaque data): they agree, fail only when cut
//     short or on a directed route of more than 63 hops, and the layers
//     re-serialize to the input.
//   - FuzzSMP: arbitrary bytes as an SMP, a directed-route SMP and a
//     PerfMgt MAD (mad.SMP, mad.SMPDirected, mad.PerfMgt: Decode of the
//     whole MAD, and gopacket.NewPacket through the MAD layer), and from
//     byte 64 as every SMP and PerfMgt attribute: no panic, the module's
//     sentinels, the decode paths agree and re-encode to the input.
//   - FuzzCM and FuzzSA: the first byte selects a CM message
//     (ClassPortInfo and the IP-CM private data included) or an SA record
//     (and the RMPP header); the rest goes to its Decode (round trip byte
//     for byte) and, read as field values past their bit widths, to its
//     AppendTo, which refuses with a *ib.FieldError or writes what decodes
//     back to the values.
//   - FuzzCaptureReader: arbitrary bytes as a capture through
//     capfile.NewSource and Source.Next, each frame through Record.Decode,
//     AppendJSON and AppendText (each frame also in one of tcpdump's
//     output formats in turn).
//   - FuzzSourceBytes: arbitrary bytes as a capture held in memory
//     (capfile.NewSourceBytes, the reading in place under
//     capfile.NewSourceMapped, rocedump's reader of a mapped file) and as a
//     stream (capfile.NewSource): the same frames, numbers, capture
//     information and errors, and the input not written to; each frame's
//     dump.Cells equal to every field's Get.
//   - FuzzDisplayFilter: an expression through dfilter.Compile: an error
//     is a *dfilter.SyntaxError inside the expression; a filter that
//     compiles matches the seed frames as its parenthesized copy does and
//     unlike its negation.
//
// # Properties
//
// Every target checks more than "no panic":
//
//   - Bounds: inputs are cut to a capacity equal to their length, so
//     reslicing past the end panics, and every slice a decoder returns
//     (Contents, Payload, Pad, Body, Raw) must lie inside the input; the
//     parts must add up to the input (header, extended headers, payload,
//     pad and ICRC; MAC Control fields and pad) and lengths read from the
//     wire (PayLen, PktLen, UDP and IP lengths) must not reach past it.
//   - Errors: every error must wrap one of the sentinels the decoder
//     documents (ib.ErrTruncated, ErrBadLength, ErrBadPad, ErrBadVersion,
//     ErrBadICRC, ErrUnsupported, ErrNotRoCE; cnp and ecn add their own;
//     capfile.ErrNotCapture). An *ib.Error inside a gopacket error layer must
//     wrap an ib sentinel too. gopacket recovers decoder panics into an
//     error layer; a recovered panic raised in this module's code fails
//     the target.
//   - Agreement: decoders of the same bytes agree (Packet.Decode and the
//     BTH layer; roce.Frame, NewPacket and the parser on the BTH;
//     VerifyFrame and Frame.VerifyICRC; cnp.IsCNP and cnp.Decode; GRH
//     Decode and DecodeFromBytes; MACControl with and without feedback).
//   - Builders: whatever Frame.AppendTo accepts decodes back to the values
//     it was given (FuzzFrameBuild); what it refuses gets a *ib.FieldError.
//   - Round trips: the gopacket layers re-serialize to the input byte for
//     byte (BTH with its extended headers and payload, each extended
//     header, GRH, LRH with its VCRC, MACControl); ib.Packet.AppendTo and
//     roce.Frame.AppendTo of a decoded value decode to an equal struct
//     (byte for byte when the pad was canonical), AppendTo changes only
//     the fields it derives, and a second decode and encode is a fixed
//     point.
//   - ICRC: a frame encoded by AppendTo, a packet after PutICRC and a CNP
//     built by Reply always verify their own ICRC; ComputeICRC equals the
//     ICRC computed by its definition (mask, eight 0xFF bytes, CRC-32); a
//     flipped bit breaks it exactly when it is not in a variant field.
//   - ECN: marking twice equals marking once; only the ECN bits and the
//     IPv4 header checksum change; a valid checksum and a valid ICRC stay
//     valid; a refused frame is left untouched.
//   - Captures: no frame is longer than the input, the JSON of each frame
//     is valid and one line, and reading a capture allocates in
//     proportion to its size (at most 8 bytes per input byte plus 1 MiB),
//     not to the lengths a hostile header claims.
//
// # Seeds
//
// The seed corpora are read from ../testdata when a target starts: every
// frame of every capture in testdata/captures and testdata/golden (pcapgo),
// the five worked ICRC vectors, and PAUSE, PFC, EPON GATE and CNP frames
// built by pfc and cnp. Each target gets them at its own layer boundary:
// whole Ethernet frames for the frame, cnp and ecn targets; the bytes from
// the GRH (RoCEv1) for FuzzGRH; the transport packet for FuzzBTH; the
// bytes from each extended header, with its selector byte, for FuzzETH; the
// packet after the ERF header of the native InfiniBand capture for FuzzLRH;
// the network header through the ICRC, with its encapsulation byte, for
// FuzzICRCVerify; the bytes after the Ethertype for FuzzMACControl; the
// MADs of the captures for FuzzMAD, FuzzCM and FuzzSA, and those to QP 0
// with SMP and PerfMgt MADs built by package mad for FuzzSMP; whole
// files, their first halves and a pcapng file for FuzzCaptureReader.
// When the targets run as tests every frame is a seed; while fuzzing
// (-fuzz), frames of the same shape (length, Ethertypes, decode result,
// opcode, pad, tags, ECN, UDP checksum and ICRC status) are seeded once,
// which keeps the baseline coverage pass short: the thousands of capture
// frames that differ only in field values add nothing to it.
//
// Inputs that once failed are kept in fuzz/testdata/fuzz/FuzzX/ (the
// directory Go reads relative to this package), so plain `go test ./...`
// runs them with the seeds as regression tests.
//
// # Other tests
//
// TestTruncationSweepAll cuts every frame of testdata at every byte offset
// and runs every decoder (Frame, VerifyFrame, NewPacket, the Layers parser,
// ib.Packet, pfc, cnp, ecn) over each cut: no panic, documented errors,
// ErrTruncated for a RoCE frame cut inside its headers (through the
// extended headers), a decode marked Truncated with the whole frame's
// headers and WireLen and an unchecked ICRC (ErrUnchecked) for a cut
// after its headers and before the end of its ICRC, and the whole frame's
// decode for a cut after it.
//
// TestInteropSummary runs tshark once over the golden frames, PAUSE and
// PFC frames and CNPs built by cnp.Reply, compares the fields that
// identify each frame with this module's decode and logs the counts. It
// skips when tshark is missing and fails under CI=true.
//
// # Running
//
// `go test ./fuzz` runs the seeds, the kept inputs and the tests. To fuzz
// one target (one at a time; -parallel bounds the worker processes):
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzBTH$' -fuzztime 5m -parallel 1
//
// A failing input is written to fuzz/testdata/fuzz/FuzzBTH/; rerun it with
// go test ./fuzz -run 'FuzzBTH/<name>'. CI (.ci/run) fuzzes every target
// for a fixed number of executions after the tests (a count rather than a
// duration: go1.26's fuzz coordinator can report a spurious "context
// deadline exceeded" when a duration runs out, golang/go#75804).
package fuzz
