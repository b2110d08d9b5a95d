package mad_test

import (
	"bytes"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// BenchmarkParser decodes three frames of the rxe capture with one
// googlelayers.Layers parser: an RDMA WRITE Only (Ethernet, IPv4, UDP, BTH, RETH,
// payload: the baseline), a MAD of a class left opaque (the same frame
// as the REQ with the class byte set to the vendor class 0x09: MAD
// header and payload), the CM REQ (MAD header and the whole REQ) and a
// directed-route SMP (the REQ frame carrying the SubnGetResp(SMInfo) of
// the native capture instead, MAD header, SMPDirected layer and the
// SMInfo attribute decoded from its data).
func BenchmarkParser(b *testing.B) {
	frames := corpus.Capture(b, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	req := frames[0]
	opaque := bytes.Clone(req)
	opaque[len(opaque)-4-mad.Len+1] = 0x09 // MgmtClass, 256+4 bytes from the end
	smp := bytes.Clone(req)
	copy(smp[len(smp)-4-mad.Len:], readSMPGolden(b)[1].bytes)
	var info mad.SMInfo
	for _, c := range []struct {
		name  string
		frame []byte
		last  gopacket.LayerType
		attr  func(l *googlelayers.Layers) error
	}{
		{"BTH", frames[3], gopacket.LayerTypePayload, nil},
		{"MAD", opaque, gopacket.LayerTypePayload, nil},
		{"CMREQ", req, googlelayers.LayerTypeCM, nil},
		{"SMPDRSMInfo", smp, googlelayers.LayerTypeSMPDirected, func(l *googlelayers.Layers) error { return info.Decode(l.SMPDirected.Data[:]) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var l googlelayers.Layers
			p := l.Parser()
			decoded := make([]gopacket.LayerType, 0, 16)
			if err := p.DecodeLayers(c.frame, &decoded); err != nil || decoded[len(decoded)-1] != c.last {
				b.Fatalf("%v %v", err, decoded)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.frame)))
			if c.attr != nil {
				if err := c.attr(&l); err != nil || info.GUID != 0x0002c9020020b4dd {
					b.Fatalf("SMInfo %v %#x", err, info.GUID)
				}
				for b.Loop() {
					_ = p.DecodeLayers(c.frame, &decoded)
					_ = c.attr(&l)
				}
				return
			}
			for b.Loop() {
				_ = p.DecodeLayers(c.frame, &decoded)
			}
		})
	}
}

// BenchmarkREQDecode decodes the REQ from its 232 bytes, without the
// parser.
func BenchmarkREQDecode(b *testing.B) {
	raw := corpus.Capture(b, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")[0]
	data := raw[len(raw)-4-mad.DataLen : len(raw)-4]
	var r mad.REQ
	if err := r.Decode(data); err != nil || r.LocalQPN != 0x11 {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Decode(data)
	}
}
