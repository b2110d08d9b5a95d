package dcbx_test

import "github.com/roce-go/roce/internal/testkit/corpus"

// The golden LLDP frames (Ethernet, no FCS), written as the IEEE 802.1AB
// and 802.1Qaz layouts lay them out, one field per line: the hex words
// at the start of a line are the bytes, the rest describes them. There is
// no public capture of DCBX TLVs; testdata/golden/dcbx_lldp.pcap holds
// these frames (TestGoldenPcap checks it, -update writes it).
var goldenSpecs = []string{
	// A switch port: ETS with RoCE on traffic class 3, PFC on priority 3,
	// RoCEv2 and DSCP 26 on priority 3.
	`0180c200000e 020000000001 88cc     Ethernet: nearest-bridge group, source, LLDP
	0207 04 020000000001                Chassis ID TLV (type 1, length 7): MAC address
	0407 03 020000000001                Port ID TLV (type 2, length 7): MAC address
	0602 0078                           TTL TLV (type 3, length 2): 120 s
	fe19 0080c2 09                      ETS Configuration TLV (type 127, length 25), OUI 00-80-C2, subtype 9
	00                                  willing 0, CBS 0, reserved 0, max TCs 0 (8)
	00030000                            priority-to-TC: 0 0 0 3 0 0 0 0
	3200003200000000                    TC bandwidth %: 50 0 0 50 0 0 0 0
	0202020202020202                    TSA: ETS for every TC
	fe19 0080c2 0a                      ETS Recommendation TLV (type 127, length 25), subtype 10
	00                                  reserved
	00030000                            priority-to-TC: 0 0 0 3 0 0 0 0
	3200003200000000                    TC bandwidth %
	0202020202020202                    TSA
	fe06 0080c2 0b                      PFC Configuration TLV (type 127, length 6), subtype 11
	08                                  willing 0, MBC 0, reserved 0, PFC cap 8
	08                                  PFC enable: priority 3
	fe0b 0080c2 0c                      Application Priority TLV (type 127, length 11), subtype 12
	00                                  reserved
	63 12b7                             priority 3, reserved 0, sel 3 (UDP): port 4791 (RoCEv2)
	65 001a                             priority 3, reserved 0, sel 5 (DSCP): 26
	0000                                End of LLDPDU TLV`,
	// A willing host: every flag set, reserved bits and values used, two
	// other organizationally specific TLVs between the DCBX ones.
	`0180c200000e 020000000002 88cc     Ethernet
	0207 04 020000000002                Chassis ID TLV
	0407 03 020000000002                Port ID TLV
	0602 0078                           TTL TLV
	fe06 0080c2 01 0064                 IEEE 802.1 Port VLAN ID TLV (subtype 1): VLAN 100
	fe19 0080c2 09                      ETS Configuration TLV
	c3                                  willing 1, CBS 1, reserved 0, max TCs 3
	01234567                            priority-to-TC: 0 1 2 3 4 5 6 7
	0a141e2800000000                    TC bandwidth %: 10 20 30 40 0 0 0 0
	000102ff02020207                    TSA: strict, CBS, ETS, vendor, ETS, ETS, ETS, reserved 7
	fe09 00120f 01 03 6c00 0010         IEEE 802.3 MAC/PHY TLV (OUI 00-12-0F, subtype 1)
	fe06 0080c2 0b                      PFC Configuration TLV
	f8                                  willing 1, MBC 1, reserved 3, PFC cap 8
	18                                  PFC enable: priorities 3 and 4
	fe0e 0080c2 0c                      Application Priority TLV (length 14)
	5a                                  reserved 0x5a
	61 8915                             priority 3, sel 1 (Ethertype): 0x8915 (RoCEv1)
	9c 0cbc                             priority 4, reserved 3, sel 4 (TCP/SCTP/UDP/DCCP port): 3260 (iSCSI)
	e2 0016                             priority 7, sel 2 (TCP/SCTP port): 22
	0000                                End of LLDPDU TLV`,
	// PFC enabled on no priority, an empty application table, a reserved
	// priority-to-TC value and Max TCs 7 in the recommendation.
	`0180c200000e 020000000003 88cc     Ethernet
	0207 04 020000000003                Chassis ID TLV
	0407 03 020000000003                Port ID TLV
	0602 0078                           TTL TLV
	fe06 0080c2 0b                      PFC Configuration TLV
	40                                  willing 0, MBC 1, reserved 0, PFC cap 0
	00                                  PFC enable: none
	fe05 0080c2 0c                      Application Priority TLV (length 5)
	00                                  reserved, no entries
	fe19 0080c2 0a                      ETS Recommendation TLV
	ff                                  reserved 0xff
	f0000000                            priority-to-TC: 15 0 0 0 0 0 0 0
	6400000000000000                    TC bandwidth %: 100
	0000000000000000                    TSA: strict
	0000                                End of LLDPDU TLV
	0000000000000000                    zero bytes after the End TLV`,
	// LLDP without DCBX: rocedump says "not RoCE: LLDP".
	`0180c200000e 020000000004 88cc     Ethernet
	0207 04 020000000004                Chassis ID TLV
	0407 03 020000000004                Port ID TLV
	0602 0078                           TTL TLV
	0804 65746830                       Port Description TLV (type 4): "eth0"
	0000                                End of LLDPDU TLV
	00000000000000000000000000000000    padding to 60 bytes`,
}

// goldenFrames returns the golden frames.
func goldenFrames() [][]byte {
	var out [][]byte
	for _, s := range goldenSpecs {
		out = append(out, corpus.Spec(s))
	}
	return out
}
