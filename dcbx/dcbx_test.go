package dcbx_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/dcbx_lldp.pcap from the golden specs")

var goldenPcap = filepath.Join("..", "testdata", "golden", "dcbx_lldp.pcap")

// TestGoldenPcap checks that the committed capture holds the golden
// frames; with -update it writes it first.
func TestGoldenPcap(t *testing.T) {
	frames := goldenFrames()
	if *update {
		oracle.WritePcapLinkType(t, filepath.Dir(goldenPcap), filepath.Base(goldenPcap), layers.LinkTypeEthernet, frames)
	}
	f, err := os.Open(goldenPcap)
	require.NoError(t, err, "run go test ./dcbx -run TestGoldenPcap -update to create it")
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	require.NoError(t, err)
	for i, want := range frames {
		got, _, err := r.ReadPacketData()
		require.NoError(t, err)
		assert.Equal(t, want, got, "frame %d", i+1)
	}
	_, _, err = r.ReadPacketData()
	assert.Error(t, err, "more frames than specs")
}

// lldpdu returns the LLDPDU of an Ethernet frame.
func lldpdu(f []byte) []byte { return f[14:] }

// TestDecodeGolden decodes the golden frames and compares with the values
// the specs spell out.
func TestDecodeGolden(t *testing.T) {
	frames := goldenFrames()
	var d dcbx.TLVs
	require.NoError(t, d.Decode(lldpdu(frames[0])))
	tables := dcbx.ETSTables{PriorityTC: [8]uint8{3: 3}, Bandwidth: [8]uint8{50, 0, 0, 50},
		TSA: [8]dcbx.TSA{2, 2, 2, 2, 2, 2, 2, 2}}
	assert.Equal(t, dcbx.TLVs{
		HasETSConfig: true, HasETSRecommendation: true, HasPFCConfig: true, HasAppPriority: true,
		ETSConfig:         dcbx.ETSConfig{ETSTables: tables},
		ETSRecommendation: dcbx.ETSRecommendation{ETSTables: tables},
		PFCConfig:         dcbx.PFCConfig{Cap: 8, Enable: 0x08},
		AppPriority:       dcbx.AppPriority{Table: []byte{0x63, 0x12, 0xb7, 0x65, 0x00, 0x1a}},
	}, d)
	assert.Equal(t, 8, d.ETSConfig.TrafficClasses())
	assert.Equal(t, dcbx.AppEntry{Priority: 3, Sel: dcbx.SelUDP, Protocol: 4791}, d.AppPriority.Entry(0))
	assert.Equal(t, dcbx.AppEntry{Priority: 3, Sel: dcbx.SelDSCP, Protocol: 26}, d.AppPriority.Entry(1))

	require.NoError(t, d.Decode(lldpdu(frames[1])))
	assert.False(t, d.HasETSRecommendation)
	assert.Equal(t, dcbx.ETSConfig{Willing: true, CBS: true, MaxTCs: 3, ETSTables: dcbx.ETSTables{
		PriorityTC: [8]uint8{0, 1, 2, 3, 4, 5, 6, 7}, Bandwidth: [8]uint8{10, 20, 30, 40},
		TSA: [8]dcbx.TSA{dcbx.TSAStrict, dcbx.TSACBS, dcbx.TSAETS, dcbx.TSAVendor, 2, 2, 2, 7}}}, d.ETSConfig)
	assert.Equal(t, dcbx.PFCConfig{Willing: true, MBC: true, Reserved: 3, Cap: 8, Enable: 0x18}, d.PFCConfig)
	assert.True(t, d.PFCConfig.Enabled(3) && d.PFCConfig.Enabled(4) && !d.PFCConfig.Enabled(5) && !d.PFCConfig.Enabled(8))
	assert.Equal(t, uint8(0x5a), d.AppPriority.Reserved)
	assert.Equal(t, []dcbx.AppEntry{{Priority: 3, Sel: dcbx.SelEthertype, Protocol: 0x8915},
		{Priority: 4, Reserved: 3, Sel: dcbx.SelPort, Protocol: 3260}, {Priority: 7, Sel: dcbx.SelTCP, Protocol: 22}}, entries(&d.AppPriority))

	require.NoError(t, d.Decode(lldpdu(frames[2])))
	assert.Equal(t, dcbx.PFCConfig{MBC: true}, d.PFCConfig)
	assert.True(t, d.HasAppPriority)
	assert.Zero(t, d.AppPriority.Entries())
	assert.Equal(t, dcbx.ETSRecommendation{Reserved: 0xff, ETSTables: dcbx.ETSTables{PriorityTC: [8]uint8{15}, Bandwidth: [8]uint8{100}}}, d.ETSRecommendation)

	require.NoError(t, d.Decode(lldpdu(frames[3])))
	assert.False(t, d.Any())
}

func entries(a *dcbx.AppPriority) []dcbx.AppEntry {
	var out []dcbx.AppEntry
	for i := 0; i < a.Entries(); i++ {
		out = append(out, a.Entry(i))
	}
	return out
}

// TestBuildGolden builds the DCBX TLVs of the first golden frame from Go
// values and compares them with the spec's bytes, then re-encodes every
// DCBX TLV of every golden frame byte for byte.
func TestBuildGolden(t *testing.T) {
	frames := goldenFrames()
	tables := dcbx.ETSTables{PriorityTC: [8]uint8{3: 3}, Bandwidth: [8]uint8{50, 0, 0, 50},
		TSA: [8]dcbx.TSA{2, 2, 2, 2, 2, 2, 2, 2}}
	b, err := (&dcbx.ETSConfig{ETSTables: tables}).AppendTo(nil)
	require.NoError(t, err)
	b, err = (&dcbx.ETSRecommendation{ETSTables: tables}).AppendTo(b)
	require.NoError(t, err)
	b, err = (&dcbx.PFCConfig{Cap: 8, Enable: 1 << 3}).AppendTo(b)
	require.NoError(t, err)
	b, err = dcbx.AppendAppPriority(b, 0, []dcbx.AppEntry{{Priority: 3, Sel: dcbx.SelUDP, Protocol: 4791}, {Priority: 3, Sel: dcbx.SelDSCP, Protocol: 26}})
	require.NoError(t, err)
	assert.Equal(t, frames[0][14+9+9+4:len(frames[0])-2], b)
	var all dcbx.TLVs
	require.NoError(t, all.Decode(lldpdu(frames[0])))
	again, err := all.AppendTo(nil)
	require.NoError(t, err)
	assert.Equal(t, b, again, "TLVs.AppendTo")
	all.PFCConfig.Cap = 16
	again, err = all.AppendTo([]byte{1})
	assert.ErrorIs(t, err, ib.ErrBadValue)
	assert.Equal(t, []byte{1}, again, "TLVs.AppendTo appends nothing when it refuses")

	for i, f := range frames {
		for _, v := range tlvs(t, lldpdu(f)) {
			var d dcbx.TLVs
			ok, err := d.DecodeTLV(v[0]>>1, v[2:])
			require.NoError(t, err)
			if !ok {
				continue
			}
			out, err := d.AppendTo(nil)
			if d.HasAppPriority {
				var entries []dcbx.AppEntry
				for j := 0; j < d.AppPriority.Entries(); j++ {
					entries = append(entries, d.AppPriority.Entry(j))
				}
				again, err2 := dcbx.AppendAppPriority(nil, d.AppPriority.Reserved, entries)
				require.NoError(t, err2)
				assert.Equal(t, v, again, "frame %d", i+1)
			}
			require.NoError(t, err)
			assert.Equal(t, v, out, "frame %d", i+1)
		}
	}
}

// tlvs splits an LLDPDU into its TLVs (header included), End TLV
// excluded.
func tlvs(t *testing.T, b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 2 && b[0]>>1 != 0 {
		n := 2 + (int(b[0]&1)<<8 | int(b[1]))
		require.LessOrEqual(t, n, len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// TestRefuse checks that every builder refuses, naming the field and
// appending nothing, a value its field cannot hold.
func TestRefuse(t *testing.T) {
	prefix := []byte{1, 2, 3}
	for _, tc := range []struct {
		field string
		build func([]byte) ([]byte, error)
	}{
		{"ETSConfig.MaxTCs", (&dcbx.ETSConfig{MaxTCs: 8}).AppendTo},
		{"ETSConfig.Reserved", (&dcbx.ETSConfig{Reserved: 8}).AppendTo},
		{"ETSTables.PriorityTC[5]", (&dcbx.ETSConfig{ETSTables: dcbx.ETSTables{PriorityTC: [8]uint8{5: 16}}}).AppendTo},
		{"ETSTables.PriorityTC[0]", (&dcbx.ETSRecommendation{ETSTables: dcbx.ETSTables{PriorityTC: [8]uint8{0: 255}}}).AppendTo},
		{"PFCConfig.Cap", (&dcbx.PFCConfig{Cap: 16}).AppendTo},
		{"PFCConfig.Reserved", (&dcbx.PFCConfig{Reserved: 4}).AppendTo},
		{"AppPriority.Table", (&dcbx.AppPriority{Table: []byte{1, 2}}).AppendTo},
		{"AppPriority.Table", (&dcbx.AppPriority{Table: make([]byte, 3*(dcbx.MaxAppEntries+1))}).AppendTo},
		{"AppEntry.Priority", func(b []byte) ([]byte, error) { return dcbx.AppendAppPriority(b, 0, []dcbx.AppEntry{{Priority: 8}}) }},
		{"AppEntry.Reserved", func(b []byte) ([]byte, error) { return dcbx.AppendAppPriority(b, 0, []dcbx.AppEntry{{Reserved: 4}}) }},
		{"AppEntry.Sel", func(b []byte) ([]byte, error) { return dcbx.AppendAppPriority(b, 0, []dcbx.AppEntry{{Sel: 8}}) }},
		{"AppPriority.Table", func(b []byte) ([]byte, error) {
			return dcbx.AppendAppPriority(b, 0, make([]dcbx.AppEntry, dcbx.MaxAppEntries+1))
		}},
	} {
		out, err := tc.build(prefix)
		var fe *ib.FieldError
		require.ErrorAs(t, err, &fe, tc.field)
		assert.Equal(t, tc.field, fe.Field)
		assert.Equal(t, prefix, out, tc.field)
		assert.True(t, errors.Is(err, ib.ErrBadValue) || errors.Is(err, ib.ErrBadLength), tc.field)
	}
	// The largest table fits: 168 entries, LLDP length 509.
	out, err := dcbx.AppendAppPriority(nil, 0, make([]dcbx.AppEntry, dcbx.MaxAppEntries))
	require.NoError(t, err)
	var d dcbx.TLVs
	require.NoError(t, d.Decode(out))
	assert.Equal(t, dcbx.MaxAppEntries, d.AppPriority.Entries())
}

// TestBadLength: fixed-size TLVs longer than their layout and tables of
// partial entries are refused with ErrBadLength.
func TestBadLength(t *testing.T) {
	var e dcbx.ETSConfig
	assert.ErrorIs(t, e.Decode(make([]byte, 22)), ib.ErrBadLength)
	var r dcbx.ETSRecommendation
	assert.ErrorIs(t, r.Decode(make([]byte, 22)), ib.ErrBadLength)
	var p dcbx.PFCConfig
	assert.ErrorIs(t, p.Decode(make([]byte, 3)), ib.ErrBadLength)
	var a dcbx.AppPriority
	assert.ErrorIs(t, a.Decode(make([]byte, 5)), ib.ErrBadLength)
	var d dcbx.TLVs
	assert.ErrorIs(t, d.Decode([]byte{0xfe, 0x07, 0x00, 0x80, 0xc2, 0x0b, 0, 0, 0}), ib.ErrBadLength)
	assert.ErrorIs(t, d.Decode([]byte{0xfe, 0x02, 0x00, 0x80}), ib.ErrTruncated)
	assert.False(t, d.Any())
}

// TestTruncation cuts every golden LLDPDU at every length: a cut inside
// a TLV errors with ErrTruncated (never panics, never reads past the
// cut), a cut between TLVs decodes the TLVs before it. Each TLV decoder
// given a prefix of its information string errors with ErrTruncated.
func TestTruncation(t *testing.T) {
	for i, f := range goldenFrames() {
		pdu := lldpdu(f)
		bounds := map[int]bool{0: true}
		n := 0
		for _, v := range tlvs(t, pdu) {
			n += len(v)
			bounds[n] = true
		}
		for cut := 0; cut < n; cut++ {
			var d dcbx.TLVs
			err := d.Decode(bytes.Clone(pdu[:cut]))
			if bounds[cut] {
				assert.NoError(t, err, "frame %d cut %d", i+1, cut)
			} else {
				assert.ErrorIs(t, err, ib.ErrTruncated, "frame %d cut %d", i+1, cut)
			}
		}
	}
	info := make([]byte, 21)
	for cut := 0; cut < 21; cut++ {
		var e dcbx.ETSConfig
		var r dcbx.ETSRecommendation
		assert.ErrorIs(t, e.Decode(info[:cut]), ib.ErrTruncated)
		assert.ErrorIs(t, r.Decode(info[:cut]), ib.ErrTruncated)
		if cut < 2 {
			var p dcbx.PFCConfig
			assert.ErrorIs(t, p.Decode(info[:cut]), ib.ErrTruncated)
		}
	}
	var a dcbx.AppPriority
	assert.ErrorIs(t, a.Decode(nil), ib.ErrTruncated)
}

// TestNoAllocs enforces the allocation contract of the package doc.
func TestNoAllocs(t *testing.T) {
	frames := goldenFrames()
	var d dcbx.TLVs
	buf := make([]byte, 0, 512)
	entries := []dcbx.AppEntry{{Priority: 3, Sel: dcbx.SelUDP, Protocol: 4791}}
	require.NoError(t, d.Decode(lldpdu(frames[1])))
	src := d
	v := lldpdu(frames[0])[22:49] // the ETS Configuration TLV
	o := []byte{0x08, 0x08}       // a PFC Configuration TLV's information string
	for name, f := range map[string]func() error{
		"Decode": func() error {
			if err := d.Decode(lldpdu(frames[1])); err != nil || !d.HasPFCConfig {
				return errors.New("no PFC")
			}
			return nil
		},
		"DecodeTLV": func() error {
			ok, err := d.DecodeTLV(v[0]>>1, v[2:])
			if !ok {
				return errors.New("not DCBX")
			}
			return err
		},
		"DecodeInfo": func() error {
			ok, err := d.DecodeInfo(dcbx.OUI, 11, o)
			if !ok {
				return errors.New("not DCBX")
			}
			return err
		},
		"ETSConfig.AppendTo": func() error { var err error; buf, err = src.ETSConfig.AppendTo(buf[:0]); return err },
		"PFCConfig.AppendTo": func() error { var err error; buf, err = src.PFCConfig.AppendTo(buf[:0]); return err },
		"AppPriority.AppendTo": func() error {
			var err error
			buf, err = src.AppPriority.AppendTo(buf[:0])
			return err
		},
		"TLVs.AppendTo":     func() error { var err error; buf, err = src.AppendTo(buf[:0]); return err },
		"AppendAppPriority": func() error { var err error; buf, err = dcbx.AppendAppPriority(buf[:0], 0, entries); return err },
	} {
		require.NoError(t, f(), name)
		assert.Zero(t, testing.AllocsPerRun(100, func() {
			if err := f(); err != nil {
				t.Fatal(name, err)
			}
		}), name)
	}
}

// TestLenValidate checks that each TLV's Len is what its AppendTo writes
// and that Validate refuses what AppendTo refuses, with the same error.
func TestLenValidate(t *testing.T) {
	var all dcbx.TLVs
	require.NoError(t, all.Decode(lldpdu(goldenFrames()[0])))
	require.True(t, all.HasAppPriority && all.HasPFCConfig && all.HasETSConfig && all.HasETSRecommendation)
	type tlv interface {
		AppendTo([]byte) ([]byte, error)
		Len() int
		Validate() error
	}
	for name, x := range map[string]tlv{
		"ETSConfig": &all.ETSConfig, "ETSRecommendation": &all.ETSRecommendation,
		"PFCConfig": &all.PFCConfig, "AppPriority": &all.AppPriority, "TLVs": &all,
		"AppPriority of 2 entries": &dcbx.AppPriority{Table: make([]byte, 6)},
		"empty TLVs":               &dcbx.TLVs{},
		"bad ETSConfig":            &dcbx.ETSConfig{MaxTCs: 8},
		"bad ETSRecommendation":    &dcbx.ETSRecommendation{ETSTables: dcbx.ETSTables{PriorityTC: [8]uint8{2: 16}}},
		"bad PFCConfig":            &dcbx.PFCConfig{Cap: 16},
		"bad AppPriority":          &dcbx.AppPriority{Table: make([]byte, 4)},
		"bad TLVs":                 &dcbx.TLVs{HasPFCConfig: true, PFCConfig: dcbx.PFCConfig{Reserved: 4}},
	} {
		b, err := x.AppendTo(nil)
		if verr := x.Validate(); (verr == nil) != (err == nil) || err != nil && verr.Error() != err.Error() {
			t.Errorf("%s: Validate %v, AppendTo %v", name, verr, err)
		}
		if err == nil && len(b) != x.Len() {
			t.Errorf("%s: Len %d, AppendTo wrote %d bytes", name, x.Len(), len(b))
		}
	}
	// The sizes the standard gives: 2 bytes of LLDP TLV header, 4 of OUI
	// and subtype, then 21 (ETS: LLDP length 25), 2 (PFC), 1+3n
	// (Application Priority).
	assert.Equal(t, 2+4+21, all.ETSConfig.Len())
	assert.Equal(t, 2+4+21, all.ETSRecommendation.Len())
	assert.Equal(t, 2+4+2, all.PFCConfig.Len())
	assert.Equal(t, 7+3*all.AppPriority.Entries(), all.AppPriority.Len())
}
