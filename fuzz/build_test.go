package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// FuzzFrameBuild fills the fields of a roce.Frame from the input (see
// fzFields) and hands it to Frame.AppendTo. A frame AppendTo accepts must
// verify its own ICRC and decode back to the values it was given, apart
// from the fields AppendTo derives; a frame it refuses must get an error
// that is a *ib.FieldError (naming the field and the value) wrapping
// ib.ErrBadValue, ErrBadLength, ErrBadVersion or ErrUnsupported, and b
// back unchanged. The seeds are the fields of
// every frame of testdata that Frame.Decode accepts, so the fuzzer starts
// from valid frames of every opcode and encapsulation and mutates their
// values, including out of their fields' ranges.
func FuzzFrameBuild(f *testing.F) {
	var fr roce.Frame
	for _, b := range fzSeeds(f) {
		if fr.Decode(b) == nil {
			f.Add(fzFieldBytes(&fr))
		}
	}
	f.Fuzz(fzFrameBuild)
}

func fzFrameBuild(t *testing.T, data []byte) {
	var f roce.Frame
	fzFillFrame(&f, data)
	prefix := []byte("prefix")
	out, err := f.AppendTo(prefix[:len(prefix):len(prefix)])
	if err != nil {
		var fe *ib.FieldError
		if !errors.As(err, &fe) {
			t.Fatalf("AppendTo refused with %q (%T), want a *ib.FieldError", err, err)
		}
		fzCheckErr(t, "AppendTo", err, ib.ErrBadValue, ib.ErrBadLength, ib.ErrBadVersion, ib.ErrUnsupported)
		if !bytes.Equal(out, prefix) {
			t.Fatalf("AppendTo refused (%v) but returned %x, want the input %x", err, out, prefix)
		}
		return
	}
	if !bytes.HasPrefix(out, prefix) || len(out) != len(prefix)+f.Len() {
		t.Fatalf("AppendTo wrote %d bytes after the prefix, Len says %d", len(out)-len(prefix), f.Len())
	}
	frame := fzExact(out[len(prefix):])
	if err := roce.VerifyFrame(frame); err != nil {
		t.Fatalf("an accepted frame fails its own ICRC: %v\n%x", err, frame)
	}
	var g roce.Frame
	if err := g.Decode(frame); err != nil {
		t.Fatalf("AppendTo accepted a frame Decode refuses: %v\n%x", err, frame)
	}
	want := fzExpectDecoded(&f, &g)
	if d := fzDiff(want, g); d != "" {
		t.Fatalf("decode(AppendTo(f)) differs from the values given (-given +decoded):\n%s", d)
	}
}

// fzExpectDecoded returns what decoding the frame AppendTo wrote for f
// must give: f's values, with the fields AppendTo derives or the
// encapsulation has no room for taken from the decoded frame g or
// cleared.
func fzExpectDecoded(f, g *roce.Frame) roce.Frame {
	w := *f
	w.Raw = nil
	for i := range w.VLANs {
		if i >= w.NumVLANs {
			w.VLANs[i] = roce.VLAN{}
		} else if w.VLANs[i].TPID == 0 {
			w.VLANs[i].TPID = 0x8100 // AppendTo's default tag
		}
	}
	// Derived by AppendTo: lengths, versions, checksums, pad, ICRC.
	w.GRH.PayLen, w.GRH.IPVer, w.GRH.NxtHdr = g.GRH.PayLen, g.GRH.IPVer, g.GRH.NxtHdr
	w.IPv4Checksum = g.IPv4Checksum
	w.Packet.BTH.PadCnt, w.Packet.BTH.Pad, w.Packet.BTH.ICRC = g.Packet.BTH.PadCnt, g.Packet.BTH.Pad, g.Packet.BTH.ICRC
	w.Truncated, w.Packet.BTH.Truncated = false, false // the whole frame was written
	w.WireLen = f.Len()
	switch w.Encap {
	case ib.RoCEv1:
		w.IPv4ID, w.IPv4Flags, w.IPv4Checksum = 0, 0, 0
		w.SrcPort, w.DstPort, w.UDPChecksum = 0, 0, false
	case ib.RoCEv2IPv4:
		w.GRH.FlowLabel = 0 // IPv4 has no flow label; it only chose the source port
	case ib.RoCEv2IPv6:
		w.IPv4ID, w.IPv4Flags, w.IPv4Checksum = 0, 0, 0
	}
	return w
}

// fzFillFrame sets the exported fields of f from data (fzFields), clears
// the extended headers the opcode does not carry, and takes the rest of
// data as the payload.
func fzFillFrame(f *roce.Frame, data []byte) {
	r := fzFieldReader{data}
	fzFields(reflect.ValueOf(f).Elem(), func(v reflect.Value) { r.set(v) })
	f.Raw = nil
	fzKeepHeaders(&f.Packet)
	if len(r.b) > 0 {
		f.Packet.Payload = r.b
	}
}

// fzFieldBytes is the inverse of fzFillFrame: the bytes that give f.
func fzFieldBytes(f *roce.Frame) []byte {
	var out []byte
	fzFields(reflect.ValueOf(f).Elem(), func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Bool:
			var x byte
			if v.Bool() {
				x = 1
			}
			out = append(out, x)
		case reflect.Int:
			out = append(out, byte(int8(v.Int())))
		default:
			var buf [8]byte
			binary.BigEndian.PutUint64(buf[:], v.Uint())
			out = append(out, buf[8-int(v.Type().Size()):]...)
		}
	})
	return append(out, f.Packet.Payload...)
}

// fzFields calls fn on every exported bool, int and unsigned field of v,
// depth first in declaration order, including the elements of arrays
// (VLANs, GIDs, MACs); slices (payload, pad, raw bytes) are skipped.
func fzFields(v reflect.Value, fn func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fzFields(v.Field(i), fn)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fzFields(v.Index(i), fn)
		}
	case reflect.Bool, reflect.Int, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fn(v)
	}
}

// fzFieldReader hands out field values from the front of b; once b is
// used up every field is zero.
type fzFieldReader struct{ b []byte }

func (r *fzFieldReader) set(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(len(r.b) > 0 && r.b[0]&1 != 0)
		r.skip(1)
	case reflect.Int: // NumVLANs: a signed byte, so -1 and 3 occur
		if len(r.b) > 0 {
			v.SetInt(int64(int8(r.b[0])))
		}
		r.skip(1)
	default:
		n := int(v.Type().Size())
		var buf [8]byte
		copy(buf[8-n:], r.b)
		v.SetUint(binary.BigEndian.Uint64(buf[:]))
		r.skip(n)
	}
}

func (r *fzFieldReader) skip(n int) { r.b = r.b[min(n, len(r.b)):] }

// fzKeepHeaders clears the extended headers p's opcode does not carry:
// AppendTo does not write them, and a fresh decode leaves them zero.
func fzKeepHeaders(p *ib.Packet) {
	hs := p.Headers()
	zero := func(h ib.Header, x any) {
		if !hs.Has(h) {
			v := reflect.ValueOf(x).Elem()
			v.Set(reflect.Zero(v.Type()))
		}
	}
	zero(ib.HeaderRDETH, &p.RDETH)
	zero(ib.HeaderDETH, &p.DETH)
	zero(ib.HeaderXRCETH, &p.XRCETH)
	zero(ib.HeaderRETH, &p.RETH)
	zero(ib.HeaderAtomicETH, &p.AtomicETH)
	zero(ib.HeaderAtomicAckETH, &p.AtomicAckETH)
	zero(ib.HeaderAETH, &p.AETH)
	zero(ib.HeaderImmDt, &p.ImmDt)
	zero(ib.HeaderIETH, &p.IETH)
	zero(ib.HeaderFETH, &p.FETH)
}
