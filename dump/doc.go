// Package dump prints captured Ethernet frames the way cmd/rocedump does:
// one short text line per frame, or one JSON object per frame (JSON
// Lines). It holds the decoded record, the field registry, the formats
// and the pipeline that runs them over a capture; reading and writing
// capture files is package capfile's. Other tools reuse it to decode
// the frames of a capfile.Source (a pcap or pcapng file, or a live
// capture by capfile.NewPacketSource, as package capture gives one)
// once (Record.Decode, or Scan over the whole capture) and format them
// (Record.AppendText, Record.AppendJSON) into a reused buffer without
// allocating, to write the frames kept to a capture file
// (WriteRecord), and to read several captures as one, merged by time
// (Merge). A Record holds the frame's data alone; the print settings
// are the formats' own (TextOptions, JSONOptions, or Options for Dump).
//
// # Text lines
//
// A RoCE frame prints as
//
//	15:04:05.000000 192.168.1.2:49506 > 192.168.1.3:4791 RoCEv2 RC RDMA WRITE Only qp 0x0000a0 psn 4660 [A] reth va 0x00007f0000001000 rkey 0x00001234 dmalen 64 payload 64 ecn ECT(0) icrc good
//
// that is: the capture time, VLAN tags if any, the source and destination
// (IP address and UDP port for RoCEv2, GIDs for RoCEv1), the
// encapsulation, the opcode, the destination QP, the PSN, the BTH flags
// that are set (SE, M, A, FECN, BECN), the extended headers in brief, the
// payload length without pad, the ECN codepoint when it is not Not-ECT,
// and whether the ICRC is good. A frame that is not RoCE gets a short
// line ("not RoCE: IPv4 UDP 10.0.0.1:12325 > 10.0.0.2:12346 len 62"), a
// malformed RoCE frame a line with the decoder's error, and a frame of a
// link type not decoded a line saying so.
//
// Management datagrams: after the payload length of a UD SEND Only to
// QP 0 or QP 1, ": " and the MAD (package mad): a CM message with its key
// fields, for a REQ the RDMA-CM addresses and port space, for the other
// classes the class, method, attribute and transaction ID:
//
//	... UD SEND Only qp 0x000001 psn 65 [A] deth qkey 0x80010000 srcqp 0x000001 payload 256: CM REQ comm 0x34cfb552 qpn 0x000011 psn 0xe1a47d 192.168.65.5 > 192.168.65.4:7471 (RDMA-CM TCP port space) icrc good
//	... UD SEND Only qp 0x000000 psn 489 deth qkey 0x00000000 srcqp 0x000000 payload 256: SMP-DR Get Attribute(0x0020) tid 0x0001509c000125c8 icrc good
//
// Congestion frames:
//
//	02:11:22:33:44:55 > 01:80:c2:00:00:01 PFC pause [3 7] c3 65535q=335.54us c7 4660q=23.86us resume [1]
//	02:11:22:33:44:55 > 01:80:c2:00:00:01 PAUSE 65535q=335.54us
//	02:11:22:33:44:55 > 01:80:c2:00:00:01 MAC Control GATE len 60
//	192.168.1.2:49506 > 192.168.1.3:4791 RoCEv2 CNP qp 0x000034 becn icrc good
//
// A PFC line lists the priorities paused (XOFF, a time not zero) with
// each one's quanta and their length at TextOptions.Speed (100 Gb/s unless
// set), then the priorities resumed (XON, a time of zero); priorities
// not enabled are not shown. A CNP line gives the QP of the reaction
// point and BECN, and "nonconforming:" with cnp.Check's reason when the
// CNP breaks a rule of IBTA Annex A17.9.3.
//
// LLDP frames with IEEE 802.1Qaz DCBX TLVs (package dcbx) print the
// MAC addresses, "LLDP DCBX" and each TLV, separated by semicolons: PFC
// Configuration (the PFC-enabled priorities, the PFC cap, willing, MBC),
// ETS Configuration (the number of traffic classes, willing, CBS, then
// each priority's traffic class, each class's bandwidth share in percent
// and its TSA), ETS Recommendation (ETS-REC, the same tables), Application
// Priority (each entry's selector, protocol and priority); a TLV that does
// not decode ends the line with "malformed:" and the error. LLDP without
// DCBX stays "not RoCE: LLDP ...".
//
//	02:00:00:00:00:01 > 01:80:c2:00:00:0e LLDP DCBX PFC enabled [3] cap 8; ETS maxtcs 8 prio-tc [0 0 0 3 0 0 0 0] bw [50 0 0 50 0 0 0 0] tsa [ets ets ets ets ets ets ets ets]; APP [udp 4791 prio 3, dscp 26 prio 3]
//
// Native InfiniBand packets (ERF type 21) print the LIDs, service level
// and virtual lane, the GIDs when there is a GRH, then "IB" and the
// transport as for RoCE, ICRC included:
//
//	19:48:08.680423 lid 0x0004 > lid 0x0001 sl 0 vl 0 IB RC SEND Only qp 0xfc0407 psn 13896277 [M,A] payload 88 IPoIB IPv4 ICMP 10.0.1.34 > 10.0.0.58 icrc good
//
// A payload that carries IPoIB (by ipoib.Match: a SEND that starts a
// message, not to QP 0 or 1, reserved bits zero, Type IPv4, IPv6 or ARP)
// adds, after its length, "IPoIB" and what it carries: the IP version,
// protocol and addresses, with the ports of UDP and TCP, as for a frame
// that is not RoCE; for ARP the question or the answer:
//
//	... IB UD SEND Only qp 0xffffff psn 8367 [M] deth qkey 0x00000b1b srcqp 0x000405 payload 60 IPoIB ARP who-has 10.0.0.58 tell 10.0.1.34 icrc good
//	... IB UD SEND Only qp 0x000405 psn 869308 [M] deth qkey 0x00000b1b srcqp 0x000404 payload 60 IPoIB ARP 10.0.0.58 is-at qpn 0x000404 gid fe80::2:c902:20:b4dd icrc good
//
// A record of link type 242 (IPoIB) prints its link header, then the
// same IPoIB part and the length: for a received packet the GIDs of its
// GRH (when the IP version is 6) and the sender's QP, for a sent one the
// destination's QP and GID:
//
//	00:00:00.000000 fe80::2:c902:24:f636 > ff12:401b:ffff::ffff:ffff sqpn 0x000405 IPoIB ARP who-has 10.0.0.58 tell 10.0.1.34 len 100
//	00:00:00.000000 to qpn 0xfc0407 gid fe80::1 IPoIB IPv4 ICMP 10.0.1.34 > 10.0.0.58 len 128
//
// Options.Text (TextOptions.Format) gives the lines tcpdump's output
// flags give (TextFormat): the time as -t to -ttttt print it, with
// --nano's nine digits; the bytes in hex, or hex and ASCII, after each
// line (-x, -xx, -X, -XX); the link-level header first (-e); shorter
// transport lines (-q). The delta formats count from TextOptions.TimeRef,
// which Dump keeps over the frames it prints, in capture order, whatever
// Options.Workers, and TextOptions.Follow over the frames Scan hands on.
//
// # Time
//
// A capture time is a time.Time, exact to the nanosecond from
// capfile.MinTime to capfile.MaxTime (years -292277020688 to
// 292277024627), as capfile.Source reads it: pcap's 32-bit seconds,
// pcapng's 64-bit counts at any if_tsresol (10^-n or 2^-n seconds; finer
// than a nanosecond cut to it, towards the past) with its if_tsoffset.
// A pcapng timestamp outside that span is an unreadable record
// (capfile.ReadError) naming its frame. Every output writes every time of the
// span exactly: the text formats (a time before 1970 in -tt as the same
// number as JSON, -1.5 for 0.5 s after -2 s, where tshark writes the
// seconds and then the fraction, -2.500000000; deltas of up to 2^64
// seconds), JSON's frame.time_epoch, -v, WriteRecord (capfile.Writer:
// pcapng with an if_tsoffset past 2554 and before 1970; pcap refuses
// what it cannot hold, capfile.ErrTimeRange) and Merge's order. A frame stamped exactly
// 0001-01-01T00:00:00Z reads as one without a timestamp (a Simple Packet
// Block's zero time.Time).
//
// # Errors
//
// Every error message starts with "roce: " and wraps a sentinel that
// errors.Is matches: ErrBadArgument (ParseQP, ParseOpcode, ParseULP,
// ParseOpcodes), and the errors of reading and writing the capture,
// which are capfile's and come through Scan, Dump, Merge and
// WriteRecord as they are: a capfile.ReadError (wrapping
// capfile.ErrUnreadable or io.ErrUnexpectedEOF: a record that cannot be
// read, a capture cut short), capfile.ErrShrank for a mapped file cut
// while read, and for WriteRecord capfile.ErrLinkTypes,
// capfile.ErrTimeRange and capfile.ErrTooLong. A frame that does not
// decode is no error of Scan's: its Record holds the decoder's error,
// which matches the codecs' sentinels.
//
// # Link types
//
// Ethernet (1); Linux cooked captures v1 (113) and v2 (276), as
// `tcpdump -i any` writes them: the cooked header's protocol field is the
// Ethertype and its address the source MAC, and the frame decodes as the
// Ethernet frame it stands for (destination MAC unknown, printed as
// zeros); ERF (197) records of type 21 (InfiniBand) and 2 (Ethernet),
// with extension headers skipped and the ERF header's nanosecond
// timestamp; IPoIB (242), as tshark 4.0 reads it: a 40-byte link header
// (ipoib.LinkHeader) and the 4-byte IPoIB header, after which the packet
// decodes, like raw IP, as the Ethernet frame it stands for (MAC
// addresses unknown), so its JSON object has the IP fields, then the ipoib
// keys of its link header. A native InfiniBand packet whose payload is
// IPoIB has the same keys for what IPoIB carries (the ip or ipv6, udp or
// tcp, and arp keys, as tshark 4.0 shows them), written before the LRH's
// as the field table orders them. The link types' numbers are
// capfile's (capfile.LinkTypeEthernet, ...), read in full (16 bits)
// from the file headers.
//
// # JSON Lines
//
// With JSON every frame of the capture, RoCE or not, becomes one object
// on one line, in capture order. Keys are Wireshark display-filter field
// names, so that `tshark -T json` output and this one can be compared and
// queried alike; the few fields Wireshark lacks are named in the same
// style. A key is present only when the frame has the field. Integers are
// JSON numbers, except the 64-bit fields that can exceed 2^53 (virtual
// addresses and atomic data; in management datagrams GUIDs, transaction
// IDs, service IDs, SM_Key and ComponentMask), which are strings holding
// the exact value as tshark -T json writes it: "0x" and 16 hex digits for
// the virtual addresses and the MAD fields (tshark's BASE_HEX), decimal
// digits for the atomic data. A
// JSON number above 2^53 reads back wrong in JavaScript and jq, which
// hold numbers as 64-bit floats (436754256319763704 becomes
// ...700); parse these strings as unsigned 64-bit integers. Flags are JSON
// booleans, addresses are text.
//
// The keys come in one order: the frame's (frame.number, frame.file
// when Options.File is set, frame.time_epoch, frame.len, frame.cap_len),
// the link layer's (erf, sll, eth, the VLAN tags outer first), IP and
// UDP or TCP (or ARP), the RoCEv1 GRH, MAC Control, the native LRH, the
// BTH, the extended transport headers the opcode carries in wire order,
// the packet's own (immediate data, IETH, payload length, ICRC, VCRC),
// a management datagram's (a MAD in a UD SEND Only to QP 0 or 1: the
// MAD, RMPP and SA headers, then the CM message, SMP or PerfMgt
// attribute or SA record; of a MAD the capture cut, the fields it kept:
// see Frames cut by the capture; an SA MAD of several records has the
// keys of its first, as tshark 4.0 shows only that one, and
// infiniband.sa.records, how many it holds), IPoIB's, DCBX's, and last
// _error for a frame that does not decode. The key reference,
// docs/keys.md in the repository, lists every key with its type and
// what it holds, by protocol; go generate ./dump writes it from the
// field table, and a test fails when it is out of date.
//
// # Frames cut by the capture
//
// Captures at 100 Gb/s are usually taken with a small snap length
// (tcpdump -s, editcap -s; switch mirrors and packet brokers often cut
// at 64 or 128 bytes) that keeps the headers and drops most of the
// payload. A RoCE frame (or native InfiniBand packet) cut short this way
// still decodes, as RoCE (InfiniBand), when its BTH was captured,
// wherever the cut falls after it. The rule: every header the capture
// kept whole is there; of the header the cut falls in (an extended
// header, a MAD, IPoIB), every field it kept whole is there and the
// others are absent; nothing after the cut is. A field not captured has
// no JSON key, is absent to display filters (-Y) and NULL in Parquet;
// verbose text has the fields there. The text line shows the fields of
// a cut extended header that are there and tcpdump's mark of the cut,
// "reth va 0x000055cd8441c000 rkey 0x00003716 [|reth]" (a cut MAD: its
// class, method, attribute and transaction ID when its 24-byte header
// is there, then "[|mad]"). The frame ends with "icrc unchecked", the
// JSON object has infiniband.invariant.crc.status "unchecked" and no
// infiniband.invariant.crc, and Record.ICRCUnchecked is set
// (Stats.Truncated counts these frames, apart from Stats.BadICRC).
// frame.len is the length on the wire, frame.cap_len the bytes captured.
// The payload length printed, in text and in infiniband.payload.len, is
// the one the headers declare (the length on the wire, like frame.len),
// not the bytes captured: tshark shows the captured bytes of the
// payload, which are frame.cap_len less the headers. Only a frame cut
// before the end of its BTH, or one shorter than its headers say
// although the capture kept all of it, is malformed.
//
// tshark 4.0 shows less of a cut frame: an extended header only when it
// is whole, and no MAD or IPoIB unless the whole packet, ICRC included,
// was captured; the tests check every field we show of a cut frame
// against where tshark reads it in the whole frame, and against tshark
// on the cut copies. Three details of the rule: an extended header is
// there (infiniband.reth, ...) when its first field is; a text field (an
// SMP NodeString) is there when its text was captured through its
// terminating NUL; a field whose structure a later byte validates is
// left out until that byte is there (the fields of a directed-route SMP
// until its hop count, of IP-CM private data until its IP version). A
// MAD's fields are found there by decoding the MAD twice, the bytes not
// captured once all zeros and once all ones: a field is there when both
// give it the same value. IPoIB is there when its 4-byte header is.
//
// # The field table
//
// The field table is the field registry, and the only place a field is
// named. Fields lists its rows: each key's name, its type (FieldType:
// unsigned of so many bits, bool, string, IPv4, IPv6, MAC, 64-bit,
// bytes, time), the Wireshark name it also answers to (vlan.inner.id is
// a second vlan.id, ip.src an ip.addr), a getter over *Record that
// allocates nothing and a one-line description (Field.Doc); Protocols
// lists the protocol names a display filter tests for presence (vlan,
// ieee8021ad, ip, infiniband.reth, macc ...). JSON, display filters
// (package dfilter), the Parquet columns (package parquetrows),
// Record.AppendVerbose (rocedump -v) and the key reference
// (WriteKeyReference, docs/keys.md) all take their names from it.
// AppendJSON writes the common headers by hand, which is several times
// faster than writing them from the table (BenchmarkJSONByTable), but
// names their keys by the index their rows set, never by the key;
// TestFieldTableIsJSON checks on every frame of every test capture that
// the table gives exactly the keys and values AppendJSON writes, and
// TestKeysNamedOnce that no key is written in two files.
//
// To add a field: add its row, with its description, to the field table
// (fieldtable.go, or the protocol's *_fields.go) at its place in the key
// order; the constructors (fBTH, fETH, fIPv4, fMAD, numeric ...) cover
// most headers, and the JSON of the MAD, IPoIB, DCBX and ARP keys comes
// from their rows. A field of the headers AppendJSON writes by hand also
// needs its line there. Then run go generate ./dump for docs/keys.md,
// and add a Protocol row when it is a new header. TestFieldTableIsJSON
// fails until the row and the JSON agree, and fails for a row no test
// frame has.
//
// VLAN tags come outer first, up to eight of TPID 0x8100, 0x88a8 and
// 0x9100 in any order (a frame of more is malformed: roce.MaxVLANs).
// Each is named as Wireshark names its kind, vlan (0x8100, 0x9100) or
// ieee8021ad (0x88a8); the second tag of a kind gets "inner." in its
// keys, the third "inner2.", the eighth "inner7.", so that no key repeats
// (display filters match them all by Wireshark's name, vlan.id). tshark
// 4.0 shows two S-tags in a row as one header, their IDs
// ieee8021ad.svid and ieee8021ad.cvid: here they are ieee8021ad.id and
// ieee8021ad.inner.id.
//
// A frame that is not RoCE has the eth, vlan, ip or ipv6 and udp or tcp
// keys (or the arp keys) that can be read from its headers (ports only
// when the datagram is not fragmented; the ARP addresses only when the
// packet holds them all) and no infiniband key. A MAC Control frame has the eth
// and macc keys. Frames of a cooked capture have the sll keys instead of
// the eth keys; native InfiniBand frames the lrh keys instead. A CNP has
// every BTH key and the ICRC status like any RoCE frame. A malformed RoCE frame has the
// same keys plus _error. A frame of another link type has the four frame
// keys and _error. For RoCEv2 the IP and UDP keys describe the headers
// the frame carries; RoCEv1 frames have the infiniband.grh keys instead.
package dump
