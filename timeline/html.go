package timeline

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// The page's geometry, in SVG user units (pixels at 100%).
const (
	pageWidth = 1400
	plotLeft  = 320 // room for the row labels
	plotRight = pageWidth - 30
	plotWidth = plotRight - plotLeft
	legendH   = 34
	flowH     = 84 // a flow's row: marks band and throughput
	marksBand = 30 // the top of a flow's row, where its marks go
	pauseH    = 26
	rowGap    = 8
	axisH     = 44
)

// markStyle names each kind of mark in the legend and gives the height
// of its lane in the marks band of a row (the colours are in css).
var markStyle = [numMarks]struct {
	name string
	lane float64
}{
	MarkCE:         {"CE mark", 6},
	MarkCNP:        {"CNP", 15},
	MarkNAK:        {"NAK", 24},
	MarkRetransmit: {"retransmission", 24},
}

const css = `body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:12px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 6px}
p.meta{margin:2px 0;color:#444}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;fill:#222}
svg text.small{font-size:11px;fill:#555}
.plot{fill:#f6f7f9}
.grid{stroke:#d9dce1;stroke-width:1}
.tput{fill:#7fb2e5;stroke:#2f6db5;stroke-width:1}
.pause{fill:#c0392b;fill-opacity:.75}
.mark:hover,.pause:hover{stroke:#000;stroke-width:1.5}
.ce{fill:#e67e00}.cnp{fill:#d62728}.nak{fill:#8e44ad}.retransmit{fill:none;stroke:#1f4e9c;stroke-width:1.6}
`

// WriteHTML writes the timeline as one self-contained HTML page: inline
// SVG and CSS, no script, no external resource. Every mark and pause
// carries an SVG <title>, which browsers show on hover.
func (t *Timeline) WriteHTML(w io.Writer) error { return t.Page().WriteHTML(w) }

// WriteHTML writes the page (see Timeline.WriteHTML).
func (p *Page) WriteHTML(w io.Writer) error {
	b := bufio.NewWriter(w)
	e := html.EscapeString
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>\n<style>%s</style></head><body>\n",
		e("RoCE congestion timeline: "+strings.Join(p.Files, ", ")), css)
	fmt.Fprintf(b, "<h1>RoCE congestion timeline</h1>\n<p class=\"meta\">%s</p>\n", e(captionFiles(p.Files)))
	if p.Frames == 0 {
		b.WriteString("<p class=\"meta\">no frames</p>\n</body></html>\n")
		return b.Flush()
	}
	fmt.Fprintf(b, "<p class=\"meta\">%d frames from %s to %s UTC (%s); bins of %s; throughput is frame bytes on the wire per bin</p>\n",
		p.Frames, p.Start.Format("2006-01-02 15:04:05.000000000"), p.End.Format("2006-01-02 15:04:05.000000000"),
		durationText(p.Span, 0), durationText(p.Bin, p.Bin))
	for _, l := range p.notes() {
		fmt.Fprintf(b, "<p class=\"meta\">%s</p>\n", e(l))
	}
	height := legendH + len(p.Flows)*(flowH+rowGap) + len(p.Pauses)*(pauseH+rowGap) + axisH
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" style=\"max-width:100%%;height:auto\" role=\"img\">\n",
		pageWidth, height, pageWidth, height)
	p.legend(b)
	y := legendH
	axisTop := y
	for i := range p.Flows {
		p.flowRow(b, &p.Flows[i], y)
		y += flowH + rowGap
	}
	for i := range p.Pauses {
		p.pauseRow(b, &p.Pauses[i], y)
		y += pauseH + rowGap
	}
	p.axis(b, axisTop, y)
	b.WriteString("</svg>\n</body></html>\n")
	return b.Flush()
}

// captionFiles names the captures shown.
func captionFiles(files []string) string {
	switch len(files) {
	case 0:
		return "no frames"
	case 1:
		return files[0]
	}
	return strconv.Itoa(len(files)) + " captures merged by time: " + strings.Join(files, ", ")
}

// notes are the lines that say what the page leaves out.
func (p *Page) notes() []string {
	var out []string
	if p.FlowsNotDrawn > 0 {
		out = append(out, fmt.Sprintf("%d flows with fewer bytes not drawn", p.FlowsNotDrawn))
	}
	if p.FlowsNotBinned > 0 {
		out = append(out, fmt.Sprintf("%d flows beyond the cap of binned flows not drawn (%d frames, %s)",
			p.FlowsNotBinned, p.BeyondFrames, bytesText(p.BeyondBytes)))
	}
	if p.PFCNotDrawn > 0 {
		out = append(out, fmt.Sprintf("%d PFC priorities not drawn", p.PFCNotDrawn))
	}
	if p.FramesPastAxis > 0 {
		what := fmt.Sprintf("%d frames (%s) more than %s (the longest axis drawn) after the first frame are", p.FramesPastAxis, bytesText(p.BytesPastAxis), durationText(MaxSpan, time.Second))
		if p.FramesPastAxis == 1 {
			what = fmt.Sprintf("1 frame (%s) more than %s (the longest axis drawn) after the first frame is", bytesText(p.BytesPastAxis), durationText(MaxSpan, time.Second))
		}
		out = append(out, what+" not drawn")
	}
	var parts []string
	for k := MarkKind(0); k < numMarks; k++ {
		if n := p.Totals[k]; n > p.Drawn[k] {
			parts = append(parts, fmt.Sprintf("%s: %d of %d drawn", markStyle[k].name+"s", p.Drawn[k], n))
		}
	}
	if len(parts) > 0 {
		out = append(out, "marks not drawn (thinned out evenly over time, or on flows not drawn): "+strings.Join(parts, "; "))
	}
	for _, r := range p.Pauses {
		if n := uint64(len(r.Pauses)); r.Count > n {
			out = append(out, fmt.Sprintf("PFC %s prio %s: %d of %d pauses drawn (the first ones)", mac(r.Source), prioName(r.Priority), n, r.Count))
		}
	}
	return out
}

// x returns the horizontal position of time t.
func (p *Page) x(t time.Time) float64 {
	span := max(float64(p.Span), float64(p.Bin))
	return plotLeft + float64(t.Sub(p.Start))/span*plotWidth
}

// legend draws the legend across the top.
func (p *Page) legend(b *bufio.Writer) {
	x := float64(plotLeft)
	fmt.Fprintf(b, "<g class=\"legend\"><rect class=\"swatch tput\" x=\"%g\" y=\"8\" width=\"18\" height=\"12\"/><text x=\"%g\" y=\"19\">throughput</text>\n", x, x+24)
	x += 110
	for k := MarkKind(0); k < numMarks; k++ {
		writeMark(b, "swatch", k, x+6, 14, "")
		fmt.Fprintf(b, "<text x=\"%g\" y=\"19\">%s (%d)</text>\n", x+16, markStyle[k].name, p.Totals[k])
		x += 150
	}
	fmt.Fprintf(b, "<rect class=\"swatch pause\" x=\"%g\" y=\"8\" width=\"18\" height=\"12\"/><text x=\"%g\" y=\"19\">PFC paused</text></g>\n", x, x+24)
}

// markShapes are the SVG elements of each kind of mark, centred on
// (%.1f, %.1f) once x and y are put in: a tick, a downward triangle, a
// diamond and a ring.
var markShapes = [numMarks]struct{ open, close string }{
	MarkCE:         {`<rect class="%s ce" x="%.1f" y="%.1f" width="2" height="9" transform="translate(-1 -4.5)">`, "</rect>"},
	MarkCNP:        {`<path class="%s cnp" d="M%.1f %.1fm0 4l-5 -8h10z">`, "</path>"},
	MarkNAK:        {`<path class="%s nak" d="M%.1f %.1fm0 -5l5 5l-5 5l-5 -5z">`, "</path>"},
	MarkRetransmit: {`<circle class="%s retransmit" cx="%.1f" cy="%.1f" r="4">`, "</circle>"},
}

// writeMark draws one mark of kind k centred on (x, y), with a title;
// class is "mark" on a row, "swatch" in the legend.
func writeMark(b *bufio.Writer, class string, k MarkKind, x, y float64, title string) {
	fmt.Fprintf(b, markShapes[k].open, class, x, y)
	if title != "" {
		fmt.Fprintf(b, "<title>%s</title>", html.EscapeString(title))
	}
	b.WriteString(markShapes[k].close)
	b.WriteString("\n")
}

// flowRow draws one flow: its label, its throughput as a step area
// under its marks.
func (p *Page) flowRow(b *bufio.Writer, f *FlowRow, y int) {
	e := html.EscapeString
	fmt.Fprintf(b, "<g class=\"series\" data-flow=\"%s\">\n", e(f.Key.String()))
	fmt.Fprintf(b, "<text x=\"8\" y=\"%d\">%s %s</text>\n", y+18, e(f.Transport), e(f.Key.Src.String()+" > "+f.Key.Dst.String()))
	fmt.Fprintf(b, "<text x=\"8\" y=\"%d\">qp 0x%06x</text>\n", y+34, f.Key.QP)
	fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\">%s, %d frames, peak %s</text>\n", y+50, bytesText(f.Bytes), f.Frames, rateText(f.Peak))
	var seen []string
	for k := MarkKind(0); k < numMarks; k++ {
		if f.Seen[k] > 0 {
			seen = append(seen, fmt.Sprintf("%s %d", markNames[k], f.Seen[k]))
		}
	}
	if len(seen) > 0 {
		fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\">%s</text>\n", y+66, e(strings.Join(seen, ", ")))
	}
	fmt.Fprintf(b, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", plotLeft, y, plotWidth, flowH)
	base, top := float64(y+flowH), float64(y+marksBand)
	if f.Peak > 0 {
		var d strings.Builder
		fmt.Fprintf(&d, "M%d %.1f", plotLeft, base)
		bw := float64(p.Bin) / max(float64(p.Span), float64(p.Bin)) * plotWidth
		for i, r := range f.Rates {
			x0 := float64(plotLeft) + float64(i)*bw
			x1 := min(x0+bw, plotRight)
			h := base - r/f.Peak*(base-top)
			fmt.Fprintf(&d, "V%.1fH%.1f", h, x1)
		}
		fmt.Fprintf(&d, "V%.1fZ", base)
		fmt.Fprintf(b, "<path class=\"tput\" d=\"%s\"><title>%s: peak %s in a bin of %s</title></path>\n",
			d.String(), e(f.Key.String()), rateText(f.Peak), durationText(p.Bin, p.Bin))
	}
	for i := range f.Marks {
		m := &f.Marks[i]
		writeMark(b, "mark", m.Kind, p.x(m.Time), float64(y)+markStyle[m.Kind].lane, markTitle(m, p.Start))
	}
	b.WriteString("</g>\n")
}

// markTitle is the text shown on hovering a mark.
func markTitle(m *Mark, start time.Time) string {
	return fmt.Sprintf("frame %d of %s at +%s\n%s\n%s", m.Frame, m.File, durationText(m.Time.Sub(start), time.Nanosecond), m.Note, m.Line)
}

// pauseRow draws one priority's paused intervals.
func (p *Page) pauseRow(b *bufio.Writer, r *PauseRow, y int) {
	e := html.EscapeString
	name := "pfc " + mac(r.Source) + " prio " + prioName(r.Priority)
	fmt.Fprintf(b, "<g class=\"pfc\" data-prio=\"%d\">\n<text x=\"8\" y=\"%d\">%s</text>\n", r.Priority, y+12, e(name))
	fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\">%d pauses, %s paused</text>\n", y+24, r.Count, durationText(r.Paused, 0))
	fmt.Fprintf(b, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", plotLeft, y, plotWidth, pauseH)
	for _, ps := range r.Pauses {
		x0, x1 := p.x(ps.Start), p.x(ps.End)
		if x1 < plotLeft || x0 > plotRight { // off the axis (past MaxSpan)
			continue
		}
		x0, x1 = max(x0, plotLeft), min(x1, plotRight)
		ended := "still paused at the end of the capture"
		if ps.Frame > 0 {
			ended = fmt.Sprintf("ended as frame %d of %s arrived", ps.Frame, ps.File)
		}
		title := fmt.Sprintf("%s paused %s, from +%s to +%s\n%s", name, durationText(ps.End.Sub(ps.Start), 0),
			durationText(ps.Start.Sub(p.Start), time.Nanosecond), durationText(ps.End.Sub(p.Start), time.Nanosecond), ended)
		fmt.Fprintf(b, "<rect class=\"pause\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s</title></rect>\n",
			x0, y+3, max(x1-x0, 1), pauseH-6, e(title))
	}
	b.WriteString("</g>\n")
}

// axis draws the time axis under the rows, with grid lines through them.
func (p *Page) axis(b *bufio.Writer, top, bottom int) {
	span := max(int64(p.Span), int64(p.Bin))
	step := tickStep(span)
	b.WriteString("<g class=\"axis\">\n")
	for v := int64(0); ; v += step { // up to span, without passing int64's end
		x := plotLeft + float64(v)/float64(span)*plotWidth
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x, top, x, bottom+4)
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, bottom+18, html.EscapeString(offsetLabel(v, step, span)))
		if v > span-step {
			break
		}
	}
	fmt.Fprintf(b, "<text class=\"small\" x=\"%d\" y=\"%d\" text-anchor=\"end\">time since %s UTC</text>\n</g>\n",
		plotRight, bottom+36, p.Start.Format("2006-01-02 15:04:05.000000000"))
}

func mac(m [6]byte) string { return net.HardwareAddr(m[:]).String() }

func prioName(p int) string {
	if p == 8 {
		return "all (PAUSE)"
	}
	return strconv.Itoa(p)
}
