package roce_test

import (
	"fmt"
	"net"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoAllocs asserts the allocation contract: a count, not a time. Every
// row returns an error unless its call did what the row says, so that a
// call failing early cannot pass for a cheap one.
func TestNoAllocs(t *testing.T) {
	write := benchWrite()
	frame, err := write.AppendTo(nil)
	require.NoError(t, err)
	v1, err := rocev2.ToRoCEv1(nil, frame)
	require.NoError(t, err)
	v6, err := rocev2.FromRoCEv1(nil, vec(t, "v1"), 0)
	require.NoError(t, err)

	// The same WRITE over IPv6 behind an 802.1ad and an 802.1Q tag.
	tagged6 := benchWrite()
	tagged6.Encap = ib.RoCEv2IPv6
	tagged6.GRH.SGID, tagged6.GRH.DGID = [16]byte{0xfd, 15: 1}, [16]byte{0xfd, 15: 2}
	tagged6.GRH.FlowLabel, tagged6.UDPChecksum = 0x12345, true
	tagged6.NumVLANs = 2
	tagged6.VLANs = [roce.MaxVLANs]roce.VLAN{{TPID: 0x88a8, PCP: 5, ID: 7}, {TPID: 0x8100, PCP: 3, DEI: true, ID: 100}}
	frame6, err := tagged6.AppendTo(nil)
	require.NoError(t, err)
	// And over IPv4 behind one tag.
	tagged4 := benchWrite()
	tagged4.NumVLANs, tagged4.VLANs[0] = 1, roce.VLAN{PCP: 3, ID: 100}
	frame4t, err := tagged4.AppendTo(nil)
	require.NoError(t, err)

	// A native InfiniBand packet: LRH (LNH 2, BTH next) and the WRITE's
	// transport packet.
	native := append([]byte{0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02}, frame[42:]...)

	// The gopacket path for building: layers serialized into a reused
	// buffer. The payload is boxed once, here.
	sb := gopacket.NewSerializeBuffer()
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr(write.Src[:]), DstMAC: net.HardwareAddr(write.Dst[:]), EthernetType: layers.EthernetTypeIPv4}
	ip := googlelayers.IPv4FromGRH(&write.GRH)
	udp := &layers.UDP{SrcPort: 49152, DstPort: rocev2.Port}
	bth, reth := googlelayers.BTH{BTH: write.Packet.BTH}, googlelayers.RETH{RETH: write.Packet.RETH}
	serial := []gopacket.SerializableLayer{eth, ip, udp, &bth, &reth, gopacket.Payload(write.Packet.Payload)}
	sopts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	require.NoError(t, udp.SetNetworkLayerForChecksum(ip))

	var (
		f       roce.Frame
		l       googlelayers.Layers
		parser  = l.Parser()
		decoded = make([]gopacket.LayerType, 0, 16)
		buf     = make([]byte, 0, 16384)
		p       ib.Packet
		m       pfc.MACControl
		pfcBody = pfc.AppendPFC(nil, write.Src, 0x88, [8]uint16{3: 0xffff})[pfc.EthernetHeaderLen:]
		ce      = append([]byte(nil), frame...)
		ceTag   = append([]byte(nil), frame6...)
	)
	_, err = ecn.MarkCE(ce)
	require.NoError(t, err)
	_, err = ecn.MarkCE(ceTag)
	require.NoError(t, err)
	parse := func(b []byte, n int) error {
		if err := parser.DecodeLayers(b, &decoded); err != nil {
			return err
		}
		if len(decoded) != n {
			return fmt.Errorf("decoded %v, want %d layers", decoded, n)
		}
		return nil
	}
	decode := func(b []byte, enc ib.Encapsulation, tags int) error {
		if err := f.Decode(b); err != nil {
			return err
		}
		if f.Encap != enc || f.NumVLANs != tags || len(f.Packet.Payload) != 4096 {
			return fmt.Errorf("decoded %v with %d tags and %d bytes of payload", f.Encap, f.NumVLANs, len(f.Packet.Payload))
		}
		return nil
	}
	// decodeCut decodes a frame cut by the capture, payload bytes of its
	// payload captured.
	decodeCut := func(f *roce.Frame, b []byte, payload int) error {
		if err := f.Decode(b); err != nil {
			return err
		}
		if !f.Truncated || len(f.Packet.Payload) != payload || f.WireLen <= len(b) {
			return fmt.Errorf("cut frame: Truncated %v, %d bytes of payload, WireLen %d", f.Truncated, len(f.Packet.Payload), f.WireLen)
		}
		return nil
	}
	build := func(fr *roce.Frame, n int) error {
		out, err := fr.AppendTo(buf[:0])
		if err == nil && len(out) != n {
			err = fmt.Errorf("AppendTo wrote %d bytes, want %d", len(out), n)
		}
		return err
	}
	for _, c := range []struct {
		name string
		fn   func() error
	}{
		{"DecodingLayerParser RoCEv2/IPv4", func() error { return parse(frame, 6) }},
		{"DecodingLayerParser RoCEv1", func() error { return parse(v1, 5) }},
		{"DecodingLayerParser RoCEv2/IPv6", func() error { return parse(v6, 5) }},
		{"DecodingLayerParser RoCEv2/IPv6 QinQ", func() error { return parse(frame6, 8) }},
		{"Frame.Decode", func() error { return decode(frame, ib.RoCEv2IPv4, 0) }},
		{"Frame.Decode VLAN", func() error { return decode(frame4t, ib.RoCEv2IPv4, 1) }},
		{"Frame.Decode IPv6 QinQ", func() error { return decode(frame6, ib.RoCEv2IPv6, 2) }},
		{"Frame.Decode RoCEv1", func() error { return decode(v1, ib.RoCEv1, 0) }},
		{"Frame.VerifyICRC", func() error {
			if err := f.Decode(frame); err != nil {
				return err
			}
			return f.VerifyICRC()
		}},
		{"Frame.VerifyICRC IPv6 QinQ", func() error {
			if err := f.Decode(frame6); err != nil {
				return err
			}
			return f.VerifyICRC()
		}},
		{"Frame.Decode cut (snap length 80)", func() error { return decodeCut(&f, frame[:80], 10) }},
		{"Frame.Decode cut inside the RETH (snap length 64)", func() error {
			if err := decodeCut(&f, frame[:64], 0); err != nil {
				return err
			}
			if n := f.Packet.Captured(ib.HeaderRETH); n != 10 {
				return fmt.Errorf("%d bytes of the RETH, want 10", n)
			}
			return nil
		}},
		{"Frame.Decode cut IPv6 QinQ (snap length 128)", func() error { return decodeCut(&f, frame6[:128], 30) }},
		{"Frame.Decode cut RoCEv1 (snap length 94)", func() error {
			if err := f.Decode(v1[:94]); err != nil || !f.Truncated {
				return fmt.Errorf("cut RoCEv1: %v, Truncated %v", err, f.Truncated)
			}
			return nil
		}},
		{"Frame.VerifyICRC cut", func() error {
			if err := f.Decode(frame[:80]); err != nil {
				return err
			}
			if err := f.VerifyICRC(); err != ib.ErrUnchecked {
				return fmt.Errorf("VerifyICRC of a cut frame: %v", err)
			}
			return nil
		}},
		{"DecodingLayerParser cut", func() error {
			if err := parse(frame[:80], 6); err != nil {
				return err
			}
			if !parser.Truncated || !l.BTH.Truncated {
				return fmt.Errorf("cut frame not marked truncated")
			}
			return nil
		}},
		{"Packet.Decode", func() error { return p.Decode(frame[42:]) }},
		{"Packet.DecodeTruncated", func() error {
			if err := p.DecodeTruncated(frame[42:80], len(frame)-42); err != nil || !p.BTH.Truncated {
				return fmt.Errorf("DecodeTruncated: %v, Truncated %v", err, p.BTH.Truncated)
			}
			return nil
		}},
		{"ComputeICRC", func() error { _, err := ib.ComputeICRC(ib.RoCEv2IPv4, frame[14:]); return err }},
		{"ComputeNativeICRC", func() error { _, err := ib.ComputeNativeICRC(native); return err }},
		{"VerifyICRC", func() error { return ib.VerifyICRC(ib.RoCEv2IPv4, frame[14:]) }},
		{"CheckICRC bad", func() error {
			frame[len(frame)-1] ^= 1
			_, _, ok, err := ib.CheckICRC(ib.RoCEv2IPv4, frame[14:])
			frame[len(frame)-1] ^= 1
			if ok || err != nil {
				return fmt.Errorf("bad ICRC: ok %v, %v", ok, err)
			}
			return nil
		}},
		{"VerifyFrame", func() error { return roce.VerifyFrame(frame) }},
		{"VerifyFrame IPv6 QinQ", func() error { return roce.VerifyFrame(frame6) }},
		{"VerifyFrame VLAN", func() error { return roce.VerifyFrame(frame4t) }},
		{"FixICRC", func() error { return roce.FixICRC(frame) }},
		{"FixICRC IPv6 QinQ UDP checksum", func() error { return roce.FixICRC(frame6) }},
		{"Frame.AppendTo", func() error { return build(&write, len(frame)) }},
		{"Frame.AppendTo VLAN", func() error { return build(&tagged4, len(frame4t)) }},
		{"Frame.AppendTo IPv6 QinQ", func() error { return build(&tagged6, len(frame6)) }},
		{"Packet.AppendTo", func() error { _, err := write.Packet.AppendTo(buf[:0]); return err }},
		{"gopacket.SerializeLayers and FixICRC", func() error {
			if err := gopacket.SerializeLayers(sb, sopts, serial...); err != nil {
				return err
			}
			return roce.FixICRC(sb.Bytes())
		}},
		{"rocev2.ToRoCEv1", func() error { _, err := rocev2.ToRoCEv1(buf[:0], frame); return err }},
		{"rocev2.FromRoCEv1", func() error { _, err := rocev2.FromRoCEv1(buf[:0], v1, 0); return err }},
		{"cnp.Reply", func() error { _, err := cnp.Reply(buf[:0], ce, 0x34, nil); return err }},
		{"cnp.Reply IPv6 QinQ", func() error { _, err := cnp.Reply(buf[:0], ceTag, 0x34, nil); return err }},
		{"ecn.SetFrameECN IPv6 QinQ", func() error { return ecn.SetFrameECN(frame6, ecn.ECT0) }},
		{"ecn.MarkCE", func() error {
			if err := ecn.SetFrameECN(frame, ecn.ECT0); err != nil {
				return err
			}
			if marked, err := ecn.MarkCE(frame); !marked || err != nil {
				return fmt.Errorf("MarkCE: %v, %v", marked, err)
			}
			return ecn.SetFrameECN(frame, ecn.ECT0)
		}},
		{"pfc.MACControl.Decode", func() error { return m.Decode(pfcBody) }},
	} {
		require.NoError(t, c.fn(), c.name) // and warm up
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := c.fn(); e != nil {
				err = e
			}
		})
		assert.NoError(t, err, c.name)
		assert.Zero(t, n, "%s: allocations per run", c.name)
	}
}
