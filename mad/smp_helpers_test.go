package mad_test

import (
	"time"

	"github.com/google/gopacket"
)

func gopacketCI(ts time.Time, n int) gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: ts, CaptureLength: n, Length: n}
}
