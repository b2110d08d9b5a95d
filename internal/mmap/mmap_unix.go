//go:build unix

package mmap

import (
	"os"
	"syscall"
)

func mapFile(f *os.File, size int) ([]byte, func() error, bool) {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, false
	}
	return b, func() error { return syscall.Munmap(b) }, true
}
