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
