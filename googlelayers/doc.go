// Package googlelayers is this module's layers for
// github.com/google/gopacket: the gopacket-free codecs of packages ib,
// rocev1, rocev2, pfc, ipoib, mad and dcbx of github.com/roce-go/roce as
// gopacket layers. Each layer embeds the codec's type, with its fields
// and methods, and a layers.BaseLayer (BTH is an ib.BTH with Contents and
// Payload, MACControl a pfc.MACControl), and its DecodeFromBytes and
// SerializeTo call the codec's Decode (or Split) and AppendTo (or
// Serialize): the logic exists once.
//
// Importing the package registers the layers with gopacket, under the
// numbers the codec packages registered before they left gopacket: the
// InfiniBand layers 1790-1802 (LRH, GRH, BTH and the ten extended
// headers), MAC Control 1810, the management datagrams 1820-1823 (MAD,
// RMPP, CM, SA) and 1835-1837 (SMP, SMPDirected, PerfMgt), IPoIB 1850
// and IPoIBLinkHeader 1851; and it hooks them into gopacket's dispatch:
// Ethertype 0x8915 (RoCEv1) to
// the GRH, Ethertype 0x8808 to MAC Control, TPID 0x9100 to Dot1Q, UDP
// destination port 4791 to the BTH, link type 242 (LINKTYPE_IPOIB) to
// IPoIBLinkHeader. After the transport headers of a packet, the BTH's
// decoder hands a whole MAD to QP 0 or 1 (ib.BTH.ToManagement) to the MAD
// layer and the IPoIB datagram of a native packet (ipoib.Match) to IPoIB;
// the table is this package's (register.go), no codec package holds one.
//
// MADLayers is the reusable set of the MAD layers and DCBX hands
// gopacket's LLDP TLVs to dcbx.TLVs. Layers holds one reusable layer of
// each kind for a DecodingLayerParser (Parser from Ethernet, ParserFrom
// any first layer); VerifyPacket and FixICRC check and write the ICRC of
// a packet gopacket decoded or serialized.
//
// The nested module github.com/roce-go/roce/rocelayers holds the same
// layers for github.com/gopacket/gopacket under the same numbers.
package googlelayers

//go:generate go run ../internal/hdrgen eth_gen.go
