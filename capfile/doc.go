// Package capfile reads and writes capture files: pcap and pcapng, either
// one gzip-compressed, with frames of any link type (ERF records,
// Linux cooked captures, raw IP, IPoIB and native InfiniBand among
// them: LinkTypeERF and the other link type numbers, LinkTypeName); a
// file read as a stream (NewSource), held whole in memory
// (NewSourceBytes) or mapped into it (NewSourceMapped), or a live
// capture read as one (NewPacketSource). It decodes nothing: a frame is
// its captured bytes, its capture information (gopacket.CaptureInfo)
// and its link type. Package dump decodes them (Record.Decode, Scan);
// cmd/rocedump, cmd/rocegen and package gen write through Writer.
// A Source is a gopacket packet data source too (ReadPacketData,
// ZeroCopyReadPacketData, LastLinkType): gopacket.NewPacketSource reads
// pcapng of several interfaces, gzip and ERF through it, where pcapgo's
// readers take pcap or pcapng alone.
//
// The contract of Source: Next hands out one frame at a time, a view of
// its buffer (of the file itself when it is held in memory) valid until
// the following call, and allocates nothing in steady state. Memory is
// bounded whatever the lengths a file claims: no record over MaxSnaplen
// is held. Frames are numbered from 1 in the order of the file, as
// Wireshark numbers them, a record that cannot be read included. A
// record that cannot be read is a *ReadError naming its frame: skipped
// when the format can find the next record (a pcapng block of a sound
// length), the end of reading otherwise (Fatal). Capture times are
// exact to the nanosecond from MinTime to MaxTime. A mapped file that
// shrinks while it is read ends with ErrShrank after its last whole
// record, never with records past its new end.
//
// A Source is read by one goroutine. For pipelines that read the source
// on one goroutine and its frames on others (dump's Scan, Dump and
// Merge with several workers), a few methods hand over to the pipeline
// the checks Next makes of a file held in memory, so that it can make
// them once per batch of records, once every goroutine is done with the
// batch: InPlace (the frames are views of the file, valid as long as it
// is), Guard with Unguard or UnguardViews (a fault on a mapped file cut
// shorter becomes ErrShrank), Pipelined, Shrunk and ReadEnd (the file's
// size checked per batch), ReleaseTo (its pages released behind the
// batches). A program that calls Next alone needs none of them.
//
// The contract of Writer: it writes each frame as it was read (bytes,
// original length, time to the nanosecond, link type), so that a Source
// reads back the same frames; a pcap file holds one link type and the
// times from 1970 to 2106, a pcapng file every link type and every time
// a Source gives. Format names the two, as a name (ParseFormat) or a
// file name's extension (FormatOf) asks.
//
// Every error message starts with "roce: " and wraps a sentinel that
// errors.Is matches: ErrNotCapture (a file of no capture format),
// ErrUnreadable or io.ErrUnexpectedEOF (a ReadError: a record that
// cannot be read, a capture cut short), ErrShrank, ErrUnknownFormat
// (ParseFormat), and for Writer ErrLinkTypes, ErrTimeRange and
// ErrTooLong.
package capfile
