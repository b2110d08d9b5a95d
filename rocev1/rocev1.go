// Package rocev1 is RoCEv1: InfiniBand transport packets carried directly
// in Ethernet frames of Ethertype 0x8915, a GRH in front of the BTH (IBTA
// Vol 1 Annex A16).
//
// The GRH delimits exactly PayLen bytes, so the ICRC is found from
// PayLen, never from the end of the frame (which may carry padding or an
// FCS). Package googlelayers registers Ethertype 0x8915 with
// github.com/google/gopacket.
package rocev1

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// EtherType is the Ethertype of RoCEv1 (IEEE registration 0x8915).
const EtherType = hdr.EtherTypeRoCE

// VerifyICRC checks the ICRC of a RoCEv1 packet: pkt runs from the first
// byte of the GRH through the ICRC.
func VerifyICRC(pkt []byte) error { return ib.VerifyICRC(ib.RoCEv1, pkt) }

// PutICRC computes the ICRC of a RoCEv1 packet and writes it in place.
func PutICRC(pkt []byte) error { return ib.PutICRC(ib.RoCEv1, pkt) }
