package dump_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// maxSec is the last second of capfile.MaxTime (years -292277020688 to
// 292277024627 either side).
const maxSec = math.MaxInt64 - 62135596800

// stamp is one pcapng timestamp: units of 10^-exp s (2^-exp s when
// base2) counted from offset seconds (if_tsoffset).
type stamp struct {
	name   string
	base2  bool
	exp    uint8
	units  uint64
	offset int64
	// tsharkWrong: tshark 4.0 converts it wrongly (its fraction
	// overflows 64 bits below the nanosecond); the exact value stands.
	tsharkWrong bool
}

// farStamps are timestamps across the span dump holds, at several
// resolutions, decimal and binary, with offsets before 1970.
var farStamps = []stamp{
	{name: "ns, the last int64 nanosecond (2262)", exp: 9, units: 1<<63 - 1},
	{name: "ns, one past int64 nanoseconds", exp: 9, units: 1 << 63},
	{name: "ns, 2300", exp: 9, units: 10413792000123456789},
	{name: "ns, the last of 64 bits (2554)", exp: 9, units: 1<<64 - 1},
	{name: "µs, 3000", exp: 6, units: 32503680000123456},
	{name: "µs, 10000", exp: 6, units: 253402300800000001},
	{name: "µs, 2^63 (294247)", exp: 6, units: 1 << 63},
	{name: "µs, the last of 64 bits", exp: 6, units: 1<<64 - 1},
	{name: "ms, the last of 64 bits", exp: 3, units: 1<<64 - 1},
	{name: "s, 10^11 (5138)", exp: 0, units: 1e11},
	{name: "s, 2^62", exp: 0, units: 1 << 62},
	{name: "2^-10", base2: true, exp: 10, units: 1<<60 + 1},
	{name: "2^-20", base2: true, exp: 20, units: 1<<63 + 12345},
	{name: "2^-32, 2100", base2: true, exp: 32, units: 4102444800<<32 | 0x89abcdef},
	{name: "2^-30 before 1970", base2: true, exp: 30, units: 3<<30 + 7, offset: -86400},
	{name: "ps", exp: 12, units: 1<<64 - 1, tsharkWrong: true},
	{name: "µs less 10^12 s (-29719)", exp: 6, units: 5, offset: -1e12},
	{name: "µs, year 500", exp: 6, units: 5, offset: -46383577200},
	{name: "µs, year 0", exp: 6, units: 250000, offset: -62162031600},
	{name: "µs, year -1", exp: 6, units: 1, offset: -62193654000},
	{name: "ns, 1969", exp: 9, units: 999999999, offset: -1},
	{name: "µs, MaxTime", exp: 6, units: 999999, offset: maxSec},
	{name: "s, MinTime", exp: 0, units: 0, offset: -maxSec},
	{name: "ns, MinTime and a nanosecond", exp: 9, units: 1, offset: -maxSec},
}

// exact returns the time of a stamp, worked out with big rationals: the
// nanoseconds since 1970, cut towards the past.
func (s stamp) exact() *big.Int {
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s.exp)), nil)
	if s.base2 {
		den = new(big.Int).Lsh(big.NewInt(1), uint(s.exp))
	}
	v := new(big.Rat).SetFrac(new(big.Int).SetUint64(s.units), den)
	v.Add(v, new(big.Rat).SetInt64(s.offset))
	v.Mul(v, new(big.Rat).SetInt64(1e9))
	q, m := new(big.Int).DivMod(v.Num(), v.Denom(), new(big.Int)) // Euclidean: floor for a positive divisor
	_ = m
	return q
}

// epochText writes nanoseconds since 1970 as seconds with nine
// decimals, exactly.
func epochText(ns *big.Int) string {
	sign := ""
	a := new(big.Int).Set(ns)
	if a.Sign() < 0 {
		sign = "-"
		a.Neg(a)
	}
	s, f := new(big.Int).DivMod(a, big.NewInt(1e9), new(big.Int))
	return fmt.Sprintf("%s%s.%09d", sign, s, f.Int64())
}

// civil returns the proleptic Gregorian date and time of nanoseconds
// since 1970 (astronomical years: 0 is 1 BC), from the days since
// 1970 (H. Hinnant's civil_from_days), independently of package time.
func civil(ns *big.Int) (year int64, month, day, hh, mm, ss int, frac int64) {
	sec, f := new(big.Int).DivMod(ns, big.NewInt(1e9), new(big.Int)) // floor
	days, rest := new(big.Int).DivMod(sec, big.NewInt(86400), new(big.Int))
	z := days.Int64() + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	year = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if mp >= 10 {
		month = int(mp - 9)
	}
	if month <= 2 {
		year++
	}
	r := int(rest.Int64())
	return year, month, day, r / 3600, r / 60 % 60, r % 60, f.Int64()
}

// farCapture is a pcapng capture of one frame per stamp, each on an
// interface of its own resolution and offset.
func farCapture(stamps []stamp) []byte { return farCaptureOf(stamps, 0) }

// farCaptureOf is farCapture whose frames carry id and their index
// after the Ethernet header.
func farCaptureOf(stamps []stamp, id byte) []byte {
	le := binary.LittleEndian
	w := ngSection(nil, le)
	for _, s := range stamps {
		body := le.AppendUint16(le.AppendUint16(nil, 1), 0)
		body = le.AppendUint32(body, 0)
		res := s.exp
		if s.base2 {
			res |= 0x80
		}
		body = append(le.AppendUint16(le.AppendUint16(body, 9), 1), res, 0, 0, 0)
		if s.offset != 0 {
			body = le.AppendUint64(le.AppendUint16(le.AppendUint16(body, 14), 8), uint64(s.offset))
		}
		w.block(1, le.AppendUint32(body, 0))
	}
	fr := make([]byte, 60)
	copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5})
	for i, s := range stamps {
		fr[14], fr[15] = id, byte(i)
		w.epb(uint32(i), s.units, 60, 60, bytes.Clone(fr))
	}
	return w.b
}

// lines returns the text lines (the time and what follows) and the JSON
// objects of a capture, with fmt's time format and nine digits.
func farLines(t *testing.T, in []byte, f dump.TimeFormat) (text []string, json []string) {
	t.Helper()
	for _, jsonOut := range []bool{false, true} {
		var out bytes.Buffer
		src, err := capfile.NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dump.Dump(&out, src, dump.Options{JSON: jsonOut, Workers: 1, Text: dump.TextFormat{Time: f, Nano: true}}); err != nil {
			t.Fatal(err)
		}
		ls := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if jsonOut {
			json = ls
		} else {
			text = ls
		}
	}
	return text, json
}

var epochKey = regexp.MustCompile(`"frame.time_epoch":(-?[0-9]+\.[0-9]{9})`)

// TestFarTimesExact: pcapng timestamps across the whole span dump holds
// (2262 and beyond, 2554, 294247, billions of years, before 1970, before
// the year 1), at decimal and binary resolutions, come out exactly in
// JSON and in every text time format: against the times worked out here
// with big rationals and an independent calendar, and against tshark
// 4.0 and tcpdump 4.99 wherever they convert them right. tshark prints the seconds of a
// time before 1970 and then its fraction ("-1000000000000.000005" for
// 5 µs after -10^12 s, which is -999999999999.999995); the value it
// means is compared.
func TestFarTimesExact(t *testing.T) {
	in := farCapture(farStamps)
	exact := make([]*big.Int, len(farStamps))
	for i, s := range farStamps {
		exact[i] = s.exact()
	}
	// JSON and -tt: the exact number.
	epoch, json := farLines(t, in, dump.TimeEpoch)
	if len(json) != len(farStamps) || len(epoch) != len(farStamps) {
		t.Fatalf("%d JSON objects, %d lines, want %d", len(json), len(epoch), len(farStamps))
	}
	for i, s := range farStamps {
		want := epochText(exact[i])
		m := epochKey.FindStringSubmatch(json[i])
		if m == nil || m[1] != want {
			t.Errorf("%s: JSON %s, want frame.time_epoch %s", s.name, json[i][:min(80, len(json[i]))], want)
		}
		if got, _, _ := strings.Cut(epoch[i], " "); got != want {
			t.Errorf("%s: -tt %s, want %s", s.name, got, want)
		}
	}
	// -tttt and the default: the date and time in UTC.
	date, _ := farLines(t, in, dump.TimeDate)
	clock, _ := farLines(t, in, dump.TimeOfDay)
	for i, s := range farStamps {
		y, mo, d, hh, mm, ss, f := civil(exact[i])
		ys := fmt.Sprintf("%04d", y)
		if y < 0 {
			ys = fmt.Sprintf("-%04d", -y)
		}
		want := fmt.Sprintf("%s-%02d-%02d %02d:%02d:%02d.%09d", ys, mo, d, hh, mm, ss, f)
		if !strings.HasPrefix(date[i], want+" ") {
			t.Errorf("%s: -tttt %q, want %q", s.name, date[i][:min(40, len(date[i]))], want)
		}
		if want := want[strings.IndexByte(want, ' ')+1:]; !strings.HasPrefix(clock[i], want+" ") {
			t.Errorf("%s: time of day %q, want %q", s.name, clock[i][:min(40, len(clock[i]))], want)
		}
	}
	// -ttt and -ttttt: since the previous and the first line, exact
	// over any two times (up to 2^64 seconds apart).
	delta, _ := farLines(t, in, dump.TimeDelta)
	since, _ := farLines(t, in, dump.TimeSinceFirst)
	for i, s := range farStamps {
		for _, c := range []struct {
			what string
			line string
			ref  *big.Int
		}{{"-ttt", delta[i], exact[max(i-1, 0)]}, {"-ttttt", since[i], exact[0]}} {
			d := new(big.Int).Sub(exact[i], c.ref)
			sign := " "
			if d.Sign() < 0 {
				sign = "-"
				d.Neg(d)
			}
			sec, f := new(big.Int).DivMod(d, big.NewInt(1e9), new(big.Int))
			h, r := new(big.Int).DivMod(sec, big.NewInt(3600), new(big.Int))
			want := fmt.Sprintf("%s%02s:%02d:%02d.%09d", sign, h, r.Int64()/60, r.Int64()%60, f.Int64())
			if !strings.HasPrefix(c.line, want+" ") {
				t.Errorf("%s: %s %q, want %q", s.name, c.what, c.line[:min(40, len(c.line))], want)
			}
		}
	}

	// tshark: frame.time_epoch, frame.time (UTC), frame.time_delta and
	// frame.time_relative.
	bin := oracle.Need(t, "tshark")
	p := filepath.Join(t.TempDir(), "far.pcapng")
	if err := os.WriteFile(p, in, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-n", "-r", p, "-T", "fields", "-E", "separator=/t", "-e", "frame.time_epoch", "-e", "frame.time",
		"-e", "frame.time_delta", "-e", "frame.time_relative")
	cmd.Env = append(os.Environ(), "TZ=UTC", "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	rows := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(rows) != len(farStamps) {
		t.Fatalf("tshark read %d frames, want %d", len(rows), len(farStamps))
	}
	compared := 0
	for i, s := range farStamps {
		if s.tsharkWrong {
			continue
		}
		f := strings.Split(rows[i], "\t")
		if got := tsharkNs(t, f[0], true); got.Cmp(exact[i]) != 0 {
			t.Errorf("%s: tshark frame.time_epoch %s (%s ns), dump %s", s.name, f[0], got, epochText(exact[i]))
		}
		if f[1] != "Not representable" { // gmtime's int years: tshark has no date past 2^31 years
			if w := tsharkDate(t, f[1]); !strings.HasPrefix(date[i], w+" ") {
				t.Errorf("%s: tshark frame.time %q, dump -tttt %q", s.name, f[1], date[i][:min(40, len(date[i]))])
			}
			compared++
		}
		// Deltas beyond 2^62 s overflow tshark's nstime arithmetic.
		for j, ref := range []*big.Int{exact[max(i-1, 0)], exact[0]} {
			if farStamps[[]int{max(i-1, 0), 0}[j]].tsharkWrong {
				continue
			}
			d := new(big.Int).Sub(exact[i], ref)
			if new(big.Int).Abs(d).Cmp(new(big.Int).Lsh(big.NewInt(1e9), 62)) >= 0 {
				continue
			}
			if got := tsharkNs(t, f[2+j], false); got.Cmp(d) != 0 {
				t.Errorf("%s: tshark %s %s, want %s", s.name, []string{"frame.time_delta", "frame.time_relative"}[j], f[2+j], epochText(d))
			}
		}
	}
	if compared < len(farStamps)/2 {
		t.Errorf("tshark gave the date of %d frames only", compared)
	}

	// tcpdump 4.99 (libpcap 1.10): -tttt and its default time of day,
	// where it converts the time ("[Error converting time]" elsewhere);
	// it writes the year without padding ("500-03-01").
	compared = 0
	for _, c := range []struct {
		flag string
		ours []string
	}{{"-tttt", date}, {"", clock}} {
		args := []string{"-n", "-r", p, "--time-stamp-precision=nano"}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		cmd := exec.Command(oracle.Need(t, "tcpdump"), args...)
		cmd.Env = append(os.Environ(), "TZ=UTC")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tcpdump: %v", err)
		}
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if l != "" && l[0] != '\t' {
				lines = append(lines, l)
			}
		}
		if len(lines) != len(farStamps) {
			t.Fatalf("tcpdump %s: %d lines, want %d", c.flag, len(lines), len(farStamps))
		}
		for i, s := range farStamps {
			if s.tsharkWrong || strings.HasPrefix(lines[i], "[") {
				continue
			}
			f := strings.Fields(lines[i])
			want := f[0]
			if c.flag != "" {
				y, rest, _ := strings.Cut(f[0][1:], "-")
				year, err := strconv.ParseInt(f[0][:1]+y, 10, 64)
				if err != nil {
					t.Fatalf("tcpdump date %q", f[0])
				}
				ys := fmt.Sprintf("%04d", year)
				if year < 0 {
					ys = fmt.Sprintf("-%04d", -year)
				}
				want = ys + "-" + rest + " " + f[1]
			}
			if !strings.HasPrefix(c.ours[i], want+" ") {
				t.Errorf("%s: tcpdump %s %q, dump %q", s.name, c.flag, want, c.ours[i][:min(40, len(c.ours[i]))])
			}
			compared++
		}
	}
	if compared < len(farStamps)/2 {
		t.Errorf("tcpdump gave the time of %d frames only", compared)
	}
}

// tsharkNs reads a time tshark printed as seconds, "S.F". A time
// (epoch) before 1970 comes as its seconds then its fraction, which
// means -S + F: wiretap keeps the seconds floored and the nanoseconds
// positive, and nstime prints them as they are ("-1000000000000.000005"
// for 5 µs after -10^12 s, -999999999999.999995). A difference of times
// comes as the decimal number it is (both parts of one sign).
func tsharkNs(t *testing.T, v string, epoch bool) *big.Int {
	t.Helper()
	s, f, ok := strings.Cut(v, ".")
	sec, ok1 := new(big.Int).SetString(s, 10)
	ns, err := strconv.ParseInt(f, 10, 64)
	if !ok || !ok1 || err != nil || len(f) != 9 {
		t.Fatalf("tshark time %q", v)
	}
	if strings.HasPrefix(s, "-") && !epoch {
		ns = -ns
	}
	return sec.Add(sec.Mul(sec, big.NewInt(1e9)), big.NewInt(ns))
}

var months = map[string]int{"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12}

// tsharkDate rewrites tshark's frame.time, "Jan  1, 3000 00:00:00.123456000 UTC",
// as rocedump's -tttt writes it: "3000-01-01 00:00:00.123456000" (tshark
// pads the year to four characters with its sign, "-001"; ISO 8601 and
// rocedump to four digits, "-0001").
func tsharkDate(t *testing.T, v string) string {
	t.Helper()
	var mon, clock, zone string
	var day int
	var year int64
	if _, err := fmt.Sscanf(strings.Replace(v, ",", "", 1), "%s %d %d %s %s", &mon, &day, &year, &clock, &zone); err != nil || zone != "UTC" {
		t.Fatalf("tshark frame.time %q: %v", v, err)
	}
	ys := fmt.Sprintf("%04d", year)
	if year < 0 {
		ys = fmt.Sprintf("-%04d", -year)
	}
	return fmt.Sprintf("%s-%02d-%02d %s", ys, months[mon], day, clock)
}

// TestTimeOutsideSpan: a pcapng timestamp outside what dump holds (a
// count of seconds past 2^63, an if_tsoffset that carries past it) is
// an unreadable record naming the frame, and the frames around it read;
// the times at the very edges read exactly.
func TestTimeOutsideSpan(t *testing.T) {
	stamps := []stamp{
		{name: "ok", exp: 9, units: 5},
		{name: "2^64-1 s", exp: 0, units: 1<<64 - 1},
		{name: "2^63 s", exp: 0, units: 1 << 63},
		{name: "past MaxTime by the offset", exp: 9, units: 1e9, offset: maxSec},
		{name: "before MinTime by the offset", exp: 6, units: 0, offset: -maxSec - 1},
		{name: "offset -2^63", exp: 6, units: 1 << 62, offset: math.MinInt64},
		{name: "MaxTime", exp: 9, units: 999999999, offset: maxSec},
		{name: "2^-1 s", base2: true, exp: 1, units: 1<<64 - 1},
	}
	var unreadable []*capfile.ReadError
	var times []time.Time
	src, err := capfile.NewSource(bytes.NewReader(farCapture(stamps)))
	if err != nil {
		t.Fatal(err)
	}
	st, err := dump.Scan(src, dump.Options{Unreadable: func(e *capfile.ReadError) { unreadable = append(unreadable, e) }}, func(r *dump.Record) error {
		times = append(times, r.Time)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	near := time.Unix(math.MinInt64+(1<<62)/1000000, (1<<62)%1000000*1000) // -2^63 s and 2^62 µs: just inside
	if st.Frames != 3 || len(times) != 3 || !times[0].Equal(time.Unix(0, 5)) || !times[1].Equal(near) || !times[2].Equal(capfile.MaxTime) {
		t.Errorf("frames %d, times %v", st.Frames, times)
	}
	if len(unreadable) != 5 || st.Unreadable != 5 {
		t.Fatalf("%d unreadable (%d counted), want 5: %v", len(unreadable), st.Unreadable, unreadable)
	}
	for i, e := range unreadable {
		if e.Frame != []int{2, 3, 4, 5, 8}[i] || !e.Packet || e.Fatal || !errors.Is(e, capfile.ErrUnreadable) || !strings.Contains(e.Reason, "outside the span read exactly") {
			t.Errorf("unreadable %d: %+v", i, e)
		}
	}
	if got := unreadable[0].Error(); !strings.HasPrefix(got, "roce: frame 2: Enhanced Packet Block at offset ") || !strings.Contains(got, "timestamp of 18446744073709551615 units of 10^-0 s, if_tsoffset 0 s") {
		t.Errorf("message %q", got)
	}
	if max := time.Unix(maxSec, 999999999).UTC(); !capfile.MaxTime.Equal(max) || capfile.MaxTime.Year() != 292277024627 || capfile.MinTime.Year() != -292277020688 {
		t.Errorf("MinTime %v, MaxTime %v", capfile.MinTime, capfile.MaxTime)
	}
}

// TestWriterFarTimes: pcapng written by Writer holds every time dump
// reads, exactly (before 1970 and after 2554 on interfaces with an
// if_tsoffset), read back by Source and by tshark; pcap holds 1970 to
// 2106 and refuses a time outside with ErrTimeRange, naming the frame,
// where it wrote the epoch or a wrapped time before.
func TestWriterFarTimes(t *testing.T) {
	var times []time.Time
	for _, s := range farStamps {
		ns := s.exact()
		sec, f := new(big.Int).DivMod(ns, big.NewInt(1e9), new(big.Int))
		times = append(times, time.Unix(sec.Int64(), f.Int64()))
	}
	last := int64(uint64(1<<64-1) / 1e9) // 2554: the last second of nanoseconds since 1970 in 64 bits
	times = append(times, time.Unix(0, 0), time.Unix(last-1, 999999999), time.Unix(last, 0), time.Unix(-1<<33, 0), time.Unix(-1<<33-1, 999999999))
	fr := make([]byte, 60)
	copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5})
	var out bytes.Buffer
	w := capfile.NewWriter(&out, capfile.FormatPcapng, 1)
	for _, ts := range times {
		if err := w.WriteFrame(fr, 60, ts, 1); err != nil {
			t.Fatal(err)
		}
	}
	got := scanFrames(t, out.Bytes(), dump.Options{Workers: 1})
	if len(got) != len(times) {
		t.Fatalf("%d frames read back, want %d", len(got), len(times))
	}
	for i := range times {
		if !got[i].ts.Equal(times[i]) {
			t.Errorf("frame %d: written %v, read back %v", i+1, times[i], got[i].ts)
		}
	}
	p := filepath.Join(t.TempDir(), "w.pcapng")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(oracle.Need(t, "tshark"), "-n", "-r", p, "-T", "fields", "-e", "frame.time_epoch")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	o, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	rows := strings.Fields(string(o))
	if len(rows) != len(times) {
		t.Fatalf("tshark read %d frames, want %d", len(rows), len(times))
	}
	for i, ts := range times {
		want := new(big.Int).Add(new(big.Int).Mul(big.NewInt(ts.Unix()), big.NewInt(1e9)), big.NewInt(int64(ts.Nanosecond())))
		if g := tsharkNs(t, rows[i], true); g.Cmp(want) != 0 {
			t.Errorf("frame %d: tshark reads %s, written %s", i+1, rows[i], epochText(want))
		}
	}

	// pcap: 1970 to 2106.
	out.Reset()
	w = capfile.NewWriter(&out, capfile.FormatPcap, 1)
	edges := []time.Time{time.Unix(0, 0), time.Unix(1<<32-1, 999999999), time.Unix(1<<31, 1)}
	for _, ts := range edges {
		if err := w.WriteFrame(fr, 60, ts, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, ts := range []time.Time{time.Unix(-1, 999999999), time.Unix(1<<32, 0), times[2]} {
		if err := w.WriteFrame(fr, 60, ts, 1); !errors.Is(err, capfile.ErrTimeRange) {
			t.Errorf("pcap of %v: %v, want ErrTimeRange", ts, err)
		}
	}
	got = scanFrames(t, out.Bytes(), dump.Options{Workers: 1})
	if len(got) != len(edges) {
		t.Fatalf("pcap: %d frames, want %d", len(got), len(edges))
	}
	for i := range edges {
		if !got[i].ts.Equal(edges[i]) {
			t.Errorf("pcap frame %d: written %v, read back %v", i+1, edges[i], got[i].ts)
		}
	}
	src, err := capfile.NewSource(bytes.NewReader(farCapture(farStamps[2:3])))
	if err != nil {
		t.Fatal(err)
	}
	w = capfile.NewWriter(&out, capfile.FormatPcap, 1)
	_, err = dump.Scan(src, dump.Options{}, func(r *dump.Record) error { return dump.WriteRecord(w, r) })
	if !errors.Is(err, capfile.ErrTimeRange) || !strings.HasPrefix(err.Error(), "roce: frame 1: ") {
		t.Errorf("pcap of 2300 by WriteRecord: %v", err)
	}
}

// TestMergeFarTimes: Merge orders frames of any time, before 1970 and
// past 2262, as mergecap (Wireshark 4.0) merges the same captures: by
// time, exactly (frames a nanosecond apart past 2262, where int64
// nanoseconds wrap), the later capture first on a tie. (mergecap's order
// is the oracle, not the times it writes: it writes the frame of 1900 as
// a wrapped count of microseconds, year 586454, and cuts a 2^-20 s
// timestamp to the nanosecond and back.)
func TestMergeFarTimes(t *testing.T) {
	mc := oracle.Need(t, "mergecap")
	const y2300 = 10413792000123456789
	a := []stamp{
		{exp: 6, units: 5, offset: -2208988800}, // 1900
		{exp: 9, units: y2300},
		{exp: 9, units: y2300 + 2},
		{exp: 6, units: 32503680000123456}, // 3000
		{exp: 6, units: 32503680000123458},
	}
	b := []stamp{
		{exp: 9, units: 1700000000e9},
		{exp: 9, units: y2300}, // the same time as a's: b's first
		{exp: 9, units: y2300 + 1},
		{exp: 6, units: 32503680000123457},
		{exp: 0, units: 253402300800}, // 10000
	}
	c := []stamp{
		{exp: 9, units: 1<<63 - 1}, // the last int64 nanosecond
		{exp: 9, units: 1 << 63},
		{base2: true, exp: 20, units: 1<<63 + 12345},
	}
	dir := t.TempDir()
	var files []string
	for i, st := range [][]stamp{a, b, c} {
		p := filepath.Join(dir, fmt.Sprintf("%c.pcapng", 'a'+i))
		if err := os.WriteFile(p, farCaptureOf(st, byte('a'+i)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	merged := filepath.Join(dir, "m.pcapng")
	if out, err := exec.Command(mc, append([]string{"-w", merged}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("mergecap: %v: %s", err, out)
	}
	type fr struct {
		id string
		ts time.Time
	}
	var want []fr
	if _, err := dump.Scan(open(t, merged), dump.Options{Workers: 1}, func(r *dump.Record) error {
		want = append(want, fr{string(r.Data[14:16]), r.Time})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(a)+len(b)+len(c) {
		t.Fatalf("mergecap wrote %d frames", len(want))
	}
	for _, workers := range []int{1, 3} {
		var in []dump.MergeInput
		for _, f := range files {
			in = append(in, dump.MergeInput{Source: open(t, f)})
		}
		var got []fr
		if _, _, err := dump.Merge(in, workers, 0, func(i int, r *dump.Record) error {
			got = append(got, fr{string(r.Data[14:16]), r.Time})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("workers %d: %d frames merged, want %d", workers, len(got), len(want))
		}
		for i := range want {
			if got[i].id != want[i].id || i > 0 && got[i].ts.Before(got[i-1].ts) {
				t.Errorf("workers %d: frame %d is %q at %v, mergecap's %q", workers, i+1, got[i].id, got[i].ts, want[i].id)
			}
		}
	}
}

// TestPcapTimeEdges: pcap's timestamps, seconds of 32 bits without sign
// (to 2106) and micro- or nanoseconds, come out exactly in JSON and
// -tttt, as tshark reads them.
func TestPcapTimeEdges(t *testing.T) {
	fr := make([]byte, 60)
	copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5})
	secs := []uint32{0, 1<<31 - 1, 1 << 31, 1<<32 - 1}
	for _, nano := range []bool{false, true} {
		w := pcapHeader(binary.LittleEndian, nano, 0, 1)
		frac := uint32(999999)
		if nano {
			frac = 999999999
		}
		var exact []*big.Int
		for _, s := range secs {
			w.record(s, frac, 60, 60, fr)
			unit := int64(1000)
			if nano {
				unit = 1
			}
			exact = append(exact, new(big.Int).Add(new(big.Int).Mul(big.NewInt(int64(s)), big.NewInt(1e9)), big.NewInt(int64(frac)*unit)))
		}
		date, json := farLines(t, w.b, dump.TimeDate)
		p := filepath.Join(t.TempDir(), "c.pcap")
		if err := os.WriteFile(p, w.b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(oracle.Need(t, "tshark"), "-n", "-r", p, "-T", "fields", "-E", "separator=/t", "-e", "frame.time_epoch", "-e", "frame.time")
		cmd.Env = append(os.Environ(), "TZ=UTC", "HOME="+t.TempDir())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tshark: %v", err)
		}
		rows := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(rows) != len(secs) || len(json) != len(secs) {
			t.Fatalf("nano %v: tshark %d frames, dump %d, want %d", nano, len(rows), len(json), len(secs))
		}
		for i := range secs {
			f := strings.Split(rows[i], "\t")
			m := epochKey.FindStringSubmatch(json[i])
			if m == nil || m[1] != epochText(exact[i]) || tsharkNs(t, f[0], true).Cmp(exact[i]) != 0 {
				t.Errorf("nano %v, %d s: JSON %v, tshark %s, want %s", nano, secs[i], m, f[0], epochText(exact[i]))
			}
			if w := tsharkDate(t, f[1]); !strings.HasPrefix(date[i], w+" ") {
				t.Errorf("nano %v, %d s: -tttt %q, tshark %q", nano, secs[i], date[i][:40], w)
			}
		}
	}
}
