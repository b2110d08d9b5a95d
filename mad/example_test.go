package mad_test

import (
	"fmt"
	"net/netip"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/mad"
)

// Example builds the RDMA-CM ConnectRequest of a connection from
// 10.1.16.62 to port 7174 of 10.1.16.61, as a 256-byte MAD, and decodes
// it back with a DecodingLayerParser: the class table sends the MAD
// header's data to the CM layer, which decodes the REQ that the
// attribute ID names.
func Example() {
	var ip mad.IPCM
	ip.SetAddrs(netip.MustParseAddr("10.1.16.62"), netip.MustParseAddr("10.1.16.61"))
	ip.SrcPort = 40000
	private, _ := ip.AppendTo(nil)

	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2,
		Method: mad.MethodSend, TransactionID: 0x6ec0c56d, AttributeID: mad.AttrConnectRequest}
	req := mad.REQ{LocalCommID: 0x6ec0c56d, ServiceID: mad.RDMACMServiceID(mad.PortSpaceTCP, 7174),
		LocalQPN: 0x2c, StartingPSN: 0x3da6, PartitionKey: 0xffff, PrivateData: private}
	b, _ := h.AppendTo(nil)
	b, err := req.AppendTo(b)
	if err != nil {
		fmt.Println(err)
		return
	}

	var l googlelayers.MADLayers
	parser := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, l.DecodingLayers()...)
	decoded := make([]gopacket.LayerType, 0, 4)
	if err := parser.DecodeLayers(b, &decoded); err != nil {
		fmt.Println(err)
		return
	}
	r := &l.CM.REQ
	ps, port, _ := r.ServiceID.RDMACM()
	var got mad.IPCM
	r.IPCM(&got)
	fmt.Println(len(b), decoded, l.MAD.String())
	fmt.Printf("CM %s comm %#x qpn %#06x psn %#06x %v > %v:%d (RDMA-CM %v port space)\n",
		l.CM.Name(), r.LocalCommID, r.LocalQPN, r.StartingPSN, got.Src(), got.Dst(), port, ps)

	_, err = (&mad.REQ{LocalQPN: 1 << 24}).AppendTo(nil)
	fmt.Println(err)
	// Output:
	// 256 [MAD CM] CM Send ConnectRequest
	// CM REQ comm 0x6ec0c56d qpn 0x00002c psn 0x003da6 10.1.16.62 > 10.1.16.61:7174 (RDMA-CM TCP port space)
	// roce: CM.REQ.LocalQPN 0x1000000 does not fit 24 bits
}
