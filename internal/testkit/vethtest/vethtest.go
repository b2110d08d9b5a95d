// Package vethtest gives tests of live capture and injection a link to
// use: a veth pair with names of its own, made with ip(8) in the current
// network namespace and deleted when the test ends, or the loopback
// interface where a veth pair cannot be made.
package vethtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roce-go/roce/capture"
)

// MTU is the MTU of both ends of a pair: room for RoCE frames at path
// MTU 4096.
const MTU = 9000

var pairs atomic.Int32

// Link is where a test sends and captures.
type Link struct {
	Send, Recv string // the interfaces to send on and to capture on
	Loopback   bool   // both are "lo": other traffic of the host shows too
}

// Pair makes a veth pair, up, with IPv6 off (no router solicitations)
// and MTU MTU, deleted by t.Cleanup whatever the test's outcome. Where
// ip(8) cannot make one it falls back to lo; where packet sockets are
// not permitted (not root) it skips the test, saying why.
func Pair(t testing.TB) Link {
	t.Helper()
	h, err := capture.Open("lo", capture.Options{SendOnly: true})
	if err != nil {
		if errors.Is(err, os.ErrPermission) || errors.Is(err, capture.ErrUnsupported) {
			t.Skipf("packet sockets not permitted here: %v", err)
		}
		t.Skipf("cannot open a packet socket on lo: %v", err)
	}
	h.Close()
	n := pairs.Add(1)
	a := fmt.Sprintf("rv%d.%d", os.Getpid()%100000, n)
	b := a + "p"
	if out, err := ip("link", "add", a, "mtu", fmt.Sprint(MTU), "type", "veth", "peer", "name", b, "mtu", fmt.Sprint(MTU)); err != nil {
		t.Logf("no veth pair (%v: %s): falling back to lo", err, out)
		return Link{Send: "lo", Recv: "lo", Loopback: true}
	}
	t.Cleanup(func() { ip("link", "del", a) })
	for _, dev := range []string{a, b} {
		os.WriteFile("/proc/sys/net/ipv6/conf/"+dev+"/disable_ipv6", []byte("1"), 0o644)
		if out, err := ip("link", "set", "dev", dev, "up"); err != nil {
			t.Fatalf("ip link set dev %s up: %v: %s", dev, err, out)
		}
	}
	// The kernel lets frames through once its link watch has seen the
	// carrier (until then the queue discipline drops them), which it
	// says in operstate.
	for _, dev := range []string{a, b} {
		deadline := time.Now().Add(3 * time.Second)
		for {
			st, _ := os.ReadFile("/sys/class/net/" + dev + "/operstate")
			if strings.TrimSpace(string(st)) == "up" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: operstate %q 3s after it was set up", dev, strings.TrimSpace(string(st)))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return Link{Send: a, Recv: b}
}

func ip(args ...string) (string, error) {
	out, err := exec.Command("ip", args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// Build builds the command in directory pkg (a path relative to the
// test's directory, as "../rocegen") into dir as name and returns the
// program's path.
func Build(t testing.TB, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// FromGen reports whether an Ethernet frame comes from package gen's
// default addresses (02:00:00:00:00:01 and :02): on lo, the host's
// other traffic shows too.
func FromGen(frame []byte) bool {
	return len(frame) >= 12 && frame[6] == 0x02 && frame[7]|frame[8]|frame[9]|frame[10] == 0 && (frame[11] == 1 || frame[11] == 2)
}
