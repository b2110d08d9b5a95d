// Package pfc will hold the IEEE 802.1Qbb priority flow control and IEEE
// 802.3x PAUSE frames (MAC Control, Ethertype 0x8808) as gopacket layers,
// with helpers between pause quanta and time at a link speed.
//
// It is planned and not written yet: see the project's issue on the
// congestion and flow-control codecs.
package pfc
