// Package timeline draws a congestion timeline of RoCE captures: one
// self-contained HTML page (inline SVG and CSS, no script, no external
// resource) with a shared time axis, one row per flow (the Config.Flows
// flows with the most bytes) showing its throughput in time bins and its
// CE marks, CNPs, NAKs and retransmissions as marks, and one row per PFC
// priority of each MAC Control source showing the intervals it was
// paused. Hovering a mark or a pause shows its frame number, its capture
// and the frame as rocedump prints it (SVG <title> tooltips). It answers
// "did the CNPs slow the sender, and did PFC pause the link?".
//
// A Timeline takes decoded frames one at a time (AddRecord, in time
// order: dump.Merge gives several captures in that order) and feeds them
// to a flow.Analyzer, whose classification it draws: the CE marks, CNPs
// (on the flow whose sender they slow), NAKs (on the request flow they
// answer, once paired), retransmissions and continuous pauses come from
// the analysis' events (flow.Config.Events), not from a second reading
// of the packets. Analyzer returns that analysis, whose Report is the
// -stats summary of the same frames.
//
// # Bins
//
// Memory is bounded whatever the capture's length. Each flow keeps at
// most MaxBins (4096) bins of bytes. Bins start 1 ns wide from the first
// frame; when a frame falls past the last bin, neighbouring bins merge,
// the width going 1, 2, 10, 20, 100 ns ... (1 or 2 times a power of
// ten), so the bins always span the capture read so far. The page draws
// at most TargetBins (300) bins across its axis, of the smallest round
// width that is a whole number of collected bins: 1, 2 or 5 times a power
// of ten up to 20 s, then 30 s, 1, 2, 5, 10, 15 and 30 minutes, 1, 2, 3,
// 6 and 12 hours and days. A capture of 2 ms gets 10 µs bins, one of an
// hour 20 s bins. Axis labels use the unit the span calls for ("250 µs",
// "1.5 ms", "2 min 30 s", "1 h 30 min").
//
// Times are exact over every timestamp a capture gives (capfile.MinTime to
// capfile.MaxTime: before 1970, past 2262, billions of years): the page of
// a capture of the year 3000 is that of the same capture in 2026 but for
// its dates. The axis spans at most MaxSpan (292 years, what a
// time.Duration holds) from the first frame: later frames are counted
// and named on the page, not drawn. A page is small whatever the
// timestamps: at most 300 bins and ten or so axis labels.
//
// Throughput is the bytes of the frames on the wire (frame.len) per bin,
// in bits per second; each row has its own scale, its peak printed
// beside it.
//
// # Caps
//
// Config.MaxFlows (256) flows are binned, in order of first frame; the
// frames of later flows are counted and named on the page, not drawn.
// Each flow keeps Config.MaxMarks (256) marks of each kind: past that,
// marks are thinned out evenly over the capture (of every 2^k marks the
// first is kept, k growing as needed). Each priority keeps its first
// Config.MaxPauses (1024) pauses. The page says how many marks and
// pauses it leaves out.
package timeline
