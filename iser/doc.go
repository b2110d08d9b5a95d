// Package iser is iSCSI Extensions for RDMA as an RDMA connection
// carries them: the iSER header in front of every iSCSI control-type
// PDU, the iSER Hello and HelloReply messages, the iSER private data of
// the RDMA-CM REQ and REP, and the iSCSI basic header segment the header
// carries, with the fields of the PDUs an I/O goes through (SCSI Command
// with its CDB, SCSI Response, SCSI Data-In and Data-Out, R2T, Login,
// Text, NOP, Task Management, Logout, Reject).
//
// The layouts are those of RFC 7145 (iSER: the header, section 9.2;
// Hello and HelloReply, 9.3 and 9.4; the CM private data, 9.1) and RFC
// 7143 (iSCSI: the basic header segment and the PDUs, section 11), all
// big-endian, and of the SCSI block commands' CDBs (SBC-4: READ and
// WRITE (6), (10), (12) and (16)). An iSER header with the Write STag
// Valid bit names the memory the target reads the command's data from
// (an RDMA READ: the initiator's data to the target); with the Read
// STag Valid bit, the memory it writes the data to (an RDMA WRITE).
//
// The package builds on the standard library alone, with the method set
// of every codec of the module: Decode(b) resets the receiver and reads
// the structure at the start of b, reporting a short input with an
// error that matches ErrTruncated; AppendTo(b) appends it encoded,
// refusing a field too wide for its bits with ErrBadValue; Len says how
// long it is. Decoding allocates nothing.
//
// A PDU is the payload of a SEND (or SEND with Invalidate) message on
// the connection: package reassembly puts messages of several packets
// together.
package iser
