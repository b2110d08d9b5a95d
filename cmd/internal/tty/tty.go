// Package tty tells the commands whether a file is a terminal, in pure
// Go and without a system call beyond stat.
package tty

import "os"

// IsTerminal reports whether f is a terminal: a character device other
// than the null device. Regular files, pipes and /dev/null are not. (A
// character device that is neither, such as /dev/zero, counts as a
// terminal: the commands would rather refuse it or write a named file
// than lose data.)
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
