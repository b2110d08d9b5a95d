//go:build !linux

package capture

// roceFilter is nil: Open does not capture on this system.
var roceFilter []Instruction
