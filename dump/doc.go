// Package dump prints captured Ethernet frames the way cmd/rocedump does:
// one short text line per frame, or one JSON object per frame (JSON
// Lines). Other tools reuse it to read pcap and pcapng files (Source),
// or a live capture (NewPacketSource, as package capture gives one),
// decode a frame once (Record.Decode) and format it (Record.AppendText,
// Record.AppendJSON) into a reused buffer without allocating, and to
// read several captures as one, merged by time (Merge).
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
// each one's quanta and their length at Record.Speed (100 Gb/s unless
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
// Options.Text (Record.Text) gives the lines tcpdump's output flags give
// (TextFormat): the time as -t to -ttttt print it, with --nano's nine
// digits; the bytes in hex, or hex and ASCII, after each line (-x, -xx,
// -X, -XX); the link-level header first (-e); shorter transport lines
// (-q). The delta formats count from Record.TimeRef, which Scan and Dump
// keep over the frames they hand on, in capture order, whatever
// Options.Workers.
//
// # Time
//
// A capture time is a time.Time, exact to the nanosecond from MinTime to
// MaxTime (years -292277020688 to 292277024627): pcap's 32-bit seconds,
// pcapng's 64-bit counts at any if_tsresol (10^-n or 2^-n seconds; finer
// than a nanosecond cut to it, towards the past) with its if_tsoffset.
// A pcapng timestamp outside that span is an unreadable record
// (ReadError) naming its frame. Every output writes every time of the
// span exactly: the text formats (a time before 1970 in -tt as the same
// number as JSON, -1.5 for 0.5 s after -2 s, where tshark writes the
// seconds and then the fraction, -2.500000000; deltas of up to 2^64
// seconds), JSON's frame.time_epoch, -v, Writer (pcapng with an
// if_tsoffset past 2554 and before 1970; pcap refuses what it cannot
// hold, ErrTimeRange) and Merge's order. A frame stamped exactly
// 0001-01-01T00:00:00Z reads as one without a timestamp (a Simple Packet
// Block's zero time.Time).
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
// as the key table orders them. pcap and pcapng link types are read in
// full (16 bits) from the file headers.
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
// booleans, addresses are text. Keys always come in this order:
//
//	frame.number                    number  position in the capture, from 1
//	frame.file                      string  the capture's name, when Options.File is set (rocedump with several captures; not a Wireshark field)
//	frame.time_epoch                number  capture time, seconds since 1970 UTC, 9 decimals (absent for a pcapng Simple Packet Block, which has none)
//	frame.len                       number  length of the frame on the wire
//	frame.cap_len                   number  bytes captured
//	eth.dst                         string  destination MAC, aa:bb:cc:dd:ee:ff (absent for cooked and raw IP link types)
//	eth.src                         string  source MAC
//	eth.type                        number  the Ethertype after the MACs (0x8100 when tagged)
//	ieee8021ad.priority             number  802.1ad S-tag (TPID 0x88a8): PCP, 0-7
//	ieee8021ad.dei                  bool    S-tag: drop eligible
//	ieee8021ad.id                   number  S-tag: VLAN ID
//	ieee8021ad.inner.priority       number  a second S-tag (not a Wireshark name): PCP
//	ieee8021ad.inner.dei            bool    second S-tag: drop eligible
//	ieee8021ad.inner.id             number  second S-tag: VLAN ID
//	ieee8021ad.innerN.priority      number  the S-tag after N others (N 2 to 7; not a Wireshark name): PCP
//	ieee8021ad.innerN.dei           bool    that S-tag: drop eligible
//	ieee8021ad.innerN.id            number  that S-tag: VLAN ID
//	vlan.priority                   number  802.1Q tag (TPID 0x8100, or 0x9100 as Wireshark reads it): PCP, 0-7
//	vlan.dei                        bool    802.1Q tag: drop eligible
//	vlan.id                         number  802.1Q tag: VLAN ID
//	vlan.inner.priority             number  a second 802.1Q tag (not a Wireshark name): PCP
//	vlan.inner.dei                  bool    second 802.1Q tag: drop eligible
//	vlan.inner.id                   number  second 802.1Q tag: VLAN ID
//	vlan.innerN.priority            number  the 802.1Q tag after N others (N 2 to 7; not a Wireshark name): PCP
//	vlan.innerN.dei                 bool    that 802.1Q tag: drop eligible
//	vlan.innerN.id                  number  that 802.1Q tag: VLAN ID
//	ip.src                          string  IPv4 source address
//	ip.dst                          string  IPv4 destination address
//	ip.dsfield.dscp                 number  IPv4 DSCP, 0-63
//	ip.dsfield.ecn                  number  IPv4 ECN, 0-3 (1 ECT(1), 2 ECT(0), 3 CE)
//	ip.ttl                          number  IPv4 TTL
//	ip.id                           number  IPv4 identification
//	ip.proto                        number  IPv4 protocol (17 UDP)
//	ipv6.src                        string  IPv6 source address
//	ipv6.dst                        string  IPv6 destination address
//	ipv6.tclass.dscp                number  IPv6 DSCP, 0-63
//	ipv6.tclass.ecn                 number  IPv6 ECN, 0-3
//	ipv6.flow                       number  IPv6 flow label
//	ipv6.hlim                       number  IPv6 hop limit
//	ipv6.nxt                        number  IPv6 next header (17 UDP)
//	udp.srcport                     number  UDP source port
//	udp.dstport                     number  UDP destination port (4791 for RoCEv2)
//	tcp.srcport                     number  TCP source port (frames that are not RoCE)
//	tcp.dstport                     number  TCP destination port
//	arp.hw.type                     number  ARP: hardware type (1 Ethernet, 32 InfiniBand); of an Ethernet frame or carried by IPoIB
//	arp.proto.type                  number  ARP: protocol type, an Ethertype (0x0800)
//	arp.hw.size                     number  ARP: hardware address size (6, 20 for IPoIB; absent for ATM ARP, as the addresses)
//	arp.proto.size                  number  ARP: protocol address size
//	arp.opcode                      number  ARP: operation (1 request, 2 reply)
//	arp.src.hw_mac                  string  ARP: sender's MAC, for hardware type 1 or 6 and size 6
//	arp.src.hw                      string  ARP: sender's hardware address of any other form, lowercase hex digits (IPoIB: 20 bytes, flags, QPN, GID)
//	arp.src.proto_ipv4              string  ARP: sender's IPv4 address, for protocol 0x0800 and size 4
//	arp.src.proto                   string  ARP: sender's protocol address of any other form, lowercase hex digits
//	arp.dst.hw_mac                  string  ARP: target's MAC (as arp.src.hw_mac)
//	arp.dst.hw                      string  ARP: target's hardware address
//	arp.dst.proto_ipv4              string  ARP: target's IPv4 address
//	arp.dst.proto                   string  ARP: target's protocol address
//	infiniband.grh.ipver            number  RoCEv1 GRH: IP version, 6
//	infiniband.grh.tclass           number  RoCEv1 GRH: traffic class
//	infiniband.grh.flowlabel        number  RoCEv1 GRH: flow label
//	infiniband.grh.paylen           number  RoCEv1 GRH: payload length
//	infiniband.grh.nxthdr           number  RoCEv1 GRH: next header, 27 (BTH)
//	infiniband.grh.hoplmt           number  RoCEv1 GRH: hop limit
//	infiniband.grh.sgid             string  RoCEv1 GRH: source GID, as an IPv6 address
//	infiniband.grh.dgid             string  RoCEv1 GRH: destination GID
//	erf.types.type                  number  ERF record type (21 InfiniBand), ERF captures only
//	sll.etype                       number  SLL2: protocol (Ethertype), first
//	sll.ifindex                     number  SLL2: interface index
//	sll.hatype                      number  SLL, SLL2: ARPHRD_ type (1 Ethernet)
//	sll.pkttype                     number  SLL, SLL2: packet type (0 to us ... 4 sent by us)
//	sll.halen                       number  SLL, SLL2: link-layer address length
//	sll.src.eth                     string  SLL, SLL2: source MAC, when the address is 6 bytes
//	sll.etype                       number  SLL: protocol (Ethertype), last
//	macc.opcode                     number  MAC Control opcode (1 PAUSE, 0x101 PFC)
//	macc.pause_time                 number  PAUSE: pause time in quanta
//	macc.cbfc.enbv                  number  PFC: priority-enable vector, 16 bits
//	macc.cbfc.enbv.c0 ... .c7       bool    PFC: priority n enabled (eight keys)
//	macc.cbfc.pause_time.c0 ... .c7 number  PFC: time of priority n in quanta, enabled or not (eight keys)
//	infiniband.lrh.vl               number  native IB LRH: virtual lane
//	infiniband.lrh.lver             number  LRH: link version
//	infiniband.lrh.sl               number  LRH: service level
//	infiniband.lrh.lnh              number  LRH: link next header (2 BTH, 3 GRH)
//	infiniband.lrh.dlid             number  LRH: destination LID
//	infiniband.lrh.pktlen           number  LRH: packet length in 4-byte words
//	infiniband.lrh.slid             number  LRH: source LID
//	infiniband.bth.opcode           number  BTH opcode (10 RC RDMA WRITE Only, 129 CNP, ...)
//	infiniband.bth.se               bool    solicited event
//	infiniband.bth.m                bool    migration state (MigReq)
//	infiniband.bth.padcnt           number  pad bytes, 0-3
//	infiniband.bth.tver             number  transport header version
//	infiniband.bth.p_key            number  partition key
//	infiniband.bth.fecn             bool    FECN (not a Wireshark field)
//	infiniband.bth.becn             bool    BECN (not a Wireshark field)
//	infiniband.bth.destqp           number  destination QP
//	infiniband.bth.a                bool    acknowledge request
//	infiniband.bth.psn              number  packet sequence number
//
// then the extended headers the opcode carries, in wire order, each with
// its keys in this order:
//
//	infiniband.rdeth.eecnxt         number  RDETH: EE context
//	infiniband.deth.q_key           number  DETH: Q_Key
//	infiniband.deth.srcqp           number  DETH: source QP
//	infiniband.xrceth.xrcsrq        number  XRCETH: XRC SRQ (not a Wireshark field)
//	infiniband.reth.va              string  RETH: virtual address, "0x" and 16 hex digits
//	infiniband.reth.r_key           number  RETH: R_Key
//	infiniband.reth.dmalen          number  RETH: DMA length
//	infiniband.feth.sel             number  FETH: selectivity level (not a Wireshark field)
//	infiniband.feth.plt             number  FETH: placement type (not a Wireshark field)
//	infiniband.atomiceth.va         string  AtomicETH: virtual address, "0x" and 16 hex digits (not a Wireshark field)
//	infiniband.atomiceth.r_key      number  AtomicETH: R_Key (not a Wireshark field)
//	infiniband.atomiceth.swapdt     string  AtomicETH: swap or add data, decimal
//	infiniband.atomiceth.cmpdt      string  AtomicETH: compare data, decimal
//	infiniband.aeth.syndrome        number  AETH: syndrome
//	infiniband.aeth.msn             number  AETH: message sequence number
//	infiniband.atomicacketh.origremdt string AtomicAckETH: original remote data, decimal
//	infiniband.immdt                string  immediate data, 8 lowercase hex digits in wire order
//	infiniband.ieth                 string  IETH: the R_Key to invalidate, 8 lowercase hex digits
//
// and last
//
//	infiniband.payload.len          number  payload bytes after the headers, without pad, on the wire (not a Wireshark field)
//	infiniband.invariant.crc        number  the four ICRC bytes read as a big-endian number, as Wireshark shows them;
//	                                        absent when the capture cut the frame before them
//	infiniband.invariant.crc.status string  "good" or "bad": the ICRC recomputed over the frame; "unchecked"
//	                                        when the capture cut the frame short (not a Wireshark field)
//	infiniband.variant.crc          number  native IB: the VCRC, when captured
//	_cnp_error                      string  a CNP that breaks a rule of Annex A17.9.3: cnp.Check's reason
//
// then, for a management datagram (a MAD in a UD SEND Only to QP 0 or 1;
// of a MAD the capture cut, the fields it kept: see Frames cut by the
// capture), tshark 4.0's names, and ours,
// in the same style, for the fields tshark 4.0 lacks. An SA MAD of
// several records (a GetTable response) has the keys of its first
// record, as tshark 4.0 shows only that one, and infiniband.sa.records,
// how many it holds:
//
//	infiniband.mad.baseversion      number  MAD header: base version, 1
//	infiniband.mad.mgmtclass        number  management class (7 CM, 3 SA, 1 and 0x81 SMP, 4 PerfMgt)
//	infiniband.mad.classversion     number  class version
//	infiniband.mad.method           number  method, with the response bit (0x81 GetResp)
//	infiniband.mad.status           number  status
//	infiniband.mad.classspecific    number  class-specific field
//	infiniband.mad.transactionid    string  transaction ID, "0x" and 16 hex digits
//	infiniband.mad.attributeid      number  attribute ID (0x10 CM REQ, 0x35 SA PathRecord, ...)
//	infiniband.mad.attributemodifier number attribute modifier
//	infiniband.rmpp.rmppversion     number  RMPP header (SA): version, 0 when RMPP is not in use
//	infiniband.rmpp.rmpptype        number  RMPP: type (1 DATA, 2 ACK, 3 STOP, 4 ABORT)
//	infiniband.rmpp.rresptime       number  RMPP: response time, 5 bits (tshark 4.0 reads 4 bits)
//	infiniband.rmpp.rmppflags       number  RMPP: flags, 3 bits: 1 active, 2 first, 4 last (tshark 4.0 reads 4 bits)
//	infiniband.rmpp.rmppstatus      number  RMPP: status
//	infiniband.rmpp.data1           number  RMPP: segment number (DATA, ACK)
//	infiniband.rmpp.data2           number  RMPP: payload length (DATA), new window last (ACK)
//	infiniband.sa.smkey             string  SA header: SM_Key, "0x" and 16 hex digits
//	infiniband.sa.attributeoffset   number  SA: record size in 8-byte words (0: one record)
//	infiniband.sa.componentmask     string  SA: component mask, "0x" and 16 hex digits
//	infiniband.pathrecord.dgid      string  SA PathRecord (the MAD's first record): destination GID
//	infiniband.pathrecord.sgid      string  PathRecord: source GID
//	infiniband.pathrecord.dlid      number  PathRecord: destination LID
//	infiniband.pathrecord.slid      number  PathRecord: source LID
//	infiniband.pathrecord.rawtraffic number PathRecord: raw traffic, 0 or 1
//	infiniband.pathrecord.flowlabel number  PathRecord: flow label
//	infiniband.pathrecord.hoplimit  number  PathRecord: hop limit
//	infiniband.pathrecord.tclass    number  PathRecord: traffic class
//	infiniband.pathrecord.reversible number PathRecord: reversible, 0 or 1
//	infiniband.pathrecord.numbpath  number  PathRecord: number of paths
//	infiniband.pathrecord.p_key     number  PathRecord: partition key
//	infiniband.pathrecord.sl        number  PathRecord: service level
//	infiniband.pathrecord.mtuselector number PathRecord: MTU selector
//	infiniband.pathrecord.mtu       number  PathRecord: MTU code
//	infiniband.pathrecord.rateselector number PathRecord: rate selector
//	infiniband.pathrecord.rate      number  PathRecord: rate code
//	infiniband.pathrecord.packetlifetimeselector number PathRecord: packet lifetime selector
//	infiniband.pathrecord.packetlifetime number PathRecord: packet lifetime
//	infiniband.pathrecord.preference number PathRecord: preference
//	infiniband.cm.req               number  CM REQ: local communication ID
//	infiniband.cm.req.serviceid     string  REQ: service ID, "0x" and 16 hex digits
//	infiniband.cm.req.serviceid.protocol number REQ: RDMA-CM port space's protocol byte (6 TCP, 0x11 UDP, 0x3f IPoIB; RDMA-CM service IDs only)
//	infiniband.cm.req.serviceid.dport number REQ: RDMA-CM destination port
//	infiniband.cm.req.localcaguid   string  REQ: local CA GUID, "0x" and 16 hex digits
//	infiniband.cm.req.localqkey     number  REQ: local Q_Key
//	infiniband.cm.req.localqpn      number  REQ: local QPN
//	infiniband.cm.req.responderres  number  REQ: responder resources
//	infiniband.cm.req.localeecn     number  REQ: local EECN
//	infiniband.cm.req.initdepth     number  REQ: initiator depth
//	infiniband.cm.req.remoteeecn    number  REQ: remote EECN
//	infiniband.cm.req.remoteresptout number REQ: remote CM response timeout
//	infiniband.cm.req.transpsvctype number  REQ: transport service type (0 RC, 1 UC, 2 RD)
//	infiniband.cm.req.e2eflowctrl   number  REQ: end-to-end flow control, 0 or 1
//	infiniband.cm.req.startpsn      number  REQ: starting PSN
//	infiniband.cm.req.localresptout number  REQ: local CM response timeout
//	infiniband.cm.req.retrcount     number  REQ: retry count
//	infiniband.cm.req.pkey          number  REQ: partition key
//	infiniband.cm.req.pppmtu        number  REQ: path packet payload MTU code
//	infiniband.cm.req.rdcexist      number  REQ: RDC exists, 0 or 1
//	infiniband.cm.req.rnrretrcount  number  REQ: RNR retry count
//	infiniband.cm.req.maxcmretr     number  REQ: max CM retries
//	infiniband.cm.req.srq           number  REQ: SRQ, 0 or 1
//	infiniband.cm.req.ext_transport number  REQ: extended transport type (1 XRC)
//	infiniband.cm.req.prim_locallid number  REQ primary path: local port LID
//	infiniband.cm.req.prim_remotelid number primary path: remote port LID
//	infiniband.cm.req.prim_localgid string  primary path: local port GID (not in RoCEv2 over IPv4)
//	infiniband.cm.req.prim_localgid_ipv4 string primary path: local port GID's IPv4 address (RoCEv2 over IPv4)
//	infiniband.cm.req.prim_remotegid string primary path: remote port GID (not in RoCEv2 over IPv4)
//	infiniband.cm.req.prim_remotegid_ipv4 string primary path: remote port GID's IPv4 address (RoCEv2 over IPv4)
//	infiniband.cm.req.prim_flowlabel number primary path: flow label, 20 bits (tshark 4.0 shows its top 12)
//	infiniband.cm.req.prim_pktrate  number  primary path: packet rate (tshark 4.0 reads the wrong byte)
//	infiniband.cm.req.prim_tfcclass number  primary path: traffic class
//	infiniband.cm.req.prim_hoplim   number  primary path: hop limit
//	infiniband.cm.req.prim_sl       number  primary path: service level
//	infiniband.cm.req.prim_subnetlocal number primary path: subnet local, 0 or 1
//	infiniband.cm.req.prim_localacktout number primary path: local ACK timeout
//	infiniband.cm.req.alt_locallid  number  REQ alternate path: local port LID
//	infiniband.cm.req.alt_remotelid number  alternate path: remote port LID
//	infiniband.cm.req.alt_localgid  string  alternate path: local port GID, 32 lowercase hex digits (bytes, as tshark 4.0 shows it), zeros when there is no alternate path
//	infiniband.cm.req.alt_remotegid string  alternate path: remote port GID, 32 lowercase hex digits
//	infiniband.cm.req.alt_flowlabel number  alternate path: flow label (as for the primary path)
//	infiniband.cm.req.alt_pktrate   number  alternate path: packet rate
//	infiniband.cm.req.alt_tfcclass  number  alternate path: traffic class
//	infiniband.cm.req.alt_hoplim    number  alternate path: hop limit
//	infiniband.cm.req.alt_sl        number  alternate path: service level
//	infiniband.cm.req.alt_subnetlocal number alternate path: subnet local, 0 or 1
//	infiniband.cm.req.alt_localacktout number alternate path: local ACK timeout
//	infiniband.cm.req.ip_cm.majv    number  REQ IP-CM private data (RDMA-CM service IDs): major version
//	infiniband.cm.req.ip_cm.minv    number  IP-CM: minor version
//	infiniband.cm.req.ip_cm.ipv     number  IP-CM: IP version, 4 or 6
//	infiniband.cm.req.ip_cm.sport   number  IP-CM: source port
//	infiniband.cm.req.ip_cm.sip4    string  IP-CM: source IPv4 address (IP version 4)
//	infiniband.cm.req.ip_cm.dip4    string  IP-CM: destination IPv4 address
//	infiniband.cm.req.ip_cm.sip6    string  IP-CM: source IPv6 address (IP version 6)
//	infiniband.cm.req.ip_cm.dip6    string  IP-CM: destination IPv6 address
//	infiniband.cm.rep               number  CM REP: local communication ID
//	infiniband.cm.rep.remotecommid  number  REP: remote communication ID
//	infiniband.cm.rep.localqkey     number  REP: local Q_Key
//	infiniband.cm.rep.localqpn      number  REP: local QPN
//	infiniband.cm.rep.localeecn     number  REP: local EECN
//	infiniband.cm.rep.startpsn      number  REP: starting PSN
//	infiniband.cm.rep.respres       number  REP: responder resources
//	infiniband.cm.rep.initdepth     number  REP: initiator depth
//	infiniband.cm.rep.tgtackdelay   number  REP: target ACK delay
//	infiniband.cm.rep.failoveracc   number  REP: failover accepted
//	infiniband.cm.rep.e2eflowctrl   number  REP: end-to-end flow control, 0 or 1
//	infiniband.cm.rep.rnrretrcount  number  REP: RNR retry count
//	infiniband.cm.rep.srq           number  REP: SRQ, 0 or 1
//	infiniband.cm.rep.localcaguid   string  REP: local CA GUID, "0x" and 16 hex digits
//	infiniband.cm.rtu.localcommid   number  CM RTU: local communication ID
//	infiniband.cm.rtu.remotecommid  number  RTU: remote communication ID
//	infiniband.cm.rej.localcommid   number  CM REJ: local communication ID
//	infiniband.cm.rej.remotecommid  number  REJ: remote communication ID
//	infiniband.cm.rej.msgrej        number  REJ: message rejected (0 REQ, 1 REP, 2 other)
//	infiniband.cm.rej.rejinfolen    number  REJ: bytes of additional reject information
//	infiniband.cm.rej.reason        number  REJ: reason (IBTA Table 105; -v names it)
//	infiniband.cm.dreq.localcommid  number  CM DREQ: local communication ID
//	infiniband.cm.dreq.remotecommid number  DREQ: remote communication ID
//	infiniband.cm.req.remoteqpneecn number  DREQ: remote QPN or EECN (tshark 4.0's name, under req)
//	infiniband.cm.drsp.localcommid  number  CM DREP: local communication ID
//	infiniband.cm.drsp.remotecommid number  DREP: remote communication ID
//	infiniband.cm.mra.localcommid   number  CM MRA: local communication ID (MRA, SIDR, LAP, APR: not Wireshark fields)
//	infiniband.cm.mra.remotecommid  number  MRA: remote communication ID
//	infiniband.cm.mra.msgmraed      number  MRA: message MRAed (0 REQ, 1 REP, 2 LAP)
//	infiniband.cm.mra.servicetimeout number MRA: service timeout
//	infiniband.cm.sidr_req.requestid number CM SIDR_REQ: request ID
//	infiniband.cm.sidr_req.pkey     number  SIDR_REQ: partition key
//	infiniband.cm.sidr_req.serviceid string SIDR_REQ: service ID, "0x" and 16 hex digits
//	infiniband.cm.sidr_rep.requestid number CM SIDR_REP: request ID
//	infiniband.cm.sidr_rep.status   number  SIDR_REP: status (0 QPN valid, ...; -v names it)
//	infiniband.cm.sidr_rep.qpn      number  SIDR_REP: QPN
//	infiniband.cm.sidr_rep.serviceid string SIDR_REP: service ID, "0x" and 16 hex digits
//	infiniband.cm.sidr_rep.qkey     number  SIDR_REP: Q_Key
//	infiniband.cm.lap.localcommid   number  CM LAP: local communication ID
//	infiniband.cm.lap.remotecommid  number  LAP: remote communication ID
//	infiniband.cm.lap.remoteqpneecn number  LAP: remote QPN or EECN
//	infiniband.cm.apr.localcommid   number  CM APR: local communication ID
//	infiniband.cm.apr.remotecommid  number  APR: remote communication ID
//	infiniband.cm.apr.apstatus      number  APR: status (0 path loaded, ...; -v names it)
//	infiniband.smplid.mkey          string  SMP (LID routed or directed route): M_Key, "0x" and 16 hex digits
//	infiniband.smpdirected.smpstatus number directed-route SMP: status, D bit (0x8000) included, as tshark 4.0 shows it
//	infiniband.smpdirected.hoppointer number directed route: hop pointer
//	infiniband.smpdirected.hopcount number  directed route: hop count
//	infiniband.smpdirected.drslid   number  directed route: DrSLID (0xffff permissive)
//	infiniband.smpdirected.drdlid   number  directed route: DrDLID
//	infiniband.smpdirected.d        number  directed route: D bit, 1 on the way back (tshark 4.0 shows 0)
//	infiniband.sminfo.guid          string  SMP SMInfo: the SM's port GUID, "0x" and 16 hex digits
//	infiniband.sminfo.sm_key        string  SMInfo: SM_Key, "0x" and 16 hex digits
//	infiniband.sminfo.actcount      number  SMInfo: activity count
//	infiniband.sminfo.priority      number  SMInfo: priority
//	infiniband.sminfo.smstate       number  SMInfo: SM state (3 master)
//	infiniband.nodeinfo.baseversion number  SMP NodeInfo, or an SA NodeRecord's: base version
//	infiniband.nodeinfo.classversion number NodeInfo: class version
//	infiniband.nodeinfo.nodetype    number  NodeInfo: node type (1 CA, 2 switch, 3 router)
//	infiniband.nodeinfo.numports    number  NodeInfo: number of ports
//	infiniband.nodeinfo.systemimageguid string NodeInfo: system image GUID, "0x" and 16 hex digits
//	infiniband.nodeinfo.nodeguid    string  NodeInfo: node GUID
//	infiniband.nodeinfo.portguid    string  NodeInfo: port GUID
//	infiniband.nodeinfo.partitioncap number NodeInfo: partition cap
//	infiniband.nodeinfo.deviceid    number  NodeInfo: device ID
//	infiniband.nodeinfo.revision    number  NodeInfo: revision
//	infiniband.nodeinfo.localportnum number NodeInfo: local port number
//	infiniband.nodeinfo.vendorid    number  NodeInfo: vendor ID (IEEE OUI)
//	infiniband.nodedescription.nodestring string SMP NodeDescription, or an SA NodeRecord's: the NodeString up to its first NUL,
//	                                        UTF-8, a stray byte as U+FFFD (tshark 4.0 reads it as ASCII)
//	infiniband.mcmemberrecord.mgid  string  SA MCMemberRecord (the MAD's first record): multicast GID
//	infiniband.mcmemberrecord.portgid string MCMemberRecord: port GID
//	infiniband.mcmemberrecord.q_key number  MCMemberRecord: Q_Key
//	infiniband.mcmemberrecord.mlid  number  MCMemberRecord: multicast LID
//	infiniband.mcmemberrecord.mtuselector number MCMemberRecord: MTU selector
//	infiniband.mcmemberrecord.mtu   number  MCMemberRecord: MTU
//	infiniband.mcmemberrecord.tclass number MCMemberRecord: traffic class
//	infiniband.mcmemberrecord.p_key number  MCMemberRecord: P_Key
//	infiniband.mcmemberrecord.rateselector number MCMemberRecord: rate selector
//	infiniband.mcmemberrecord.rate  number  MCMemberRecord: rate
//	infiniband.mcmemberrecord.packetlifetimeselector number MCMemberRecord: packet lifetime selector
//	infiniband.mcmemberrecord.packetlifetime number MCMemberRecord: packet lifetime
//	infiniband.mcmemberrecord.sl    number  MCMemberRecord: service level
//	infiniband.mcmemberrecord.flowlabel number MCMemberRecord: flow label
//	infiniband.mcmemberrecord.hoplimit number MCMemberRecord: hop limit
//	infiniband.mcmemberrecord.scope number  MCMemberRecord: scope
//	infiniband.mcmemberrecord.joinstate number MCMemberRecord: JoinState (1 full, 2 non, 4 send-only non-member)
//	infiniband.mcmemberrecord.proxyjoin number MCMemberRecord: ProxyJoin, 0 or 1
//	infiniband.sa.records           number  SA: records the MAD holds: 1 without RMPP; in an RMPP transfer's first segment, the
//	                                        table's (PayloadLength less the 20-byte SA header of each segment) that fit; none
//	                                        in later segments (ours)
//	infiniband.sa.lid               number  SA NodeRecord (the MAD's first record): LID; its NodeInfo and NodeDescription keys are the SMP's
//	infiniband.sa.endportlid        number  SA PortInfoRecord (the MAD's first record): EndportLID; its PortInfo keys are the SMP's
//	infiniband.sa.portnum           number  PortInfoRecord: PortNum
//	infiniband.sa.options           number  PortInfoRecord: Options, IBTA 1.3 (ours; tshark 4.0 shows it reserved)
//	infiniband.linkrecord.serviceid string  SA ServiceRecord (the MAD's first record; tshark 4.0's names): ServiceID, "0x" and 16 hex digits
//	infiniband.linkrecord.servicegid string ServiceRecord: ServiceGID
//	infiniband.linkrecord.servicep_key number ServiceRecord: ServiceP_Key
//	infiniband.linkrecord.servicelease number ServiceRecord: ServiceLease, seconds (0xffffffff infinite)
//	infiniband.linkrecord.servicekey string ServiceRecord: ServiceKey, 32 lowercase hex digits
//	infiniband.servicerecord.servicename string ServiceRecord: ServiceName up to its first NUL, UTF-8 (ours; tshark 4.0
//	                                        shows infiniband.linkrecord.servicename, the 64 bytes in hex)
//	infiniband.servicerecord.servicedata8 string ServiceRecord: ServiceData8, its 16 bytes in lowercase hex (ours; tshark 4.0
//	                                        shows the four blocks as four values of infiniband.linkrecord.servicedata)
//	infiniband.servicerecord.servicedata16 string ServiceRecord: ServiceData16, 16 bytes in hex (ours)
//	infiniband.servicerecord.servicedata32 string ServiceRecord: ServiceData32, 16 bytes in hex (ours)
//	infiniband.servicerecord.servicedata64 string ServiceRecord: ServiceData64, 16 bytes in hex (ours)
//	infiniband.guidinfo.guid0 ... 7 string  SMP GUIDInfo: GUID n of the block, "0x" and 16 hex digits (eight keys; tshark 4.0 shows eight infiniband.switchinfo.guid)
//	infiniband.p_keytable.membershiptype0 ... 31 number SMP P_KeyTable: entry n's membership bit, 1 full (32 keys)
//	infiniband.p_keytable.p_keybase0 ... 31 number P_KeyTable: entry n's 15-bit P_Key base (32 keys)
//	infiniband.portinfo.m_key       string  SMP PortInfo, or an SA PortInfoRecord's: M_Key, "0x" and 16 hex digits
//	infiniband.portinfo.guid        string  PortInfo: GID prefix (tshark's name), "0x" and 16 hex digits
//	infiniband.portinfo.lid         number  PortInfo: base LID
//	infiniband.portinfo.mastersmlid number  PortInfo: master SM's LID
//	infiniband.portinfo.capabilitymask number PortInfo: CapabilityMask
//	infiniband.portinfo.diagcode    number  PortInfo: DiagCode
//	infiniband.portinfo.m_keyleaseperiod number PortInfo: M_Key lease period
//	infiniband.portinfo.localportnum number PortInfo: local port number
//	infiniband.portinfo.linkwidthenabled number PortInfo: LinkWidthEnabled
//	infiniband.portinfo.linkwidthsupported number PortInfo: LinkWidthSupported
//	infiniband.portinfo.linkwidthactive number PortInfo: LinkWidthActive
//	infiniband.portinfo.linkspeedsupported number PortInfo: LinkSpeedSupported
//	infiniband.portinfo.portstate   number  PortInfo: PortState (1 Down, 2 Init, 3 Armed, 4 Active)
//	infiniband.portinfo.portphysicalstate number PortInfo: PortPhysicalState
//	infiniband.portinfo.linkdowndefaultstate number PortInfo: LinkDownDefaultState
//	infiniband.portinfo.m_keyprotectbits number PortInfo: M_KeyProtectBits
//	infiniband.portinfo.lmc         number  PortInfo: LMC
//	infiniband.portinfo.linkspeedactive number PortInfo: LinkSpeedActive
//	infiniband.portinfo.linkspeedenabled number PortInfo: LinkSpeedEnabled
//	infiniband.portinfo.neighbormtu number  PortInfo: NeighborMTU
//	infiniband.portinfo.mastersmsl  number  PortInfo: MasterSMSL
//	infiniband.portinfo.vlcap       number  PortInfo: VLCap
//	infiniband.portinfo.inittype    number  PortInfo: InitType
//	infiniband.portinfo.vlhighlimit number  PortInfo: VLHighLimit
//	infiniband.portinfo.vlarbitrationhighcap number PortInfo: VLArbitrationHighCap
//	infiniband.portinfo.vlarbitrationlowcap number PortInfo: VLArbitrationLowCap
//	infiniband.portinfo.inittypereply number PortInfo: InitTypeReply
//	infiniband.portinfo.mtucap      number  PortInfo: MTUCap
//	infiniband.portinfo.vlstallcount number PortInfo: VLStallCount
//	infiniband.portinfo.hoqlife     number  PortInfo: HOQLife
//	infiniband.portinfo.operationalvls number PortInfo: OperationalVLs
//	infiniband.portinfo.partitionenforcementinbound number PortInfo: PartitionEnforcementInbound, 0 or 1
//	infiniband.portinfo.partitionenforcementoutbound number PortInfo: PartitionEnforcementOutbound, 0 or 1
//	infiniband.portinfo.filterrawinbound number PortInfo: FilterRawInbound, 0 or 1
//	infiniband.portinfo.filterrawoutbound number PortInfo: FilterRawOutbound, 0 or 1
//	infiniband.portinfo.m_keyviolations number PortInfo: M_KeyViolations
//	infiniband.portinfo.p_keyviolations number PortInfo: P_KeyViolations
//	infiniband.portinfo.q_keyviolations number PortInfo: Q_KeyViolations
//	infiniband.portinfo.guidcap     number  PortInfo: GUIDCap
//	infiniband.portinfo.clientreregister number PortInfo: ClientReregister, 0 or 1
//	infiniband.portinfo.multicastpkeytrapsuppressionenabled number PortInfo: MulticastPKeyTrapSuppressionEnabled (ours)
//	infiniband.portinfo.subnettimeout number PortInfo: SubnetTimeOut
//	infiniband.portinfo.resptimevalue number PortInfo: RespTimeValue
//	infiniband.portinfo.localphyerrors number PortInfo: LocalPhyErrors threshold
//	infiniband.portinfo.overrunerrors number PortInfo: OverrunErrors threshold
//	infiniband.portinfo.maxcredithint number PortInfo: MaxCreditHint
//	infiniband.portinfo.linkroundtriplatency number PortInfo: LinkRoundTripLatency
//	infiniband.portinfo.capabilitymask2 number PortInfo: CapabilityMask2, IBTA 1.3 (ours)
//	infiniband.portinfo.linkspeedextactive number PortInfo: LinkSpeedExtActive, IBTA 1.3 (ours)
//	infiniband.portinfo.linkspeedextsupported number PortInfo: LinkSpeedExtSupported, IBTA 1.3 (ours)
//	infiniband.portinfo.linkspeedextenabled number PortInfo: LinkSpeedExtEnabled, IBTA 1.3 (ours)
//	infiniband.switchinfo.linearfdbcap number SMP SwitchInfo: LinearFDBCap
//	infiniband.switchinfo.randomfdbcap number SwitchInfo: RandomFDBCap
//	infiniband.switchinfo.multicastfdbcap number SwitchInfo: MulticastFDBCap
//	infiniband.switchinfo.linearfdbtop number SwitchInfo: LinearFDBTop
//	infiniband.switchinfo.defaultport number SwitchInfo: DefaultPort
//	infiniband.switchinfo.defaultmulticastprimaryport number SwitchInfo: DefaultMulticastPrimaryPort
//	infiniband.switchinfo.defaultmulticastnotprimaryport number SwitchInfo: DefaultMulticastNotPrimaryPort
//	infiniband.switchinfo.lifetimevalue number SwitchInfo: LifeTimeValue
//	infiniband.switchinfo.portstatechange number SwitchInfo: PortStateChange, 0 or 1
//	infiniband.switchinfo.optimizedsltovlmappingprogramming number SwitchInfo: OptimizedSLtoVLMappingProgramming
//	infiniband.switchinfo.lidsperport number SwitchInfo: LIDsPerPort
//	infiniband.switchinfo.partitionenforcementcap number SwitchInfo: PartitionEnforcementCap
//	infiniband.switchinfo.inboundenforcementcap number SwitchInfo: InboundEnforcementCap, 0 or 1
//	infiniband.switchinfo.outboundenforcementcap number SwitchInfo: OutboundEnforcementCap, 0 or 1
//	infiniband.switchinfo.filterrawinboundcap number SwitchInfo: FilterRawInboundCap, 0 or 1
//	infiniband.switchinfo.filterrawoutboundcap number SwitchInfo: FilterRawOutboundCap, 0 or 1
//	infiniband.switchinfo.enhancedportzero number SwitchInfo: EnhancedPortZero, 0 or 1
//	infiniband.switchinfo.multicastfdbtop number SwitchInfo: MulticastFDBTop (ours)
//	infiniband.portcounters.portselect number PerfMgt PortCounters: PortSelect
//	infiniband.portcounters.counterselect number PortCounters: CounterSelect
//	infiniband.portcounters.symbolerrorcounter number PortCounters: SymbolErrorCounter
//	infiniband.portcounters.linkerrorrecoverycounter number PortCounters: LinkErrorRecoveryCounter
//	infiniband.portcounters.linkdownedcounter number PortCounters: LinkDownedCounter
//	infiniband.portcounters.portrcverrors number PortCounters: PortRcvErrors
//	infiniband.portcounters.portrcvremotephysicalerrors number PortCounters: PortRcvRemotePhysicalErrors
//	infiniband.portcounters.portrcvswitchrelayerrors number PortCounters: PortRcvSwitchRelayErrors
//	infiniband.portcounters.portxmitdiscards number PortCounters: PortXmitDiscards
//	infiniband.portcounters.portxmitconstrainterrors number PortCounters: PortXmitConstraintErrors
//	infiniband.portcounters.portrcvconstrainterrors number PortCounters: PortRcvConstraintErrors
//	infiniband.portcounters.counterselect2 number PortCounters: CounterSelect2, IBTA 1.3 (ours)
//	infiniband.portcounters.locallinkintegrityerrors number PortCounters: LocalLinkIntegrityErrors
//	infiniband.portcounters.excessivebufferoverrunerrors number PortCounters: ExcessiveBufferOverrunErrors
//	infiniband.portcounters.qp1dropped number PortCounters: QP1Dropped, IBTA 1.3 (ours)
//	infiniband.portcounters.vl15dropped number PortCounters: VL15Dropped
//	infiniband.portcounters.portxmitdata number PortCounters: PortXmitData (32-bit words)
//	infiniband.portcounters.portrcvdata number PortCounters: PortRcvData
//	infiniband.portcounters.portxmitpkts number PortCounters: PortXmitPkts
//	infiniband.portcounters.portrcvpkts number PortCounters: PortRcvPkts
//	infiniband.portcounters.portxmitwait number PortCounters: PortXmitWait (ours)
//	infiniband.portcounters_ext.portselect number PerfMgt PortCountersExtended: PortSelect
//	infiniband.portcounters_ext.counterselect number PortCountersExtended: CounterSelect
//	infiniband.portcounters_ext.counterselect2 number PortCountersExtended: CounterSelect2, IBTA 1.3 (ours)
//	infiniband.portcounters_ext.portxmitdata string PortCountersExtended: PortXmitData, 64 bits, decimal digits
//	infiniband.portcounters_ext.portrcvdata string PortCountersExtended: PortRcvData
//	infiniband.portcounters_ext.portxmitpkts string PortCountersExtended: PortXmitPkts
//	infiniband.portcounters_ext.portrcvpkts string PortCountersExtended: PortRcvPkts
//	infiniband.portcounters_ext.portunicastxmitpkts string PortCountersExtended: PortUnicastXmitPkts
//	infiniband.portcounters_ext.portunicastrcvpkts string PortCountersExtended: PortUnicastRcvPkts
//	infiniband.portcounters_ext.portmulticastxmitpkts string PortCountersExtended: PortMulticastXmitPkts
//	infiniband.portcounters_ext.portmulticastrcvpkts string PortCountersExtended: PortMulticastRcvPkts
//	infiniband.portcounters_ext.symbolerrorcounter string PortCountersExtended: SymbolErrorCounter, IBTA 1.3 error counter, 64 bits, decimal digits (ours)
//	infiniband.portcounters_ext.linkerrorrecoverycounter string PortCountersExtended: LinkErrorRecoveryCounter (ours)
//	infiniband.portcounters_ext.linkdownedcounter string PortCountersExtended: LinkDownedCounter (ours)
//	infiniband.portcounters_ext.portrcverrors string PortCountersExtended: PortRcvErrors (ours)
//	infiniband.portcounters_ext.portrcvremotephysicalerrors string PortCountersExtended: PortRcvRemotePhysicalErrors (ours)
//	infiniband.portcounters_ext.portrcvswitchrelayerrors string PortCountersExtended: PortRcvSwitchRelayErrors (ours)
//	infiniband.portcounters_ext.portxmitdiscards string PortCountersExtended: PortXmitDiscards (ours)
//	infiniband.portcounters_ext.portxmitconstrainterrors string PortCountersExtended: PortXmitConstraintErrors (ours)
//	infiniband.portcounters_ext.portrcvconstrainterrors string PortCountersExtended: PortRcvConstraintErrors (ours)
//	infiniband.portcounters_ext.locallinkintegrityerrors string PortCountersExtended: LocalLinkIntegrityErrors (ours)
//	infiniband.portcounters_ext.excessivebufferoverrunerrors string PortCountersExtended: ExcessiveBufferOverrunErrors (ours)
//	infiniband.portcounters_ext.vl15dropped string PortCountersExtended: VL15Dropped (ours)
//	infiniband.portcounters_ext.portxmitwait string PortCountersExtended: PortXmitWait (ours)
//	infiniband.portcounters_ext.qp1dropped string PortCountersExtended: QP1Dropped (ours)
//
// then, for IPoIB (a native packet's payload by ipoib.Match, or a link
// type 242 record), tshark 4.0's names:
//
//	ipoib.grh.ipver                 number  link type 242, a received packet's GRH: IP version
//	ipoib.grh.tclass                number  received: traffic class
//	ipoib.grh.flowlabel             number  received: flow label
//	ipoib.grh.sqpn                  number  received: the sender's QP
//	ipoib.grh.sgid                  string  received: source GID
//	ipoib.daddr.qpn                 number  link type 242, a sent packet: the destination's QP
//	ipoib.dgid                      string  link type 242: destination GID (received or sent)
//	ipoib.type                      number  IPoIB header: the Ethertype of what follows (tshark 4.0 shows no IPoIB header in native packets, but what it carries)
//	ipoib.reserved                  number  IPoIB header: reserved, 0
//
// then, for LLDP with IEEE 802.1Qaz DCBX TLVs, tshark 4.0's names where
// a TLV has its own; where tshark names two TLVs' fields alike, ours for
// the second, which display filters also match by tshark's name:
//
//	lldp.dcbx.ieee.pfc.willing      bool    PFC Configuration: willing (not a Wireshark name; filters: lldp.dcbx.ieee.willing too)
//	lldp.dcbx.ieee.pfc.mbc          bool    PFC: MACsec bypass capability
//	lldp.dcbx.ieee.pfc.numtcs       number  PFC: PFC cap, traffic classes that may have PFC at once
//	lldp.dcbx.ieee.pfc.enable       number  PFC: the enable vector, bit n priority n (not a Wireshark field)
//	lldp.dcbx.feature.pfc.prio0 ... 7 bool PFC: priority n enabled (eight keys)
//	lldp.dcbx.ieee.ets.willing      bool    ETS Configuration: willing (not a Wireshark name; filters: lldp.dcbx.ieee.willing too)
//	lldp.dcbx.ieee.ets.cbs          bool    ETS Configuration: credit-based shaper supported
//	lldp.dcbx.ieee.ets.maxtcs       number  ETS Configuration: traffic classes supported, 0 meaning 8
//	lldp.dcbx.feature.pg.pgid_prio0 ... 7 number ETS Configuration: priority n's traffic class (eight keys)
//	lldp.dcbx.feature.pg.per0 ... 7 number  ETS Configuration: class n's bandwidth share in percent (eight keys)
//	lldp.dcbx.ieee.ets.tsa0 ... 7   number  ETS Configuration: class n's TSA (0 strict, 1 CBS, 2 ETS, 255 vendor; eight keys)
//	lldp.dcbx.ieee.etsrec.pgid_prio0 ... 7 number ETS Recommendation: priority n's traffic class (not a Wireshark name; filters: lldp.dcbx.feature.pg.pgid_prioN too)
//	lldp.dcbx.ieee.etsrec.per0 ... 7 number ETS Recommendation: class n's bandwidth share (filters: lldp.dcbx.feature.pg.perN too)
//	lldp.dcbx.ieee.etsrec.tsa0 ... 7 number ETS Recommendation: class n's TSA (filters: lldp.dcbx.ieee.ets.tsaN too)
//	lldp.dcbx.ieee.app.entries      number  Application Priority: entries in the TLV (not a Wireshark field)
//	_dcbx_error                     string  a DCBX TLV that does not decode: the decoder's error
//
// and, for a frame that does not decode:
//
//	_error                          string  why the frame could not be decoded: the error of a malformed
//	                                        RoCE frame, or a link type this package does not decode
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
// Fields lists every JSON key as a row: its name, its type (FieldType:
// unsigned of so many bits, bool, string, IPv4, IPv6, MAC, 64-bit,
// bytes, time), the Wireshark name it also answers to (vlan.inner.id is
// a second vlan.id, ip.src an ip.addr) and a getter over *Record that
// allocates nothing; Protocols lists the protocol names a display filter
// tests for presence (vlan, ieee8021ad, ip, infiniband.reth, macc ...).
// Package dfilter compiles display filters over these rows, and
// Record.AppendVerbose (rocedump -v) prints them. TestFieldTableIsJSON
// checks on every frame of every test capture that the table gives
// exactly the keys and values AppendJSON writes, so the JSON and the
// filters cannot drift apart; AppendJSON stays hand-written because
// writing the JSON from the table is several times slower
// (BenchmarkJSONByTable).
//
// To add a field (MAD, IPoIB, DCBX ...): write its key in AppendJSON,
// add its row to fieldTable in fieldtable.go at the same place in the
// key order, with a getter (the constructors fBTH, fETH, fIPv4, numeric
// ... cover most headers), list it in the key table above, and add a
// Protocol row when it is a new header. TestFieldTableIsJSON fails until
// the row and the JSON agree, and fails for a row no test frame has.
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
