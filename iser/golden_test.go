package iser_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/iser"
)

// golden is one structure of testdata/golden/iser_pdus.txt: its bytes
// and the fields the file says they hold.
type golden struct {
	kind, name string
	b          []byte
	fields     map[string]string
}

func readGolden(t *testing.T) []golden {
	t.Helper()
	f, err := os.Open("../testdata/golden/iser_pdus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if h, ok := strings.CutPrefix(line, "== "); ok {
			kind, name, _ := strings.Cut(h, " ")
			out = append(out, golden{kind: kind, name: name, fields: map[string]string{}})
			continue
		}
		g := &out[len(out)-1]
		toks := strings.Fields(line)
		i := 0
		for ; i < len(toks); i++ {
			hexs, rep, _ := strings.Cut(toks[i], "*")
			b, err := hex.DecodeString(hexs)
			if err != nil || len(b) != 1 {
				break
			}
			n := 1
			if rep != "" {
				if n, err = strconv.Atoi(rep); err != nil {
					t.Fatalf("%q: %v", toks[i], err)
				}
			}
			g.b = append(g.b, bytes.Repeat(b, n)...)
		}
		if rest := strings.Join(toks[i:], " "); rest != "" {
			for _, kv := range strings.Split(rest, ";") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("%s: field %q", g.name, kv)
				}
				g.fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return out
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// values decodes g and returns its fields by the names the golden file
// uses, and the structure encoded back.
func values(t *testing.T, g golden) (map[string]uint64, []byte) {
	t.Helper()
	var re []byte
	var err error
	m := map[string]uint64{}
	switch g.kind {
	case "header":
		var h iser.Header
		if err := h.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = h.AppendTo(nil)
		m = map[string]uint64{"Opcode": uint64(h.Opcode), "Flags": uint64(h.Flags), "WSV": b2u(h.WSV()), "RSV": b2u(h.RSV()),
			"WriteSTag": uint64(h.WriteSTag), "WriteBaseOffset": h.WriteBaseOffset, "ReadSTag": uint64(h.ReadSTag), "ReadBaseOffset": h.ReadBaseOffset}
	case "cm":
		var c iser.CMData
		if err := c.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = c.AppendTo(nil)
		m["Flags"] = uint64(c.Flags)
	case "bhs":
		var h iser.BHS
		if err := h.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = h.AppendTo(nil)
		m = map[string]uint64{"Immediate": b2u(h.Immediate), "Opcode": uint64(h.Opcode), "Flags": uint64(h.Flags), "Final": b2u(h.Final()),
			"TotalAHSLength": uint64(h.TotalAHSLength), "DataSegmentLength": uint64(h.DataSegmentLength), "LUN": h.LUN, "ITT": uint64(h.ITT),
			"ExpectedDataTransferLength": uint64(h.ExpectedDataTransferLength()), "TTT": uint64(h.TTT()), "CmdSN": uint64(h.CmdSN()),
			"StatSN": uint64(h.StatSN()), "ExpStatSN": uint64(h.ExpStatSN()), "ExpCmdSN": uint64(h.ExpCmdSN()), "MaxCmdSN": uint64(h.MaxCmdSN()),
			"DataSN": uint64(h.DataSN()), "BufferOffset": uint64(h.BufferOffset()), "ResidualCount": uint64(h.ResidualCount()),
			"DesiredDataTransferLength": uint64(h.DesiredDataTransferLength()), "Response": uint64(h.Response()), "Status": uint64(h.Status())}
		cdb := h.CDB()
		m["CDB.Opcode"] = uint64(cdb.Opcode())
		rw, w := cdb.ReadWrite()
		m["CDB.ReadWrite"], m["CDB.Write"] = b2u(rw), b2u(w)
		if v, ok := cdb.LBA(); ok {
			m["CDB.LBA"] = v
		}
		if v, ok := cdb.TransferLength(); ok {
			m["CDB.TransferLength"] = uint64(v)
		}
	default:
		t.Fatalf("kind %q", g.kind)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m, re
}

// TestGolden decodes every structure of the golden file: each field the
// file names has its value, and the structure encodes back to the same
// bytes.
func TestGolden(t *testing.T) {
	gs := readGolden(t)
	checked := 0
	for _, g := range gs {
		t.Run(g.kind+" "+g.name, func(t *testing.T) {
			got, re := values(t, g)
			for k, want := range g.fields {
				v, ok := got[k]
				if !ok {
					t.Fatalf("no field %s", k)
				}
				if w, err := strconv.ParseUint(want, 0, 64); err != nil || v != w {
					t.Errorf("%s = %#x, want %s", k, v, want)
				}
				checked++
			}
			if !bytes.Equal(re, g.b) {
				t.Errorf("encoded back:\n%x\nwant\n%x", re, g.b)
			}
		})
	}
	if len(gs) < 13 || checked < 90 {
		t.Errorf("%d structures, %d fields checked", len(gs), checked)
	}
	t.Logf("%d structures, %d fields checked", len(gs), checked)
}

// TestTruncated: each decoder refuses every input shorter than its
// structure with an error matching ErrTruncated, naming the structure.
func TestTruncated(t *testing.T) {
	type decoder interface{ Decode([]byte) error }
	for _, c := range []struct {
		d    decoder
		n    int
		name string
	}{{new(iser.Header), iser.HeaderLen, "iSER header"}, {new(iser.BHS), iser.BHSLen, "iSCSI BHS"}, {new(iser.CMData), iser.CMDataLen, "iSER CM"}} {
		b := make([]byte, c.n)
		for n := range c.n {
			err := c.d.Decode(b[:n])
			if !errors.Is(err, iser.ErrTruncated) || !strings.HasPrefix(err.Error(), "roce: ") || !strings.Contains(err.Error(), c.name) {
				t.Errorf("%s of %d bytes: %v", c.name, n, err)
			}
		}
		if err := c.d.Decode(b); err != nil {
			t.Errorf("%s of %d bytes: %v", c.name, c.n, err)
		}
	}
}

// TestBuildRefuses: a field wider than its bits is refused, naming it.
func TestBuildRefuses(t *testing.T) {
	for _, c := range []struct {
		a     interface{ AppendTo([]byte) ([]byte, error) }
		field string
	}{
		{&iser.Header{Opcode: 16}, "Header.Opcode"},
		{&iser.Header{Flags: 0x10}, "Header.Flags"},
		{&iser.BHS{Opcode: 64}, "BHS.Opcode"},
		{&iser.BHS{DataSegmentLength: 1 << 24}, "BHS.DataSegmentLength"},
	} {
		b, err := c.a.AppendTo(nil)
		if !errors.Is(err, iser.ErrBadValue) || !strings.Contains(err.Error(), c.field) || len(b) != 0 {
			t.Errorf("%T: %v, %d bytes", c.a, err, len(b))
		}
	}
	var h iser.BHS
	if err := h.SetWord(21, 1); !errors.Is(err, iser.ErrBadValue) {
		t.Errorf("SetWord(21): %v", err)
	}
}

// TestReadWriteCDB: the CDB ReadWriteCDB makes reads back its LBA and
// length, 10 bytes when they fit, 16 otherwise.
func TestReadWriteCDB(t *testing.T) {
	for _, c := range []struct {
		write bool
		lba   uint64
		n     uint32
		op    uint8
		name  string
	}{{false, 0x1000, 8, 0x28, "READ(10)"}, {true, 0xffffffff, 0xffff, 0x2a, "WRITE(10)"}, {false, 1 << 32, 1, 0x88, "READ(16)"}, {true, 5, 0x10000, 0x8a, "WRITE(16)"}} {
		cdb := iser.ReadWriteCDB(c.write, c.lba, c.n)
		lba, ok1 := cdb.LBA()
		n, ok2 := cdb.TransferLength()
		rw, w := cdb.ReadWrite()
		if cdb.Opcode() != c.op || cdb.Name() != c.name || !ok1 || !ok2 || lba != c.lba || n != c.n || !rw || w != c.write {
			t.Errorf("%+v: %x %s lba %#x n %d", c, cdb, cdb.Name(), lba, n)
		}
	}
	var inquiry iser.CDB
	inquiry[0] = 0x12
	if _, ok := inquiry.LBA(); ok || inquiry.Name() != "INQUIRY" {
		t.Errorf("INQUIRY: %s", inquiry.Name())
	}
	inquiry[0] = 0xee
	if inquiry.Name() != "0xee" || iser.OpName(0xee) != "" || iser.OpName(0x88) != "READ(16)" {
		t.Errorf("0xee: %s", inquiry.Name())
	}
}

// TestCDBLen: a CDB's length by its operation code's group (SPC-4,
// 4.2.5.1): READ(6) 6, READ(10) and the group 2 MODE SENSE(10) 10,
// READ(12) 12, READ(16) 16; the reserved group 3 (0x7f, variable
// length) and the vendor-specific 0xc0 and 0xe0 none.
func TestCDBLen(t *testing.T) {
	for op, want := range map[uint8]int{0x08: 6, 0x28: 10, 0x5a: 10, 0xa8: 12, 0x88: 16, 0x7f: 0, 0xc0: 0, 0xe0: 0} {
		c := iser.CDB{op}
		if got := c.Len(); got != want {
			t.Errorf("%#02x: %d, want %d", op, got, want)
		}
	}
}

// TestNames: the opcodes' and statuses' names.
func TestNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{iser.OpSCSICommand.String(), "SCSI Command"}, {iser.OpDataIn.String(), "SCSI Data-In"}, {iser.OpR2T.String(), "Ready To Transfer"},
		{iser.ISCSIOpcode(0x3e).String(), "ISCSIOpcode(0x3e)"}, {iser.OpHello.String(), "Hello"}, {iser.Opcode(9).String(), "Opcode(9)"},
		{iser.StatusName(2), "CHECK CONDITION"}, {iser.StatusName(0x28), "TASK SET FULL"}, {iser.StatusName(1), ""},
		{iser.OpR2T.Name(), "Ready To Transfer"}, {iser.ISCSIOpcode(0x3e).Name(), ""}, {iser.ISCSIOpcode(0x40).Name(), ""},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if !iser.OpSCSIResponse.Target() || iser.OpSCSICommand.Target() {
		t.Error("Target")
	}
}

// TestZeroAllocs: decoding allocates nothing.
func TestZeroAllocs(t *testing.T) {
	gs := readGolden(t)
	var h iser.Header
	var bhs iser.BHS
	var cm iser.CMData
	for _, g := range gs {
		var d interface{ Decode([]byte) error }
		switch g.kind {
		case "header":
			d = &h
		case "bhs":
			d = &bhs
		default:
			d = &cm
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := d.Decode(g.b); err != nil {
				t.Fatal(err)
			}
			cdb := bhs.CDB()
			if _, ok := cdb.LBA(); ok && cdb.Name() == "" {
				t.Fatal("no name")
			}
		}); n != 0 {
			t.Errorf("%s: %.1f allocations", g.name, n)
		}
	}
}
