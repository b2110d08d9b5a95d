package capture_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roce-go/roce/capture"
	"github.com/roce-go/roce/internal/testkit/vethtest"
)

// testFrame returns an Ethernet frame of n bytes from a locally
// administered address, numbered i in its payload, with the local
// experimental EtherType 0x88b5 (IEEE 802).
func testFrame(i, n int) []byte {
	f := make([]byte, n)
	copy(f, []byte{0x02, 0, 0, 0, 0, 0x02, 0x02, 0xca, 0xfe, 0, 0, 0x01, 0x88, 0xb5})
	binary.BigEndian.PutUint32(f[14:], uint32(i))
	for j := 18; j < n; j++ {
		f[j] = byte(i + j)
	}
	return f
}

// ours reports whether a captured frame is one of testFrame's (lo
// carries the host's traffic too).
func ours(b []byte) bool {
	return len(b) >= 18 && bytes.Equal(b[6:12], []byte{0x02, 0xca, 0xfe, 0, 0, 0x01}) && b[12] == 0x88 && b[13] == 0xb5
}

func open(t testing.TB, name string, opt capture.Options) *capture.Handle {
	t.Helper()
	h, err := capture.Open(name, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// readOurs reads frames until it has n of testFrame's or the deadline
// passes.
func readOurs(t *testing.T, h *capture.Handle, n int) (frames [][]byte, lengths []int, stamps []time.Time) {
	t.Helper()
	h.SetReadDeadline(time.Now().Add(5 * time.Second))
	for len(frames) < n {
		data, ci, err := h.ReadPacketData()
		if err != nil {
			st, _ := h.Stats()
			t.Fatalf("after %d frames: %v (kernel: %+v)", len(frames), err, st)
		}
		if ci.CaptureLength != len(data) {
			t.Fatalf("CaptureLength %d for %d bytes", ci.CaptureLength, len(data))
		}
		if ours(data) {
			frames = append(frames, data)
			lengths = append(lengths, ci.Length)
			stamps = append(stamps, ci.Timestamp)
		}
	}
	return frames, lengths, stamps
}

func TestSendReceive(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{BufferSize: 8 << 20})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	const n = 200
	before := time.Now()
	for i := 0; i < n; i++ {
		if err := tx.WritePacketData(testFrame(i, 60+i*20)); err != nil {
			t.Fatal(err)
		}
	}
	after := time.Now()
	got, lengths, stamps := readOurs(t, rx, n)
	for i := range got {
		if want := testFrame(i, 60+i*20); !bytes.Equal(got[i], want) || lengths[i] != len(want) {
			t.Fatalf("frame %d: got %d bytes (length %d), want %d bytes as sent", i, len(got[i]), lengths[i], len(want))
		}
		// The kernel's timestamps, taken while the frames were being
		// sent (not necessarily in order: a sender that moves to
		// another CPU queues on that CPU's backlog).
		if stamps[i].Before(before.Add(-time.Millisecond)) || stamps[i].After(after.Add(time.Millisecond)) {
			t.Fatalf("frame %d: timestamp %v outside the sending, %v to %v", i, stamps[i], before, after)
		}
	}
	st, err := rx.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Received < n || st.Dropped != 0 {
		t.Errorf("Stats %+v: want at least %d received, none dropped", st, n)
	}
}

func TestSnaplen(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{Snaplen: 64})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	want := testFrame(7, 1000)
	if err := tx.WritePacketData(want); err != nil {
		t.Fatal(err)
	}
	got, lengths, _ := readOurs(t, rx, 1)
	if !bytes.Equal(got[0], want[:64]) || lengths[0] != 1000 {
		t.Errorf("got %d bytes of a frame of %d; want the first 64 of 1000", len(got[0]), lengths[0])
	}
}

func TestCloseEndsRead(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{SendOnly: true}) // receives nothing: the read waits
	done := make(chan error, 1)
	go func() {
		_, _, err := rx.ZeroCopyReadPacketData()
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := rx.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != io.EOF {
			t.Errorf("read after Close: %v, want io.EOF", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not end the read")
	}
	if _, _, err := rx.ReadPacketData(); err != io.EOF {
		t.Errorf("read on a closed handle: %v, want io.EOF", err)
	}
}

func TestReadDeadline(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{SendOnly: true})
	rx.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, _, err := rx.ReadPacketData(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read past the deadline: %v, want os.ErrDeadlineExceeded", err)
	}
}

// TestDrops fills a small receive buffer without reading it: the kernel
// counts the frames it drops.
func TestDrops(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("drop counts need a link of our own")
	}
	rx := open(t, link.Recv, capture.Options{BufferSize: 4096})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	const n = 500
	for i := 0; i < n; i++ {
		if err := tx.WritePacketData(testFrame(i, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(20 * time.Millisecond)
	rx.Close()
	st, err := rx.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Received != n || st.Dropped == 0 || st.Dropped >= n {
		t.Errorf("Stats %+v: want %d received, some but not all dropped", st, n)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := capture.Open("no-such-if0", capture.Options{}); err == nil {
		t.Error("Open of a missing interface succeeded")
	}
}

// TestNoAllocs: sending a frame and reading it allocate nothing.
func TestNoAllocs(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{BufferSize: 8 << 20})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	frame := testFrame(1, 200)
	rx.SetReadDeadline(time.Now().Add(10 * time.Second))
	allocs := testing.AllocsPerRun(200, func() {
		if err := tx.WritePacketData(frame); err != nil {
			t.Fatal(err)
		}
		for {
			data, _, err := rx.ZeroCopyReadPacketData()
			if err != nil {
				t.Fatal(err)
			}
			if ours(data) {
				if !bytes.Equal(data, frame) {
					t.Fatal("frame changed on the way")
				}
				return
			}
		}
	})
	if allocs != 0 {
		t.Errorf("a write and a read allocate %v times", allocs)
	}
}

// TestMTU: a frame the interface's MTU does not hold is refused, and
// the error says so.
func TestMTU(t *testing.T) {
	link := vethtest.Pair(t)
	ifi, err := net.InterfaceByName(link.Send)
	if err != nil {
		t.Fatal(err)
	}
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	if err := tx.WritePacketData(testFrame(1, ifi.MTU+14)); err != nil {
		t.Fatalf("a frame of MTU plus Ethernet header: %v", err)
	}
	err = tx.WritePacketData(testFrame(1, ifi.MTU+100))
	if !errors.Is(err, syscall.EMSGSIZE) || !strings.Contains(err.Error(), "MTU of "+strconv.Itoa(ifi.MTU)) {
		t.Errorf("a frame over the MTU: %v, want EMSGSIZE naming the MTU", err)
	}
}

// TestWriteBatch: WritePacketBatch sends every frame in order, more than
// one system call's worth, allocating nothing; a frame the MTU does not
// hold stops it there, with the count of those sent before.
func TestWriteBatch(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{BufferSize: 8 << 20})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	const n = 150
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = testFrame(i, 60+i*7)
	}
	if sent, err := tx.WritePacketBatch(frames); sent != n || err != nil {
		t.Fatalf("sent %d of %d: %v", sent, n, err)
	}
	got, lengths, _ := readOurs(t, rx, n)
	for i := range got {
		if !bytes.Equal(got[i], frames[i]) || lengths[i] != len(frames[i]) {
			t.Fatalf("frame %d differs from the one sent", i)
		}
	}
	ifi, err := net.InterfaceByName(link.Send)
	if err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{testFrame(n, 100), testFrame(n+1, 100), testFrame(n+2, ifi.MTU+100), testFrame(n+3, 100)}
	if sent, err := tx.WritePacketBatch(bad); sent != 2 || !errors.Is(err, syscall.EMSGSIZE) {
		t.Errorf("a batch with a frame over the MTU third: sent %d, %v; want 2 and EMSGSIZE", sent, err)
	}
	got, _, _ = readOurs(t, rx, 2)
	if !bytes.Equal(got[0], bad[0]) || !bytes.Equal(got[1], bad[1]) {
		t.Error("the frames before the one refused did not arrive")
	}
	few := frames[:8]
	allocs := testing.AllocsPerRun(50, func() {
		if sent, err := tx.WritePacketBatch(few); sent != len(few) || err != nil {
			t.Fatal(sent, err)
		}
	})
	if allocs != 0 {
		t.Errorf("WritePacketBatch allocates %v times", allocs)
	}
}

// TestVLANTags: a tagged frame reaches the reader as it was sent,
// although on the receiving end of a link the kernel takes the outer
// 802.1Q or 802.1ad tag off into its metadata: the reader puts it back,
// with its TPID, as libpcap does. Cut by the snapshot length, it keeps
// its tag and its length.
func TestVLANTags(t *testing.T) {
	link := vethtest.Pair(t)
	rx := open(t, link.Recv, capture.Options{})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	var want [][]byte
	for i, tags := range [][]uint16{{0x8100}, {0x88a8}, {0x88a8, 0x8100}, {0x8100, 0x8100}, {0x9100}, {0x9100, 0x8100}, {0x8100, 0x88a8, 0x8100}} {
		want = append(want, tagged(testFrame(i, 100+i), tags...))
	}
	for _, f := range want {
		if err := tx.WritePacketData(f); err != nil {
			t.Fatal(err)
		}
	}
	got, lengths, _ := readTagged(t, rx, len(want))
	for i := range want {
		if !bytes.Equal(got[i], want[i]) || lengths[i] != len(want[i]) {
			t.Errorf("frame %d: got (length %d)\n% x\nwant (length %d)\n% x", i, lengths[i], got[i], len(want[i]), want[i])
		}
	}

	cut := open(t, link.Recv, capture.Options{Snaplen: 64})
	f := tagged(testFrame(9, 1000), 0x8100)
	if err := tx.WritePacketData(f); err != nil {
		t.Fatal(err)
	}
	got, lengths, _ = readTagged(t, cut, 1)
	if !bytes.Equal(got[0], f[:64]) || lengths[0] != len(f) {
		t.Errorf("cut tagged frame: got %d bytes of %d\n% x\nwant the first 64 of %d\n% x", len(got[0]), lengths[0], got[0], len(f), f[:64])
	}
}

// readTagged is readOurs for testFrame's frames behind VLAN tags.
func readTagged(t *testing.T, h *capture.Handle, n int) (frames [][]byte, lengths []int, stamps []time.Time) {
	t.Helper()
	h.SetReadDeadline(time.Now().Add(5 * time.Second))
	for len(frames) < n {
		data, ci, err := h.ReadPacketData()
		if err != nil {
			t.Fatalf("after %d frames: %v", len(frames), err)
		}
		if len(data) >= 12 && bytes.Equal(data[6:12], []byte{0x02, 0xca, 0xfe, 0, 0, 0x01}) {
			frames = append(frames, data)
			lengths = append(lengths, ci.Length)
			stamps = append(stamps, ci.Timestamp)
		}
	}
	return frames, lengths, stamps
}

// TestCloseDrains: Close stops the capture, and the reads after it
// return every frame that came in before it, then io.EOF; the frames
// sent after Close are not captured.
func TestCloseDrains(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("counts need a link of our own")
	}
	rx := open(t, link.Recv, capture.Options{})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	const n = 300
	for i := 0; i < n; i++ {
		if err := tx.WritePacketData(testFrame(i, 200)); err != nil {
			t.Fatal(err)
		}
	}
	if err := rx.Close(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		tx.WritePacketData(testFrame(n+i, 200))
	}
	for i := 0; ; i++ {
		data, _, err := rx.ZeroCopyReadPacketData()
		if err == io.EOF {
			if i != n {
				t.Errorf("io.EOF after %d frames, want %d", i, n)
			}
			break
		}
		if err != nil {
			t.Fatalf("read %d after Close: %v", i, err)
		}
		if want := testFrame(i, 200); !bytes.Equal(data, want) {
			t.Fatalf("frame %d after Close differs from the one sent", i)
		}
	}
	if _, _, err := rx.ZeroCopyReadPacketData(); err != io.EOF {
		t.Errorf("read after io.EOF: %v", err)
	}
	if st, _ := rx.Stats(); st.Received != n || st.Dropped != 0 {
		t.Errorf("Stats %+v, want %d received, none dropped", st, n)
	}
}

// TestDefaultBuffer: without Options.BufferSize the ring holds 2 MiB, as
// libpcap's does: a burst of 10,000 small frames (1.6 MB in the ring:
// each frame takes 160 bytes there), unread while it comes, is kept
// whole.
func TestDefaultBuffer(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("counts need a link of our own")
	}
	rx := open(t, link.Recv, capture.Options{})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	const n = 10000
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = testFrame(i, 60)
	}
	if sent, err := tx.WritePacketBatch(frames); sent != n {
		t.Fatalf("sent %d of %d: %v", sent, n, err)
	}
	time.Sleep(50 * time.Millisecond)
	got, _, _ := readOurs(t, rx, n)
	for i := range got {
		if !bytes.Equal(got[i], frames[i]) {
			t.Fatalf("frame %d differs from the one sent", i)
		}
	}
	if st, _ := rx.Stats(); st.Received != n || st.Dropped != 0 {
		t.Errorf("Stats %+v: want %d received, none dropped", st, n)
	}
}

// TestFilterCounts: frames RoCEFilter refuses never reach the ring and
// are not counted; the others are kept, up to Snaplen bytes.
func TestFilterCounts(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("counts need a link of our own")
	}
	rx := open(t, link.Recv, capture.Options{Filter: capture.RoCEFilter(), Snaplen: 80})
	tx := open(t, link.Send, capture.Options{SendOnly: true})
	pause := pfcPause()
	for i := 0; i < 20; i++ {
		tx.WritePacketData(testFrame(i, 300)) // EtherType 0x88b5: refused
		if err := tx.WritePacketData(tagged(pause, 0x8100)); err != nil {
			t.Fatal(err)
		}
	}
	rx.Close()
	n := 0
	for {
		data, ci, err := rx.ZeroCopyReadPacketData()
		if err != nil {
			break
		}
		if !bytes.Equal(data, tagged(pause, 0x8100)) || ci.Length != len(pause)+4 {
			t.Fatalf("frame %d: % x (length %d), want the tagged PAUSE", n, data, ci.Length)
		}
		n++
	}
	if st, _ := rx.Stats(); n != 20 || st.Received != 20 || st.Dropped != 0 {
		t.Errorf("%d frames read, Stats %+v: want the 20 PAUSE frames only", n, st)
	}
}

// pfcPause returns a PAUSE frame of 60 bytes.
func pfcPause() []byte {
	f := make([]byte, 60)
	copy(f, []byte{0x01, 0x80, 0xc2, 0, 0, 0x01, 0x02, 0xca, 0xfe, 0, 0, 0x01, 0x88, 0x08, 0x00, 0x01, 0xff, 0xff})
	return f
}

// BenchmarkRead measures ZeroCopyReadPacketData alone: frames of 66
// bytes (a RoCEv2 UD SEND of no payload's size) are sent 1,000 at a time
// with the timer stopped, then read.
func BenchmarkRead(b *testing.B) {
	link := vethtest.Pair(b)
	if link.Loopback {
		b.Skip("needs a link of our own")
	}
	rx := open(b, link.Recv, capture.Options{BufferSize: 8 << 20})
	tx := open(b, link.Send, capture.Options{SendOnly: true})
	const batch = 1000
	frames := make([][]byte, batch)
	for i := range frames {
		frames[i] = testFrame(i, 66)
	}
	rx.SetReadDeadline(time.Now().Add(time.Minute))
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		b.StopTimer()
		n := min(batch, b.N-done)
		if sent, err := tx.WritePacketBatch(frames[:n]); err != nil {
			b.Fatal(sent, err)
		}
		time.Sleep(25 * time.Millisecond) // the blocks handed over
		b.StartTimer()
		for got := 0; got < n; {
			data, _, err := rx.ZeroCopyReadPacketData()
			if err != nil {
				b.Fatal(err)
			}
			if ours(data) {
				got++
			}
		}
	}
	b.StopTimer()
	if st, _ := rx.Stats(); st.Dropped != 0 {
		b.Fatalf("%d dropped", st.Dropped)
	}
}

// TestNoSuchInterface: a name the system does not have is ErrNoInterface,
// said once, as tcpdump says it ("No such device exists").
func TestNoSuchInterface(t *testing.T) {
	_, err := capture.Open("no-such-if0", capture.Options{})
	if !errors.Is(err, capture.ErrNoInterface) && !errors.Is(err, capture.ErrUnsupported) {
		t.Fatalf("Open: %v, want ErrNoInterface", err)
	}
	if errors.Is(err, capture.ErrNoInterface) && err.Error() != "roce: capture: no-such-if0: no such network interface" {
		t.Errorf("message %q", err)
	}
}
