package dump_test

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/stretchr/testify/require"
)

// A frame shorter than its headers declare is cut (RoCE, icrc unchecked)
// only when the capture says it kept fewer bytes than the wire had; when
// the record's original length equals the bytes captured, the frame
// itself is short, and malformed (tshark: "length exceeds packet
// length").
func TestShortFrameCutOrMalformed(t *testing.T) {
	// An RC SEND Only over RoCEv2/IPv4 with a 16-byte payload, vector V1
	// of docs/icrc-vectors.md (74 bytes).
	whole, err := hex.DecodeString("02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f")
	require.NoError(t, err)
	short := whole[:60] // the BTH and 6 payload bytes
	var r dump.Record
	ts := time.Unix(1, 0)

	r.Decode(1, gopacket.CaptureInfo{Timestamp: ts, CaptureLength: 60, Length: 74}, capfile.LinkTypeEthernet, short)
	require.Equal(t, dump.KindRoCE, r.Kind, "cut by a snap length: %v", r.Err)
	require.True(t, r.ICRCUnchecked)
	require.Equal(t, 74, r.Len)

	r.Decode(1, gopacket.CaptureInfo{Timestamp: ts, CaptureLength: 60, Length: 60}, capfile.LinkTypeEthernet, short)
	require.Equal(t, dump.KindMalformed, r.Kind)
	require.ErrorIs(t, r.Err, ib.ErrTruncated)
	require.False(t, r.ICRCUnchecked)
	require.EqualError(t, r.Err, "roce: Frame at offset 0: truncated (want 74 bytes, have 60)")
}
