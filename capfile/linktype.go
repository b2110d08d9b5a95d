package capfile

// The link types of the frames a RoCE or InfiniBand capture holds, as
// the file names them (the LINKTYPE_ numbers of pcap and pcapng). Link
// types are 16-bit numbers (gopacket's layers.LinkType holds only 8
// bits, hence plain integers here). Source reads frames of any link
// type; these are the ones the module's decoders take.
const (
	LinkTypeEthernet   = 1   // Ethernet
	LinkTypeRaw        = 101 // raw IP, IPv4 or IPv6 by the version nibble
	LinkTypeLinuxSLL   = 113 // Linux cooked capture v1 (tcpdump -i any)
	LinkTypeERF        = 197 // Endace ERF records: InfiniBand (type 21) and Ethernet (type 2)
	LinkTypeIPv4       = 228 // raw IPv4
	LinkTypeIPv6       = 229 // raw IPv6
	LinkTypeIPoIB      = 242 // IPoIB: a 40-byte link header, then the IPoIB header (as tshark reads it)
	LinkTypeInfiniBand = 247 // native InfiniBand packets from the LRH on
	LinkTypeLinuxSLL2  = 276 // Linux cooked capture v2
)

// linkTypeNames names the link types a RoCE user is likely to meet.
var linkTypeNames = map[uint16]string{
	0: "BSD loopback", 101: "raw IP", 105: "IEEE 802.11", 113: "Linux cooked (SLL)",
	127: "IEEE 802.11 radiotap", 197: "ERF", 228: "raw IPv4", 229: "raw IPv6",
	242: "IPoIB", 247: "InfiniBand", 276: "Linux cooked v2 (SLL2)",
}

// LinkTypeName returns the name of link type lt as rocedump prints it
// ("Linux cooked (SLL)", "InfiniBand"), and false for a link type it
// does not name. Ethernet, decoded everywhere, has no name here.
func LinkTypeName(lt uint16) (name string, ok bool) {
	name, ok = linkTypeNames[lt]
	return name, ok
}
