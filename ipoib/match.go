package ipoib

import (
	"encoding/binary"

	"github.com/roce-go/roce/ib"
)

// startsSend lists the opcodes whose payload starts a SEND message, the
// only place an IPoIB header can be: UD SEND Only (IPoIB datagram mode)
// and the RC and UC SEND First and Only (IPoIB connected mode), with or
// without immediate data.
var startsSend = [256]bool{
	ib.OpUDSendOnly: true, ib.OpUDSendOnlyWithImmediate: true,
	ib.OpRCSendFirst: true, ib.OpRCSendOnly: true, ib.OpRCSendOnlyWithImmediate: true,
	ib.OpUCSendFirst: true, ib.OpUCSendOnly: true, ib.OpUCSendOnlyWithImmediate: true,
}

// carried lists the Ethertypes IPoIB carries (RFC 4391 section 6).
func carried(t uint16) bool {
	return t == uint16(TypeIPv4) || t == uint16(TypeIPv6) || t == uint16(TypeARP)
}

// Match reports whether payload, the payload of a native InfiniBand
// transport packet of opcode op sent to queue pair destQP, is IPoIB by
// this module's rule: op starts a SEND message (UD SEND Only, RC or UC
// SEND First or Only, with or without immediate data), destQP is not a
// management queue pair (0 or 1), and payload starts with an
// encapsulation header whose reserved bits are zero and whose Type is
// IPv4, IPv6 or ARP.
func Match(op ib.Opcode, destQP uint32, payload []byte) bool {
	if !startsSend[op] || destQP <= 1 || len(payload) < HeaderLen {
		return false
	}
	return binary.BigEndian.Uint16(payload[2:]) == 0 && carried(binary.BigEndian.Uint16(payload))
}
