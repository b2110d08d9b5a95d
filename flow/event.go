package flow

import (
	"time"

	"github.com/roce-go/roce/ib"
)

// EventKind says what an Event reports.
type EventKind uint8

// The kinds of event, one per classification the Analyzer makes.
const (
	// EventCE is a packet marked CE (IP ECN 3): Flow is its flow.
	EventCE EventKind = iota + 1
	// EventCNP is a CNP: Flow is the flow carrying it (its addresses and
	// DestQP), Sender the flow whose sender it slows down when known
	// (see the package documentation), and Delay the time from the CE
	// mark it answers, when one was waiting and the flows were paired
	// (HasDelay; an earlier CNP's delay is known only later, in
	// Latencies.CEToCNP).
	EventCNP
	// EventNAK is a NAK or RNR NAK (AETH holds it): Flow is the flow of
	// responses carrying it, Sender its paired request flow when known.
	EventNAK
	// EventRetransmit is a request sent again: Flow is the request flow,
	// Cause the cause of its go-back-N episode ("nak-seq", "rnr-nak" or
	// "timeout"), EpisodeStart true on the resend that begins one.
	EventRetransmit
	// EventPause is one continuous pause of a PFC priority (or of the
	// link, for 802.3x PAUSE: Priority 8), as Stats' Paused counts it:
	// Source sent it, Start and End bound it. It is reported when the
	// pause ends (an XON, or the next frame of the priority after its
	// timer ran out); RunningPauses gives those still running.
	EventPause
)

var eventNames = [...]string{"", "ce", "cnp", "nak", "retransmit", "pause"}

// String returns "ce", "cnp", "nak", "retransmit" or "pause".
func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return "unknown"
}

// Event is one classification the Analyzer made while adding a packet,
// handed to Config.Events during the call of Add, AddRecord or
// AddMACControl that caused it, so that the caller can tell which packet
// it was. Only the fields of its Kind are set.
type Event struct {
	Kind      EventKind
	Time      time.Time // the packet's capture time (EventPause: the end of the pause)
	Flow      Key       // the flow of the packet
	Sender    Key       // EventCNP, EventNAK: the request flow it concerns, when HasSender
	HasSender bool
	// EventCNP: the time from the CE mark the CNP answers, when HasDelay.
	Delay    time.Duration
	HasDelay bool
	// EventNAK: the AETH of the NAK.
	AETH ib.AETH
	// EventRetransmit: the cause of the episode and whether this resend
	// begins it.
	Cause        string
	EpisodeStart bool
	// EventPause: the source MAC, the priority (8 for PAUSE) and the
	// pause's bounds.
	Source     [6]byte
	Priority   int
	Start, End time.Time
}

var causeNames = [...]string{causeNone: "", causeNakSeq: "nak-seq", causeRNR: "rnr-nak", causeTimeout: "timeout"}

// emit hands the Analyzer's event to Config.Events.
func (a *Analyzer) emit(kind EventKind, t time.Time, flow Key) *Event {
	e := &a.evt
	*e = Event{Kind: kind, Time: t, Flow: flow}
	return e
}

// keyOf is the key of p's flow, whatever state holds it.
func keyOf(p *Packet) Key { return Key{Src: p.Src, Dst: p.Dst, QP: p.IB.BTH.DestQP} }

// cnpEvent reports a CNP carried by c (nil: the "other" bucket), with
// the flow it targets (nil if not known) and the delay from its mark.
func (a *Analyzer) cnpEvent(p *Packet, t *state, delay int64, hasDelay bool) {
	e := a.emit(EventCNP, p.Time, keyOf(p))
	if t != nil {
		e.Sender, e.HasSender = t.key, true
	}
	e.Delay, e.HasDelay = time.Duration(delay), hasDelay
	a.cfg.Events(e)
}

// nakEvent reports a NAK or RNR NAK carried by f.
func (a *Analyzer) nakEvent(f *state, p *Packet) {
	e := a.emit(EventNAK, p.Time, keyOf(p))
	e.AETH = p.IB.AETH
	if f.peer != nil {
		e.Sender, e.HasSender = f.peer.key, true
	}
	a.cfg.Events(e)
}

// pauseEvent reports a pause of priority prio from src that ran from
// start to end (picoseconds since the Analyzer's base time).
func (a *Analyzer) pauseEvent(src [6]byte, prio int, start, end int64) {
	e := a.emit(EventPause, a.base.Add(time.Duration(end/1000)), Key{})
	e.Source, e.Priority = src, prio
	e.Start, e.End = a.base.Add(time.Duration(start/1000)), e.Time
	a.cfg.Events(e)
}

// RunningPauses returns the pauses still running, as EventPause events
// ending when their timers run out (as Stats' Paused counts them at the
// end of a capture), in the order of their sources' first frames and
// then by priority. The Analyzer is left as it is.
func (a *Analyzer) RunningPauses() []Event {
	var out []Event
	for _, s := range a.pfcList {
		for prio := range s.prios {
			if p := &s.prios[prio]; p.active {
				out = append(out, Event{Kind: EventPause, Time: a.base.Add(time.Duration(p.end / 1000)),
					Source: s.mac, Priority: prio, Start: a.base.Add(time.Duration(p.start / 1000)),
					End: a.base.Add(time.Duration(p.end / 1000))})
			}
		}
	}
	return out
}
