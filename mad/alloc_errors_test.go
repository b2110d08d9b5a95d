package mad

import (
	"errors"
	"testing"

	"github.com/roce-go/roce/ib"
)

// decoders are every decoder of the package, each into one value kept
// for the whole test (on the heap).
var decoders = func() map[string]func([]byte) error {
	var (
		cpi  ClassPortInfo
		cm   CM
		req  REQ
		mra  MRA
		rej  REJ
		rep  REP
		rtu  RTU
		dreq DREQ
		drep DREP
		sreq SIDRREQ
		srep SIDRREP
		lap  LAP
		apr  APR
		hdr  Header
		perf PerfMgt
		pc   PortCounters
		pce  PortCountersExtended
		ipcm IPCM
		rmpp RMPP
		sa   SA
		pr   PathRecord
		nr   NodeRecord
		pir  PortInfoRecord
		sr   ServiceRecord
		mcm  MCMemberRecord
		smp  SMP
		dr   SMPDirected
		ni   NodeInfo
		nd   NodeDescription
		smi  SMInfo
		gi   GUIDInfo
		pk   PKeyTable
		si   SwitchInfo
		pi   PortInfo
	)
	cm.AttributeID = AttrConnectRequest
	return map[string]func([]byte) error{
		"ClassPortInfo": cpi.Decode, "CM": cm.Decode,
		"REQ": req.Decode, "MRA": mra.Decode, "REJ": rej.Decode, "REP": rep.Decode, "RTU": rtu.Decode,
		"DREQ": dreq.Decode, "DREP": drep.Decode, "SIDRREQ": sreq.Decode, "SIDRREP": srep.Decode,
		"LAP": lap.Decode, "APR": apr.Decode, "Header": hdr.Decode,
		"PerfMgt": perf.Decode, "SMP.DecodeData": func(b []byte) error { return smp.DecodeData(&hdr, b) },
		"PortCounters": pc.Decode, "PortCountersExtended": pce.Decode, "IPCM": ipcm.Decode, "RMPP": rmpp.Decode,
		"SA": sa.Decode, "PathRecord": pr.Decode,
		"NodeRecord": nr.Decode, "PortInfoRecord": pir.Decode, "ServiceRecord": sr.Decode,
		"MCMemberRecord": mcm.Decode, "SMP": smp.Decode, "SMPDirected": dr.Decode, "NodeInfo": ni.Decode,
		"NodeDescription": nd.Decode, "SMInfo": smi.Decode, "GUIDInfo": gi.Decode, "PKeyTable": pk.Decode,
		"SwitchInfo": si.Decode, "PortInfo": pi.Decode,
	}
}()

// TestDecodeErrorsNoAllocs: every decoder, on every prefix of a MAD (an
// input cut short), on a MAD of another class and on a directed-route SMP
// whose hop count is too large, returns its error (wrapping the
// sentinels) without allocating once the errors of its layer were made.
func TestDecodeErrorsNoAllocs(t *testing.T) {
	mad := make([]byte, Len)
	mad[offBaseVersion], mad[offMgmtClass], mad[offClassVersion] = 1, byte(ClassSubnAdm), 2
	dr := make([]byte, Len)
	dr[offBaseVersion], dr[offMgmtClass], dr[offClassVersion] = 1, byte(ClassSubnDR), 1
	dr[offClassSpecific+1] = 64 // hop count 64, above MaxHopCount
	errs := 0
	for name, decode := range decoders {
		var err error
		allocs := testing.AllocsPerRun(5, func() {
			for n := range Len {
				err = decode(mad[:n])
				if err != nil {
					errs++
				}
			}
			_ = decode(mad)
			_ = decode(dr)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run", name, allocs)
		}
		if err := decode(mad[:1]); !errors.Is(err, ib.ErrTruncated) {
			t.Errorf("%s of 1 byte: %v, want ErrTruncated", name, err)
		}
	}
	var s SMPDirected
	if err := s.Decode(dr); !errors.Is(err, ib.ErrBadLength) || err.Error() != "roce: SMPDirected at offset 7: bad length" {
		t.Errorf("hop count 64: %v", err)
	}
	var smp SMP
	if err := smp.Decode(mad); !errors.Is(err, ib.ErrUnsupported) || err.Error() != "roce: SMP at offset 1: unsupported" {
		t.Errorf("SA MAD as an SMP: %v", err)
	}
	if errs == 0 {
		t.Error("no error met")
	}
}
