package smbd_test

import (
	"fmt"

	"github.com/roce-go/roce/smbd"
)

// Example decodes an SMB Direct data transfer message as the payload of
// a SEND carries it: the SMB Direct header, then the SMB2 message, a
// READ request whose data the server is to RDMA WRITE to the buffer the
// descriptor of its channel information names.
func Example() {
	// The client builds the message.
	hdr := smbd.Header{CreditCharge: 1, Command: smbd.CmdRead, Credits: 256, MessageID: 7, TreeID: 1, SessionID: 0x41}
	rd := smbd.ReadRequest{Padding: 0x50, Length: 65536, Offset: 0x20000, Channel: smbd.ChannelRDMAV1Invalidate,
		ChannelInfoOffset: smbd.HeaderLen + smbd.ReadRequestLen, ChannelInfoLength: smbd.BufferDescriptorLen}
	desc := smbd.BufferDescriptor{Offset: 0x7f0010002000, Token: 0x1234, Length: 65536}
	smb2, _ := hdr.AppendTo(nil)
	smb2, _ = rd.AppendTo(smb2)
	smb2, _ = desc.AppendTo(smb2)
	dt := smbd.DataTransfer{CreditsRequested: 255, CreditsGranted: 10, Flags: smbd.FlagResponseRequested}
	send, _ := dt.AppendMessage(nil, smb2)

	// The server reads it.
	var got smbd.DataTransfer
	if err := got.Decode(send); err != nil {
		fmt.Println(err)
		return
	}
	var r smbd.Reassembler
	data, _ := got.Data(send)
	msg, err := r.Add(&got, data)
	if err != nil {
		fmt.Println(err)
		return
	}
	var h smbd.Header
	var req smbd.ReadRequest
	var d smbd.BufferDescriptor
	if err := h.Decode(msg); err != nil {
		fmt.Println(err)
		return
	}
	if err := req.Decode(msg[smbd.HeaderLen:]); err != nil {
		fmt.Println(err)
		return
	}
	info, _ := smbd.ChannelInfo(msg, req.ChannelInfoOffset, req.ChannelInfoLength)
	_ = d.Decode(info)
	fmt.Printf("SMB Direct credits %d/%d offset %d length %d response requested %v\n",
		got.CreditsRequested, got.CreditsGranted, got.DataOffset, got.DataLength, got.ResponseRequested())
	fmt.Printf("SMB2 %s mid %d tid %d len %d offset %#x %s\n", h.Command, h.MessageID, h.TreeID, req.Length, req.Offset, req.Channel)
	fmt.Printf("descriptor offset %#x token %#x length %d\n", d.Offset, d.Token, d.Length)
	// Output:
	// SMB Direct credits 255/10 offset 24 length 128 response requested true
	// SMB2 READ mid 7 tid 1 len 65536 offset 0x20000 SMB2_CHANNEL_RDMA_V1_INVALIDATE
	// descriptor offset 0x7f0010002000 token 0x1234 length 65536
}
