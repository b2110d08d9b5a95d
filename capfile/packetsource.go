package capfile

import (
	"github.com/google/gopacket"
)

// NewPacketSource returns a Source that reads its frames from src
// instead of a file: a live capture (a capture.Handle, a gopacket pcap
// or pcapgo handle) or anything else with gopacket's ReadPacketData,
// every frame of link type linkType (LinkTypeEthernet for an Ethernet
// interface). It is read as a file's Source is (dump's Scan and Dump
// take it alike): frames are numbered from 1 as they come, and Next
// returns io.EOF when src's read does (capture.Handle does once it is
// closed); another error of src is Next's error. When src also has
// ZeroCopyReadPacketData (gopacket.ZeroCopyPacketDataSource) Source
// uses it, and Next then allocates nothing. A pipeline that reads ahead
// in batches (dump.Options.Workers other than 1) hands a live capture's
// frames on a batch at a time: give it one worker.
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
