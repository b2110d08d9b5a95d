package capfile

import (
	"bytes"

	"github.com/google/gopacket"
)

// The Source as gopacket's packet data sources: gopacket.NewPacketSource
// reads pcap, pcapng (any number of interfaces and sections), gzip and
// ERF records through it, where pcapgo's readers take one format each.
var (
	_ gopacket.PacketDataSource         = (*Source)(nil)
	_ gopacket.ZeroCopyPacketDataSource = (*Source)(nil)
)

// ReadPacketData is Next for gopacket (gopacket.PacketDataSource): the
// frame's bytes, a copy that stays valid after the next call, and its
// capture information; LastLinkType gives its link type. A record that
// cannot be read is its *ReadError, as from Next: gopacket's
// PacketSource goes on to the next record after one that is not Fatal
// (it waits 5 ms, as for any error it does not know), and stops at
// io.EOF and at a Fatal one, which wraps io.ErrUnexpectedEOF.
func (s *Source) ReadPacketData() (data []byte, ci gopacket.CaptureInfo, err error) {
	data, ci, err = s.ZeroCopyReadPacketData()
	if err != nil {
		return nil, ci, err
	}
	return bytes.Clone(data), ci, nil
}

// ZeroCopyReadPacketData is ReadPacketData without the copy
// (gopacket.ZeroCopyPacketDataSource): the bytes are valid until the
// next call, as Next's are.
func (s *Source) ZeroCopyReadPacketData() (data []byte, ci gopacket.CaptureInfo, err error) {
	data, ci, _, err = s.Next()
	return data, ci, err
}

// LastLinkType returns the link type of the frame ReadPacketData (or
// Next) returned last: a pcapng capture's interfaces may each have their
// own.
func (s *Source) LastLinkType() uint16 { return s.lastLT }
