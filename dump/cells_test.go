package dump_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// TestCellsAreTheTable: Cells.Fill gives, for every field of the table
// and every frame of the field tests' captures (shipped, generated,
// synthetic, cooked, cut short, MADs, IPoIB), exactly what the field's
// Get gives: the same presence and the same value as AppendValue writes
// it. Cells' fill functions are a faster way to the same values, and
// this is what keeps them the table's.
func TestCellsAreTheTable(t *testing.T) {
	cells := dump.NewCells()
	frames, values := 0, 0
	for _, path := range fieldTestCaptures(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		src, err := capfile.NewSource(f)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		_, err = dump.Scan(src, dump.Options{Workers: 1}, func(r *dump.Record) error {
			frames++
			cells.Fill(r)
			next, has := cells.Next(0), 0
			for i := range dump.Fields() {
				fd := &dump.Fields()[i]
				v, ok := fd.Get(r)
				if has := cells.Has(i); has != ok {
					bad++
					t.Errorf("%s frame %d: %s: Cells has it %v, Get %v", path, r.Number, fd.Name, has, ok)
					continue
				}
				if !ok {
					continue
				}
				values++
				has++
				if next != i {
					bad++
					t.Errorf("%s frame %d: Next gives field %d, want %d (%s)", path, r.Number, next, i, fd.Name)
				}
				next = cells.Next(i + 1)
				if got, want := string(fd.AppendValue(nil, cells.Values[i])), string(fd.AppendValue(nil, v)); got != want {
					bad++
					t.Errorf("%s frame %d: %s: Cells %s, Get %s", path, r.Number, fd.Name, got, want)
				}
			}
			if next != -1 {
				bad++
				t.Errorf("%s frame %d: Next gives field %d after the last", path, r.Number, next)
			}
			seen := map[int]bool{}
			for _, i := range cells.Fields() {
				if seen[i] || !cells.Has(i) {
					bad++
					t.Errorf("%s frame %d: Fields has %d twice or not Has", path, r.Number, i)
				}
				seen[i] = true
			}
			if len(seen) != has {
				bad++
				t.Errorf("%s frame %d: Fields has %d fields, the frame %d", path, r.Number, len(seen), has)
			}
			if bad > 10 {
				t.FailNow()
			}
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if frames < 10000 || values < 100000 {
		t.Errorf("only %d frames, %d values", frames, values)
	}
	t.Logf("%d values of %d frames", values, frames)
}

// TestCellsAllocs: Fill allocates nothing once its Cells have been used.
func TestCellsAllocs(t *testing.T) {
	path := fieldTestCaptures(t)[0]
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := capfile.NewSource(f)
	if err != nil {
		t.Fatal(err)
	}
	cells := dump.NewCells()
	n := 0
	if _, err := dump.Scan(src, dump.Options{Workers: 1}, func(r *dump.Record) error {
		cells.Fill(r)
		allocs := testing.AllocsPerRun(100, func() {
			cells.Fill(r)
			if cells.Next(0) != 0 {
				t.Fatal("frame.number missing")
			}
		})
		if allocs != 0 {
			t.Fatalf("frame %d: %v allocations", r.Number, allocs)
		}
		n++
		return nil
	}); err != nil || n == 0 {
		t.Fatal(n, err)
	}
}

// BenchmarkCells: Cells.Fill of each frame of the 4,000-frame RoCEv2
// capture, beside AppendJSON of the same decoded frames (the baseline)
// and beside asking every field's Get, what Fill replaces.
func BenchmarkCells(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"))
	if err != nil {
		b.Fatal(err)
	}
	src, err := capfile.NewSourceBytes(data) // the Records point into data
	if err != nil {
		b.Fatal(err)
	}
	var recs []*dump.Record
	if _, err := dump.Scan(src, dump.Options{Workers: 1}, func(r *dump.Record) error {
		c := *r
		recs = append(recs, &c)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	cells := dump.NewCells()
	b.Run("Fill", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cells.Fill(recs[i%len(recs)])
		}
	})
	b.Run("Get", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := recs[i%len(recs)]
			for j := range dump.Fields() {
				if v, ok := dump.Fields()[j].Get(r); ok {
					cells.Values[j] = v
				}
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		buf := make([]byte, 0, 4096)
		for i := 0; i < b.N; i++ {
			buf = recs[i%len(recs)].AppendJSON(buf[:0])
		}
	})
}
