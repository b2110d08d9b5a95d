package smbd_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/smbd"
)

// golden is one structure of testdata/golden/smbd_messages.txt: its
// bytes and the fields the file says they hold.
type golden struct {
	kind, name string
	b          []byte
	fields     map[string]string
}

func readGolden(t testing.TB) []golden {
	t.Helper()
	f, err := os.Open("../testdata/golden/smbd_messages.txt")
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
		// A comment in parentheses names bytes no field holds.
		if rest := strings.Join(toks[i:], " "); rest != "" && !strings.HasPrefix(rest, "(") {
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
	var m map[string]uint64
	switch g.kind {
	case "negreq":
		var n smbd.NegotiateRequest
		if err := n.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = n.AppendTo(nil)
		m = map[string]uint64{"MinVersion": uint64(n.MinVersion), "MaxVersion": uint64(n.MaxVersion), "Reserved": uint64(n.Reserved),
			"CreditsRequested": uint64(n.CreditsRequested), "PreferredSendSize": uint64(n.PreferredSendSize),
			"MaxReceiveSize": uint64(n.MaxReceiveSize), "MaxFragmentedSize": uint64(n.MaxFragmentedSize)}
	case "negresp":
		var n smbd.NegotiateResponse
		if err := n.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = n.AppendTo(nil)
		m = map[string]uint64{"MinVersion": uint64(n.MinVersion), "MaxVersion": uint64(n.MaxVersion), "NegotiatedVersion": uint64(n.NegotiatedVersion),
			"Reserved": uint64(n.Reserved), "CreditsRequested": uint64(n.CreditsRequested), "CreditsGranted": uint64(n.CreditsGranted),
			"Status": uint64(n.Status), "MaxReadWriteSize": uint64(n.MaxReadWriteSize), "PreferredSendSize": uint64(n.PreferredSendSize),
			"MaxReceiveSize": uint64(n.MaxReceiveSize), "MaxFragmentedSize": uint64(n.MaxFragmentedSize)}
	case "data":
		var d smbd.DataTransfer
		if err := d.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		data, derr := d.Data(g.b)
		if derr != nil {
			t.Fatal(derr)
		}
		re, err = d.AppendMessage(nil, data)
		m = map[string]uint64{"CreditsRequested": uint64(d.CreditsRequested), "CreditsGranted": uint64(d.CreditsGranted), "Flags": uint64(d.Flags),
			"ResponseRequested": b2u(d.ResponseRequested()), "Reserved": uint64(d.Reserved), "RemainingDataLength": uint64(d.RemainingDataLength),
			"DataOffset": uint64(d.DataOffset), "DataLength": uint64(d.DataLength), "Data.Len": uint64(len(data))}
		if len(data) > 0 {
			m["Data[0]"] = uint64(data[0])
		}
	case "desc":
		var d smbd.BufferDescriptor
		if err := d.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = d.AppendTo(nil)
		m = map[string]uint64{"Offset": d.Offset, "Token": uint64(d.Token), "Length": uint64(d.Length)}
	case "header":
		var h smbd.Header
		if err := h.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = h.AppendTo(nil)
		m = map[string]uint64{"CreditCharge": uint64(h.CreditCharge), "Status": uint64(h.Status), "Command": uint64(h.Command),
			"Credits": uint64(h.Credits), "Flags": uint64(h.Flags), "Response": b2u(h.Response()), "Async": b2u(h.Async()),
			"NextCommand": uint64(h.NextCommand), "MessageID": h.MessageID, "ProcessID": uint64(h.ProcessID), "TreeID": uint64(h.TreeID),
			"AsyncID": h.AsyncID(), "SessionID": h.SessionID, "Signature[0]": uint64(h.Signature[0])}
	case "readreq":
		var r smbd.ReadRequest
		if err := r.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = r.AppendTo(nil)
		m = map[string]uint64{"Padding": uint64(r.Padding), "Flags": uint64(r.Flags), "Length": uint64(r.Length), "Offset": r.Offset,
			"FileID[0]": uint64(r.FileID[0]), "FileID[8]": uint64(r.FileID[8]), "MinimumCount": uint64(r.MinimumCount), "Channel": uint64(r.Channel),
			"RemainingBytes": uint64(r.RemainingBytes), "ChannelInfoOffset": uint64(r.ChannelInfoOffset), "ChannelInfoLength": uint64(r.ChannelInfoLength)}
	case "writereq":
		var w smbd.WriteRequest
		if err := w.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = w.AppendTo(nil)
		m = map[string]uint64{"DataOffset": uint64(w.DataOffset), "Length": uint64(w.Length), "Offset": w.Offset, "FileID[0]": uint64(w.FileID[0]),
			"FileID[8]": uint64(w.FileID[8]), "Channel": uint64(w.Channel), "RemainingBytes": uint64(w.RemainingBytes),
			"ChannelInfoOffset": uint64(w.ChannelInfoOffset), "ChannelInfoLength": uint64(w.ChannelInfoLength), "Flags": uint64(w.Flags)}
	case "readresp":
		var r smbd.ReadResponse
		if err := r.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = r.AppendTo(nil)
		m = map[string]uint64{"DataOffset": uint64(r.DataOffset), "Reserved": uint64(r.Reserved), "DataLength": uint64(r.DataLength),
			"DataRemaining": uint64(r.DataRemaining), "Flags": uint64(r.Flags)}
	case "writeresp":
		var w smbd.WriteResponse
		if err := w.Decode(g.b); err != nil {
			t.Fatal(err)
		}
		re, err = w.AppendTo(nil)
		m = map[string]uint64{"Reserved": uint64(w.Reserved), "Count": uint64(w.Count), "Remaining": uint64(w.Remaining),
			"ChannelInfoOffset": uint64(w.ChannelInfoOffset), "ChannelInfoLength": uint64(w.ChannelInfoLength)}
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
	if len(gs) < 14 || checked < 100 {
		t.Errorf("%d structures, %d fields checked", len(gs), checked)
	}
	t.Logf("%d structures, %d fields checked", len(gs), checked)
}

// TestTruncated: each decoder refuses every input shorter than its
// structure with an error matching ErrTruncated, naming the structure.
func TestTruncated(t *testing.T) {
	type decoder interface{ Decode([]byte) error }
	full := map[string][]byte{}
	for _, g := range readGolden(t) {
		if _, ok := full[g.kind]; !ok {
			full[g.kind] = g.b
		}
	}
	for _, c := range []struct {
		kind string
		d    decoder
		n    int
	}{{"negreq", new(smbd.NegotiateRequest), smbd.NegotiateRequestLen}, {"negresp", new(smbd.NegotiateResponse), smbd.NegotiateResponseLen},
		{"data", new(smbd.DataTransfer), smbd.DataTransferLen}, {"desc", new(smbd.BufferDescriptor), smbd.BufferDescriptorLen},
		{"header", new(smbd.Header), smbd.HeaderLen}, {"readreq", new(smbd.ReadRequest), smbd.ReadRequestLen},
		{"writereq", new(smbd.WriteRequest), smbd.WriteRequestLen}, {"readresp", new(smbd.ReadResponse), smbd.ReadResponseLen},
		{"writeresp", new(smbd.WriteResponse), smbd.WriteResponseLen}} {
		b := full[c.kind]
		for n := range c.n {
			err := c.d.Decode(b[:n])
			if !errors.Is(err, smbd.ErrTruncated) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Errorf("%T of %d bytes: %v", c.d, n, err)
			}
		}
		if err := c.d.Decode(b[:c.n]); err != nil {
			t.Errorf("%T of %d bytes: %v", c.d, c.n, err)
		}
	}
}

// TestRefused: the decoders refuse what the layouts do not allow, and
// the builders refuse the same, naming the field.
func TestRefused(t *testing.T) {
	hdr, _ := (&smbd.Header{}).AppendTo(nil)
	smb1 := bytes.Clone(hdr)
	smb1[0] = 0xff
	size := bytes.Clone(hdr)
	size[4] = 0x41
	var h smbd.Header
	if err := h.Decode(smb1); !errors.Is(err, smbd.ErrBadVersion) {
		t.Errorf("SMB1 protocol id: %v", err)
	}
	if err := h.Decode(size); !errors.Is(err, smbd.ErrBadLength) {
		t.Errorf("StructureSize 65: %v", err)
	}
	var r smbd.ReadRequest
	if err := r.Decode(make([]byte, smbd.ReadRequestLen)); !errors.Is(err, smbd.ErrBadLength) {
		t.Errorf("READ StructureSize 0: %v", err)
	}
	for _, d := range []smbd.DataTransfer{{DataOffset: 20, DataLength: 1}, {DataOffset: 28, DataLength: 1}, {DataOffset: 16}, {DataLength: 4}} {
		b := make([]byte, 20)
		b[12], b[16] = byte(d.DataOffset), byte(d.DataLength)
		var got smbd.DataTransfer
		if err := got.Decode(b); !errors.Is(err, smbd.ErrBadLength) || !strings.HasPrefix(err.Error(), "roce: ") {
			t.Errorf("decode %+v: %v", d, err)
		}
		if _, err := d.AppendTo(nil); !errors.Is(err, smbd.ErrBadLength) || !strings.Contains(err.Error(), "DataTransfer.DataOffset") {
			t.Errorf("build %+v: %v", d, err)
		}
	}
	d := smbd.DataTransfer{DataOffset: 24, DataLength: 100}
	if _, err := d.Data(make([]byte, 123)); !errors.Is(err, smbd.ErrTruncated) {
		t.Errorf("data past the message: %v", err)
	}
	if _, err := smbd.ChannelInfo(make([]byte, 127), 0x70, 16); !errors.Is(err, smbd.ErrTruncated) {
		t.Errorf("channel info past the message: %v", err)
	}
}

// TestNames: the names of the commands, channels and statuses are
// MS-SMB2's and MS-ERREF's.
func TestNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{smbd.CmdNegotiate.String(), "NEGOTIATE"}, {smbd.Command(1).String(), "SESSION_SETUP"}, {smbd.Command(3).String(), "TREE_CONNECT"},
		{smbd.Command(8).String(), "READ"}, {smbd.Command(9).String(), "WRITE"}, {smbd.Command(0x12).String(), "OPLOCK_BREAK"},
		{smbd.Command(0x13).String(), "Command(0x13)"}, {smbd.Channel(1).String(), "SMB2_CHANNEL_RDMA_V1"},
		{smbd.Channel(2).String(), "SMB2_CHANNEL_RDMA_V1_INVALIDATE"}, {smbd.Channel(9).String(), ""},
		{smbd.Status(0xc0000016).String(), "STATUS_MORE_PROCESSING_REQUIRED"}, {smbd.Status(0xc00000bb).String(), "STATUS_NOT_SUPPORTED"},
		{smbd.Status(0xc0001234).String(), "0xc0001234"}, {smbd.Status(0).String(), "STATUS_SUCCESS"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if !smbd.ChannelRDMAV1.RDMA() || !smbd.ChannelRDMAV1Invalidate.RDMA() || smbd.ChannelNone.RDMA() || smbd.ChannelRDMATransform.RDMA() {
		t.Error("Channel.RDMA")
	}
}
