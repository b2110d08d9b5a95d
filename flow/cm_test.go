package flow_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// cmFields are the CM fields of tshark 4.0 the capture test reads its
// truth from. tshark names the REQ's and REP's LocalCommID
// "infiniband.cm.req" and "infiniband.cm.rep".
var cmFields = []string{"ip.src", "ip.dst", "infiniband.mad.attributeid",
	"infiniband.cm.req", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
	"infiniband.cm.req.serviceid.protocol", "infiniband.cm.req.serviceid.dport",
	"infiniband.cm.req.ip_cm.sip4", "infiniband.cm.req.ip_cm.dip4", "infiniband.cm.req.ip_cm.sport",
	"infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn", "infiniband.cm.rep.startpsn",
	"infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn"}

func num(t *testing.T, f map[string][]string, k string) uint32 {
	t.Helper()
	v, ok := f[k]
	require.True(t, ok, "tshark shows no %s", k)
	n, err := strconv.ParseUint(v[0], 0, 32)
	require.NoError(t, err, k)
	return uint32(n)
}

// TestCMCaptures reads the RDMA-CM connection of the two rxe captures
// (REQ, REP, RTU, a WRITE and a READ, DREQ, DREP) as tshark decodes its
// CM fields, and checks the analysis against it: one connection,
// disconnected, with the QPs, communication IDs, start PSNs, service port
// and IP-CM addresses tshark shows; its two data flows (the REQ sender's
// requests to the REP's QP, the answers to the REQ's QP) paired by CM,
// and the requests starting at the REP's StartingPSN without a gap.
func TestCMCaptures(t *testing.T) {
	for _, name := range []string{"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"} {
		t.Run(name, func(t *testing.T) {
			path := corpus.Path("captures", name)
			ts := oracle.TsharkFields(t, path, cmFields)
			var want flow.CMConnection
			var counts [0x17]int
			firstData := map[string]uint32{} // the first request PSN, by "src>dst qp"
			for _, f := range ts {
				if len(f["infiniband.mad.attributeid"]) == 0 {
					if op, ok := f["infiniband.bth.opcode"]; ok && op[0] != "17" && op[0] != "13" && op[0] != "14" && op[0] != "15" {
						k := f["ip.src"][0] + ">" + f["ip.dst"][0] + " " + strconv.Itoa(int(num(t, f, "infiniband.bth.destqp")))
						if _, seen := firstData[k]; !seen {
							firstData[k] = num(t, f, "infiniband.bth.psn")
						}
					}
					continue
				}
				attr := num(t, f, "infiniband.mad.attributeid")
				counts[attr]++
				switch attr {
				case 0x10:
					want.Src, want.Dst = f["ip.src"][0], f["ip.dst"][0]
					want.SrcCommID = num(t, f, "infiniband.cm.req")
					want.SrcQP = num(t, f, "infiniband.cm.req.localqpn")
					want.DstPSN = num(t, f, "infiniband.cm.req.startpsn")
					require.EqualValues(t, 6, num(t, f, "infiniband.cm.req.serviceid.protocol"), "TCP port space")
					want.PortSpace, want.Port = "TCP", int(num(t, f, "infiniband.cm.req.serviceid.dport"))
					want.RDMACMSrc, want.RDMACMDst = f["infiniband.cm.req.ip_cm.sip4"][0], f["infiniband.cm.req.ip_cm.dip4"][0]
					want.RDMACMSrcPort = int(num(t, f, "infiniband.cm.req.ip_cm.sport"))
				case 0x13:
					require.Equal(t, want.SrcCommID, num(t, f, "infiniband.cm.rep.remotecommid"))
					want.Replied = true
					want.DstCommID = num(t, f, "infiniband.cm.rep")
					want.DstQP = num(t, f, "infiniband.cm.rep.localqpn")
					want.SrcPSN = num(t, f, "infiniband.cm.rep.startpsn")
				}
			}
			require.True(t, want.Replied, "tshark shows a REQ and a REP")
			want.State = "disconnected"
			want.Messages = flow.CMCounts{REQ: uint64(counts[0x10]), REP: uint64(counts[0x13]), RTU: uint64(counts[0x14]),
				DREQ: uint64(counts[0x15]), DREP: uint64(counts[0x16])}
			require.EqualValues(t, 1, want.Messages.DREQ+want.Messages.DREP-1, "tshark shows a DREQ and a DREP")

			an := flow.New(flow.Config{})
			var rec dump.Record
			for i, b := range corpus.Capture(t, name) {
				rec.Decode(i+1, gopacket.CaptureInfo{Length: len(b), CaptureLength: len(b)}, capfile.LinkTypeEthernet, b)
				an.AddRecord(&rec)
			}
			r := an.Report()
			require.NotNil(t, r.CM)
			require.Len(t, r.CM.Connections, 1)
			got := r.CM.Connections[0]
			got.ServiceID, got.First, got.Last = "", want.First, want.Last
			assert.Equal(t, want, got)
			assert.Equal(t, []flow.CMHosts{{A: want.Src, B: want.Dst, Messages: want.Messages}}, r.CM.Hosts)

			// The data flows: A's requests to B's QP, B's answers to A's.
			reqKey := want.Src + ">" + want.Dst + " " + strconv.Itoa(int(want.DstQP))
			require.Equal(t, want.SrcPSN, firstData[reqKey], "the first request carries the REP's StartingPSN (tshark)")
			fr := findFlow(t, r, want.Src, want.Dst, want.DstQP)
			back := findFlow(t, r, want.Dst, want.Src, want.SrcQP)
			for _, f := range []*flow.FlowReport{fr, back} {
				assert.Equal(t, "cm", f.PairedBy)
				require.NotNil(t, f.CMStartPSN)
			}
			assert.Equal(t, want.SrcPSN, *fr.CMStartPSN)
			assert.Equal(t, want.DstPSN, *back.CMStartPSN)
			assert.Equal(t, fmt.Sprintf("%s > %s qp 0x%06x", want.Dst, want.Src, want.SrcQP), fr.Peer)
			assert.Zero(t, fr.PSNGaps+fr.PSNMissing+fr.Duplicates+fr.OutOfOrder)
			assert.EqualValues(t, 1, fr.ReadsMatched)
			assert.True(t, back.Answers)
		})
	}
}

func findFlow(t *testing.T, r *flow.Report, src, dst string, qp uint32) *flow.FlowReport {
	t.Helper()
	for i := range r.Flows {
		if f := &r.Flows[i]; f.Src == src && f.Dst == dst && f.QP == qp {
			return f
		}
	}
	t.Fatalf("no flow %s > %s qp %#x", src, dst, qp)
	return nil
}

// genRecords generates cfgs and decodes every frame, each in its own
// buffer; drop leaves out the frames it returns true for (by index).
func genRecords(t testing.TB, cfgs []gen.Config, drop func(i int, k gen.Kind) bool) []dump.Record {
	t.Helper()
	g, err := gen.NewScenario(cfgs)
	require.NoError(t, err)
	var recs []dump.Record
	for i := 0; g.Next(); i++ {
		if drop != nil && drop(i, g.Kind()) {
			continue
		}
		var r dump.Record
		r.Decode(len(recs)+1, g.CaptureInfo(), capfile.LinkTypeEthernet, append([]byte(nil), g.Frame()...))
		recs = append(recs, r)
	}
	require.NoError(t, g.Err())
	return recs
}

func analyzeRecords(cfg flow.Config, recs []dump.Record) *flow.Report {
	an := flow.New(cfg)
	for i := range recs {
		an.AddRecord(&recs[i])
	}
	return an.Report()
}

// cmConfig is a phase of 3 RC connections with CM, every one starting at
// PSN 0xfffffe (so their PSNs collide and wrap), writing 3 packets.
func cmConfig(encap ib.Encapsulation) gen.Config {
	c := gen.DefaultConfig()
	c.Encap, c.CM, c.QPs, c.PSN, c.Size, c.MTU, c.Messages = encap, true, 3, 0xfffffe, 3*1024, 1024, 2
	return c
}

// TestCMGenerated checks the analysis of connections rocegen -cm opens:
// the connections and their flows are what the generator was asked for.
// Over RoCEv1 (no UDP port to break a tie) three connections on the same
// PSNs at the same time cannot be told apart by their PSNs: without CM
// they stay unpaired; with CM every flow pairs with its connection's.
// The PSNs wrap (0xfffffe, 0xffffff, 0, ...) without a gap.
func TestCMGenerated(t *testing.T) {
	for _, encap := range []ib.Encapsulation{ib.RoCEv1, ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		t.Run(encap.String(), func(t *testing.T) {
			c := cmConfig(encap)
			r := analyzeRecords(flow.Config{}, genRecords(t, []gen.Config{c}, nil))
			require.NotNil(t, r.CM)
			require.Len(t, r.CM.Connections, c.QPs)
			for i, cc := range r.CM.Connections {
				local, remote := c.LocalQP+uint32(i), c.RemoteQP+uint32(i)
				assert.Equal(t, "disconnected", cc.State)
				assert.Equal(t, local, cc.SrcQP)
				assert.Equal(t, remote, cc.DstQP)
				assert.EqualValues(t, c.PSN, cc.SrcPSN)
				assert.Equal(t, "TCP", cc.PortSpace)
				assert.Equal(t, gen.DefaultCMPort, cc.Port)
				assert.Equal(t, flow.CMCounts{REQ: 1, REP: 1, RTU: 1, DREQ: 1, DREP: 1}, cc.Messages)
				fr := findFlow(t, r, cc.Src, cc.Dst, remote)
				back := findFlow(t, r, cc.Dst, cc.Src, local)
				assert.Equal(t, "cm", fr.PairedBy)
				assert.Equal(t, "cm", back.PairedBy)
				assert.Equal(t, local, *fr.SrcQP)
				assert.EqualValues(t, 2*3, fr.Frames)
				assert.Zero(t, fr.PSNGaps+fr.PSNMissing+fr.Duplicates+fr.OutOfOrder)
				require.NotNil(t, fr.Latency)
				require.NotNil(t, fr.Latency.Ack)
				assert.EqualValues(t, 2*3, fr.Latency.Ack.Count, "every packet acknowledged")
			}
			assert.Equal(t, []flow.CMHosts{{A: r.CM.Connections[0].Src, B: r.CM.Connections[0].Dst,
				Messages: flow.CMCounts{REQ: 3, REP: 3, RTU: 3, DREQ: 3, DREP: 3}}}, r.CM.Hosts)

			c.CM = false
			plain := analyzeRecords(flow.Config{}, genRecords(t, []gen.Config{c}, nil))
			paired := 0
			for _, f := range plain.Flows {
				if f.Peer != "" {
					paired++
				}
			}
			if encap == ib.RoCEv1 {
				assert.Zero(t, paired, "without CM, RoCEv1 connections on the same PSNs stay unpaired")
			}
		})
	}
}

// TestCMGap drops the first request of one connection: the analysis,
// which starts at the PSN the REP negotiated, sees one PSN missing, where
// without CM the first request seen would just start the flow.
func TestCMGap(t *testing.T) {
	c := cmConfig(ib.RoCEv2IPv4)
	c.QPs = 1
	first := true
	drop := func(_ int, k gen.Kind) bool {
		if k == gen.KindRequest && first {
			first = false
			return true
		}
		return false
	}
	r := analyzeRecords(flow.Config{}, genRecords(t, []gen.Config{c}, drop))
	fr := findFlow(t, r, "192.0.2.1", "192.0.2.2", c.RemoteQP)
	assert.EqualValues(t, 1, fr.PSNGaps)
	assert.EqualValues(t, 1, fr.PSNMissing)
	c.CM = false
	first = true
	r = analyzeRecords(flow.Config{}, genRecords(t, []gen.Config{c}, drop))
	fr = findFlow(t, r, "192.0.2.1", "192.0.2.2", c.RemoteQP)
	assert.Zero(t, fr.PSNGaps, "without CM the first request seen starts the flow")
}

// TestCMReject: a REJ with reason 28 leaves the connection rejected with
// IBTA's name of the reason, and no data flows.
func TestCMReject(t *testing.T) {
	c := cmConfig(ib.RoCEv2IPv4)
	c.CMReject = 28
	r := analyzeRecords(flow.Config{}, genRecords(t, []gen.Config{c}, nil))
	require.NotNil(t, r.CM)
	require.Len(t, r.CM.Connections, 3)
	for _, cc := range r.CM.Connections {
		assert.Equal(t, "rejected", cc.State)
		assert.Equal(t, "Consumer Reject", cc.RejectReason)
		assert.Equal(t, 28, cc.RejectCode)
		assert.Equal(t, "REQ", cc.Rejected)
		assert.False(t, cc.Replied)
		assert.Equal(t, flow.CMCounts{REQ: 1, REJ: 1}, cc.Messages)
	}
	assert.Equal(t, flow.CMCounts{REQ: 3, REJ: 3}, r.CM.Hosts[0].Messages)
	var text strings.Builder
	require.NoError(t, r.WriteText(&text))
	assert.Contains(t, text.String(), ": rejected (Consumer Reject, reason 28, REQ rejected)\n")
}

// TestCMPendingCap: REQs that nobody answers are kept up to
// Config.MaxCMPending; each one beyond evicts the oldest.
func TestCMPendingCap(t *testing.T) {
	c := cmConfig(ib.RoCEv2IPv4)
	c.QPs, c.CMReject = 5, 28
	onlyREQ := func(i int, _ gen.Kind) bool { return i%2 == 1 } // REQ, REJ, REQ, REJ...
	r := analyzeRecords(flow.Config{MaxCMPending: 2}, genRecords(t, []gen.Config{c}, onlyREQ))
	require.Len(t, r.CM.Connections, 2)
	assert.EqualValues(t, 3, r.CM.Evicted)
	assert.Equal(t, c.LocalQP+3, r.CM.Connections[0].SrcQP, "the newest are kept")
	r = analyzeRecords(flow.Config{MaxCMConnections: 1}, genRecords(t, []gen.Config{c}, nil))
	require.Len(t, r.CM.Connections, 1)
	assert.EqualValues(t, 4, r.CM.Untracked)
}

// TestCMAllocs: once a CM connection is set up, its data packets and
// further CM messages cost no allocation.
func TestCMAllocs(t *testing.T) {
	c := cmConfig(ib.RoCEv2IPv4)
	c.QPs = 1
	recs := genRecords(t, []gen.Config{c}, nil)
	an := flow.New(flow.Config{})
	for i := range recs {
		an.AddRecord(&recs[i])
	}
	n := testing.AllocsPerRun(200, func() {
		for i := range recs {
			an.AddRecord(&recs[i])
		}
	})
	assert.Zero(t, n, "allocations per pass over a CM connection's frames")
	r := an.Report()
	assert.EqualValues(t, 202, r.CM.Connections[0].Messages.REQ)
}

// TestCMNativeIB reads the three CM connections of the native InfiniBand
// ERF capture (LID-routed, service IDs outside RDMA-CM's) as tshark
// decodes their REQ and REP, and checks the connections the analysis
// reports: hosts by LID, communication IDs, QPs, start PSNs, service ID,
// established after the RTU.
func TestCMNativeIB(t *testing.T) {
	const name = "ib_native_erf_dag_smp_ipoib_cm.pcap"
	ts := oracle.TsharkFields(t, corpus.Path("captures", name), []string{"infiniband.lrh.slid", "infiniband.lrh.dlid",
		"infiniband.mad.mgmtclass", "infiniband.mad.attributeid", "infiniband.cm.req", "infiniband.cm.req.localqpn",
		"infiniband.cm.req.startpsn", "infiniband.cm.req.serviceid", "infiniband.cm.rep", "infiniband.cm.rep.remotecommid",
		"infiniband.cm.rep.localqpn", "infiniband.cm.rep.startpsn", "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid"})
	var want []flow.CMConnection
	for _, f := range ts {
		if v := f["infiniband.mad.mgmtclass"]; len(v) == 0 || num(t, f, "infiniband.mad.mgmtclass") != 7 {
			continue
		}
		lid := func(k string) string { return fmt.Sprintf("lid 0x%04x", num(t, f, k)) }
		switch num(t, f, "infiniband.mad.attributeid") {
		case 0x10:
			sid, err := strconv.ParseUint(f["infiniband.cm.req.serviceid"][0], 0, 64)
			require.NoError(t, err)
			want = append(want, flow.CMConnection{Src: lid("infiniband.lrh.slid"), Dst: lid("infiniband.lrh.dlid"),
				State: "requested", ServiceID: fmt.Sprintf("0x%016x", sid), SrcCommID: num(t, f, "infiniband.cm.req"),
				SrcQP: num(t, f, "infiniband.cm.req.localqpn"), DstPSN: num(t, f, "infiniband.cm.req.startpsn"),
				Messages: flow.CMCounts{REQ: 1}})
		case 0x13:
			for i := range want {
				if c := &want[i]; c.SrcCommID == num(t, f, "infiniband.cm.rep.remotecommid") {
					c.Replied, c.DstCommID = true, num(t, f, "infiniband.cm.rep")
					c.DstQP, c.SrcPSN = num(t, f, "infiniband.cm.rep.localqpn"), num(t, f, "infiniband.cm.rep.startpsn")
					c.Messages.REP++
				}
			}
		case 0x14:
			for i := range want {
				if c := &want[i]; c.SrcCommID == num(t, f, "infiniband.cm.rtu.localcommid") && c.DstCommID == num(t, f, "infiniband.cm.rtu.remotecommid") {
					c.State = "established"
					c.Messages.RTU++
				}
			}
		}
	}
	require.Len(t, want, 3, "tshark shows three REQs")
	an := flow.New(flow.Config{})
	var rec dump.Record
	for i, b := range corpus.Capture(t, name) {
		rec.Decode(i+1, gopacket.CaptureInfo{Length: len(b), CaptureLength: len(b)}, capfile.LinkTypeERF, b)
		an.AddRecord(&rec)
	}
	r := an.Report()
	require.NotNil(t, r.CM)
	require.Len(t, r.CM.Connections, len(want))
	for i, got := range r.CM.Connections {
		got.First, got.Last = time.Time{}, time.Time{}
		assert.Equal(t, want[i], got)
	}
}
