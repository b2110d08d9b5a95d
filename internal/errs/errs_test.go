package errs

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSentinels(t *testing.T) {
	all := []*Sentinel{ErrTruncated, ErrBadLength, ErrBadPad, ErrBadVersion, ErrBadICRC, ErrUnsupported, ErrNotRoCE, ErrBadValue, ErrUnchecked}
	seen := map[string]bool{}
	for _, s := range all {
		assert.Equal(t, Prefix+s.Reason(), s.Error())
		assert.False(t, seen[s.Reason()], "two sentinels say %q", s.Reason())
		seen[s.Reason()] = true
		for _, o := range all {
			assert.Equal(t, s == o, errors.Is(s, o), "%v is %v", s, o)
		}
		assert.Equal(t, s == ErrTruncated, errors.Is(s, io.ErrUnexpectedEOF), "%v is io.ErrUnexpectedEOF", s)
	}
}

func TestError(t *testing.T) {
	for _, c := range []struct {
		err  error
		msg  string
		is   []error
		isnt []error
	}{
		{Truncated("BTH", 0, 16, 9), "roce: BTH at offset 0: truncated (want 16 bytes, have 9)",
			[]error{ErrTruncated, io.ErrUnexpectedEOF}, []error{ErrBadLength}},
		{New("PFC", 14, 0, 0, ErrUnsupported), "roce: PFC at offset 14: unsupported",
			[]error{ErrUnsupported}, []error{ErrTruncated, io.ErrUnexpectedEOF}},
		{New("IPv4", 2, 60, 0, ErrBadLength), "roce: IPv4 at offset 2: bad length (want 60 bytes, have 0)",
			[]error{ErrBadLength}, nil},
		{New("X", 0, 0, 0, io.EOF), "roce: X at offset 0: EOF", []error{io.EOF}, nil},
		{New("X", 0, 0, 0, nil), "roce: X at offset 0: <nil>", nil, []error{ErrTruncated}},
	} {
		assert.EqualError(t, c.err, c.msg)
		for _, target := range c.is {
			assert.ErrorIs(t, c.err, target)
		}
		for _, target := range c.isnt {
			assert.NotErrorIs(t, c.err, target)
		}
	}
}

func TestFieldError(t *testing.T) {
	require.NoError(t, Fit("BTH.DestQP", 0xffffff, 24))
	require.NoError(t, Fit("any", ^uint64(0), 64))
	err := Fit("BTH.DestQP", 0x1000000, 24)
	require.EqualError(t, err, "roce: BTH.DestQP 0x1000000 does not fit 24 bits")
	require.ErrorIs(t, err, ErrBadValue)
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, FieldError{Field: "BTH.DestQP", Value: 0x1000000, Reason: "does not fit 24 bits", Err: ErrBadValue}, *fe)

	err = Length("Packet.Payload", 4, "RC Acknowledge carries no payload", ErrBadLength)
	require.EqualError(t, err, "roce: Packet.Payload of 4 bytes: RC Acknowledge carries no payload")
	require.ErrorIs(t, err, ErrBadLength)
	require.NotErrorIs(t, err, ErrBadValue)

	assert.Zero(t, testing.AllocsPerRun(100, func() {
		if Fit("f", 7, 3) != nil {
			panic("7 fits 3 bits")
		}
	}), "Fit allocates for a value that fits")
}

func TestICRCError(t *testing.T) {
	err := error(&ICRCError{Computed: 0x239c63d2, Received: 0x2d7b8b03})
	require.EqualError(t, err, "roce: bad ICRC (computed 0x239c63d2, received 0x2d7b8b03)")
	require.ErrorIs(t, err, ErrBadICRC)
	require.EqualError(t, &ICRCError{Computed: 1}, "roce: bad ICRC (computed 0x00000001, received 0x00000000)")
}

// TestSlot: a Slot's errors are the allocating constructors' (message,
// sentinel, type), the one *Error is reused, a copied Slot makes its own,
// and a nil Slot allocates each.
func TestSlot(t *testing.T) {
	s := new(Slot)
	slotSink = s // on the heap: a Slot on a stack that moves makes a new *Error
	e1 := s.Truncated("BTH", 0, 16, 9)
	require.Equal(t, Truncated("BTH", 0, 16, 9).Error(), e1.Error())
	require.ErrorIs(t, e1, ErrTruncated)
	var e *Error
	require.ErrorAs(t, e1, &e)
	e2 := s.New("UDP", 38, 40, 7, ErrBadLength)
	assert.Same(t, e1.(*Error), e2.(*Error), "one *Error per Slot")
	assert.Equal(t, "roce: UDP at offset 38: bad length (want 40 bytes, have 7)", e1.Error())
	c := new(Slot)
	*c = *s // a copy
	slotSink = c
	e3 := c.New("GRH", 14, 0, 0, ErrBadVersion)
	assert.NotSame(t, e2.(*Error), e3.(*Error), "a copied Slot shares its *Error")
	assert.Equal(t, "roce: UDP at offset 38: bad length (want 40 bytes, have 7)", e2.Error())
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = s.New("IPv4", 14, 0, 0, ErrBadVersion) }))
	var nilSlot *Slot
	assert.NotSame(t, nilSlot.New("A", 0, 0, 0, ErrBadPad).(*Error), nilSlot.New("A", 0, 0, 0, ErrBadPad).(*Error))
	// Keep copies an error held elsewhere; a sentinel passes as it is.
	kept := s.Keep(New("LRH", 4, 8, 4, ErrBadLength))
	assert.Same(t, e1.(*Error), kept.(*Error))
	assert.Equal(t, "roce: LRH at offset 4: bad length (want 8 bytes, have 4)", kept.Error())
	assert.Same(t, ErrNotRoCE, s.Keep(ErrNotRoCE))
	assert.Nil(t, s.Keep(nil))
	// TruncatedTable: the error of each length, made once.
	tab := TruncatedTable("Ethernet", 0, 14)
	for have, err := range tab {
		assert.Equal(t, Truncated("Ethernet", 0, 14, have).Error(), err.Error())
	}
	fs := new(FieldSlot)
	fieldSink = fs
	f1 := fs.Field("BTH.SE", 1, "must be 0 in a CNP", ErrBadValue)
	assert.Equal(t, Field("BTH.SE", 1, "must be 0 in a CNP", ErrBadValue).Error(), f1.Error())
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = fs.Field("BTH.PSN", 5, "must be 0 in a CNP", ErrBadValue) }))
}

// The slots of TestSlot, kept here so that they live on the heap.
var (
	slotSink  *Slot
	fieldSink *FieldSlot
)
