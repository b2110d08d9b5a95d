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

// nvmeExprs are run through tshark 4.0's -Y, its nvme-rdma heuristic on,
// and through dfilter on records decoded with dump.ULPNVMe: the fields
// of commands (Fabrics, admin and I/O) and of completions.
var nvmeExprs = []string{
	"nvme.cmd.opc == 0x02", "nvme.cmd.opc == 0x01 && nvme.cmd.nlb >= 8", "nvme.cmd.cid == 1", "nvme.cmd.nsid == 1",
	"nvme.cmd.sgl1.len >= 4096", "nvme.cmd.sgl.type == 4", "nvme.cmd.slba == 0", "nvme.cmd.identify.dword10.cns == 1",
	"nvme.fabrics.cmd.fctype == 4", "nvme.fabrics.cmd.connect.qid == 1", "nvme.fabrics.cmd.prop_get_set.offset == 0x14",
	"nvme.cqe.status.sc == 0", "nvme.cqe.cid == 2", "nvme.cqe.sqhd > 3", "nvme.cqe.status.dnr", "nvme.cqe.status.dnr == 0 && nvme.cqe.sqhd == 1",
}

// TestTsharkNVMeFilters compares the frames each of nvmeExprs selects
// with tshark -Y's on the NVMe/RDMA conversations of package gen. The
// completions of commands whose capsule took several packets are left
// out: tshark, which does not put the capsule together, shows them as
// unknown data.
func TestTsharkNVMeFilters(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	var phases []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.ULP, c.Size, c.Op = gen.ULPNVMe, 8192, gen.OpRead
		c.LocalQP, c.RemoteQP = 0x100+uint32(len(phases))*0x10, 0x800+uint32(len(phases))*0x10
		f(&c)
		phases = append(phases, c)
	}
	add(func(c *gen.Config) { c.QPs, c.Messages = 2, 2 })
	add(func(c *gen.Config) { c.Op, c.MTU, c.Encap = gen.OpWrite, 1024, ib.RoCEv2IPv6 })
	add(func(c *gen.Config) { c.Op, c.Size, c.PSN = gen.OpSendInv, 4096, 0xffffff })
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nvme.pcap")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var args []string
	for i := 0; i < len(oracle.TsharkRoCEArgs); i += 2 {
		if oracle.TsharkRoCEArgs[i+1] != "nvme_rdma" {
			args = append(args, oracle.TsharkRoCEArgs[i:i+2]...)
		}
	}
	unknown := map[int]bool{}
	for _, n := range tsharkFramesArgs(t, tshark, path, "nvme-rdma.unknown_data", args) {
		unknown[n] = true
	}
	agree, selected := 0, 0
	for _, e := range nvmeExprs {
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
		if _, err := dump.Scan(src, dump.Options{Workers: 1, ULP: dump.ULPNVMe}, func(r *dump.Record) error {
			if !unknown[r.Number] && f.Match(r) {
				ours = append(ours, r.Number)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, n := range tsharkFramesArgs(t, tshark, path, e, args) {
			if !unknown[n] {
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
	t.Logf("%d of %d NVMe expressions select the same frames as tshark -Y (%d frames selected; %d frames of unknown data left out)",
		agree, len(nvmeExprs), selected, len(unknown))
}
