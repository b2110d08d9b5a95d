package parquetrows

import (
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/parquet-go/parquet-go/format"
)

// snappyCodec is the pages' default codec: Snappy blocks as Parquet
// readers expect them, made by s2's Snappy-compatible encoder (the
// library parquet-go itself uses), in its fast mode and into the
// Writer's own buffer. parquet-go's Snappy codec takes the slower
// "better" mode and, given a buffer shorter than the largest block,
// allocates a new one for every page.
type snappyCodec struct{}

func (snappyCodec) String() string                            { return "SNAPPY" }
func (snappyCodec) CompressionCodec() format.CompressionCodec { return format.Snappy }

func (snappyCodec) Encode(dst, src []byte) ([]byte, error) {
	n := s2.MaxEncodedLen(len(src))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.EncodeSnappy(dst[:n], src), nil
}

func (snappyCodec) Decode(dst, src []byte) ([]byte, error) { return snappy.Decode(dst, src) }
