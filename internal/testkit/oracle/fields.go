package oracle

import (
	"strconv"
	"strings"
)

// TsharkRoCEArgs are the tshark options the RoCE comparisons run with:
// RoCEv2 on UDP port 4791, IPv4 and UDP checksum checks on, and tshark
// 4.0's payload heuristics off, since they misread the short or random
// payloads of test frames as RPC-over-RDMA, EoIB and the like.
var TsharkRoCEArgs = []string{
	"-o", "infiniband.rroce.port:4791",
	"-o", "ip.check_checksum:TRUE",
	"-o", "udp.check_checksum:TRUE",
	"--disable-heuristic", "rpcrdma_infiniband",
	"--disable-heuristic", "mellanox_eoib",
	"--disable-heuristic", "iser_infiniband",
	"--disable-heuristic", "nvme_rdma",
	"--disable-heuristic", "smb_direct_infiniband",
	"--disable-heuristic", "smcr_infiniband",
	"--disable-heuristic", "lnet_ib",
	"--disable-heuristic", "sdp_infiniband",
	"--disable-heuristic", "fc_infiniband",
}

// SameValue compares one value tshark printed with ours: as text, or, when
// num is set, as unsigned integers in whatever base tshark printed
// ("0x0000ffff" equals "65535").
func SameValue(have, want string, num bool) bool {
	if !num {
		return have == want
	}
	a, err1 := strconv.ParseUint(have, 0, 64)
	b, err2 := strconv.ParseUint(want, 0, 64)
	return err1 == nil && err2 == nil && a == b
}

// SameValues compares every value of a field, in order.
func SameValues(have, want []string, num bool) bool {
	if len(have) != len(want) {
		return false
	}
	for i := range have {
		if !SameValue(have[i], want[i], num) {
			return false
		}
	}
	return true
}

// Hex formats bytes as tshark prints byte fields and MAC addresses:
// lowercase pairs joined by colons.
func Hex(b []byte) string {
	var s strings.Builder
	for i, x := range b {
		if i > 0 {
			s.WriteByte(':')
		}
		s.WriteString(strconv.FormatUint(uint64(x)|0x100, 16)[1:])
	}
	return s.String()
}
