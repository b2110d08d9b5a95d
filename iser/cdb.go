package iser

import "strconv"

// CDB is a SCSI command descriptor block as a SCSI Command PDU carries
// it: 16 bytes, a shorter CDB padded with zeros.
type CDB [16]byte

// cdbOp describes a SCSI operation code: its name, and for the reads
// and writes where the logical block address and the transfer length
// lie (SBC-4, 5.x): lba at byte lbaAt, lbaLen bytes (3 for the 6-byte
// CDBs, whose top three bits belong to other fields); length at lenAt,
// lenLen bytes.
type cdbOp struct {
	name          string
	lbaAt, lbaLen int
	lenAt, lenLen int
	write         bool
}

// cdbOps are the operation codes an iSCSI session commonly carries.
var cdbOps = [256]cdbOp{
	0x00: {name: "TEST UNIT READY"},
	0x03: {name: "REQUEST SENSE"},
	0x08: {"READ(6)", 1, 3, 4, 1, false},
	0x0a: {"WRITE(6)", 1, 3, 4, 1, true},
	0x12: {name: "INQUIRY"},
	0x1a: {name: "MODE SENSE(6)"},
	0x25: {name: "READ CAPACITY(10)"},
	0x28: {"READ(10)", 2, 4, 7, 2, false},
	0x2a: {"WRITE(10)", 2, 4, 7, 2, true},
	0x35: {name: "SYNCHRONIZE CACHE(10)"},
	0x41: {name: "WRITE SAME(10)"},
	0x42: {name: "UNMAP"},
	0x5a: {name: "MODE SENSE(10)"},
	0x88: {"READ(16)", 2, 8, 10, 4, false},
	0x89: {name: "COMPARE AND WRITE"},
	0x8a: {"WRITE(16)", 2, 8, 10, 4, true},
	0x91: {name: "SYNCHRONIZE CACHE(16)"},
	0x93: {name: "WRITE SAME(16)"},
	0x9e: {name: "SERVICE ACTION IN(16)"},
	0xa0: {name: "REPORT LUNS"},
	0xa8: {"READ(12)", 2, 4, 6, 4, false},
	0xaa: {"WRITE(12)", 2, 4, 6, 4, true},
}

// Opcode returns the CDB's operation code.
func (c *CDB) Opcode() uint8 { return c[0] }

// Name returns the operation's name, or "0xNN" for one not named.
func (c *CDB) Name() string {
	if op := cdbOps[c[0]]; op.name != "" {
		return op.name
	}
	return "0x" + strconv.FormatUint(uint64(c[0]), 16)
}

// OpName returns the name of SCSI operation code op, "" for one not
// named; unlike Name it allocates nothing.
func OpName(op uint8) string { return cdbOps[op].name }

// cdbGroupLen is the length of a CDB by its operation code's group, the
// top three bits (SPC-4, 4.2.5.1): 0 for the reserved group 3 and the
// vendor-specific groups 6 and 7, whose lengths the code does not say.
var cdbGroupLen = [8]int{6, 10, 10, 0, 16, 12, 0, 0}

// Len returns the length of the CDB its operation code's group gives:
// 6, 10, 12 or 16 bytes, or 0 for a group of no fixed length.
func (c *CDB) Len() int { return cdbGroupLen[c[0]>>5] }

// ReadWrite reports whether the CDB is a READ or WRITE of 6, 10, 12 or
// 16 bytes, and which.
func (c *CDB) ReadWrite() (isRW, write bool) {
	op := cdbOps[c[0]]
	return op.lenLen > 0, op.write
}

// LBA returns the logical block address of a READ or WRITE, false for
// another operation.
func (c *CDB) LBA() (uint64, bool) {
	op := cdbOps[c[0]]
	if op.lbaLen == 0 {
		return 0, false
	}
	v := uint64(0)
	for _, x := range c[op.lbaAt : op.lbaAt+op.lbaLen] {
		v = v<<8 | uint64(x)
	}
	if op.lbaLen == 3 {
		v &= 0x1fffff // READ(6), WRITE(6): 21 bits
	}
	return v, true
}

// TransferLength returns the number of logical blocks a READ or WRITE
// moves, false for another operation. A 6-byte CDB's length of 0 means
// 256 blocks.
func (c *CDB) TransferLength() (uint32, bool) {
	op := cdbOps[c[0]]
	if op.lenLen == 0 {
		return 0, false
	}
	v := uint32(0)
	for _, x := range c[op.lenAt : op.lenAt+op.lenLen] {
		v = v<<8 | uint32(x)
	}
	if op.lenLen == 1 && v == 0 {
		v = 256
	}
	return v, true
}

// ReadWriteCDB returns the CDB of a READ (write false) or WRITE of n
// blocks at lba in the shortest form that holds them: 10 bytes, or 16.
func ReadWriteCDB(write bool, lba uint64, n uint32) CDB {
	var c CDB
	if lba <= 0xffffffff && n <= 0xffff {
		c[0] = 0x28
		if write {
			c[0] = 0x2a
		}
		be.PutUint32(c[2:], uint32(lba))
		be.PutUint16(c[7:], uint16(n))
		return c
	}
	c[0] = 0x88
	if write {
		c[0] = 0x8a
	}
	be.PutUint64(c[2:], lba)
	be.PutUint32(c[10:], n)
	return c
}
