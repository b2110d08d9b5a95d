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

// TestULPISER checks -ulp iser on a session of rocegen -ulp iser: the
// text lines name the SCSI commands and responses, JSON and -Y have
// tshark's iser, iscsi and scsi_sbc keys, and without the flag neither
// does.
func TestULPISER(t *testing.T) {
	c := gen.DefaultConfig()
	c.ULP, c.Op, c.Size, c.QPs = gen.ULPISER, gen.OpWrite, 4096, 2
	g, err := gen.New(c)
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
	_, plain, _ := runCmd(t, nil, "-utc", path)
	_, text, errs := runCmd(t, nil, "-utc", "-ulp", "iser", path)
	if strings.Contains(plain, "iSER") || len(lines(plain)) != len(lines(text)) {
		t.Errorf("without -ulp: iSER in the text, or %d lines against %d", len(lines(plain)), len(lines(text)))
	}
	for _, want := range []string{
		"payload 76: iSER SCSI Command WRITE(10) LBA 0 len 8 ITT 0x00000001 edtl 4096 write stag 0x",
		"payload 76: iSER SCSI Command WRITE(16) LBA 4294967296 len 8 ITT 0x00000001 edtl 4096 write stag 0x",
		": iSER SCSI Response ITT 0x00000001 status GOOD",
		": iSER Login Request ITT 0x00000000 data 304",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("-ulp iser text lacks %q (stderr %q)", want, errs)
		}
	}
	_, js, _ := runCmd(t, nil, "-json", "-ulp", "iser", "-Y", "scsi_sbc.opcode == 0x8a", path)
	if n := len(lines(js)); n != 1 || !strings.Contains(js, `"scsi_sbc.rdwr16.lba":"0000000100000000","scsi_sbc.rdwr12.xferlen":8`) {
		t.Errorf("-json -ulp iser -Y scsi_sbc.opcode == 0x8a: %d lines:\n%s", n, js)
	}
	if _, js, _ = runCmd(t, nil, "-json", "-ulp", "iser", "-Y", "iscsi", path); len(lines(js)) != 8 {
		t.Errorf("-ulp iser -Y iscsi: %d lines, want 8 (2 Logins, 2 commands and their responses)", len(lines(js)))
	}
	for _, y := range []string{"iser", "iscsi"} {
		if _, js, _ = runCmd(t, nil, "-json", "-Y", y, path); js != "" {
			t.Errorf("-Y %s without -ulp selects frames:\n%s", y, js)
		}
	}
	_, ulpNVMe, _ := runCmd(t, nil, "-utc", "-ulp", "nvme", path)
	if strings.Contains(ulpNVMe, "NVMe") || strings.Contains(ulpNVMe, "iSER") {
		t.Error("-ulp nvme reads iSER messages")
	}
}
