package dump_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// capWriter builds pcap and pcapng files from the draft-ietf-opsawg
// layouts, with any quirk a test needs; nothing checks what it writes.
type capWriter struct {
	b  []byte
	bo binary.AppendByteOrder
}

func (w *capWriter) u16(v uint16) { w.b = w.bo.AppendUint16(w.b, v) }
func (w *capWriter) u32(v uint32) { w.b = w.bo.AppendUint32(w.b, v) }

// pcapHeader starts a pcap file: microseconds unless nano.
func pcapHeader(bo binary.AppendByteOrder, nano bool, snap uint32, lt uint16) *capWriter {
	w := &capWriter{bo: bo}
	magic := uint32(0xa1b2c3d4)
	if nano {
		magic = 0xa1b23c4d
	}
	w.u32(magic)
	w.u16(2)
	w.u16(4)
	w.u32(0)
	w.u32(0)
	w.u32(snap)
	w.u32(uint32(lt))
	return w
}

// record appends a pcap record claiming incl and orig bytes.
func (w *capWriter) record(sec, frac, incl, orig uint32, data []byte) *capWriter {
	w.u32(sec)
	w.u32(frac)
	w.u32(incl)
	w.u32(orig)
	w.b = append(w.b, data...)
	return w
}

// block appends a pcapng block, its body padded to 32 bits.
func (w *capWriter) block(typ uint32, body []byte) *capWriter {
	body = append(body, make([]byte, -len(body)&3)...)
	w.u32(typ)
	w.u32(uint32(12 + len(body)))
	w.b = append(w.b, body...)
	w.u32(uint32(12 + len(body)))
	return w
}

func (w *capWriter) put(b []byte, vs ...uint32) []byte {
	for _, v := range vs {
		b = w.bo.AppendUint32(b, v)
	}
	return b
}

// ngSection starts a pcapng section (appending to w when not nil).
func ngSection(w *capWriter, bo binary.AppendByteOrder) *capWriter {
	if w == nil {
		w = &capWriter{bo: bo}
	}
	w.bo = bo
	body := w.put(nil, 0x1a2b3c4d)
	body = w.bo.AppendUint16(w.bo.AppendUint16(body, 1), 0)
	return w.block(0x0a0d0d0a, append(body, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
}

// idb appends an Interface Description Block; tsresol 0 means none,
// tsoffset is set when not 0.
func (w *capWriter) idb(lt uint16, snap uint32, tsresol byte, tsoffset int64) *capWriter {
	body := w.bo.AppendUint16(w.bo.AppendUint16(nil, lt), 0)
	body = w.put(body, snap)
	if tsresol != 0 {
		body = w.bo.AppendUint16(w.bo.AppendUint16(body, 9), 1)
		body = append(body, tsresol, 0, 0, 0)
	}
	if tsoffset != 0 {
		body = w.bo.AppendUint16(w.bo.AppendUint16(body, 14), 8)
		body = w.bo.AppendUint64(body, uint64(tsoffset))
	}
	return w.block(1, w.put(body, 0))
}

// epb appends an Enhanced Packet Block claiming capLen captured bytes.
func (w *capWriter) epb(iface uint32, ts uint64, capLen, orig uint32, data []byte) *capWriter {
	return w.block(6, append(w.put(nil, iface, uint32(ts>>32), uint32(ts), capLen, orig), data...))
}

// pb appends an obsolete Packet Block (type 2).
func (w *capWriter) pb(iface uint16, ts uint64, data []byte) *capWriter {
	body := w.bo.AppendUint16(w.bo.AppendUint16(nil, iface), 0)
	return w.block(2, append(w.put(body, uint32(ts>>32), uint32(ts), uint32(len(data)), uint32(len(data))), data...))
}

// spb appends a Simple Packet Block of original length orig.
func (w *capWriter) spb(orig uint32, data []byte) *capWriter {
	return w.block(3, append(w.put(nil, orig), data...))
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

// gzDamaged compresses b, flushing the stream after its first at bytes
// and making the deflate block that follows one of the reserved type
// (RFC 1951 3.2.3: BTYPE 11 is an error), or, with badSum, spoiling the
// CRC-32 of the gzip trailer instead.
func gzDamaged(b []byte, at int, badSum bool) []byte {
	if badSum {
		z := gz(b)
		z[len(z)-8] ^= 0xff
		return z
	}
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b[:at])
	z.Flush()
	next := buf.Len()
	z.Write(b[at:])
	z.Close()
	out := buf.Bytes()
	out[next] = 0x07 // BFINAL 1, BTYPE 11
	return out
}

// row is one frame as both readers see it: tshark's fields, or the same
// values from dump; an unreadable frame has only its number and what.
type row struct {
	Number, Len, CapLen int
	Time                string // frame.time_epoch, "" without a timestamp
	Opcode, DestQP, PSN string // decoded BTH, "" when not RoCE or InfiniBand
	Unreadable          string // dump only: ReadError.Reason
}

// ours reads a capture with dump.Scan, as rocedump does.
func ours(t *testing.T, in []byte) (rows []row, st dump.Stats, err error) {
	t.Helper()
	src, err := capfile.NewSource(bytes.NewReader(in))
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	opt := dump.Options{Unreadable: func(e *capfile.ReadError) {
		rows = append(rows, row{Number: e.Frame, Unreadable: e.Reason})
	}}
	st, err = dump.Scan(src, opt, func(r *dump.Record) error {
		x := row{Number: r.Number, Len: r.Len, CapLen: len(r.Data)}
		if !r.Time.IsZero() {
			x.Time = fmt.Sprintf("%d.%09d", r.Time.Unix(), r.Time.Nanosecond())
		}
		if r.Kind == dump.KindRoCE || r.Kind == dump.KindInfiniBand {
			h := &r.RoCE.Packet.BTH
			x.Opcode, x.DestQP, x.PSN = strconv.Itoa(int(h.OpCode)), strconv.Itoa(int(h.DestQP)), strconv.Itoa(int(h.PSN))
		}
		rows = append(rows, x)
		return nil
	})
	return rows, st, err
}

// tshark reads a capture with tshark 4.0 and returns its frames, and
// what it said on standard error (it reports a damaged file there and
// still exits 0).
func tshark(t *testing.T, in []byte) ([]row, string) {
	t.Helper()
	bin := oracle.Need(t, "tshark")
	path := filepath.Join(t.TempDir(), "c")
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-n", "-r", path, "-T", "fields", "-E", "separator=/t", "-e", "frame.number", "-e", "frame.len",
		"-e", "frame.cap_len", "-e", "frame.time_epoch", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	msg := strings.ReplaceAll(stderr.String(), "Running as user \"root\" and group \"root\". This could be dangerous.\n", "")
	if err != nil && !strings.Contains(msg, "damaged or corrupt") && !strings.Contains(msg, "cut short") {
		t.Fatalf("tshark: %v\n%s", err, msg) // it exits 2 on a damaged file, having printed the frames before
	}
	var rows []row
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		num := func(s string) int {
			if s == "" {
				return 0
			}
			v, err := strconv.ParseUint(s, 0, 64)
			if err != nil {
				t.Fatalf("tshark field %q: %v", s, err)
			}
			return int(v)
		}
		x := row{Number: num(f[0]), Len: num(f[1]), CapLen: num(f[2]), Time: f[3]}
		if f[4] != "" {
			x.Opcode, x.DestQP, x.PSN = strconv.Itoa(num(f[4])), strconv.Itoa(num(f[5])), strconv.Itoa(num(f[6]))
		}
		rows = append(rows, x)
	}
	return rows, strings.TrimSpace(msg)
}

// goldenFrames returns the first n frames of a golden capture.
func goldenFrames(t *testing.T, name string, n int) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join("../testdata/golden", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readFrames(t, f, n)
}

func readFrames(t *testing.T, r io.Reader, n int) [][]byte {
	t.Helper()
	src, err := capfile.NewSource(r)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for len(out) < n {
		data, _, _, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]byte(nil), data...))
	}
	return out
}

// ibPackets returns native InfiniBand packets (from the LRH on, through
// the VCRC) of the ERF capture: the ERF records' bodies.
func ibPackets(t *testing.T, n int) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := readFrames(t, f, n)
	for i, r := range recs {
		wlen := int(binary.BigEndian.Uint16(r[14:]))
		recs[i] = r[16 : 16+wlen] // no ERF extension headers in this file
	}
	return recs
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

func sameRows(t *testing.T, what string, got, want []row) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: dump vs tshark (-tshark +dump):\n%s", what, d)
	}
}

// TestLinkTypesLikeTshark reads one capture per link type with dump and
// with tshark 4.0: the same frames, lengths, timestamps and BTH fields.
func TestLinkTypesLikeTshark(t *testing.T) {
	v4 := goldenFrames(t, "rocev2_ipv4.pcap", 4)
	v6 := goldenFrames(t, "rocev2_ipv6.pcap", 4)
	ip := func(fr []byte) []byte { return fr[14:] } // untagged frames only: 1 and 3
	sll2 := func(fr []byte) []byte {
		h := binary.BigEndian.AppendUint16(nil, binary.BigEndian.Uint16(fr[12:])) // protocol
		h = append(h, 0, 0, 0, 0, 0, 7, 0, 1, 0, 6)                               // reserved, ifindex 7, ARPHRD_ETHER, to us, 6-byte address
		return append(append(append(h, fr[6:12]...), 0, 0), fr[14:]...)
	}
	le, be := binary.LittleEndian, binary.BigEndian
	pcapOf := func(bo binary.AppendByteOrder, nano bool, lt uint16, frames ...[]byte) []byte {
		w := pcapHeader(bo, nano, 65535, lt)
		for i, fr := range frames {
			w.record(1700000000+uint32(i), 123456+uint32(i), uint32(len(fr)), uint32(len(fr)), fr)
		}
		return w.b
	}
	// Several sections and interfaces: Ethernet in microseconds, SLL2 in
	// nanoseconds with an offset, raw IPv6 in 2^-20 s; an unknown block.
	multi := ngSection(nil, le).idb(1, 0, 0, 0).idb(276, 0, 9, 100).epb(0, 1700000000_123456, uint32(len(v4[0])), uint32(len(v4[0])), v4[0]).
		epb(1, 1700000000_123456789, uint32(len(v4[2])+6), uint32(len(v4[2])+6), sll2(v4[2])).
		block(0x12345, []byte("skip me!")).block(0xbad, []byte{0, 0, 0x7e, 0xd9, 'a', 'b', 'c', 'd'})
	multi = ngSection(multi, be).idb(229, 0, 0x94, 0).idb(1, 0, 0, 0).epb(0, 1700000000<<20|1<<19, uint32(len(v6[0])-14), uint32(len(v6[0])-14), ip(v6[0])).
		epb(1, 1, uint32(len(v6[1])), uint32(len(v6[1])), v6[1]).pb(1, 1700000001_000001, v6[2])
	ngOf := func(lt uint16, frames ...[]byte) []byte {
		w := ngSection(nil, le).idb(lt, 0, 0, 0)
		for i, fr := range frames {
			w.epb(0, uint64(1700000000_000000+i), uint32(len(fr)), uint32(len(fr)), fr)
		}
		return w.b
	}
	for _, c := range []struct {
		name string
		in   []byte
		// custom: tshark shows a Custom Block as a frame of its own,
		// which dump skips (keeping the frame numbers): drop that row.
		custom int
	}{
		{name: "pcap little-endian microseconds", in: pcapOf(le, false, 1, v4...)},
		{name: "pcap big-endian nanoseconds", in: pcapOf(be, true, 1, v6...)},
		{name: "raw IP 101 IPv4 and IPv6", in: pcapOf(le, false, 101, ip(v4[0]), ip(v6[0]), ip(v4[2]))},
		{name: "raw IPv4 228", in: pcapOf(le, false, 228, ip(v4[0]), ip(v4[2]))},
		{name: "raw IPv6 229", in: pcapOf(be, false, 229, ip(v6[0]), ip(v6[2]))},
		{name: "Linux cooked v2 276 in a gzipped pcap", in: gz(pcapOf(le, true, 276, sll2(v4[0]), sll2(v6[2])))},
		{name: "Linux cooked v2 276 in a gzipped pcapng", in: gz(ngOf(276, sll2(v6[0]), sll2(v4[2])))},
		{name: "pcapng sections, interfaces, resolutions, offset, unknown and custom blocks, Packet Block", in: multi.b, custom: 3},
		// 2^63 microseconds is year 292,277; 400,000 years of 365 days
		// of microseconds further: tshark prints both exactly.
		{name: "pcapng timestamps after year 9999", in: ngSection(nil, le).idb(1, 0, 0, 0).epb(0, 1<<63, uint32(len(v4[0])), uint32(len(v4[0])), v4[0]).
			epb(0, 400000*365*86400*1000000, uint32(len(v4[2])), uint32(len(v4[2])), v4[2]).b},
		{name: "pcap snap length 0 (no limit)", in: pcapHeader(le, false, 0, 1).record(1, 0, uint32(len(v4[0])), uint32(len(v4[0])), v4[0]).
			record(2, 0, uint32(len(v4[1])), uint32(len(v4[1])), v4[1]).b},
		// Records longer than the snap length (64) read whole.
		{name: "pcap records longer than the snap length", in: pcapHeader(le, false, 64, 1).record(1, 0, uint32(len(v4[0])), uint32(len(v4[0])), v4[0]).
			record(2, 0, uint32(len(v4[1])), uint32(len(v4[1])), v4[1]).b},
		// A Simple Packet Block cut to the IDB's snap length of 64: the
		// frame's headers only (decoded as header-only frames), and no
		// timestamp.
		{name: "pcapng Simple Packet Block cut by the snap length", in: ngSection(nil, le).idb(1, 64, 0, 0).spb(uint32(len(v4[0])), v4[0][:64]).
			spb(uint32(len(v4[2])), v4[2][:64]).b},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := ours(t, c.in)
			if err != nil {
				t.Fatal(err)
			}
			want, msg := tshark(t, c.in)
			if msg != "" {
				t.Errorf("tshark: %s", msg)
			}
			if len(want) == 0 {
				t.Fatal("tshark read no frame")
			}
			if c.custom > 0 {
				want = append(want[:c.custom-1], want[c.custom:]...)
			}
			sameRows(t, c.name, got, want)
		})
	}
}

// TestLinkTypeInfiniBand reads native InfiniBand packets under
// LINKTYPE_INFINIBAND (247). tshark 4.0 does not read that link type
// ("network type 247 unknown or unsupported"): the same packets in their
// ERF records, which it does read, give the expected BTH fields, lengths
// and times.
func TestLinkTypeInfiniBand(t *testing.T) {
	f, err := os.ReadFile(filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tshark(t, f)
	pkts := ibPackets(t, len(want))
	// The ERF file's times, to the nanosecond, in a nanosecond pcap.
	w := pcapHeader(binary.LittleEndian, true, 65535, capfile.LinkTypeInfiniBand)
	for i, p := range pkts {
		sec, ns, _ := strings.Cut(want[i].Time, ".")
		s, _ := strconv.Atoi(sec)
		n, _ := strconv.Atoi(ns)
		w.record(uint32(s), uint32(n), uint32(len(p)), uint32(len(p)), p)
	}
	got, st, err := ours(t, w.b)
	if err != nil {
		t.Fatal(err)
	}
	if st.InfiniBand == 0 || st.Unsupported != 0 {
		t.Errorf("stats %+v", st)
	}
	sameRows(t, "link type 247 vs ERF", got, want)
}

// TestQuirksLikeTshark: records tshark reports as damaged. Where tshark
// stops ("appears to be damaged or corrupt"), dump reports the record
// with its frame number and, where the block length allows (pcapng),
// reads on; the frames after it are compared with tshark's reading of
// the file without the bad block, numbered one further. pcap has no way
// past a bad length: there dump stops where tshark stops.
func TestQuirksLikeTshark(t *testing.T) {
	fr := goldenFrames(t, "rocev2_ipv4.pcap", 3)
	n := uint32(len(fr[0]))
	le := binary.LittleEndian
	epb := func(w *capWriter, i int) *capWriter {
		return w.epb(0, uint64(1700000000_000000+i), uint32(len(fr[i])), uint32(len(fr[i])), fr[i])
	}
	head := func() *capWriter { return ngSection(nil, le).idb(1, 0, 0, 0) }
	badSPB := (&capWriter{bo: le}).spb(n+100, fr[0]).b // claims 100 bytes more than it holds
	badEPB := (&capWriter{bo: le}).epb(0, 0, 5000, 5000, fr[0]).b
	twoThenOne := pcapHeader(le, false, 65535, 1).record(1, 0, n, n, fr[0]).record(2, 0, n, n, fr[1]).record(3, 0, n, n, fr[2]).b
	for _, c := range []struct {
		name       string
		in         []byte // the file with the quirk
		repaired   []byte // without its bad record: what tshark reads whole; nil for pcap; for gzip the file undamaged
		tsharkSays string
		badFrame   int   // the frame dump reports
		fatal      error // what Scan returns; nil when it reads on
	}{
		{"Simple Packet Block longer than its block, at the end", cat(epb(head(), 1).b, badSPB), epb(head(), 1).b,
			"of an SPB is too small for 166 bytes", 2, nil},
		{"Simple Packet Block longer than its block, in the middle", cat(head().b, badSPB, epb(epb(&capWriter{bo: le}, 1), 2).b),
			epb(epb(head(), 1), 2).b, "of an SPB is too small for 166 bytes", 1, nil},
		{"Enhanced Packet Block longer than its block", cat(epb(head(), 1).b, badEPB, epb(&capWriter{bo: le}, 2).b),
			epb(epb(head(), 1), 2).b, "total block length 100 of an EPB is too small for 5000 bytes", 2, nil},
		{"pcap record over 262144 bytes", pcapHeader(le, false, 65535, 1).record(1, 0, n, n, fr[0]).
			record(2, 0, 300000, 300000, fr[1]).record(3, 0, n, n, fr[0]).b, nil,
			"File has 300000-byte packet, bigger than maximum of 262144", 2, capfile.ErrUnreadable},
		{"pcap cut in a record", pcapHeader(le, false, 65535, 1).record(1, 0, n, n, fr[0]).record(2, 0, n, n, fr[0][:10]).b, nil,
			"cut short in the middle of a packet", 2, io.ErrUnexpectedEOF},
		// tshark decompresses ahead in blocks and may print none of the
		// frames before the damage: what dump reads before it must be
		// what tshark reads of the file undamaged.
		{"gzip damaged after two records", gzDamaged(twoThenOne, len(twoThenOne)-int(n)-16, false), gz(twoThenOne),
			"cannot be decompressed; it may be damaged or corrupt", 3, capfile.ErrUnreadable},
		{"gzip with a bad checksum", gzDamaged(twoThenOne, 0, true), gz(twoThenOne),
			"cannot be decompressed; it may be damaged or corrupt", 4, capfile.ErrUnreadable},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, st, err := ours(t, c.in)
			if c.fatal == nil && err != nil || c.fatal != nil && !errors.Is(err, c.fatal) {
				t.Fatalf("Scan: %v, want %v", err, c.fatal)
			}
			var re *capfile.ReadError
			if c.fatal != nil && (!errors.As(err, &re) || re.Frame != c.badFrame || !re.Fatal) {
				t.Errorf("Scan: %#v, want a fatal ReadError of frame %d", err, c.badFrame)
			}
			theirs, msg := tshark(t, c.in)
			if !strings.Contains(msg, c.tsharkSays) {
				t.Errorf("tshark says %q, want %q", msg, c.tsharkSays)
			}
			want := theirs // tshark stops at the bad record: the frames before it
			if c.repaired != nil && c.fatal != nil {
				want, _ = tshark(t, c.repaired)
				want = want[:c.badFrame-1]
			} else if c.repaired != nil {
				if st.Unreadable != 1 {
					t.Errorf("Unreadable %d, want 1", st.Unreadable)
				}
				want, _ = tshark(t, c.repaired)
				for i := range want {
					if want[i].Number >= c.badFrame {
						want[i].Number++
					}
				}
				bad := row{Number: c.badFrame, Unreadable: got[c.badFrame-1].Unreadable}
				want = append(want[:c.badFrame-1], append([]row{bad}, want[c.badFrame-1:]...)...)
				if bad.Unreadable == "" {
					t.Errorf("frame %d not reported unreadable", c.badFrame)
				}
			}
			sameRows(t, c.name, got, want)
		})
	}
}

// TestGzipDamagedAtStart: a gzip stream damaged before the capture's
// magic number is no capture (ErrNotCapture, the damage named), as tshark
// too reads no frame of it.
func TestGzipDamagedAtStart(t *testing.T) {
	fr := goldenFrames(t, "rocev2_ipv4.pcap", 1)
	n := uint32(len(fr[0]))
	in := gzDamaged(pcapHeader(binary.LittleEndian, false, 65535, 1).record(1, 0, n, n, fr[0]).b, 0, false)
	_, err := capfile.NewSource(bytes.NewReader(in))
	if !errors.Is(err, capfile.ErrNotCapture) || !strings.HasPrefix(err.Error(), "roce: ") || !strings.Contains(err.Error(), "corrupt input") {
		t.Errorf("NewSource: %v, want ErrNotCapture naming the corrupt input", err)
	}
	if rows, msg := tshark(t, in); len(rows) != 0 || !strings.Contains(msg, "cannot be decompressed") {
		t.Errorf("tshark: %d frames, %q", len(rows), msg)
	}
}

// TestSourceNoAllocs: Next allocates nothing per record in steady state,
// in each format.
func TestSourceNoAllocs(t *testing.T) {
	fr := goldenFrames(t, "rocev2_ipv4.pcap", 2)
	le := binary.LittleEndian
	p := pcapHeader(le, false, 0, 1)
	ng := ngSection(nil, le).idb(1, 0, 9, 0).idb(276, 64, 0x94, -5)
	for i := 0; i < 400; i++ {
		f := fr[i%2]
		p.record(uint32(i), 0, uint32(len(f)), uint32(len(f)), f)
		ng.epb(0, uint64(i), uint32(len(f)), uint32(len(f)), f).spb(uint32(len(f)&^3), f[:len(f)&^3]).pb(1, uint64(i), f)
		if i%100 == 99 {
			ng = ngSection(ng, le).idb(1, 0, 9, 0).idb(276, 64, 0x94, -5)
		}
	}
	for _, c := range []struct {
		name string
		in   []byte
	}{{"pcap", p.b}, {"pcapng", ng.b}, {"pcap.gz", gz(p.b)}, {"pcapng.gz", gz(ng.b)}} {
		src, err := capfile.NewSource(bytes.NewReader(c.in))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			src.Next()
		}
		if n := testing.AllocsPerRun(100, func() {
			if data, _, _, err := src.Next(); err != nil || len(data) == 0 {
				t.Fatalf("%s: frame %d: %v", c.name, src.Number(), err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per record", c.name, n)
		}
	}
}
