package dcbx_test

import (
	"fmt"

	"github.com/roce-go/roce/dcbx"
)

// Build the DCBX TLVs of a RoCE switch port, then decode them as part of
// an LLDPDU.
func Example() {
	var pdu []byte
	pdu, _ = (&dcbx.PFCConfig{Willing: true, Cap: 8, Enable: 1<<3 | 1<<4}).AppendTo(pdu)
	pdu, _ = dcbx.AppendAppPriority(pdu, 0, []dcbx.AppEntry{
		{Priority: 3, Sel: dcbx.SelUDP, Protocol: 4791},         // RoCEv2
		{Priority: 3, Sel: dcbx.SelEthertype, Protocol: 0x8915}, // RoCEv1
	})
	pdu = append(pdu, 0, 0) // End of LLDPDU

	var d dcbx.TLVs
	if err := d.Decode(pdu); err != nil {
		fmt.Println(err)
		return
	}
	for prio := 0; prio < 8; prio++ {
		if d.PFCConfig.Enabled(prio) {
			fmt.Println("PFC on priority", prio)
		}
	}
	for i := 0; i < d.AppPriority.Entries(); i++ {
		e := d.AppPriority.Entry(i)
		fmt.Printf("%v %#x priority %d\n", e.Sel, e.Protocol, e.Priority)
	}
	// Output:
	// PFC on priority 3
	// PFC on priority 4
	// udp 0x12b7 priority 3
	// ethertype 0x8915 priority 3
}
