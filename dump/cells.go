package dump

import (
	"math/bits"
	"sync"

	"github.com/roce-go/roce/ib"
)

// Cells is a frame's values, field by field: what Fill takes from a
// Record, indexed like Fields(). It is for a writer that stores every
// field of every frame (the Parquet rows) and would otherwise ask each
// field's Get in turn: Fill visits only the protocols the frame has, and
// fills the fields of the headers of a RoCE data packet (frame,
// Ethernet, IPv4, UDP, BTH, RETH, AETH, DETH, ICRC) in one pass over
// each header. TestCellsAreTheTable checks on every frame of every test
// capture that the values are exactly those of Get.
type Cells struct {
	// Values holds field i's value in Values[i] when the frame has
	// field i. Only the part of a Value its field's type uses is set
	// (Value.U for a number, Value.Addr for an address, ...): the rest
	// may hold anything.
	Values []Value
	has    []uint64 // bit i: the frame has field i, once hasOK (Has and Next make it from fields)
	hasOK  bool
	fields []int // the fields the frame has, in the order Fill found them
}

// NewCells returns Cells for the field table.
func NewCells() *Cells {
	n := len(fieldTable())
	return &Cells{Values: make([]Value, n), has: make([]uint64, (n+63)/64), fields: make([]int, 0, n)}
}

// Fill sets c to the values of r's fields. It allocates nothing, except
// for the _error text of a malformed frame.
func (c *Cells) Fill(r *Record) {
	c.hasOK = false
	c.fields = c.fields[:0]
	var headers uint32 // bit h: the packet has extended header h
	var cut uint32     // bit h: the capture cut header h, whose fields Get checks one by one
	if r.isIB() {
		p := &r.RoCE.Packet
		hs := p.Headers()
		for i := range hs.Len() {
			headers |= 1 << hs.At(i)
		}
		if p.BTH.Truncated {
			for i := range hs.Len() {
				switch h, n := hs.At(i), p.Captured(hs.At(i)); {
				case n < int(ethFirst[h]):
					headers &^= 1 << h
				case n < h.Len():
					cut |= 1 << h
				}
			}
		}
	}
	table, groups := fieldTable(), cellGroups()
	for i := range groups {
		g := &groups[i]
		if g.header != ib.NoHeader {
			if headers&(1<<g.header) == 0 {
				continue
			}
			if cut&(1<<g.header) != 0 {
				c.getAll(r, g.all)
				continue
			}
		} else if !g.present(r) {
			continue
		}
		if g.fill != nil {
			g.fill(c, r)
		}
		for _, fi := range g.slow {
			if v, ok := table[fi].Get(r); ok {
				c.Values[fi] = v
				c.mark(fi)
			}
		}
	}
}

// getAll asks Get for each of the fields.
func (c *Cells) getAll(r *Record, fields []int) {
	table := fieldTable()
	for _, fi := range fields {
		if v, ok := table[fi].Get(r); ok {
			c.Values[fi] = v
			c.mark(fi)
		}
	}
}

// Has reports whether the frame has field i.
func (c *Cells) Has(i int) bool {
	c.bits()
	return c.has[i/64]&(1<<(i%64)) != 0
}

// bits makes has from fields.
func (c *Cells) bits() {
	if c.hasOK {
		return
	}
	clear(c.has)
	for _, i := range c.fields {
		c.has[i>>6] |= 1 << (i & 63)
	}
	c.hasOK = true
}

// Next returns the first field at or after i that the frame has, or -1.
// for i := c.Next(0); i >= 0; i = c.Next(i + 1) visits them in table
// order.
func (c *Cells) Next(i int) int {
	c.bits()
	for w := i / 64; w < len(c.has); w++ {
		word := c.has[w]
		if w == i/64 {
			word &^= 1<<(i%64) - 1
		}
		if word != 0 {
			return w*64 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

func (c *Cells) mark(i int) { c.fields = append(c.fields, i) }

// Fields returns the indexes of the fields the frame has, each once, in
// no particular order (that of Next is the table's): the quickest way
// through them. The slice is valid until the next Fill.
func (c *Cells) Fields() []int { return c.fields }

// uint sets field i, a number.
func (c *Cells) uint(i int, v uint64) {
	c.Values[i].U = v
	c.mark(i)
}

// cellGroup is the fields a frame has only when it has a protocol
// (fieldRequires): fill, when set, fills some of them; Fill asks Get for
// the others (slow).
type cellGroup struct {
	present func(r *Record) bool
	header  ib.Header // present: the packet has this extended header
	fill    func(c *Cells, r *Record)
	slow    []int
	all     []int // every field of the group, fast and slow
}

// fastFields are the fields the fill functions set, by the index
// variables of their rows; Fill asks Get for the others.
// TestCellsAreTheTable checks the values.
var fastFields = []*key{
	&kFrameNumber, &kFrameTimeEpoch, &kFrameLen, &kFrameCapLen, &kEthDst, &kEthSrc, &kEthType,
	&kIpSrc, &kIpDst, &kIpDsfieldDscp, &kIpDsfieldEcn, &kIpTtl, &kIpId, &kIpProto, &kUdpSrcport,
	&kUdpDstport, &kBthOpcode, &kBthSe, &kBthM, &kBthPadcnt, &kBthTver, &kBthPKey, &kBthFecn,
	&kBthBecn, &kBthDestqp, &kBthA, &kBthPsn, &kDethQKey, &kDethSrcqp, &kRethVa, &kRethRKey,
	&kRethDmalen, &kAethSyndrome, &kAethMsn, &kImmdt, &kIeth, &kPayloadLen, &kInvariantCrc,
	&kInvariantCrcStatus, &kVariantCrc, &kCnpError, &kError,
}

// cellFillers fill the fast fields of a group, by fieldRequires name.
var cellFillers = map[string]func(c *Cells, r *Record){
	"frame":           fillFrame,
	"eth":             fillEth,
	"ip":              fillIPv4,
	"udp":             fillUDP,
	"infiniband.bth":  fillBTH,
	"infiniband.deth": fillDETH,
	"infiniband.reth": fillRETH,
	"infiniband.aeth": fillAETH,
	"infiniband":      fillIB,
}

var cellGroups = sync.OnceValue(func() []cellGroup {
	var gs []cellGroup
	index := map[string]int{}
	fast := map[int]bool{}
	for _, h := range fastFields {
		if n := fieldTable()[h.i].Name; cellFillers[fieldRequires(n)] == nil {
			panic("dump: no filler for fast cell " + n)
		}
		fast[h.i] = true
	}
	for i, f := range fieldTable() {
		p := fieldRequires(f.Name)
		gi, ok := index[p]
		if !ok {
			proto, found := LookupProtocol(p)
			if !found {
				panic("dump: no protocol " + p)
			}
			gi = len(gs)
			index[p] = gi
			gs = append(gs, cellGroup{present: proto.Present, header: protocolHeader[p], fill: cellFillers[p]})
		}
		if !fast[i] {
			gs[gi].slow = append(gs[gi].slow, i)
		}
		gs[gi].all = append(gs[gi].all, i)
	}
	return gs
})

func fillFrame(c *Cells, r *Record) {
	c.uint(kFrameNumber.i, uint64(r.Number))
	if !r.Time.IsZero() {
		v := &c.Values[kFrameTimeEpoch.i]
		v.Sec, v.U = r.Time.Unix(), uint64(r.Time.Nanosecond())
		c.mark(kFrameNumber.i + 1)
	}
	c.uint(kFrameLen.i, uint64(r.Len))
	c.uint(kFrameCapLen.i, uint64(r.capLen))
	if r.isIB() && r.CNPErr != nil {
		c.Values[kCnpError.i].S = r.CNPErr.Error()
		c.mark(kCnpError.i)
	}
	switch r.Kind {
	case KindMalformed:
		c.Values[kError.i].S = r.Err.Error()
		c.mark(kError.i)
	case KindUnsupported:
		c.Values[kError.i].S = string(appendUnsupported(nil, r))
		c.mark(kError.i)
	}
}

func fillEth(c *Cells, r *Record) {
	e := r.ethHdr()
	if e == nil {
		return
	}
	var a [16]byte
	copy(a[:6], e[0:6])
	c.Values[kEthDst.i].Addr = a
	copy(a[:6], e[6:12])
	c.Values[kEthSrc.i].Addr = a
	c.mark(kEthDst.i)
	c.mark(kEthDst.i + 1)
	c.uint(kEthType.i, uint64(r.net.etherType))
}

func fillIPv4(c *Cells, r *Record) {
	n := &r.net
	c.Values[kIpSrc.i].Addr = n.src
	c.Values[kIpDst.i].Addr = n.dst
	c.mark(kIpSrc.i)
	c.mark(kIpSrc.i + 1)
	c.uint(kIpDsfieldDscp.i, uint64(n.tclass>>2))
	c.uint(kIpDsfieldEcn.i, uint64(n.tclass&3))
	c.uint(kIpTtl.i, uint64(n.ttl))
	c.uint(kIpId.i, uint64(n.ipID))
	c.uint(kIpProto.i, uint64(n.proto))
}

func fillUDP(c *Cells, r *Record) {
	c.uint(kUdpSrcport.i, uint64(r.net.sport))
	c.uint(kUdpDstport.i, uint64(r.net.dport))
}

func fillBTH(c *Cells, r *Record) {
	h := &r.RoCE.Packet.BTH
	c.uint(kBthOpcode.i, uint64(h.OpCode))
	c.uint(kBthSe.i, b2u(h.SE))
	c.uint(kBthM.i, b2u(h.MigReq))
	c.uint(kBthPadcnt.i, uint64(h.PadCnt))
	c.uint(kBthTver.i, uint64(h.TVer))
	c.uint(kBthPKey.i, uint64(h.PKey))
	c.uint(kBthFecn.i, b2u(h.FECN))
	c.uint(kBthBecn.i, b2u(h.BECN))
	c.uint(kBthDestqp.i, uint64(h.DestQP))
	c.uint(kBthA.i, b2u(h.AckReq))
	c.uint(kBthPsn.i, uint64(h.PSN))
}

func fillDETH(c *Cells, r *Record) {
	d := &r.RoCE.Packet.DETH
	c.uint(kDethQKey.i, uint64(d.QKey))
	c.uint(kDethSrcqp.i, uint64(d.SrcQP))
}

func fillRETH(c *Cells, r *Record) {
	h := &r.RoCE.Packet.RETH
	c.uint(kRethVa.i, h.VA)
	c.uint(kRethRKey.i, uint64(h.RKey))
	c.uint(kRethDmalen.i, uint64(h.DMALen))
}

func fillAETH(c *Cells, r *Record) {
	a := &r.RoCE.Packet.AETH
	c.uint(kAethSyndrome.i, uint64(a.Syndrome))
	c.uint(kAethMsn.i, uint64(a.MSN))
}

// icrcStatus are the values of infiniband.invariant.crc.status.
var icrcStatus = [...]string{"bad", "good", "unchecked"}

func fillIB(c *Cells, r *Record) {
	if r.Kind == KindInfiniBand && len(r.RoCE.Raw)+2 <= r.capLen {
		c.uint(kVariantCrc.i, uint64(r.LRH.VCRC))
	}
	if !r.isIB() {
		return // an LRH alone: none of the others
	}
	p := &r.RoCE.Packet
	h := p.Headers()
	if h.Has(ib.HeaderImmDt) && p.Captured(ib.HeaderImmDt) == ib.ImmDtLen {
		c.bytes4(kImmdt.i, p.ImmDt.Data)
	}
	if h.Has(ib.HeaderIETH) && p.Captured(ib.HeaderIETH) == ib.IETHLen {
		c.bytes4(kIeth.i, p.IETH.RKey)
	}
	c.uint(kPayloadLen.i, uint64(r.payloadLen()))
	status := b2u(r.ICRCGood)
	if r.ICRCUnchecked {
		status = 2
	} else {
		x := p.BTH.ICRC
		c.uint(kInvariantCrc.i, uint64(x[0])<<24|uint64(x[1])<<16|uint64(x[2])<<8|uint64(x[3]))
	}
	c.Values[kInvariantCrcStatus.i].S = icrcStatus[status]
	c.mark(kImmdt.i + 4)
}

// bytes4 sets field i, four bytes.
func (c *Cells) bytes4(i int, x uint32) {
	v := &c.Values[i]
	v.Addr = [16]byte{byte(x >> 24), byte(x >> 16), byte(x >> 8), byte(x)}
	v.Len = 4
	c.mark(i)
}
