package timeline_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/timeline"
)

// chromium returns the path of a Chromium to run headless, skipping the
// test without one (failing it under CI).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is required under CI (apt-get install -y chromium)")
	}
	t.Skip("chromium not installed (apt-get install -y chromium): the page is not rendered")
	return ""
}

// runChromium runs a headless Chromium with a fresh profile, no network
// services and no first-run work, on the page, with the extra flags.
func runChromium(t *testing.T, bin, page string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1400,900"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
	}
	return out
}

// TestBrowser renders the timeline of a generated capture in Chromium:
// 3 queue pairs of RDMA WRITEs, every 9th data packet marked CE and
// answered by a CNP, a PFC frame every 100 data packets on the traffic's
// priority (each pause over before the next, as the requester waits
// them out). The counts come from the scenario (gen's own tally) and
// are checked against tshark's reading of the capture; the page must
// hold one series per flow (3 request flows, 3 flows of ACKs and CNPs
// back), every CNP and CE mark, and one interval per PFC frame. Its
// screenshot must be a picture, not a blank page.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 16384, 1024, 40, 3, 9
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 100, int(cfg.PCP), 3000
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	capture := filepath.Join(dir, "congestion.pcap")
	f, err := os.Create(capture)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	f.Close()
	gs := g.Stats()
	data := 3 * 40 * 16 // data packets: queue pairs × messages × packets per message
	if gs.CE != data/9 || gs.CNPs != gs.CE || gs.PFC != data/100 {
		t.Fatalf("generator: %+v; the scenario makes %d CE marks and CNPs, %d PFC frames", gs, data/9, data/100)
	}
	for filter, want := range map[string]int{"infiniband.bth.opcode == 129": gs.CNPs, "ip.dsfield.ecn == 3": gs.CE, "macc.opcode == 0x0101": gs.PFC} {
		if n := len(oracle.Tshark(t, capture, "-Y", filter)); n != want {
			t.Fatalf("tshark -Y %q: %d frames, want %d", filter, n, want)
		}
	}

	tl := timeline.New(timeline.Config{})
	in, err := os.Open(capture)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src, err := capfile.NewSource(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dump.Scan(src, dump.Options{}, func(r *dump.Record) error { tl.AddRecord(r, "congestion.pcap"); return nil }); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "timeline.html")
	var html bytes.Buffer
	if err := tl.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	self := bytes.ReplaceAll(html.Bytes(), []byte(`xmlns="http://www.w3.org/2000/svg"`), nil) // a name, not a resource
	if regexp.MustCompile(`(?i)<script|https?:|src=|href=|@import|url\(`).Match(self) {
		t.Errorf("the page refers to something outside it or runs a script")
	}

	dom := runChromium(t, bin, page, "--dump-dom")
	count := func(re string) int { return len(regexp.MustCompile(re).FindAll(dom, -1)) }
	if n := count(`<g class="series"`); n != 2*cfg.QPs {
		t.Errorf("%d flow series in the DOM, want %d", n, 2*cfg.QPs)
	}
	if n := count(`class="mark cnp"`); n != gs.CNPs {
		t.Errorf("%d CNP marks in the DOM, want %d", n, gs.CNPs)
	}
	if n := count(`class="mark ce"`); n != gs.CE {
		t.Errorf("%d CE marks in the DOM, want %d", n, gs.CE)
	}
	if n := count(`<rect class="pause"`); n != gs.PFC {
		t.Errorf("%d pause intervals in the DOM, want %d", n, gs.PFC)
	}
	if n := count(`<title>frame \d+ of congestion\.pcap`); n != gs.CNPs+gs.CE {
		t.Errorf("%d marks with a frame number in their title, want %d", n, gs.CNPs+gs.CE)
	}

	shot := filepath.Join(dir, "timeline.png")
	runChromium(t, bin, page, "--screenshot="+shot, "--hide-scrollbars")
	checkPicture(t, shot)
}

// checkPicture fails unless the PNG at path is 1400×900 with some
// variety: many colours, and a good share of pixels that are not
// background.
func checkPicture(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	colours := map[[3]uint32]bool{}
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 < 200 || g>>8 < 200 || bl>>8 < 200 {
				ink++
			}
		}
	}
	share := float64(ink) / float64(b.Dx()*b.Dy())
	if b.Dx() != 1400 || b.Dy() != 900 || len(colours) < 32 || share < 0.05 {
		t.Errorf("screenshot %dx%d, %d colours, %.1f%% of pixels drawn: not the page", b.Dx(), b.Dy(), len(colours), 100*share)
	}
}
