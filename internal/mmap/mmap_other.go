//go:build !unix

package mmap

import "os"

func mapFile(f *os.File, size int) ([]byte, bool) { return nil, false }

func release(b []byte) {}

func unmap(b []byte) error { return nil }
