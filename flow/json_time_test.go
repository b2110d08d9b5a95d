package flow

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A pcapng timestamp can lie far beyond the year 9999, where time.Time's
// own MarshalJSON fails; the report is still written, in the same layout.
func TestWriteJSONFarTimes(t *testing.T) {
	far := time.Date(294247, 1, 10, 4, 0, 54, 775807000, time.UTC) // past what int64 nanoseconds since 1970 reach
	near := time.Date(2025, 9, 1, 9, 39, 11, 554171000, time.UTC)
	r := Report{Flows: []FlowReport{{Transport: "RC", First: near, Last: far}}}
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	var got struct {
		Flows []map[string]any `json:"flows"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &got))
	require.Len(t, got.Flows, 1)
	want, err := near.MarshalJSON() // what time.Time writes where it can
	require.NoError(t, err)
	require.Equal(t, string(want[1:len(want)-1]), got.Flows[0]["first"])
	require.Equal(t, "294247-01-10T04:00:54.775807Z", got.Flows[0]["last"])
}
