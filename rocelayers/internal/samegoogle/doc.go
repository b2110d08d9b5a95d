// Package samegoogle holds the tests that decode and build the same
// frames with rocelayers (github.com/gopacket/gopacket) and googlelayers
// (github.com/google/gopacket) and compare them field by field. It is a
// module of its own, so that rocelayers does not require Google's
// gopacket: the package has no code.
package samegoogle
