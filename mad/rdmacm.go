package mad

import "net/netip"

// ServiceID is the service ID of a CM REQ or SIDR_REQ. RDMA-CM, the RDMA
// IP CM service of IBTA Vol 1, Annex A11, builds it from a port space and
// a port: 0x0000_0000_01PS_pppp, PS the IP protocol (TCP 0x06, UDP 0x11,
// the IB port space 0x3F), pppp the destination port. Linux's RDMA-CM
// (rdma_ucm_port_space) also uses port space 0x0002 for IPoIB, outside
// the annex's prefix.
type ServiceID uint64

// PortSpace is an RDMA-CM port space: the service ID bits 16-31.
type PortSpace uint16

// The port spaces of RDMA-CM.
const (
	PortSpaceIPoIB PortSpace = 0x0002
	PortSpaceTCP   PortSpace = 0x0106
	PortSpaceUDP   PortSpace = 0x0111
	PortSpaceIB    PortSpace = 0x013F
)

// String names the port space, "TCP", "UDP", "IB", "IPoIB", or "PS 0x...."
// for others.
func (p PortSpace) String() string {
	switch p {
	case PortSpaceIPoIB:
		return "IPoIB"
	case PortSpaceTCP:
		return "TCP"
	case PortSpaceUDP:
		return "UDP"
	case PortSpaceIB:
		return "IB"
	}
	return "PS 0x" + hex(uint64(p), 4)
}

// RDMACMServiceID returns the service ID of a port space and port.
func RDMACMServiceID(ps PortSpace, port uint16) ServiceID {
	return ServiceID(uint64(ps)<<16 | uint64(port))
}

// IsIPCM reports whether the service ID has the prefix of IBTA's IP CM
// service, 0x0000000001 (Annex A11): the REQ's private data then starts
// with the IP-CM header (see IPCM).
func (s ServiceID) IsIPCM() bool { return s>>24 == 0x01 }

// RDMACM returns the port space and port of an RDMA-CM service ID, and
// whether it is one: one of the four port spaces, the top 32 bits zero.
func (s ServiceID) RDMACM() (PortSpace, uint16, bool) {
	ps := PortSpace(s >> 16)
	switch {
	case s>>32 != 0:
		return 0, 0, false
	case ps == PortSpaceIPoIB, ps == PortSpaceTCP, ps == PortSpaceUDP, ps == PortSpaceIB:
		return ps, uint16(s), true
	}
	return 0, 0, false
}

// String formats the service ID as 16 hex digits, "0x0000000001061d2f".
func (s ServiceID) String() string { return "0x" + hex(uint64(s), 16) }

// IPCMLen is the size of the IP-CM header at the start of a REQ's private
// data, before the consumer's private data.
const IPCMLen = 36

// IPCM is the IP-CM private data of a REQ (IBTA Vol 1, Annex A11.7.1):
// the version, the IP version, the source port and the source and
// destination IP addresses of the connection, then 56 bytes of the
// consumer's private data.
//
//	+-------+-------+-------+-------+-------------------------------+
//	| MajV  | MinV  |  IPV  | Resv  |          Source Port          |
//	+-------+-------+-------+-------+-------------------------------+
//	|             Source IP Address (128, IPv4 in the last 32)      |
//	|          Destination IP Address (128, IPv4 in the last 32)    |
//	|                 Consumer Private Data (56 bytes)              |
type IPCM struct {
	MajV                uint8 // 4 bits, 0
	MinV                uint8 // 4 bits, 0
	IPV                 uint8 // 4 bits: 4 or 6
	Resv                uint8 // reserved, 4 bits
	SrcPort             uint16
	SrcIP               [16]byte
	DstIP               [16]byte
	ConsumerPrivateData []byte // 56 bytes, aliasing the input
}

func (p *IPCM) walk(c codec) error {
	c.u8(&p.MajV, "MajV", 0, 0, 4)
	c.u8(&p.MinV, "MinV", 0, 4, 4)
	c.u8(&p.IPV, "IPV", 1, 0, 4)
	c.u8(&p.Resv, "Resv", 1, 4, 4)
	c.u16(&p.SrcPort, "SrcPort", 2, 0, 16)
	c.gid(&p.SrcIP, 4)
	c.gid(&p.DstIP, 20)
	c.data(&p.ConsumerPrivateData, "ConsumerPrivateData", IPCMLen, REQPrivateDataLen-IPCMLen)
	return c.err
}

// Decode decodes the IP-CM private data from b, a REQ's 92 bytes of
// private data, resetting p first.
func (p *IPCM) Decode(b []byte) error {
	*p = IPCM{}
	return decodeWalker(b, "CM.REQ.IPCM", REQPrivateDataLen, p)
}

// AppendTo appends the 92 bytes of private data to b, refusing (and
// appending nothing) a field wider than its bits.
func (p *IPCM) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "CM.REQ.IPCM", REQPrivateDataLen, p)
}

// addr reads an address field by the IP version.
func (p *IPCM) addr(a *[16]byte) netip.Addr {
	switch p.IPV {
	case 4:
		return netip.AddrFrom4([4]byte(a[12:16]))
	case 6:
		return netip.AddrFrom16(*a)
	}
	return netip.Addr{}
}

// Src returns the source IP address: IPv4 when IPV is 4, IPv6 when it is
// 6, the zero Addr otherwise.
func (p *IPCM) Src() netip.Addr { return p.addr(&p.SrcIP) }

// Dst returns the destination IP address, as Src.
func (p *IPCM) Dst() netip.Addr { return p.addr(&p.DstIP) }

// SetAddrs sets IPV and both addresses from src and dst, which must be of
// one family (IPv4-mapped IPv6 addresses count as IPv4).
func (p *IPCM) SetAddrs(src, dst netip.Addr) {
	src, dst = src.Unmap(), dst.Unmap()
	p.IPV = 6
	if src.Is4() {
		p.IPV = 4
	}
	p.SrcIP, p.DstIP = ipcmBytes(src), ipcmBytes(dst)
}

func ipcmBytes(a netip.Addr) (b [16]byte) {
	if a.Is4() {
		v := a.As4()
		copy(b[12:], v[:])
		return b
	}
	return a.As16()
}

// IPCM decodes the IP-CM private data of the REQ into p, and reports
// whether the REQ carries it: a service ID with the IP CM prefix (or
// RDMA-CM's IPoIB port space) and IP version 4 or 6.
func (m *REQ) IPCM(p *IPCM) bool {
	ps, _, _ := m.ServiceID.RDMACM()
	if !m.ServiceID.IsIPCM() && ps != PortSpaceIPoIB || p.Decode(m.PrivateData) != nil {
		*p = IPCM{}
		return false
	}
	return p.IPV == 4 || p.IPV == 6
}
