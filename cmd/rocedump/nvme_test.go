package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// TestULPNVMe checks -ulp nvme on a conversation of rocegen -ulp nvme:
// the text lines name the commands and completions, JSON and -Y have
// tshark's nvme keys, and without the flag neither does; a protocol
// rocedump does not decode is refused.
func TestULPNVMe(t *testing.T) {
	c := gen.DefaultConfig()
	c.ULP, c.Op, c.Size = gen.ULPNVMe, gen.OpRead, 4096
	g, err := gen.New(c)
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
	_, plain, _ := runCmd(t, nil, "-utc", path)
	_, text, errs := runCmd(t, nil, "-utc", "-ulp", "nvme", path)
	if strings.Contains(plain, "NVMe") || len(lines(plain)) != len(lines(text)) {
		t.Errorf("without -ulp: NVMe in the text, or %d lines against %d", len(lines(plain)), len(lines(text)))
	}
	for _, want := range []string{"payload 64: NVMe Read cid 1 nsid 1 slba 0 nlb 8 sgl keyed addr 0x", ": NVMe completion cid 1 sqhd 2 status Successful Completion"} {
		if !strings.Contains(text, want) {
			t.Errorf("-ulp nvme text lacks %q (stderr %q)", want, errs)
		}
	}
	_, js, _ := runCmd(t, nil, "-json", "-ulp", "nvme", "-Y", "nvme.cmd.opc == 0x02", path)
	if n := len(lines(js)); n != 1 || !strings.Contains(js, `"nvme.cmd.slba":"0x0000000000000000","nvme.cmd.nlb":8`) {
		t.Errorf("-json -ulp nvme -Y nvme.cmd.opc == 0x02: %d lines:\n%s", n, js)
	}
	if _, js, _ = runCmd(t, nil, "-json", "-Y", "nvme", path); js != "" {
		t.Errorf("-Y nvme without -ulp selects frames:\n%s", js)
	}
	if st, _, errs := runCmd(t, nil, "-ulp", "smbd", path); st != 2 || !strings.Contains(errs, "-ulp") {
		t.Errorf("-ulp smbd: status %d, stderr %q", st, errs)
	}
}
