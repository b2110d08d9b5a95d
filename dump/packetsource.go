package dump

import (
	"github.com/google/gopacket"
)

// NewPacketSource returns a Source that reads its frames from src
// instead of a file: a live capture (a capture.Handle, a gopacket pcap
// or pcapgo handle) or anything else with gopacket's ReadPacketData,
// every frame of link type linkType (LinkTypeEthernet for an Ethernet
// interface). Scan, Dump and Writer take it as they take a file's
// Source: frames are numbered from 1 as they come, and Scan ends,
// without error, when src's read returns io.EOF (capture.Handle does
// once it is closed); another error of src ends it with that error.
// When src also has ZeroCopyReadPacketData
// (gopacket.ZeroCopyPacketDataSource) Source uses it, and Next then
// allocates nothing. Give Options.Workers 1 for a live capture: each
// frame is then decoded and handed on as it arrives.
func NewPacketSource(src gopacket.PacketDataSource, linkType uint16) *Source {
	s := &Source{count: &countReader{}, pkt: src, lt: linkType}
	s.zc, _ = src.(gopacket.ZeroCopyPacketDataSource)
	return s
}

// nextPacket is Next for a packet source.
func (s *Source) nextPacket() (data []byte, ci gopacket.CaptureInfo, err error) {
	if s.zc != nil {
		data, ci, err = s.zc.ZeroCopyReadPacketData()
	} else {
		data, ci, err = s.pkt.ReadPacketData()
	}
	if err != nil {
		return nil, ci, err
	}
	s.n++
	s.count.n += int64(len(data))
	return data, ci, nil
}
