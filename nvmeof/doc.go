// Package nvmeof is NVMe over Fabrics as RDMA carries it: the 64-byte
// command capsule (submission queue entry) with its SGL descriptor and
// in-capsule data, the 16-byte response capsule (completion queue
// entry), the Fabrics commands (Connect and its data, Property Get and
// Set, Authentication Send and Receive, Disconnect), and the RDMA-CM
// private data of the NVMe/RDMA transport binding (the REQ, REP and REJ
// of a queue's connection).
//
// The layouts are those of NVM Express Base 2.0 (the submission and
// completion queue entries, section 4; the admin and NVM command sets),
// NVM Express over Fabrics 1.1 (the capsules, SGLs and Fabrics commands,
// sections 2 and 3) and the NVMe/RDMA transport binding (RDMA_CM_REQUEST,
// RDMA_CM_ACCEPT and RDMA_CM_REJECT, section 3.3), all little-endian.
// A command's opcode means one command on the admin queue (queue 0) and
// another on an I/O queue: the names here take the queue into account.
//
// The package builds on the standard library alone, with the method set
// of every codec of the module: Decode(b) resets the receiver and reads
// the structure at the start of b, reporting a short input with an
// error that matches ErrTruncated; AppendTo(b) appends it encoded; Len
// says how long it is. Command.Split returns the in-capsule data after
// the command. Decoding allocates nothing: the strings of ConnectData
// alias the input.
//
// A capsule is the payload of a SEND (or SEND with Invalidate) message on
// a queue's RDMA connection: package reassembly puts messages of several
// packets together.
package nvmeof
