package timeline

import (
	"slices"
	"testing"
)

// TestThinning: with room for 4 marks, 20 marks leave those numbered 0,
// 8 and 16: each time the list fills, every other mark goes and the
// stride doubles (1, 2, 4, 8), so the kept marks stay evenly spread.
func TestThinning(t *testing.T) {
	var m marks
	for i := 0; i < 20; i++ {
		if m.want(4) {
			m.kept = append(m.kept, Mark{Frame: i})
		}
	}
	var got []int
	for _, k := range m.kept {
		got = append(got, k.Frame)
	}
	if !slices.Equal(got, []int{0, 8, 16}) || m.seen != 20 || m.stride != 8 {
		t.Errorf("kept %v of %d (stride %d); want [0 8 16] of 20, stride 8", got, m.seen, m.stride)
	}
}
