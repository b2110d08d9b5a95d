// Package mmap maps a regular file into memory read-only, so that a
// capture is read without copying it through read(2) into a buffer.
//
// Map returns ok false where mapping is not available (other systems, an
// empty file, a file that is not regular, a failed mmap); the caller
// then reads the file as a stream. A mapped file must not shrink while
// it is mapped: the pages past its new end fault (SIGBUS), which the
// goroutines that read them turn into a panic with
// runtime/debug.SetPanicOnFault and recover as an error.
package mmap

import "os"

// Map maps the whole of f, a regular file, read-only. unmap releases the
// mapping; b must not be used after it.
func Map(f *os.File) (b []byte, unmap func() error, ok bool) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, nil, false
	}
	return mapFile(f, int(fi.Size()))
}
