package oracle

import (
	"time"

	"github.com/google/gopacket"
)

func pcapCaptureInfo(ts time.Time, n int) gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: ts, CaptureLength: n, Length: n}
}
