package mad_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// madCaptures are the real captures that carry MADs (testdata/captures/
// README.md): RDMA-CM on RoCEv2 QP 1 in the two rxe captures, CM, SA
// (PathRecord) and SMPs on native InfiniBand in the ERF capture.
var madCaptures = []string{
	"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap",
	"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap",
	"ib_native_erf_dag_smp_ipoib_cm.pcap",
}

// capturedMAD is one MAD of a capture: the file, the frame number
// (counting from 1, as tshark does) and the 256 bytes.
type capturedMAD struct {
	file  string
	frame int
	raw   []byte
}

// capturedMADs returns every MAD of the captures, found through the
// module's own transport paths: googlelayers.Layers' parser for the Ethernet
// frames, gopacket.NewPacket from the LRH for the ERF records; the test
// fails when a path misses the MAD layer of a UD SEND Only to QP 0 or 1.
func capturedMADs(t *testing.T) []capturedMAD {
	t.Helper()
	var out []capturedMAD
	for _, name := range madCaptures {
		for i, rec := range corpus.Capture(t, name) { // for the ERF capture, whole ERF records
			var raw []byte
			var qp uint32
			var isUDSend bool
			if name == "ib_native_erf_dag_smp_ipoib_cm.pcap" {
				pkt := gopacket.NewPacket(erfIB(t, rec), googlelayers.LayerTypeLRH, gopacket.Default)
				bth, _ := pkt.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
				if bth == nil {
					continue
				}
				qp, isUDSend = bth.DestQP, bth.OpCode == ib.OpUDSendOnly
				if m, ok := pkt.Layer(googlelayers.LayerTypeMAD).(*googlelayers.MAD); ok {
					raw = append(append([]byte(nil), m.Contents...), m.Payload...)
				}
			} else {
				var l googlelayers.Layers
				var decoded []gopacket.LayerType
				if l.Parser().DecodeLayers(rec, &decoded) != nil && len(decoded) < 4 {
					continue // ARP
				}
				qp, isUDSend = l.BTH.DestQP, l.BTH.OpCode == ib.OpUDSendOnly
				if slices.Contains(decoded, googlelayers.LayerTypeMAD) {
					raw = append(append([]byte(nil), l.MAD.Contents...), l.MAD.Payload...)
				}
			}
			if isUDSend && qp <= 1 && len(raw) != mad.Len {
				t.Fatalf("%s frame %d: UD SEND Only to QP %d without a MAD layer", name, i+1, qp)
			}
			if raw != nil {
				out = append(out, capturedMAD{name, i + 1, raw})
			}
		}
	}
	return out
}

// erfIB returns the InfiniBand packet of an ERF record (Endace's ERF:
// a 16-byte header, type at byte 8 with bit 7 announcing 8-byte extension
// headers, wire length at bytes 14-15; type 21 is InfiniBand).
func erfIB(t *testing.T, rec []byte) []byte {
	t.Helper()
	if len(rec) < 16 || rec[8]&0x7f != 21 {
		t.Fatalf("not an ERF InfiniBand record: % x", rec[:min(len(rec), 16)])
	}
	off := 16
	for more := rec[8]&0x80 != 0; more; off += 8 {
		more = rec[off]&0x80 != 0
	}
	wlen := int(binary.BigEndian.Uint16(rec[14:]))
	return rec[off : off+wlen]
}

// decodeMAD decodes 256 bytes with a DecodingLayerParser over a fresh
// googlelayers.MADLayers, failing the test on an error.
func decodeMAD(t testing.TB, raw []byte) (*googlelayers.MADLayers, []gopacket.LayerType) {
	t.Helper()
	l := new(googlelayers.MADLayers)
	var pl gopacket.Payload
	p := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, append(l.DecodingLayers(), &pl)...)
	var decoded []gopacket.LayerType
	if err := p.DecodeLayers(raw, &decoded); err != nil {
		t.Fatalf("decode %x: %v", raw, err)
	}
	return l, decoded
}
