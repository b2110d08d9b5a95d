package hdr

// Ethertypes (IEEE registry).
const (
	EtherTypeIPv4       = 0x0800
	EtherTypeARP        = 0x0806
	EtherTypeDot1Q      = 0x8100 // 802.1Q C-tag
	EtherTypeIPv6       = 0x86dd
	EtherTypeMACControl = 0x8808 // 802.3 MAC Control: PAUSE, PFC
	EtherTypeLLDP       = 0x88cc
	EtherTypeQinQ       = 0x88a8 // 802.1ad S-tag
	EtherType9100       = 0x9100 // the outer tag of QinQ before 802.1ad (Cisco, Juniper); Wireshark's vlan.qinq_ethertype
	EtherTypeRoCE       = 0x8915 // RoCEv1 (IBTA Annex A16)
)

// RoCEv2Port is the UDP destination port of RoCEv2 (IBTA Annex A17.2.1).
const RoCEv2Port = 4791

// IPProtocolUDP is the IPv4 protocol and IPv6 next header number of UDP.
const IPProtocolUDP = 17

// LinkTypeEthernet is the pcap link type of Ethernet frames
// (LINKTYPE_ETHERNET), the one a live capture of this module delivers.
const LinkTypeEthernet = 1
