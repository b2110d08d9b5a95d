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
	mads  []byte    // the payloads of the CM MADs
	pkt   ib.Packet // AddBatch's packet
}

type batchItem struct {
	p      Packet
	ib     batchHeaders
	mad    int // the payload is mads[mad:madEnd]; mad is -1 when it was not kept
	madEnd int
	mac    int // the frame is MAC Control: macs[mac]; -1 otherwise
}

// batchHeaders are the headers of an ib.Packet that the analysis reads
// (Add reads no other: TestBatch compares the reports of every opcode
// family); AddBatch puts them in an ib.Packet of its own, the other
// headers zero.
type batchHeaders struct {
	bth  ib.BTH
	aeth ib.AETH
	deth ib.DETH
	reth ib.RETH
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
		it := b.next()
		packetOf(r, &it.p)
		ip := it.p.IB
		it.ib.bth, it.ib.aeth, it.ib.deth, it.ib.reth = ip.BTH, ip.AETH, ip.DETH, ip.RETH
		it.p.IB, it.mad, it.madEnd, it.mac = nil, -1, 0, -1
		if isCM(&Packet{IB: ip}) {
			it.mad = len(b.mads)
			b.mads = append(b.mads, ip.Payload...)
			it.madEnd = len(b.mads)
		} else {
			it.p.bareLen = len(ip.Payload) + 1
		}
	case dump.KindMACControl:
		b.items = append(b.items, batchItem{mad: -1, mac: len(b.macs)})
		b.macs = append(b.macs, batchMAC{t: r.Time, src: macSource(r), m: r.MACControl})
	}
}

// next returns the item after the last, its fields as a previous use of
// the Batch left them: every one is set by Add.
func (b *Batch) next() *batchItem {
	if len(b.items) < cap(b.items) {
		b.items = b.items[:len(b.items)+1]
	} else {
		b.items = append(b.items, batchItem{})
	}
	return &b.items[len(b.items)-1]
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
		ip := &b.pkt
		ip.BTH, ip.AETH, ip.DETH, ip.RETH, ip.Payload = it.ib.bth, it.ib.aeth, it.ib.deth, it.ib.reth, nil
		if it.mad >= 0 {
			ip.Payload = b.mads[it.mad:it.madEnd:it.madEnd]
		}
		it.p.IB = ip
		a.Add(&it.p)
		it.p.IB = nil
	}
}
