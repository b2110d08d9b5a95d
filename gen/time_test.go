package gen_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
)

// The limits, written out from the formats rather than read from the
// package: half of int64 picoseconds for a delay or gap, int64 nanoseconds
// since 1970 for pcapng, unsigned 32-bit seconds since 1970 for pcap.
var (
	maxDuration = 1281*time.Hour + time.Minute + 26018427387*time.Nanosecond // 2^62 ps
	lastTime    = time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC)
	pcapLast    = time.Date(2106, 2, 7, 6, 28, 15, 999999999, time.UTC)
	epoch       = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
)

func TestTimeLimitsConstants(t *testing.T) {
	if gen.MaxDuration != maxDuration || !gen.LastTime.Equal(lastTime) || !gen.FirstTime.Equal(epoch) {
		t.Errorf("MaxDuration %v, FirstTime %v, LastTime %v", gen.MaxDuration, gen.FirstTime, gen.LastTime)
	}
	if maxDuration*1000 > 1<<62 || (maxDuration+1)*1000 <= 1<<62 {
		t.Errorf("MaxDuration %v is not 2^62 ps", maxDuration)
	}
}

// TestSetTimes checks every time option at its limits: just inside is
// taken, just outside refused with an error naming the option and value.
func TestSetTimes(t *testing.T) {
	for _, tc := range []struct {
		name, ok, bad, why string
	}{
		{"delay", "1281h1m26.018427387s", "1281h1m26.018427388s", "longer than 1281h1m26.018427387s"},
		{"delay", "0s", "-1ns", "negative"},
		{"delay", "1281h", "2563h", "longer than"},
		{"gap", "1281h1m26.018427387s", "1281h1m26.018427388s", "longer than"},
		{"gap", "0s", "-1ns", "negative"},
		{"cnp-interval", "2562047h47m16.854775807s", "-1ns", "negative"},
		{"start", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "before 1970-01-01T00:00:00Z"},
		{"start", "1970-01-01T01:00:00+01:00", "1970-01-01T00:59:59.999999999+01:00", "before"},
		{"start", "2262-04-11T23:47:16.854775807Z", "2262-04-11T23:47:16.854775808Z", "after 2262-04-11T23:47:16.854775807Z"},
		{"start", "2106-02-07T06:28:16Z", "2300-01-01T00:00:00Z", "after"},
	} {
		c := gen.DefaultConfig()
		if err := c.Set(tc.name, tc.ok); err != nil {
			t.Errorf("Set(%s, %s): %v", tc.name, tc.ok, err)
		} else if _, err := gen.New(c); err != nil {
			t.Errorf("New with %s=%s: %v", tc.name, tc.ok, err)
		}
		err := c.Set(tc.name, tc.bad)
		if err == nil {
			t.Errorf("Set(%s, %s) accepted", tc.name, tc.bad)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "roce: "+tc.name+": ") || !strings.Contains(msg, tc.why) {
			t.Errorf("Set(%s, %s): %q, want the option's name and %q", tc.name, tc.bad, msg, tc.why)
		}
	}
}

// TestConfigTimes checks that New refuses the same times set directly.
func TestConfigTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(c *gen.Config)
		ok   bool
	}{
		{"delay", func(c *gen.Config) { c.Delay = maxDuration }, true},
		{"delay", func(c *gen.Config) { c.Delay = maxDuration + 1 }, false},
		{"delay", func(c *gen.Config) { c.Delay = -1 }, false},
		{"gap", func(c *gen.Config) { c.Gap = maxDuration + 1 }, false},
		{"gap", func(c *gen.Config) { c.Gap = -time.Second }, false},
		{"cnp-interval", func(c *gen.Config) { c.CNPInterval = -1 }, false},
		{"cnp-interval", func(c *gen.Config) { c.CNPInterval = math.MaxInt64 }, true},
		{"start", func(c *gen.Config) { c.Start = epoch }, true},
		{"start", func(c *gen.Config) { c.Start = epoch.Add(-1) }, false},
		{"start", func(c *gen.Config) { c.Start = time.Time{} }, false},
		{"start", func(c *gen.Config) { c.Start = lastTime.Add(1) }, false},
		{"ack-every", func(c *gen.Config) { c.AckEvery = -1 }, false},
	} {
		c := gen.DefaultConfig()
		tc.set(&c)
		_, err := gen.New(c)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s %+v: %v", tc.name, c, err)
		case !tc.ok && !errors.Is(err, gen.ErrConfig):
			t.Errorf("%s: New gave %v, want ErrConfig", tc.name, err)
		case !tc.ok && !strings.Contains(err.Error(), ": "+tc.name+": "):
			t.Errorf("%s: %q does not name the setting", tc.name, err)
		}
	}
}

// lastOffset returns the time of the last frame of c from its start, in
// nanoseconds, and the number of frames.
func lastOffset(t *testing.T, c gen.Config) (time.Duration, int) {
	t.Helper()
	frames := generate(t, c)
	return frames[len(frames)-1].ci.Timestamp.Sub(c.Start), len(frames)
}

// run plays c to its end and returns its frames' times and the error.
func runTimes(c ...gen.Config) ([]time.Time, error) {
	g, err := gen.NewScenario(c)
	if err != nil {
		return nil, err
	}
	var ts []time.Time
	for g.Next() {
		ts = append(ts, g.Time())
	}
	return ts, g.Err()
}

// TestDelayLimit: the issue's -delay 2563h put the response 7 ns later.
// A delay up to the limit moves the ACK by exactly the delay; an ACK the
// phase's int64 picosecond clock cannot hold (2^63 ps from the phase's
// zero) is an error, not a wrapped time.
func TestDelayLimit(t *testing.T) {
	c := gen.DefaultConfig()
	c.Delay = 0
	e, n := lastOffset(t, c) // the ACK, due at the end of the last WRITE
	for _, d := range []time.Duration{time.Hour, 1000 * time.Hour, maxDuration} {
		c.Delay = d
		ts, err := runTimes(c)
		if err != nil {
			t.Fatalf("delay %v: %v", d, err)
		}
		if got := ts[n-1].Sub(c.Start); got != e+d {
			t.Errorf("delay %v: ACK at %v, want %v", d, got, e+d)
		}
	}
	// Gap and Delay together: the ACK at gap+e+delay, inside 2^63 ps
	// when gap+e+delay < 2*maxDuration, outside from 2 ns more.
	c.Delay = maxDuration
	c.Gap = maxDuration - e - 1
	ts, err := runTimes(c)
	if err != nil || ts[n-1].Sub(c.Start) != c.Gap+e+c.Delay {
		t.Fatalf("gap %v, delay %v: ACK at %v, %v", c.Gap, c.Delay, ts[len(ts)-1].Sub(c.Start), err)
	}
	c.Gap = maxDuration - e + 2
	ts, err = runTimes(c)
	if !errors.Is(err, gen.ErrTimeRange) || len(ts) != n-1 {
		t.Errorf("gap %v, delay %v: %d frames, %v; want %d and ErrTimeRange", c.Gap, c.Delay, len(ts), err, n-1)
	} else if want := "frame 17 would be more than 2562h2m52.036854775s after the end of the phase before"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestLastTime: frames up to LastTime are written, one nanosecond later
// is an error.
func TestLastTime(t *testing.T) {
	c := gen.DefaultConfig()
	e, n := lastOffset(t, c)
	c.Start = lastTime.Add(-e)
	ts, err := runTimes(c)
	if err != nil || len(ts) != n || !ts[n-1].Equal(lastTime) {
		t.Fatalf("start %v: %d frames, last %v, %v", c.Start, len(ts), ts[len(ts)-1], err)
	}
	c.Start = c.Start.Add(1)
	ts, err = runTimes(c)
	if !errors.Is(err, gen.ErrTimeRange) || len(ts) != n-1 || !strings.Contains(err.Error(), "after 2262-04-11T23:47:16.854775807Z") {
		t.Errorf("start %v: %d frames, %v", c.Start, len(ts), err)
	}
}

// TestGapLimit plays phases each close to MaxDuration long: the clock
// restarts with every phase, so the capture may span years, each phase
// exactly Gap after the one before.
func TestGapLimit(t *testing.T) {
	c := gen.DefaultConfig()
	c.Transport, c.Op, c.Size = ib.UD, gen.OpSend, 0 // one frame a phase
	c.Gap = maxDuration
	phases := []gen.Config{c, c, c, c}
	ts, err := runTimes(phases...)
	if err != nil || len(ts) != 4 {
		t.Fatalf("%d frames, %v", len(ts), err)
	}
	if !ts[0].Equal(c.Start.Add(maxDuration)) {
		t.Errorf("first frame at %v", ts[0])
	}
	// The frame's time on the wire: 66 bytes (Ethernet 14, IPv4 20, UDP
	// 8, BTH 12, DETH 8, ICRC 4), FCS 4, preamble 8 and gap 12, 90 bytes
	// at 100 Gb/s, 7.2 ns; so each phase starts 7 or 8 ns more than the
	// gap after the one before, and the clock keeps the picoseconds.
	for i := 1; i < len(ts); i++ {
		if d := ts[i].Sub(ts[i-1]) - maxDuration; d != 7 && d != 8 {
			t.Errorf("phase %d starts %v after the one before, want MaxDuration and 7.2 ns", i+1, d+maxDuration)
		}
	}
	if d := ts[3].Sub(ts[0]) - 3*maxDuration; d != 21 { // 3 x 7.2 ns
		t.Errorf("phase 4 starts %v after phase 1, want 3 MaxDuration and 21 ns", d+3*maxDuration)
	}
	// A phase whose ACK is more than 2^63 ps after the end of the phase
	// before.
	d := gen.DefaultConfig()
	d.Gap, d.Delay = maxDuration, maxDuration
	if ts, err := runTimes(c, d); len(ts) != 17 || !errors.Is(err, gen.ErrTimeRange) || !strings.HasPrefix(err.Error(), "roce: phase 2: ") {
		t.Errorf("a phase too long: %d frames, %v", len(ts), err)
	}
}

// TestWriteTimes checks Write against the limits of each format.
func TestWriteTimes(t *testing.T) {
	c := gen.DefaultConfig()
	e, n := lastOffset(t, c)
	write := func(start time.Time, f capfile.Format) (int, int, error) {
		c := c
		c.Start = start
		g, err := gen.New(c)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		m, err := gen.Write(&buf, g, f)
		return m, buf.Len(), err
	}
	for _, tc := range []struct {
		start  time.Time
		f      capfile.Format
		frames int // frames written, -1 for none and no bytes
		ok     bool
	}{
		{pcapLast.Add(-e), capfile.FormatPcap, n, true},
		{pcapLast.Add(-e + 1), capfile.FormatPcap, n - 1, false},
		{pcapLast.Add(-e + 1), capfile.FormatPcapng, n, true},
		{pcapLast.Add(1), capfile.FormatPcap, -1, false},
		{lastTime.Add(-e), capfile.FormatPcapng, n, true},
		{lastTime.Add(-e + 1), capfile.FormatPcapng, n - 1, false},
		{epoch, capfile.FormatPcap, n, true},
	} {
		m, size, err := write(tc.start, tc.f)
		switch {
		case tc.ok && (err != nil || m != n):
			t.Errorf("%v %v: %d frames, %v", tc.f, tc.start, m, err)
		case !tc.ok && !errors.Is(err, gen.ErrTimeRange):
			t.Errorf("%v %v: %d frames, %v; want ErrTimeRange", tc.f, tc.start, m, err)
		case tc.frames < 0 && (m != 0 || size != 0):
			t.Errorf("%v %v: %d frames, %d bytes written for a start the format cannot hold", tc.f, tc.start, m, size)
		case tc.frames >= 0 && m != tc.frames:
			t.Errorf("%v %v: %d frames, want %d", tc.f, tc.start, m, tc.frames)
		}
	}
	for _, tc := range []struct {
		f  capfile.Format
		t  time.Time
		ok bool
	}{
		{capfile.FormatPcap, pcapLast, true}, {capfile.FormatPcap, pcapLast.Add(1), false}, {capfile.FormatPcap, epoch, true}, {capfile.FormatPcap, epoch.Add(-1), false},
		{capfile.FormatPcapng, lastTime, true}, {capfile.FormatPcapng, lastTime.Add(1), false}, {capfile.FormatPcapng, epoch.Add(-1), false},
	} {
		if err := gen.CheckTime(tc.f, tc.t); (err == nil) != tc.ok || err != nil && !errors.Is(err, gen.ErrTimeRange) {
			t.Errorf("%v.CheckTime(%v): %v", tc.f, tc.t, err)
		}
	}
}
