//go:build unix

package mmap

import (
	"os"

	"golang.org/x/sys/unix"
)

func mapFile(f *os.File, size int) ([]byte, bool) {
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	_ = unix.Madvise(b, unix.MADV_SEQUENTIAL) // advice: reading goes on if it fails
	return b, true
}

func release(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

func unmap(b []byte) error { return unix.Munmap(b) }
