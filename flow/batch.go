package flow

import (
	"time"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// Batch holds what AddRecord reads of each frame of a run of frames, so
// that the goroutines that decode a capture take it from their Records
// (dump.ScanParts; a Batch is a dump.Part) and AddBatch then accounts for
// the frames in capture order on one goroutine, as AddRecord on each
// frame would: the same report. A Batch keeps no reference to the
// Records or their bytes (it copies the headers, and the payload of the
// CM MADs, the only payloads the analysis reads). Its memory is reused
// after Reset.
type Batch struct {
	items []batchItem
	macs  []batchMAC
	mads  []byte // the payloads of the CM MADs
}

type batchItem struct {
	p      Packet
	ib     ib.Packet
	mad    int // the payload is mads[mad:madEnd]; mad is -1 when it was not kept
	madEnd int
	mac    int // the frame is MAC Control: macs[mac]; -1 otherwise
}

type batchMAC struct {
	t   time.Time
	src [6]byte
	m   pfc.MACControl
}

// NewBatch returns an empty Batch.
func NewBatch() *Batch { return new(Batch) }

// Add adds a frame decoded by package dump, as AddRecord takes it.
func (b *Batch) Add(r *dump.Record) {
	switch r.Kind {
	case dump.KindRoCE, dump.KindInfiniBand:
		b.items = append(b.items, batchItem{mad: -1, mac: -1})
		it := &b.items[len(b.items)-1]
		packetOf(r, &it.p)
		it.ib = *it.p.IB
		it.p.IB = nil
		if isCM(&Packet{IB: &it.ib}) {
			it.mad = len(b.mads)
			b.mads = append(b.mads, it.ib.Payload...)
			it.madEnd = len(b.mads)
		} else {
			it.p.bareLen = len(it.ib.Payload) + 1
		}
		it.ib.Payload = nil
	case dump.KindMACControl:
		b.items = append(b.items, batchItem{mad: -1, mac: len(b.macs)})
		b.macs = append(b.macs, batchMAC{t: r.Time, src: macSource(r), m: r.MACControl})
	}
}

// Reset empties the Batch.
func (b *Batch) Reset() { b.items, b.macs, b.mads = b.items[:0], b.macs[:0], b.mads[:0] }

// Len returns the number of frames the Batch holds that the analysis
// reads (RoCE, native InfiniBand and MAC Control frames).
func (b *Batch) Len() int { return len(b.items) }

// AddBatch accounts for the frames of b, in the order they were added,
// as AddRecord would have for each.
func (a *Analyzer) AddBatch(b *Batch) {
	for i := range b.items {
		it := &b.items[i]
		if it.mac >= 0 {
			m := &b.macs[it.mac]
			a.AddMACControl(m.t, m.src, &m.m)
			continue
		}
		it.p.IB = &it.ib
		if it.mad >= 0 {
			it.ib.Payload = b.mads[it.mad:it.madEnd:it.madEnd]
		}
		a.Add(&it.p)
		it.ib.Payload = nil
	}
}
