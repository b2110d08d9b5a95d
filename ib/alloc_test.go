package ib

import (
	"errors"
	"testing"
)

// TestNoAllocs holds the allocation contract of the package doc: decoding,
// encoding into a buffer with room, validating and the ICRC functions
// allocate nothing. Each closure returns its call's error, so a call that
// fails (and might skip its work) fails the test instead of passing it.
func TestNoAllocs(t *testing.T) {
	var l headerSet
	cases := contractCases(&l)
	icrc := map[Encapsulation][]byte{}
	for _, v := range icrcVectors {
		icrc[v.enc] = mustHex(t, v.frame)[v.netOff:]
	}
	native := mustHex(t, "00020001000700020400ffff000000120000000149422121b55ebbaf")
	nativeGlobal := append([]byte{0, LNHIBAGlobal, 0, 1, 0, 0, 0, 2}, icrc[RoCEv1]...)
	write := cases[0].full // an RC Acknowledge
	var pkt Packet
	if err := pkt.Decode(write); err != nil {
		t.Fatal(err)
	}
	corrupt := append([]byte(nil), icrc[RoCEv2IPv4]...)
	corrupt[len(corrupt)-5] ^= 1 // the last byte the ICRC covers
	out := make([]byte, 0, 256)
	buf := &frontBuffer{b: make([]byte, 0, 256)}
	atomic := fullPacket(OpRCCmpSwap)
	cmpSwap, err := atomic.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]func() error{
		"Packet.DecodeTruncated (cut inside the AtomicETH)": func() error {
			var p Packet
			if err := p.DecodeTruncated(cmpSwap[:BTHLen+22], len(cmpSwap)); err != nil {
				return err
			}
			if p.Captured(HeaderAtomicETH) != 22 || p.AtomicETH.SwapData == 0 || p.AtomicETH.CompareData != 0 {
				return errors.New("not the AtomicETH captured")
			}
			return nil
		},
		"Packet.Decode": func() error { return pkt.Decode(write) },
		"Packet.Decode (local Packet)": func() error {
			var p Packet
			return p.Decode(write)
		},
		"Packet.AppendTo": func() error { _, err := pkt.AppendTo(out[:0]); return err },
		"Packet.AppendTo (local Packet)": func() error {
			p := Packet{BTH: BTH{OpCode: OpRCRDMAWriteOnly, DestQP: 7}, Payload: write}
			_, err := p.AppendTo(out[:0])
			return err
		},
		"Packet.Validate":   func() error { return pkt.Validate() },
		"GRH.Decode":        func() error { return l.GRH.Decode(cases[1].full) },
		"GRH.Encode":        func() error { return l.GRH.Encode(out[:GRHLen]) },
		"LRH.Decode":        func() error { return l.LRH.Decode(cases[2].full) },
		"LRH.Encode":        func() error { return l.LRH.Encode(out[:LRHLen]) },
		"ComputeNativeICRC": func() error { _, err := ComputeNativeICRC(native); return err },
		"ComputeNativeICRC/global": func() error {
			_, err := ComputeNativeICRC(nativeGlobal)
			return err
		},
		"VerifyNativeICRC": func() error { return VerifyNativeICRC(native) },
		"CheckICRC/mismatch": func() error {
			_, _, ok, err := CheckICRC(RoCEv2IPv4, corrupt)
			if ok {
				return errors.New("no mismatch")
			}
			return err
		},
	}
	for enc, p := range icrc {
		rows["ComputeICRC/"+enc.String()] = func() error { _, err := ComputeICRC(enc, p); return err }
		rows["VerifyICRC/"+enc.String()] = func() error { return VerifyICRC(enc, p) }
		rows["CheckICRC/"+enc.String()] = func() error {
			_, _, ok, err := CheckICRC(enc, p)
			if !ok && err == nil {
				return errors.New("mismatch")
			}
			return err
		}
	}
	for _, c := range cases {
		rows[c.name+".Decode"] = func() error { return c.l.Decode(c.full) }
	}
	rows["BTH.Split"] = func() error { _, err := l.BTH.Split(cases[0].full, len(cases[0].full)); return err }
	rows["GRH.Split"] = func() error { _, _, err := l.GRH.Split(cases[1].full); return err }
	rows["LRH.Split"] = func() error { _, _, err := l.LRH.Split(cases[2].full); return err }
	// AppendTo into a buffer with room; Serialize into one whose front
	// has room (a frontBuffer grows by copying, so it is reset first).
	for _, c := range cases {
		if err := c.l.Decode(c.full); err != nil {
			t.Fatal(err)
		}
		if a, ok := c.l.(interface{ AppendTo([]byte) ([]byte, error) }); ok {
			rows[c.name+".AppendTo"] = func() error { _, err := a.AppendTo(out[:0]); return err }
		}
	}
	_ = buf
	for name, fn := range rows {
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := fn(); e != nil {
				err = e
			}
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}
