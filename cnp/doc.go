// Package cnp will hold RoCEv2 congestion notification packets (BTH opcode
// 0x81, BECN set, 16 reserved bytes): decoding, building the CNP a
// notification point sends in reply to a CE-marked frame, and a per-QP
// pacer.
//
// It is planned and not written yet. The core already decodes and builds
// CNPs as ib.OpCNP frames: the 16 reserved bytes are their payload.
package cnp
