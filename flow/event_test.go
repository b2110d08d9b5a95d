package flow_test

import (
	"testing"
	"time"

	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/stretchr/testify/assert"
)

// event is what TestEvents keeps of a flow.Event.
type event struct {
	kind   flow.EventKind
	at     time.Duration // from the script's start
	cause  string
	start  bool
	sender string
}

func events(t *testing.T, cfg flow.Config, fs []frame) []event {
	t.Helper()
	base := time.Unix(1700000000, 0)
	var got []event
	cfg.Events = func(e *flow.Event) {
		ev := event{kind: e.Kind, at: e.Time.Sub(base), cause: e.Cause, start: e.EpisodeStart}
		if e.HasSender {
			ev.sender = e.Sender.String()
		}
		if e.Kind == flow.EventPause {
			ev.at, ev.cause = e.Start.Sub(base), e.End.Sub(e.Start).String()
		}
		got = append(got, ev)
	}
	analyzeCfg(t, cfg, fs)
	return got
}

// TestEvents: the retransmission script of TestRetransmission reports
// each resend with its episode's cause and each NAK with the request
// flow it concerns; the congestion script each CE mark and each CNP with
// the flow it slows down; PFC frames each continuous pause once.
func TestEvents(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 100}
	for i := uint32(0); i < 4; i++ {
		k.write(time.Duration(i)*usec, i)
	}
	k.nakSeq(10*usec, 1)
	k.write(11*usec, 1)
	k.write(12*usec, 2)
	k.write(13*usec, 3)
	k.ack(20*usec, 3)
	k.send(21*usec, 4, ib.SendOnly, 100)
	k.rnr(25*usec, 4)
	k.send(40*usec, 4, ib.SendOnly, 100)
	k.write(50*usec, 5)
	k.write(1050*usec, 5) // no NAK: a timeout
	reqFlow := "10.0.0.1 > 10.0.0.2 qp 0x000022"
	want := []event{
		{kind: flow.EventNAK, at: 10 * usec, sender: reqFlow},
		{kind: flow.EventRetransmit, at: 11 * usec, cause: "nak-seq", start: true},
		{kind: flow.EventRetransmit, at: 12 * usec, cause: "nak-seq"},
		{kind: flow.EventRetransmit, at: 13 * usec, cause: "nak-seq"},
		{kind: flow.EventNAK, at: 25 * usec, sender: reqFlow},
		{kind: flow.EventRetransmit, at: 40 * usec, cause: "rnr-nak", start: true},
		{kind: flow.EventRetransmit, at: 1050 * usec, cause: "timeout", start: true},
	}
	assert.Equal(t, want, events(t, flow.Config{}, c.frames()))

	c = &capture{t: t}
	k = &conn{c: c, req: 0x11, resp: 0x22, p0: 500}
	k.write(0, 0)
	k.ack(usec/2, 0)
	m1 := k.writeCE(1*usec, 1)
	k.writeCE(2*usec, 2) // within 4 µs of the mark that caused a CNP
	k.cnpTo(3*usec, m1, k.req)
	want = []event{
		{kind: flow.EventCE, at: 1 * usec},
		{kind: flow.EventCE, at: 2 * usec},
		{kind: flow.EventCNP, at: 3 * usec, sender: reqFlow},
	}
	assert.Equal(t, want, events(t, flow.Config{}, c.frames()))

	// Two XOFFs of 1000 quanta (5.12 µs at 100 Gb/s) 2 µs apart make one
	// pause of 7.12 µs, ended by its timer (reported at the next frame);
	// a later one is ended by an XON after 1 µs; one still runs at the end.
	fs := []frame{
		{0, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 1000})},
		{2 * usec, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 1000})},
		{100 * usec, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 1000})},
		{101 * usec, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{})},
		{200 * usec, pfc.AppendPFC(nil, macB, 1<<5, [8]uint16{5: 1000})},
	}
	want = []event{
		{kind: flow.EventPause, at: 0, cause: "7.12µs"},
		{kind: flow.EventPause, at: 100 * usec, cause: "1µs"},
	}
	assert.Equal(t, want, events(t, flow.Config{}, fs))
	an := flow.New(flow.Config{})
	for _, f := range fs {
		var m pfc.MACControl
		assert.NoError(t, m.Decode(f.data[14:]))
		an.AddMACControl(time.Unix(1700000000, 0).Add(f.t), macB, &m)
	}
	run := an.RunningPauses()
	if assert.Len(t, run, 1) {
		assert.Equal(t, 5, run[0].Priority)
		assert.Equal(t, 5120*time.Nanosecond, run[0].End.Sub(run[0].Start))
	}
}
