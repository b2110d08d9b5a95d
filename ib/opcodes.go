package ib

// A named constant for every opcode IBTA defines (Vol 1 Table 38, with
// FLUSH and ATOMIC WRITE from IBTA 1.5, and OpCNP from Annex A17.9.3).
// Each name is "Op", the transport and the IBTA operation name in Go
// spelling: OpRCRDMAWriteOnly is "RC RDMA WRITE Only",
// OpUDSendOnlyWithImmediate is "UD SEND Only with Immediate". The
// Operation constants name bits 4..0 alone, for MakeOpcode.
const (
	// RC
	OpRCSendFirst                  Opcode = 0x00
	OpRCSendMiddle                 Opcode = 0x01
	OpRCSendLast                   Opcode = 0x02
	OpRCSendLastWithImmediate      Opcode = 0x03
	OpRCSendOnly                   Opcode = 0x04
	OpRCSendOnlyWithImmediate      Opcode = 0x05
	OpRCRDMAWriteFirst             Opcode = 0x06
	OpRCRDMAWriteMiddle            Opcode = 0x07
	OpRCRDMAWriteLast              Opcode = 0x08
	OpRCRDMAWriteLastWithImmediate Opcode = 0x09
	OpRCRDMAWriteOnly              Opcode = 0x0A
	OpRCRDMAWriteOnlyWithImmediate Opcode = 0x0B
	OpRCRDMAReadRequest            Opcode = 0x0C
	OpRCRDMAReadResponseFirst      Opcode = 0x0D
	OpRCRDMAReadResponseMiddle     Opcode = 0x0E
	OpRCRDMAReadResponseLast       Opcode = 0x0F
	OpRCRDMAReadResponseOnly       Opcode = 0x10
	OpRCAcknowledge                Opcode = 0x11
	OpRCAtomicAcknowledge          Opcode = 0x12
	OpRCCmpSwap                    Opcode = 0x13
	OpRCFetchAdd                   Opcode = 0x14
	OpRCSendLastWithInvalidate     Opcode = 0x16
	OpRCSendOnlyWithInvalidate     Opcode = 0x17
	OpRCFlush                      Opcode = 0x1C
	OpRCAtomicWrite                Opcode = 0x1D

	// UC
	OpUCSendFirst                  Opcode = 0x20
	OpUCSendMiddle                 Opcode = 0x21
	OpUCSendLast                   Opcode = 0x22
	OpUCSendLastWithImmediate      Opcode = 0x23
	OpUCSendOnly                   Opcode = 0x24
	OpUCSendOnlyWithImmediate      Opcode = 0x25
	OpUCRDMAWriteFirst             Opcode = 0x26
	OpUCRDMAWriteMiddle            Opcode = 0x27
	OpUCRDMAWriteLast              Opcode = 0x28
	OpUCRDMAWriteLastWithImmediate Opcode = 0x29
	OpUCRDMAWriteOnly              Opcode = 0x2A
	OpUCRDMAWriteOnlyWithImmediate Opcode = 0x2B

	// RD
	OpRDSendFirst                  Opcode = 0x40
	OpRDSendMiddle                 Opcode = 0x41
	OpRDSendLast                   Opcode = 0x42
	OpRDSendLastWithImmediate      Opcode = 0x43
	OpRDSendOnly                   Opcode = 0x44
	OpRDSendOnlyWithImmediate      Opcode = 0x45
	OpRDRDMAWriteFirst             Opcode = 0x46
	OpRDRDMAWriteMiddle            Opcode = 0x47
	OpRDRDMAWriteLast              Opcode = 0x48
	OpRDRDMAWriteLastWithImmediate Opcode = 0x49
	OpRDRDMAWriteOnly              Opcode = 0x4A
	OpRDRDMAWriteOnlyWithImmediate Opcode = 0x4B
	OpRDRDMAReadRequest            Opcode = 0x4C
	OpRDRDMAReadResponseFirst      Opcode = 0x4D
	OpRDRDMAReadResponseMiddle     Opcode = 0x4E
	OpRDRDMAReadResponseLast       Opcode = 0x4F
	OpRDRDMAReadResponseOnly       Opcode = 0x50
	OpRDAcknowledge                Opcode = 0x51
	OpRDAtomicAcknowledge          Opcode = 0x52
	OpRDCmpSwap                    Opcode = 0x53
	OpRDFetchAdd                   Opcode = 0x54
	OpRDResync                     Opcode = 0x55
	OpRDFlush                      Opcode = 0x5C
	OpRDAtomicWrite                Opcode = 0x5D

	// UD
	OpUDSendOnly              Opcode = 0x64
	OpUDSendOnlyWithImmediate Opcode = 0x65

	// XRC
	OpXRCSendFirst                  Opcode = 0xA0
	OpXRCSendMiddle                 Opcode = 0xA1
	OpXRCSendLast                   Opcode = 0xA2
	OpXRCSendLastWithImmediate      Opcode = 0xA3
	OpXRCSendOnly                   Opcode = 0xA4
	OpXRCSendOnlyWithImmediate      Opcode = 0xA5
	OpXRCRDMAWriteFirst             Opcode = 0xA6
	OpXRCRDMAWriteMiddle            Opcode = 0xA7
	OpXRCRDMAWriteLast              Opcode = 0xA8
	OpXRCRDMAWriteLastWithImmediate Opcode = 0xA9
	OpXRCRDMAWriteOnly              Opcode = 0xAA
	OpXRCRDMAWriteOnlyWithImmediate Opcode = 0xAB
	OpXRCRDMAReadRequest            Opcode = 0xAC
	OpXRCRDMAReadResponseFirst      Opcode = 0xAD
	OpXRCRDMAReadResponseMiddle     Opcode = 0xAE
	OpXRCRDMAReadResponseLast       Opcode = 0xAF
	OpXRCRDMAReadResponseOnly       Opcode = 0xB0
	OpXRCAcknowledge                Opcode = 0xB1
	OpXRCAtomicAcknowledge          Opcode = 0xB2
	OpXRCCmpSwap                    Opcode = 0xB3
	OpXRCFetchAdd                   Opcode = 0xB4
	OpXRCSendLastWithInvalidate     Opcode = 0xB6
	OpXRCSendOnlyWithInvalidate     Opcode = 0xB7

	// OpCNP is the RoCEv2 congestion notification packet (Annex A17.9.3).
	OpCNP Opcode = 0x81
)
