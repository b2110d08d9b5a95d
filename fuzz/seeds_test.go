package fuzz

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ecn"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/pfc"
)

// fzTestdata is the module's testdata directory, seen from this package.
const fzTestdata = "../testdata"

// fzCapture is one frame read from a capture file of testdata.
type fzCapture struct {
	file     string // path relative to testdata
	index    int    // frame number in the file, from 1
	linkType int    // pcap link type (1 Ethernet, 197 ERF)
	data     []byte
}

// fzICRCVectors are the worked ICRC vectors of
// docs/icrc-vectors.md (V1-V5), whole Ethernet frames.
var fzICRCVectors = []string{
	"02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f",
	"02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d",
	"02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b",
	"020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101c00112b7002800008100ffff4000003400000000000000000000000000000000000000000d07721e",
	"020000000001020000000002080045020030000140004011b766c0a80102c0a80101c00012b7001c00001100ffff00000011000000011f000005aea7a67c",
}

var (
	fzOnce   sync.Once
	fzFrames []fzCapture // every frame of every capture and golden file
	fzFiles  [][]byte    // every capture and golden file, whole
	fzErr    error
)

// fzLoad reads every pcap file under testdata/captures and testdata/golden
// once per test binary.
func fzLoad(tb testing.TB) ([]fzCapture, [][]byte) {
	tb.Helper()
	fzOnce.Do(func() {
		for _, dir := range []string{"captures", "golden"} {
			paths, err := filepath.Glob(filepath.Join(fzTestdata, dir, "*.pcap"))
			if err != nil {
				fzErr = err
				return
			}
			slices.Sort(paths)
			for _, p := range paths {
				raw, err := os.ReadFile(p)
				if err != nil {
					fzErr = err
					return
				}
				fzFiles = append(fzFiles, raw)
				r, err := pcapgo.NewReader(bytes.NewReader(raw))
				if err != nil {
					fzErr = errors.New(p + ": " + err.Error())
					return
				}
				rel, _ := filepath.Rel(fzTestdata, p)
				for i := 1; ; i++ {
					data, _, err := r.ReadPacketData()
					if err == io.EOF {
						break
					}
					if err != nil {
						fzErr = errors.New(p + ": " + err.Error())
						return
					}
					fzFrames = append(fzFrames, fzCapture{rel, i, int(r.LinkType()), data})
				}
			}
		}
		if len(fzFiles) < 10 || len(fzFrames) < 8000 {
			fzErr = errors.New("testdata: fewer capture files or frames than expected")
		}
	})
	if fzErr != nil {
		tb.Fatal(fzErr)
	}
	return fzFrames, fzFiles
}

// fzEthernet returns the Ethernet frames of testdata: the captures, the
// golden frames, the ICRC vectors and a set of PAUSE, PFC and CNP frames
// built by this module. Identical frames are given once.
func fzEthernet(tb testing.TB) [][]byte {
	frames, _ := fzLoad(tb)
	seen := map[string]bool{}
	var out [][]byte
	add := func(b []byte) {
		if !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, b)
		}
	}
	for _, v := range fzICRCVectors {
		b, err := hex.DecodeString(v)
		if err != nil {
			tb.Fatal(err)
		}
		add(b)
	}
	for _, c := range frames {
		if c.linkType == 1 {
			add(c.data)
		}
	}
	for _, b := range fzBuilt(tb) {
		add(b)
	}
	return out
}

// fzSeeds returns the Ethernet frames the fuzz targets are seeded with:
// every frame of fzEthernet when the targets run as tests, so that each
// one is checked; while fuzzing (-fuzz), one frame per fzShape, so that the
// baseline coverage pass over the seeds stays short (the thousands of
// capture frames that differ only in field values cover nothing new).
func fzSeeds(tb testing.TB) [][]byte {
	all := fzEthernet(tb)
	if fl := flag.Lookup("test.fuzz"); fl == nil || fl.Value.String() == "" {
		return all
	}
	seen := map[string]bool{}
	var out [][]byte
	for _, b := range all {
		if k := fzShape(b); !seen[k] {
			seen[k] = true
			out = append(out, b)
		}
	}
	return out
}

// fzBuilt returns MAC Control frames and CNPs built by this module.
func fzBuilt(tb testing.TB) [][]byte {
	src := [6]byte{0x02, 0, 0, 0, 0, 0x42}
	out := [][]byte{
		pfc.AppendPause(nil, src, 0xffff),
		pfc.AppendPause(nil, src, 0),
		pfc.AppendPFC(nil, src, 0x08, [8]uint16{3: 0xffff}),
		pfc.AppendPFC(nil, src, pfc.AllPriorities, [8]uint16{1, 2, 3, 4, 5, 6, 7, 8}),
		pfc.AppendPFC(nil, src, 0, [8]uint16{}),
	}
	gate := pfc.MACControl{Opcode: pfc.OpcodeGate, Body: []byte{1, 2, 3, 4, 5}}
	gateFrame, err := gate.AppendTo(append(append(append([]byte{}, pfc.MulticastAddr[:]...), src[:]...), 0x88, 0x08))
	if err != nil {
		tb.Fatal(err)
	}
	out = append(out, gateFrame)
	// A CNP in reply to each ICRC vector that is RoCEv2, marked CE.
	opts := cnp.DefaultOptions()
	opts.AnyECN = true
	for _, v := range fzICRCVectors {
		b, _ := hex.DecodeString(v)
		if r, err := cnp.Reply(nil, b, 0x123456, &opts); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// fzLayout locates the parts of a RoCE frame; ok is false for frames
// that are not RoCE.
func fzLayout(b []byte) (l wire.Layout, ok bool) {
	return l, wire.Locate(b, &l) == nil
}

// fzExact returns data with its capacity cut to its length, so that a
// decoder reslicing past the end of its input panics.
func fzExact(data []byte) []byte { return data[:len(data):len(data)] }

// fzWithin fails t unless s lies inside in.
func fzWithin(t *testing.T, in, s []byte, what string) {
	t.Helper()
	if len(s) == 0 {
		return
	}
	if len(in) == 0 {
		t.Errorf("%s: %d bytes decoded from an empty input", what, len(s))
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(in)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	if p < base || p+uintptr(len(s)) > base+uintptr(len(in)) {
		t.Errorf("%s: %d bytes at input offset %d, outside the %d-byte input", what, len(s), int64(p)-int64(base), len(in))
	}
}

// fzOffset returns the offset of s within in (s must lie within in).
func fzOffset(in, s []byte) int {
	if len(s) == 0 {
		return -1
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(s))) - uintptr(unsafe.Pointer(unsafe.SliceData(in))))
}

// The error sets of the decoders.
var (
	// fzFrameErrs are what a frame decoder may return.
	fzFrameErrs = []error{ib.ErrTruncated, ib.ErrBadLength, ib.ErrBadPad, ib.ErrBadVersion, ib.ErrUnsupported, ib.ErrNotRoCE}
	// fzPacketErrs are what a transport packet decoder may return.
	fzPacketErrs = []error{ib.ErrTruncated, ib.ErrBadLength, ib.ErrBadPad}
)

// fzCheckErr fails t unless err is nil or wraps one of allowed.
func fzCheckErr(t *testing.T, what string, err error, allowed ...error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, a := range allowed {
		if errors.Is(err, a) {
			return
		}
	}
	t.Errorf("%s: error %q (%T) wraps none of the documented sentinels", what, err, err)
}

// fzIBErrOK fails t when err holds an *ib.Error that wraps no ib sentinel
// (errors from gopacket's own layers are not checked).
func fzIBErrOK(t *testing.T, what string, err error) {
	t.Helper()
	var ie *ib.Error
	if errors.As(err, &ie) {
		fzCheckErr(t, what, ie, append(fzFrameErrs, ib.ErrBadICRC)...)
	}
}

// fzDecodeOptions decode without copying, so that the layers' slices can
// be checked against the input. Panics are recovered by gopacket and
// then looked for in the packet's error layer (see fzNoPanic), so that a
// bug in one of gopacket's own layers does not stop the fuzzer.
var fzDecodeOptions = gopacket.DecodeOptions{NoCopy: true}

// fzNoPanic fails t when gopacket recovered a panic raised in this
// module's code while decoding p: it looks at the function that panicked
// (the first frame after panic( that is not the runtime's), not at the
// whole stack, since this module's layers hand their payloads on to
// gopacket's own (IPoIB to IPv4, IPv6 and ARP), whose panics
// (layers.decodeIPSecESP on a short ESP header, in v1.1.19) then have
// this module's decoders lower in the stack.
func fzNoPanic(t *testing.T, what string, p gopacket.Packet) {
	t.Helper()
	df, ok := p.ErrorLayer().(*gopacket.DecodeFailure)
	if !ok {
		return
	}
	st := df.Dump()
	i := strings.Index(st, "\npanic(")
	if i < 0 {
		return
	}
	for _, line := range strings.Split(st[i+1:], "\n")[1:] {
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "runtime.") {
			continue // a file:line, or the runtime raising the panic
		}
		if fzOurFrame.MatchString(line) {
			t.Errorf("%s: panic in this module: %v\n%s", what, df.Error(), st)
		}
		return
	}
}

// fzOurFrame matches a stack frame of a library package of this module
// (any but this one).
var fzOurFrame = regexp.MustCompile(`(?m)^github\.com/roce-go/roce(/(ib|rocev1|rocev2|pfc|cnp|ecn|dump|ipoib|dcbx|internal/[a-z]+))?\.`)

// fzLayersWithin checks every layer's contents and payload against in.
func fzLayersWithin(t *testing.T, in []byte, what string, ls ...gopacket.Layer) {
	t.Helper()
	for _, l := range ls {
		fzWithin(t, in, l.LayerContents(), what+" "+l.LayerType().String()+" contents")
		fzWithin(t, in, l.LayerPayload(), what+" "+l.LayerType().String()+" payload")
	}
}

// fzShape sums up what decides a decoder's path through a frame: its
// length, its Ethertypes, how roce.Frame.Decode ends, the opcode, the
// pad, the tags, the ECN codepoint, the UDP checksum and the ICRC.
func fzShape(b []byte) string {
	var f roce.Frame
	err := f.Decode(b)
	ecnCP, _ := ecn.FrameECN(b)
	var et []byte
	if len(b) >= 18 {
		et = []byte{b[12], b[13], b[16], b[17]}
	}
	return fmt.Sprint(len(b), et, err, f.Packet.BTH.OpCode, f.Packet.BTH.PadCnt, f.NumVLANs, ecnCP, f.UDPChecksum, err == nil && f.VerifyICRC() == nil)
}
