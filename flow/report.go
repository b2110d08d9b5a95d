package flow

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// Stats are the counters of one flow. PSN counters look at requests of
// RC, UC and XRC flows only (see the package documentation for the exact
// rules); read and atomic counters sit on the request flow once the flow
// of its responses is paired with it, on the response flow otherwise.
type Stats struct {
	Frames     uint64 `json:"frames"`
	Bytes      uint64 `json:"bytes"`    // frame lengths on the wire
	Messages   uint64 `json:"messages"` // packets with a Last or Only opcode (SEND, RDMA WRITE, RDMA READ response)
	MTU        uint32 `json:"mtu"`      // largest First or Middle payload: the path MTU; 0 if none seen
	PSNGaps    uint64 `json:"psn_gaps"`
	PSNMissing uint64 `json:"psn_missing"`
	Duplicates uint64 `json:"psn_duplicates"`
	OutOfOrder uint64 `json:"psn_out_of_order"`

	NAKs     [32]uint64 `json:"-"`    // by NAK code (see FlowReport.NAKs)
	NAKTotal uint64     `json:"naks"` // NAKs of every code, RNR NAKs apart
	RNRNAKs  uint64     `json:"rnr_naks"`

	// Retransmitted counts the requests sent again (a PSN already seen:
	// the same packets as Duplicates), split by the cause of the
	// go-back-N episode they belong to; GBN... count those episodes. An
	// episode's cause is the NAK the peer flow carried before it: a NAK
	// PSN Sequence Error or an RNR NAK; with none, a timeout.
	Retransmitted        uint64 `json:"retransmitted"`
	RetransmittedNakSeq  uint64 `json:"retransmitted_nak_seq"`
	RetransmittedRNR     uint64 `json:"retransmitted_rnr_nak"`
	RetransmittedTimeout uint64 `json:"retransmitted_timeout"`
	GBNNakSeq            uint64 `json:"gbn_episodes_nak_seq"`
	GBNRNR               uint64 `json:"gbn_episodes_rnr_nak"`
	GBNTimeout           uint64 `json:"gbn_episodes_timeout"`

	Reads                  uint64 `json:"reads"`
	ReadsMatched           uint64 `json:"reads_matched"`
	ReadsIncomplete        uint64 `json:"reads_incomplete"`
	ReadsUnanswered        uint64 `json:"reads_unanswered"`
	ReadResponsesUnmatched uint64 `json:"read_responses_unmatched"`
	Atomics                uint64 `json:"atomics"`
	AtomicsMatched         uint64 `json:"atomics_matched"`
	AtomicsUnanswered      uint64 `json:"atomics_unanswered"`
	AtomicAcksUnmatched    uint64 `json:"atomic_acks_unmatched"`

	CE      uint64 `json:"ce"`   // packets marked CE
	FECN    uint64 `json:"fecn"` // packets with BTH FECN set
	BECN    uint64 `json:"becn"` // packets with BTH BECN set (CNPs included)
	CNPs    uint64 `json:"cnps"` // CNPs this flow carries (its key is the CNP's addresses and DestQP)
	ICRCBad uint64 `json:"icrc_bad"`
	// ICRCUnchecked counts packets the capture cut before their ICRC.
	ICRCUnchecked uint64 `json:"icrc_unchecked"`
	// CNPPacingViolations counts the CNPs of this flow that came less
	// than Config.CNPInterval after the flow's previous CNP.
	CNPPacingViolations uint64 `json:"cnp_pacing_violations"`

	// CNPsToSender counts the CNPs sent back to this flow's sender for
	// its requester QP: the CNPs of the flow keyed (Dst, Src,
	// requester QP). It is known only when the requester QP is.
	CNPsToSender uint64 `json:"cnps_to_sender"`
	// Answers says that this flow carries the responses (ACKs, read
	// responses) to the requests of its peer.
	Answers bool `json:"answers_peer"`
}

// FlowReport is the summary of one flow.
type FlowReport struct {
	Transport string        `json:"transport"` // RC, UC, UD, XRC, CNP, ...
	Src       string        `json:"src"`
	Dst       string        `json:"dst"`
	QP        uint32        `json:"qp"`
	SrcQP     *uint32       `json:"src_qp,omitempty"` // the QP sending these packets, when known (DETH SrcQP, or the paired flow's QP)
	Peer      string        `json:"peer,omitempty"`   // the paired flow, "SRC > DST qp 0x..."
	First     time.Time     `json:"first"`
	Last      time.Time     `json:"last"`
	Opcodes   []OpcodeCount `json:"opcodes"`
	NAKs      []NAKCount    `json:"naks,omitempty"`
	Latency   *Latencies    `json:"latency,omitempty"`
	// Ambiguous is, for a flow of responses left unpaired, how many
	// request flows own every PSN its responses carried: the capture
	// cannot tell which one they answer (see the package documentation).
	Ambiguous int `json:"ambiguous,omitempty"`
	// PairedBy says how the peer was found: "cm" (the flows of a
	// connection whose REQ and REP name both QPs) or "psn" (the
	// responses' PSNs).
	PairedBy string `json:"paired_by,omitempty"`
	// CMStartPSN is, for a flow of a CM connection, the first PSN the CM
	// negotiated for its requests, where its PSN analysis starts.
	CMStartPSN *uint32 `json:"cm_start_psn,omitempty"`
	// SrcPorts are the UDP source ports of a RoCEv2 flow's packets, in
	// the order first seen (see PortCount); FlowLabel, when a flow label
	// is known, whether they follow it as Linux derives them.
	SrcPorts  []PortCount     `json:"udp_src_ports,omitempty"`
	FlowLabel *FlowLabelCheck `json:"flow_label,omitempty"`
	Stats     `json:"stats"`
	Key       Key `json:"-"`
}

// OpcodeCount is how many packets of one opcode a flow carried. Opcode
// -1 counts opcodes beyond the 16 a flow tracks one by one.
type OpcodeCount struct {
	Opcode int    `json:"opcode"`
	Name   string `json:"name"`
	Count  uint64 `json:"count"`
}

// NAKCount is how many NAKs of one code a flow carried.
type NAKCount struct {
	Code  int    `json:"code"`
	Name  string `json:"name"`
	Count uint64 `json:"count"`
}

// PFCReport is the pause summary of one priority of one MAC Control
// source. Priority 8 stands for 802.3x PAUSE frames, which pause the
// whole link.
type PFCReport struct {
	Source   string `json:"source"`   // source MAC address
	Priority int    `json:"priority"` // 0-7, or 8 for 802.3x PAUSE
	Frames   uint64 `json:"frames"`   // frames that gave this priority a time
	XOFF     uint64 `json:"xoff"`     // of those, with a non-zero time
	XON      uint64 `json:"xon"`      // of those, with a time of zero
	Quanta   uint64 `json:"quanta"`   // sum of the XOFF times
	// QuantaTime is Quanta at the configured speed: every pause counted
	// in full, overlapping or not.
	QuantaTime time.Duration `json:"quanta_ns"`
	// Paused is the time the priority stayed paused, overlapping pauses
	// merged: each XOFF restarts the pause timer, an XON stops it, as a
	// receiving port does (a pause still running at the end of the
	// capture is counted in full).
	Paused time.Duration `json:"paused_ns"`
	// LongestPause is the longest time the priority stayed paused
	// without a break, as Paused counts it.
	LongestPause time.Duration `json:"longest_pause_ns"`
	// Storm says that LongestPause exceeds Config.PFCStorm.
	Storm bool `json:"storm"`
}

// Totals are the frame counts of a whole capture, as rocedump's summary
// line prints them; the Analyzer does not fill them (it sees only the
// frames it is given), its caller does.
type Totals struct {
	Frames      int `json:"frames"`
	RoCE        int `json:"roce"`
	InfiniBand  int `json:"infiniband"`
	MACControl  int `json:"mac_control"`
	NotRoCE     int `json:"not_roce"`
	Malformed   int `json:"malformed"`
	Unsupported int `json:"unsupported"`
	BadICRC     int `json:"bad_icrc"`
	// ICRCUnchecked counts frames the capture cut after their headers;
	// Unreadable the capture records that could not be read (not in
	// Frames).
	ICRCUnchecked int `json:"icrc_unchecked"`
	Unreadable    int `json:"unreadable"`
}

// Report is the result of an analysis.
type Report struct {
	Speed      string       `json:"speed"`
	MaxFlows   int          `json:"max_flows"`
	Flows      []FlowReport `json:"flows"`
	OtherFlows bool         `json:"other_flows"` // some flows were beyond MaxFlows
	Other      *FlowReport  `json:"other,omitempty"`
	PFC        []PFCReport  `json:"pfc"`
	// CNPInterval and PFCStorm are the thresholds used (Config); a
	// negative CNPInterval means no pacing was assumed.
	CNPInterval time.Duration `json:"cnp_interval_ns"`
	PFCStorm    time.Duration `json:"pfc_storm_ns"`
	Totals      *Totals       `json:"totals,omitempty"` // set by the caller
	// CM is what the communication manager's MADs told: the connections
	// and the messages per host pair; nil when the capture has none.
	CM *CMReport `json:"cm,omitempty"`
	// HostPorts is how the QPs of each host pair share UDP source ports,
	// in the order of the pairs' first flows; ECMP the what-if of
	// Config.ECMPPaths (nil without it). Both leave the flows beyond
	// MaxFlows out.
	HostPorts []HostPorts `json:"udp_host_pairs,omitempty"`
	ECMP      *ECMPReport `json:"ecmp,omitempty"`
	// File names the capture summarized, Files the captures summarized
	// together (rocedump -per-file and -stats with several captures);
	// set by the caller.
	File  string   `json:"file,omitempty"`
	Files []string `json:"files,omitempty"`
}

// Report summarizes everything added so far. It can be called more than
// once; the Analyzer stays usable.
func (a *Analyzer) Report() *Report {
	r := &Report{Speed: a.cfg.Speed.String(), MaxFlows: a.cfg.MaxFlows, Flows: []FlowReport{}, PFC: []PFCReport{},
		CNPInterval: a.cfg.CNPInterval, PFCStorm: a.cfg.PFCStorm}
	for _, f := range a.order {
		fr := f.report()
		if f.hasReqQP {
			if c := a.flows[Key{Src: f.key.Dst, Dst: f.key.Src, QP: f.reqQP}]; c != nil {
				fr.CNPsToSender = c.s.CNPs
			}
		}
		r.Flows = append(r.Flows, fr)
	}
	if a.otherN > 0 {
		o := a.other.report()
		r.OtherFlows, r.Other = true, &o
		o.Transport, o.Src, o.Dst = "other", "*", "*"
	}
	for _, src := range a.pfcList {
		r.PFC = append(r.PFC, src.report(a.cfg.PFCStorm)...)
	}
	if a.cm != nil {
		r.CM = a.cm.report()
	}
	a.ports(r)
	return r
}

func (f *state) report() FlowReport {
	s := f.s
	if r := f.req; r != nil {
		for i := range r.reads {
			if r.reads[i].used {
				s.ReadsUnanswered++
			}
		}
		for i := range r.atomics {
			if r.atomics[i].used {
				s.AtomicsUnanswered++
			}
		}
	}
	if pd := f.pend; pd != nil { // responses never paired
		for i := 0; i < pd.qn; i++ {
			f.unmatchedInto(&s, &pd.q[(pd.qh+i)%maxQueued])
		}
	}
	fr := FlowReport{
		Transport: f.transport.String(), Src: f.key.Src.String(), Dst: f.key.Dst.String(), QP: f.key.QP,
		First: f.first, Last: f.last, Stats: s, Key: f.key, Opcodes: []OpcodeCount{},
		Latency: f.latencies(), Ambiguous: f.ambiguous,
	}
	if f.key.Src.Kind == 0 {
		fr.Src, fr.Dst = "*", "*"
	}
	if f.hasReqQP {
		q := f.reqQP
		fr.SrcQP = &q
	}
	if f.peer != nil {
		fr.Peer, fr.PairedBy = keyString(f.peer.key), "psn"
		if f.conn != nil && f.peer.conn == f.conn {
			fr.PairedBy = "cm"
		}
	}
	if f.conn != nil {
		start := f.conn.psnA
		if f.key.Src != f.conn.a {
			start = f.conn.psnB
		}
		fr.CMStartPSN = &start
	}
	f.udpReport(&fr)
	for _, o := range f.ops[:f.nops] {
		fr.Opcodes = append(fr.Opcodes, OpcodeCount{int(o.op), o.op.String(), o.n})
	}
	if f.opsOther > 0 {
		fr.Opcodes = append(fr.Opcodes, OpcodeCount{-1, "other", f.opsOther})
	}
	for c, n := range s.NAKs {
		if n > 0 {
			fr.NAKs = append(fr.NAKs, NAKCount{c, ib.NakCode(c).String(), n})
		}
	}
	return fr
}

func keyString(k Key) string {
	return k.Src.String() + " > " + k.Dst.String() + " qp 0x" + hex24(k.QP)
}

func hex24(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	return strings.Repeat("0", 6-len(s)) + s
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// WriteText writes the report as text: one block per flow, then one line
// per paused priority. See the package documentation for the layout.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d flows", len(r.Flows))
	if r.OtherFlows {
		fmt.Fprintf(&b, " (more beyond the cap of %d: %d frames counted under other)", r.MaxFlows, r.Other.Frames)
	}
	b.WriteString("\n")
	for i := range r.Flows {
		r.Flows[i].writeText(&b)
	}
	if r.Other != nil {
		r.Other.writeText(&b)
	}
	if r.CM != nil {
		r.CM.writeText(&b)
	}
	r.writePortsText(&b)
	for _, p := range r.PFC {
		prio := strconv.Itoa(p.Priority)
		if p.Priority == 8 {
			prio = "all (PAUSE)"
		}
		fmt.Fprintf(&b, "pfc %s prio %s: frames %d xoff %d xon %d quanta %d (%s at %s) paused %s longest %s",
			p.Source, prio, p.Frames, p.XOFF, p.XON, p.Quanta, p.QuantaTime, r.Speed, p.Paused, p.LongestPause)
		if p.Storm {
			fmt.Fprintf(&b, " STORM (over %s)", r.PFCStorm)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (f *FlowReport) writeText(b *strings.Builder) {
	s := &f.Stats
	fmt.Fprintf(b, "%s %s > %s qp 0x%s", f.Transport, f.Src, f.Dst, hex24(f.QP))
	if f.SrcQP != nil {
		fmt.Fprintf(b, " from qp 0x%s", hex24(*f.SrcQP))
	}
	fmt.Fprintf(b, ": frames %d bytes %d messages %d", s.Frames, s.Bytes, s.Messages)
	if s.MTU != 0 {
		fmt.Fprintf(b, " mtu %d", s.MTU)
	}
	b.WriteString("\n  opcodes")
	for _, o := range f.Opcodes {
		fmt.Fprintf(b, " [%s %d]", o.Name, o.Count)
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "  psn gaps %d missing %d duplicates %d out-of-order %d", s.PSNGaps, s.PSNMissing, s.Duplicates, s.OutOfOrder)
	if f.CMStartPSN != nil {
		fmt.Fprintf(b, " from cm start 0x%s", hex24(*f.CMStartPSN))
	}
	b.WriteString("\n")
	if s.Reads+s.ReadResponsesUnmatched+s.Atomics+s.AtomicAcksUnmatched > 0 {
		fmt.Fprintf(b, "  reads %d matched %d incomplete %d unanswered %d unmatched-responses %d\n",
			s.Reads, s.ReadsMatched, s.ReadsIncomplete, s.ReadsUnanswered, s.ReadResponsesUnmatched)
		fmt.Fprintf(b, "  atomics %d matched %d unanswered %d unmatched-acks %d\n",
			s.Atomics, s.AtomicsMatched, s.AtomicsUnanswered, s.AtomicAcksUnmatched)
	}
	if s.Retransmitted > 0 {
		fmt.Fprintf(b, "  retransmitted %d (nak-seq %d rnr-nak %d timeout %d) go-back-n episodes nak-seq %d rnr-nak %d timeout %d\n",
			s.Retransmitted, s.RetransmittedNakSeq, s.RetransmittedRNR, s.RetransmittedTimeout, s.GBNNakSeq, s.GBNRNR, s.GBNTimeout)
	}
	if s.NAKTotal > 0 || s.RNRNAKs > 0 {
		fmt.Fprintf(b, "  naks %d", s.NAKTotal)
		for _, n := range f.NAKs {
			fmt.Fprintf(b, " [%s %d]", n.Name, n.Count)
		}
		fmt.Fprintf(b, " rnr-naks %d\n", s.RNRNAKs)
	}
	if l := f.Latency; l != nil {
		for _, k := range []struct {
			name string
			l    *Latency
		}{{"ack", l.Ack}, {"read-first", l.ReadFirst}, {"read-last", l.ReadLast}, {"atomic", l.Atomic}, {"completion", l.Completion}, {"ce-to-cnp", l.CEToCNP}} {
			if k.l != nil {
				fmt.Fprintf(b, "  latency %s n %d min %s avg %s max %s p99 %s\n", k.name, k.l.Count, k.l.Min, k.l.Avg, k.l.Max, k.l.P99)
			}
		}
	}
	fmt.Fprintf(b, "  ce %d fecn %d becn %d cnps %d cnps-to-sender %d icrc-bad %d", s.CE, s.FECN, s.BECN, s.CNPs, s.CNPsToSender, s.ICRCBad)
	if s.ICRCUnchecked > 0 {
		fmt.Fprintf(b, " icrc-unchecked %d", s.ICRCUnchecked)
	}
	if s.CNPPacingViolations > 0 {
		fmt.Fprintf(b, " cnp-pacing-violations %d", s.CNPPacingViolations)
	}
	b.WriteString("\n")
	if f.Peer != "" {
		fmt.Fprintf(b, "  peer %s", f.Peer)
		if f.PairedBy == "cm" {
			b.WriteString(" (cm)")
		}
		b.WriteString("\n")
	}
	if f.Ambiguous > 0 {
		fmt.Fprintf(b, "  unpaired: its responses fit %d request flows\n", f.Ambiguous)
	}
}

// pfcSource is the pause state of one MAC Control source.
type pfcSource struct {
	mac   [6]byte
	prios [pfc.NumPriorities + 1]pauseState
}

type pauseState struct {
	frames, xoff, xon, quanta uint64
	pausedPs, quantaPs        int64
	longestPs                 int64
	active                    bool
	start, end                int64 // picoseconds since the Analyzer's base time
}

// event applies one pause time q (0: XON) at time t (ps). It returns
// the bounds of the pause it ended, if it ended one (stopped).
func (p *pauseState) event(t int64, q uint16, sp pfc.Speed) (start, end int64, stopped bool) {
	p.frames++
	if p.active && t >= p.end {
		start, end, stopped = p.start, p.end, true
		p.stop(p.end)
	}
	if q == 0 {
		p.xon++
		if p.active {
			start, end, stopped = p.start, t, true
			p.stop(t)
		}
		return start, end, stopped
	}
	p.xoff++
	p.quanta += uint64(q)
	d := int64(sp.Picoseconds(q))
	p.quantaPs += d
	if p.active {
		p.end = t + d
	} else {
		p.active, p.start, p.end = true, t, t+d
	}
	return start, end, stopped
}

// stop ends the running pause at t (ps).
func (p *pauseState) stop(t int64) {
	p.pausedPs += t - p.start
	p.longestPs = max(p.longestPs, t-p.start)
	p.active = false
}

// AddMACControl accounts for one MAC Control frame from source MAC src
// captured at time t: PFC frames per priority, PAUSE frames under
// priority 8. Other opcodes are ignored.
func (a *Analyzer) AddMACControl(t time.Time, src [6]byte, m *pfc.MACControl) {
	if m.Opcode != pfc.OpcodePFC && m.Opcode != pfc.OpcodePause {
		return
	}
	ps := a.pfcSrc[src]
	if ps == nil {
		if len(a.pfcSrc) >= a.cfg.MaxPFCSources {
			src = [6]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
			ps = a.pfcSrc[src]
		}
		if ps == nil {
			ps = &pfcSource{mac: src}
			a.pfcSrc[src] = ps
			a.pfcList = append(a.pfcList, ps)
		}
	}
	if !a.hasBase {
		a.base, a.hasBase = t, true
	}
	d := t.Sub(a.base)
	if d > pfcRebase || d < -pfcRebase {
		a.rebasePFC(t, d)
		d = 0
	}
	now := d.Nanoseconds() * 1000
	if m.Opcode == pfc.OpcodePause {
		a.pause(ps, pfc.NumPriorities, now, m.PauseTime)
		return
	}
	en := m.Enabled()
	for p := 0; p < pfc.NumPriorities; p++ {
		if en.Has(p) {
			a.pause(ps, p, now, m.Time[p])
		}
	}
}

// pfcRebase is how far from the base pause accounting lets a PFC frame
// be (2^52 ns, 52 days) before it moves the base to it: picoseconds in
// an int64 reach 106 days.
const pfcRebase = time.Duration(1 << 52)

// rebasePFC moves the base of pause accounting to t, d after it: a pause
// still running at t keeps its bounds, moved with the base; one over by
// then (every one, when t is more than 2*pfcRebase away) is ended first,
// as the next PFC frame of its priority would end it. No pause lasts 52
// days (65535 quanta at 1 Gb/s are 34 ms).
func (a *Analyzer) rebasePFC(t time.Time, d time.Duration) {
	shift := int64(0)
	if d > 0 && d <= 2*pfcRebase {
		shift = d.Nanoseconds() * 1000 // under 2^63
	}
	for _, s := range a.pfcList {
		for prio := range s.prios {
			p := &s.prios[prio]
			if !p.active {
				continue
			}
			if shift == 0 || p.end <= shift {
				start, end := p.start, p.end
				p.stop(p.end)
				if a.cfg.Events != nil {
					a.pauseEvent(s.mac, prio, start, end)
				}
				continue
			}
			p.start, p.end = p.start-shift, p.end-shift
		}
	}
	a.base = t
}

// pause applies pause time q to priority prio of source ps at now (ps),
// reporting the pause it ends to Config.Events.
func (a *Analyzer) pause(ps *pfcSource, prio int, now int64, q uint16) {
	start, end, stopped := ps.prios[prio].event(now, q, a.cfg.Speed)
	if stopped && a.cfg.Events != nil {
		a.pauseEvent(ps.mac, prio, start, end)
	}
}

func (s *pfcSource) report(storm time.Duration) []PFCReport {
	var out []PFCReport
	mac := fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", s.mac[0], s.mac[1], s.mac[2], s.mac[3], s.mac[4], s.mac[5])
	for i := range s.prios {
		p := s.prios[i]
		if p.frames == 0 {
			continue
		}
		if p.active {
			p.stop(p.end) // a copy: the source stays as it is
		}
		longest := time.Duration(p.longestPs / 1000)
		out = append(out, PFCReport{Source: mac, Priority: i, Frames: p.frames, XOFF: p.xoff, XON: p.xon,
			Quanta: p.quanta, QuantaTime: time.Duration(p.quantaPs / 1000), Paused: time.Duration(p.pausedPs / 1000),
			LongestPause: longest, Storm: longest > storm})
	}
	return out
}

// MarshalJSON writes the report of one flow. First and Last are written
// as time.Time writes them (RFC 3339 with nanoseconds) for years 0 to
// 9999, and in the same layout beyond, where time.Time refuses them
// (a pcapng timestamp can reach the year 294247).
func (f FlowReport) MarshalJSON() ([]byte, error) {
	type plain FlowReport // without this method
	return json.Marshal(struct {
		plain
		First string `json:"first"`
		Last  string `json:"last"`
	}{plain(f), f.First.Format(time.RFC3339Nano), f.Last.Format(time.RFC3339Nano)})
}
