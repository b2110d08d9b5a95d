// Package rocelayers is this module's RoCE, InfiniBand, PFC, MAD and IPoIB
// layers for github.com/gopacket/gopacket, the community's continuation of
// github.com/google/gopacket: the same codecs (packages ib, pfc, mad and
// ipoib of github.com/roce-go/roce) as layers of the other module, whose
// types are distinct from Google's. The module does not depend on
// github.com/google/gopacket: the tests that decode every capture with
// both modules and compare them live in the nested module
// rocelayers/internal/samegoogle.
//
// Importing it registers every layer with gopacket, as importing
// googlelayers does with Google's: Ethertype 0x8915 (RoCEv1,
// also behind 802.1Q tags) leads to the GRH, Ethertype 0x8808 to MAC
// Control, UDP destination port 4791 to the BTH, so gopacket.NewPacket
// decodes RoCE frames down to the last field:
//
//	p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
//	bth := p.Layer(rocelayers.LayerTypeBTH).(*rocelayers.BTH)
//	fmt.Println(bth.OpCode, bth.DestQP, bth.PSN)
//
// Management datagrams and IPoIB decode as they do for a Google user. A
// whole MAD in a UD SEND Only to QP 0 or 1 decodes as MAD, then RMPP for
// a class that carries it, then the class body (CM, SA), or a Payload for
// a class or attribute package mad leaves opaque, in NewPacket (the BTH
// names the payload's layer, ib.BTH.ToManagement) as in the parser
// of Layers; SMP, SMPDirected and PerfMgt decode a MAD of their class
// from its first byte. After the transport headers of a native
// InfiniBand packet that ipoib.Match takes for IPoIB, NewPacket decodes
// IPoIB, then gopacket's IPv4, IPv6 or ARP; link type 242
// (LINKTYPE_IPOIB) is registered in the fork's link type table and
// decodes as IPoIBLinkHeader, then IPoIB. DCBX is dcbx.TLVs taking the
// fork's LLDP TLVs (it is no layer).
//
// Each layer embeds the header of package ib (or pfc, mad, ipoib), with
// its fields and methods, and a layers.BaseLayer: a *rocelayers.BTH is an
// ib.BTH (bth.BTH) with the methods of a gopacket layer, DecodingLayer
// and SerializableLayer. Those methods call the codec (Decode or Split,
// Serialize), as the layers of googlelayers, for google/gopacket, do: the
// logic exists once, and TestSameAPIAsGooglelayers holds the two packages'
// exported API equal. The layers of mad and ipoib pass the fork's DecodeFeedback to
// their DecodeFromBytes (the interface, SetTruncated, is the same in both
// modules) and write through their Serialize, SerializeTo over an
// ib.Buffer. Layers.Parser builds an allocation-free DecodingLayerParser
// (as googlelayers.Layers.Parser does), VerifyPacket and FixICRC check
// and write the ICRC (as googlelayers' do), and BTH is a
// gopacket.LayerWithChecksum, so Packet.VerifyChecksums checks the ICRC
// beside the IP and UDP checksums.
//
// Layer type numbers. Each layer is registered under the number of the
// module's table of layer types (internal/layertype), which googlelayers
// registers with Google's gopacket too, ib 1790-1802 (LRH 1790, GRH
// 1791, BTH 1792, RDETH 1793, DETH 1794, XRCETH 1795, RETH 1796,
// AtomicETH 1797, AtomicAckETH 1798, AETH 1799, ImmDt 1800, IETH 1801,
// FETH 1802), pfc 1810 (MACControl), mad 1820-1823 (MAD, RMPP, CM, SA)
// and 1835-1837 (SMP, SMPDirected, PerfMgt), and ipoib 1850-1851 (IPoIB,
// IPoIBLinkHeader): the two registries are separate, the community gopacket registers only
// 1010 (GTPv2) in the range 1000-1999 it leaves to applications, and a
// layer type converts between the modules by number
// (gopacket.LayerType(googlelayers.LayerTypeBTH) == LayerTypeBTH).
//
// Adding a layer of this module takes a few lines, once its codec has
// Decode (or Split) and AppendTo (or Serialize): its number and name in
// internal/layertype, a row in register.go, LayerTypeX =
// register(layertype.X, decode[X]) (the generic decoder, or a few lines
// of its own), a type embedding the header and a layers.BaseLayer, with
// its five one-line methods (LayerType, CanDecode, NextLayerType,
// DecodeFromBytes, SerializeTo), a field in Layers (DecodingLayers takes
// the fields that are layers; internal/hdrgen of the root module writes
// the struct, from its template, into googlelayers' eth_gen.go), and,
// for a new Ethertype, port or link type, one line in the init of
// register.go; googlelayers gets the same. The extended headers' layers
// and layer types and the Layers struct (eth.go, eth_gen.go), the GRH/IP
// mappings (ip.go), Layers' methods (layers.go) and the MAD layers
// (mad.go) are generated from googlelayers' (go generate;
// TestGeneratedFiles fails when they are stale): a new extended header
// is its rows in ib and internal/layertype, from which go generate
// ./googlelayers writes its layer, and a class body of package mad is
// written there once (a row of madBodies and freshBody and a field of
// MADLayers).
//
// Allocation contract: the DecodingLayerParser of Layers.Parser, once
// warm, and FixICRC allocate nothing; VerifyPacket allocates only the
// error of a bad ICRC. Decoded byte slices alias the input.
package rocelayers

//go:generate go run ./internal/gen
