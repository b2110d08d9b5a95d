// Package mmap maps a regular file into memory read-only, so that a
// capture is read without copying it through read(2) into a buffer.
//
// Map returns ok false where mapping is not available (other systems, an
// empty file, a file that is not regular, a failed mmap); the caller
// then reads the file as a stream. A mapped file must not shrink while
// it is mapped: the pages past its new end fault (SIGBUS), which the
// goroutines that read them turn into a panic with
// runtime/debug.SetPanicOnFault and recover as an error, and the rest of
// the page that holds the new end reads as zeros, which the reader
// tells apart by asking the file's size (Size) after reading.
//
// The pages of a mapping that have been read count in the process's
// resident memory until they are unmapped, however large the file:
// Release hands back those read (madvise MADV_DONTNEED; the page cache
// keeps them, and a later read faults them in again), so that resident
// memory stays flat in the file's size. The mapping is advised
// MADV_SEQUENTIAL: the kernel reads ahead.
package mmap

import "os"

// File is a file mapped into memory read-only.
type File struct {
	b []byte
	f *os.File
}

// Map maps the whole of f, a regular file, read-only. Close releases the
// mapping; f stays open, and must stay so while the mapping is used.
func Map(f *os.File) (m *File, ok bool) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, false
	}
	b, ok := mapFile(f, int(fi.Size()))
	if !ok {
		return nil, false
	}
	return &File{b: b, f: f}, true
}

// Bytes returns the mapping: the file's bytes, as long as the file was
// when it was mapped. It must not be used after Close.
func (m *File) Bytes() []byte { return m.b }

// Size returns the file's size now (fstat), which is less than
// len(Bytes()) when the file was cut shorter since it was mapped.
func (m *File) Size() (int64, error) {
	fi, err := m.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// PageSize is the granularity of Release.
var PageSize = os.Getpagesize()

// Release tells the system that Bytes()[off:off+n] has been read and
// will not be needed soon: the whole pages within it leave the process's
// resident memory. A later read of them is still correct (the page is
// faulted in again from the page cache or the file); only its cost
// changes.
func (m *File) Release(off, n int) {
	lo := (off + PageSize - 1) / PageSize * PageSize
	hi := min(off+n, len(m.b)) / PageSize * PageSize
	if lo < hi {
		release(m.b[lo:hi])
	}
}

// Close unmaps the file. It does not close the file.
func (m *File) Close() error { return unmap(m.b) }
