// Package smbd is SMB Direct, SMB over RDMA, as an RDMA connection
// carries it: the SMB Direct Negotiate Request and Negotiate Response,
// the SMB Direct Data Transfer message with its credits, flags and the
// remaining length of a fragmented message, a Reassembler that puts the
// fragments of one SMB2 message together, the SMB2 header in front of
// every SMB2 message, and the SMB2 READ and WRITE requests and responses
// with the RDMA channel information (the buffer descriptors) that lets
// the server move the data with RDMA WRITE and RDMA READ.
//
// The layouts are those of [MS-SMBD] (SMB2 Remote Direct Memory Access
// (RDMA) Transport Protocol: the Negotiate Request, section 2.2.1; the
// Negotiate Response, 2.2.2; the Data Transfer Message, 2.2.3; the
// buffer descriptor SMB_DIRECT_BUFFER_DESCRIPTOR_V1, 2.2.3.1; the
// reassembly of a fragmented message, 3.1.5.x) and [MS-SMB2] (Server
// Message Block Protocol Versions 2 and 3: the SYNC and ASYNC header,
// 2.2.1.2 and 2.2.1.1; READ Request and Response, 2.2.19 and 2.2.20;
// WRITE Request and Response, 2.2.21 and 2.2.22), all little-endian,
// both published by Microsoft in the Open Specifications
// (learn.microsoft.com/openspecs/windows_protocols/ms-smbd and
// .../ms-smb2). SMB Direct listens on port 5445 (the RDMA-CM service
// ID 0x0000000001065445 of the IP-CM port space); the first message of
// each side of a connection is the negotiation, every later one a Data
// Transfer message.
//
// The package builds on the standard library alone, with the method set
// of every codec of the module: Decode(b) resets the receiver and reads
// the structure at the start of b, reporting a short input with an
// error that matches ErrTruncated and a length or offset the layout
// does not allow with ErrBadLength; AppendTo(b) appends it encoded,
// refusing what Decode refuses with ErrBadValue or ErrBadLength, naming
// the field; Len says how long it is. Decoding allocates nothing, and
// neither does a Reassembler once its buffer has grown to the largest
// message it was given.
//
// A message is the payload of a SEND (or SEND with Invalidate) on the
// connection: package reassembly puts messages of several packets
// together.
package smbd
