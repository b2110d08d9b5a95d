// Package rocelayers is this module's RoCE, InfiniBand and PFC layers for
// github.com/gopacket/gopacket, the community's continuation of
// github.com/google/gopacket: the same codecs (packages ib and pfc of
// github.com/roce-go/roce) as layers of the other module, whose types
// are distinct from Google's.
//
// Importing it registers every layer with gopacket, as importing
// github.com/roce-go/roce does with Google's: Ethertype 0x8915 (RoCEv1,
// also behind 802.1Q tags) leads to the GRH, Ethertype 0x8808 to MAC
// Control, UDP destination port 4791 to the BTH, so gopacket.NewPacket
// decodes RoCE frames down to the last field:
//
//	p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
//	bth := p.Layer(rocelayers.LayerTypeBTH).(*rocelayers.BTH)
//	fmt.Println(bth.OpCode, bth.DestQP, bth.PSN)
//
// Each layer embeds the header of package ib (or pfc), with its fields and
// methods: a *rocelayers.BTH is an ib.BTH (bth.BTH) with the methods of a
// gopacket layer, DecodingLayer and SerializableLayer. Those methods call
// ib's gopacket-free codec (DecodeLayer or Decode, Serialize), which the
// google/gopacket layers call too: the logic exists once. Layers.Parser
// builds an allocation-free DecodingLayerParser (as roce.Layers.Parser
// does), VerifyPacket and FixICRC check and write the ICRC (as
// roce.VerifyPacket and roce.FixICRC do), and BTH is a
// gopacket.LayerWithChecksum, so Packet.VerifyChecksums checks the ICRC
// beside the IP and UDP checksums.
//
// Layer type numbers. Each layer is registered under the number its
// package registers with Google's gopacket, ib 1790-1802 (LRH 1790, GRH
// 1791, BTH 1792, RDETH 1793, DETH 1794, XRCETH 1795, RETH 1796,
// AtomicETH 1797, AtomicAckETH 1798, AETH 1799, ImmDt 1800, IETH 1801,
// FETH 1802) and pfc 1810 (MACControl), read from those packages: the
// two registries are separate, the community gopacket registers only
// 1010 (GTPv2) in the range 1000-1999 it leaves to applications, and a
// layer type converts between the modules by number
// (gopacket.LayerType(ib.LayerTypeBTH) == LayerTypeBTH), which is how
// NextLayerType here is ib's.
//
// Adding a layer of this module (a MAD layer of package mad, IPoIB, DCBX)
// takes a few lines, once its package has a gopacket-free Decode (or
// DecodeLayer) and Serialize beside its google/gopacket methods: a row
// in register.go, LayerTypeX = register(pkg.LayerTypeX, decodeX) (a
// generic decodeETH-like decoder, or four lines of its own), a type
// embedding the header, type X struct{ pkg.X }, with its five one-line
// methods (LayerType, CanDecode, NextLayerType, DecodeFromBytes calling
// Decode, SerializeTo calling Serialize), a field in Layers and its
// DecodingLayers list, and, for a new Ethertype or port, one line in the
// init of register.go.
//
// Allocation contract: the DecodingLayerParser of Layers.Parser, once
// warm, and FixICRC allocate nothing; VerifyPacket allocates only the
// error of a bad ICRC. Decoded byte slices alias the input.
package rocelayers
