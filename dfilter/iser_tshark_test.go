package dfilter_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// iserExprs are run through tshark 4.0's -Y, its iser heuristic on, and
// through dfilter on records decoded with dump.ULPISER: the protocols,
// the iSER header's fields, and the iSCSI and SCSI fields of commands,
// responses and Logins (scsi_sbc.opcode with the command's: tshark
// shows it on a SCSI Response too, from the command it answers).
var iserExprs = []string{
	"iser", "iscsi", "iser.flags.rsv", "iser.flags.wsv == 1", "iser.read_stag != 0", "iser.write_base_offset > 0",
	"iscsi.opcode == 0x01", "iscsi.opcode == 0x23", "iscsi.scsicommand.R", "iscsi.scsicommand.W && iscsi.cmdsn >= 2",
	"iscsi.initiatortasktag == 2", "iscsi.datasegmentlength > 0", "iscsi.login.nsg == 3", "iscsi.tsih != 0",
	"iscsi.scsiresponse.status == 0", "iscsi.statsn > 0 && iscsi.expcmdsn == 2", "iscsi.scsicommand.expecteddatatransferlength >= 65536",
	"scsi_sbc.opcode == 0x88 && iscsi.opcode == 0x01", "scsi_sbc.opcode == 0x2a && !iscsi.scsiresponse.status", "scsi_sbc.rdwr10.lba > 0", "scsi_sbc.rdwr10.xferlen == 16",
	"scsi_sbc.rdwr12.xferlen == 16", "scsi.status == 0", "iscsi.cid == 0", "iscsi.versionmax == 0",
}

// TestTsharkISERFilters compares the frames each of iserExprs selects
// with tshark -Y's on the iSER sessions of package gen. Frames tshark
// reads as iSER that are no SEND Only are left out: the first packets of
// Logins of several packets, and RDMA data whose first bytes its
// heuristic takes for an iSER header.
func TestTsharkISERFilters(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	var phases []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.ULP, c.Size, c.Op = gen.ULPISER, 8192, gen.OpRead
		c.LocalQP, c.RemoteQP = 0x100+uint32(len(phases))*0x10, 0x800+uint32(len(phases))*0x10
		f(&c)
		phases = append(phases, c)
	}
	add(func(c *gen.Config) { c.QPs, c.Messages = 2, 3 })
	add(func(c *gen.Config) { c.Op, c.QPs, c.Messages, c.MTU, c.Encap = gen.OpWrite, 3, 2, 1024, ib.RoCEv2IPv6 })
	add(func(c *gen.Config) { c.Op, c.Size, c.MTU, c.Messages = gen.OpWrite, 65536, 2048, 3 })
	add(func(c *gen.Config) { c.Size, c.MTU, c.QPs, c.Messages, c.Encap = 512, 256, 2, 2, ib.RoCEv1 })
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "iser.pcap")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var args []string
	for i := 0; i < len(oracle.TsharkRoCEArgs); i += 2 {
		if oracle.TsharkRoCEArgs[i+1] != "iser_infiniband" {
			args = append(args, oracle.TsharkRoCEArgs[i:i+2]...)
		}
	}
	other := map[int]bool{}
	for _, n := range tsharkFramesArgs(t, tshark, path, "iser && !(infiniband.bth.opcode in {4, 23})", args) {
		other[n] = true
	}
	agree, selected := 0, 0
	for _, e := range iserExprs {
		f, err := dfilter.Compile(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		var ours, want []int
		src, err := capfile.NewSource(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dump.Scan(src, dump.Options{Workers: 1, ULP: dump.ULPISER}, func(r *dump.Record) error {
			if !other[r.Number] && f.Match(r) {
				ours = append(ours, r.Number)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, n := range tsharkFramesArgs(t, tshark, path, e, args) {
			if !other[n] {
				want = append(want, n)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: tshark selects no frame", e)
		}
		if !slices.Equal(ours, want) {
			t.Errorf("%s: we select %d frames, tshark %d: %s", e, len(ours), len(want), diff(ours, want))
			continue
		}
		agree++
		selected += len(ours)
	}
	t.Logf("%d of %d iSER expressions select the same frames as tshark -Y (%d frames selected; %d frames tshark reads as iSER that are no SEND Only left out)",
		agree, len(iserExprs), selected, len(other))
}
