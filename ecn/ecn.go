package ecn

import (
	"errors"
	"strconv"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
)

// Codepoint is the 2-bit ECN field of an IP header (RFC 3168, section 5).
type Codepoint uint8

// The four ECN codepoints.
const (
	NotECT Codepoint = 0b00 // not ECN-capable transport
	ECT1   Codepoint = 0b01 // ECN-capable transport, ECT(1)
	ECT0   Codepoint = 0b10 // ECN-capable transport, ECT(0)
	CE     Codepoint = 0b11 // congestion experienced
)

var names = [4]string{"Not-ECT", "ECT(1)", "ECT(0)", "CE"}

// String returns "Not-ECT", "ECT(1)", "ECT(0)" or "CE", and
// "Codepoint(n)" for a value that does not fit in two bits.
func (c Codepoint) String() string {
	if c > CE {
		return "Codepoint(" + strconv.Itoa(int(c)) + ")"
	}
	return names[c]
}

// IsECT reports whether c is ECT(0) or ECT(1), the codepoints a router
// may rewrite to CE.
func (c Codepoint) IsECT() bool { return c == ECT0 || c == ECT1 }

// MaxDSCP is the largest DSCP, six bits.
const MaxDSCP = 63

var (
	// ErrNotIP means the frame's Ethertype, after up to eight VLAN tags,
	// is neither IPv4 (0x0800) nor IPv6 (0x86DD). It is returned as is,
	// without allocating.
	ErrNotIP = errors.New("roce: not an IPv4 or IPv6 packet")
	// ErrRange means a DSCP above 63 or a codepoint above 3 was asked
	// for. It is returned as is, without allocating.
	ErrRange = errors.New("roce: DSCP or ECN codepoint out of range")
)

// Header sizes.
const (
	IPv4MinHeaderLen = hdr.IPv4MinLen
	IPv6HeaderLen    = hdr.IPv6Len
)

// ChecksumUpdate returns the Internet checksum hc updated for one 16-bit
// word of the checksummed data changing from m to m1, by RFC 1624's
// equation 3: HC' = ~(~HC + ~m + m') in ones' complement arithmetic.
// Unlike RFC 1141's form it never yields 0x0000 where a full
// recomputation yields 0xFFFF.
func ChecksumUpdate(hc, m, m1 uint16) uint16 { return hdr.UpdateChecksum(hc, m, m1) }

// checkIPv4 validates an IPv4 header's version and length. base is the
// header's offset in the caller's input, for the error.
func checkIPv4(h []byte, base int) error {
	if len(h) < IPv4MinHeaderLen {
		return errs.New("IPv4", base, base+IPv4MinHeaderLen, base+len(h), ib.ErrTruncated)
	}
	if hdr.IPv4(h).Version() != 4 {
		return errs.New("IPv4", base, 0, 0, ib.ErrBadVersion)
	}
	ihl := hdr.IPv4(h).HeaderLen()
	if ihl < IPv4MinHeaderLen {
		return errs.New("IPv4", base, IPv4MinHeaderLen, ihl, ib.ErrBadLength)
	}
	if len(h) < ihl {
		return errs.New("IPv4", base, base+ihl, base+len(h), ib.ErrTruncated)
	}
	return nil
}

// checkIPv6 validates an IPv6 header's version and length.
func checkIPv6(h []byte, base int) error {
	if len(h) < IPv6HeaderLen {
		return errs.New("IPv6", base, base+IPv6HeaderLen, base+len(h), ib.ErrTruncated)
	}
	if hdr.IPv6(h).Version() != 6 {
		return errs.New("IPv6", base, 0, 0, ib.ErrBadVersion)
	}
	return nil
}

// setTOS writes the TOS byte of a validated IPv4 header and updates the
// header checksum (RFC 1624). An unchanged byte leaves the checksum as it
// is: the update of a word to itself could turn 0xFFFF into 0x0000.
func setTOS(h []byte, tos uint8) {
	if ip := hdr.IPv4(h); ip.TOS() != tos {
		ip.SetTOS(tos)
	}
}

// getTC reads the Traffic Class of a validated IPv6 header.
func getTC(h []byte) uint8 { return hdr.IPv6(h).TrafficClass() }

// setTC writes the Traffic Class of a validated IPv6 header.
func setTC(h []byte, tc uint8) { hdr.IPv6(h).SetTrafficClass(tc) }

// IPv4TOS returns the TOS byte (DSCP<<2 | ECN) of the IPv4 header h.
func IPv4TOS(h []byte) (uint8, error) {
	if err := checkIPv4(h, 0); err != nil {
		return 0, err
	}
	return hdr.IPv4(h).TOS(), nil
}

// SetIPv4TOS writes the TOS byte of the IPv4 header h and updates its
// header checksum incrementally (RFC 1624).
func SetIPv4TOS(h []byte, tos uint8) error {
	if err := checkIPv4(h, 0); err != nil {
		return err
	}
	setTOS(h, tos)
	return nil
}

// IPv4ECN returns the ECN codepoint of the IPv4 header h.
func IPv4ECN(h []byte) (Codepoint, error) {
	tos, err := IPv4TOS(h)
	return Codepoint(tos & 3), err
}

// SetIPv4ECN writes the ECN codepoint of the IPv4 header h, keeping the
// DSCP, and updates the header checksum.
func SetIPv4ECN(h []byte, c Codepoint) error {
	if c > CE {
		return ErrRange
	}
	if err := checkIPv4(h, 0); err != nil {
		return err
	}
	setTOS(h, hdr.IPv4(h).TOS()&^3|uint8(c))
	return nil
}

// IPv4DSCP returns the DSCP of the IPv4 header h.
func IPv4DSCP(h []byte) (uint8, error) {
	tos, err := IPv4TOS(h)
	return tos >> 2, err
}

// SetIPv4DSCP writes the DSCP of the IPv4 header h, keeping the ECN
// field, and updates the header checksum.
func SetIPv4DSCP(h []byte, dscp uint8) error {
	if dscp > MaxDSCP {
		return ErrRange
	}
	if err := checkIPv4(h, 0); err != nil {
		return err
	}
	setTOS(h, dscp<<2|hdr.IPv4(h).TOS()&3)
	return nil
}

// IPv6TrafficClass returns the Traffic Class (DSCP<<2 | ECN) of the IPv6
// header h.
func IPv6TrafficClass(h []byte) (uint8, error) {
	if err := checkIPv6(h, 0); err != nil {
		return 0, err
	}
	return getTC(h), nil
}

// SetIPv6TrafficClass writes the Traffic Class of the IPv6 header h,
// keeping the version and the flow label. IPv6 has no header checksum.
func SetIPv6TrafficClass(h []byte, tc uint8) error {
	if err := checkIPv6(h, 0); err != nil {
		return err
	}
	setTC(h, tc)
	return nil
}

// IPv6ECN returns the ECN codepoint of the IPv6 header h.
func IPv6ECN(h []byte) (Codepoint, error) {
	tc, err := IPv6TrafficClass(h)
	return Codepoint(tc & 3), err
}

// SetIPv6ECN writes the ECN codepoint of the IPv6 header h, keeping the
// DSCP.
func SetIPv6ECN(h []byte, c Codepoint) error {
	if c > CE {
		return ErrRange
	}
	if err := checkIPv6(h, 0); err != nil {
		return err
	}
	setTC(h, getTC(h)&^3|uint8(c))
	return nil
}

// IPv6DSCP returns the DSCP of the IPv6 header h.
func IPv6DSCP(h []byte) (uint8, error) {
	tc, err := IPv6TrafficClass(h)
	return tc >> 2, err
}

// SetIPv6DSCP writes the DSCP of the IPv6 header h, keeping the ECN field.
func SetIPv6DSCP(h []byte, dscp uint8) error {
	if dscp > MaxDSCP {
		return ErrRange
	}
	if err := checkIPv6(h, 0); err != nil {
		return err
	}
	setTC(h, dscp<<2|getTC(h)&3)
	return nil
}

// IPHeader returns the IP header of an Ethernet frame, found after up to
// roce.MaxVLANs 802.1Q, 802.1ad or 0x9100 tags by its Ethertype, and its
// IP version, 4 or 6.
// The header aliases frame and runs to the end of it. A frame that is not
// IP gives ErrNotIP; a header too short for its version, a version field
// that disagrees with the Ethertype or an IPv4 IHL below 5 give errors
// wrapping ib.ErrTruncated, ib.ErrBadVersion or ib.ErrBadLength.
func IPHeader(frame []byte) (header []byte, version int, err error) {
	off, et, _, err := wire.Skip(frame)
	if err != nil {
		return nil, 0, err
	}
	h := frame[off:]
	switch et {
	case hdr.EtherTypeIPv4:
		if err := checkIPv4(h, off); err != nil {
			return nil, 0, err
		}
		return h, 4, nil
	case hdr.EtherTypeIPv6:
		if err := checkIPv6(h, off); err != nil {
			return nil, 0, err
		}
		return h, 6, nil
	}
	return nil, 0, ErrNotIP
}

// trafficClass reads the TOS or Traffic Class of a validated header.
func trafficClass(h []byte, version int) uint8 {
	if version == 4 {
		return hdr.IPv4(h).TOS()
	}
	return getTC(h)
}

// setTrafficClass writes the TOS or Traffic Class of a validated header,
// with the IPv4 checksum update.
func setTrafficClass(h []byte, version int, tc uint8) {
	if version == 4 {
		setTOS(h, tc)
	} else {
		setTC(h, tc)
	}
}

// FrameECN returns the ECN codepoint of the IPv4 or IPv6 packet in an
// Ethernet frame.
func FrameECN(frame []byte) (Codepoint, error) {
	h, v, err := IPHeader(frame)
	if err != nil {
		return 0, err
	}
	return Codepoint(trafficClass(h, v) & 3), nil
}

// SetFrameECN writes the ECN codepoint of the IPv4 or IPv6 packet in an
// Ethernet frame, in place, updating the IPv4 header checksum.
func SetFrameECN(frame []byte, c Codepoint) error {
	if c > CE {
		return ErrRange
	}
	h, v, err := IPHeader(frame)
	if err != nil {
		return err
	}
	setTrafficClass(h, v, trafficClass(h, v)&^3|uint8(c))
	return nil
}

// FrameDSCP returns the DSCP of the IPv4 or IPv6 packet in an Ethernet
// frame.
func FrameDSCP(frame []byte) (uint8, error) {
	h, v, err := IPHeader(frame)
	if err != nil {
		return 0, err
	}
	return trafficClass(h, v) >> 2, nil
}

// SetFrameDSCP writes the DSCP of the IPv4 or IPv6 packet in an Ethernet
// frame, in place, updating the IPv4 header checksum.
func SetFrameDSCP(frame []byte, dscp uint8) error {
	if dscp > MaxDSCP {
		return ErrRange
	}
	h, v, err := IPHeader(frame)
	if err != nil {
		return err
	}
	setTrafficClass(h, v, dscp<<2|trafficClass(h, v)&3)
	return nil
}

// MarkCE does what an ECN-marking router does to a packet it would
// otherwise drop: if the IPv4 or IPv6 packet in the Ethernet frame is
// ECN-capable (ECT(0) or ECT(1)) it rewrites the codepoint to CE, in
// place, and reports true. A Not-ECT packet is left alone (a router
// drops it instead) and a CE packet stays CE; both report false.
func MarkCE(frame []byte) (marked bool, err error) {
	h, v, err := IPHeader(frame)
	if err != nil {
		return false, err
	}
	tc := trafficClass(h, v)
	if !Codepoint(tc & 3).IsECT() {
		return false, nil
	}
	setTrafficClass(h, v, tc|uint8(CE))
	return true, nil
}
