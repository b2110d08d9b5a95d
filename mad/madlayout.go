package mad

// madLayout is a 256-byte MAD layout whose class body follows the common
// header: Decode and AppendTo take the whole MAD, DecodeData the MAD data
// after a header decoded before it.
type madLayout interface {
	Validate() error
	header() *Header
	decodeData(d []byte) error // d: the 232 bytes after the header
	putData(p []byte)          // p: the 232 bytes after the header
}

// decodeMADLayout decodes the whole MAD b into m, already reset: the
// common header (Header.Decode, the one definition), then the data.
func decodeMADLayout(m madLayout, layer string, b []byte, class Class) error {
	if err := checkMAD(layer, b, class); err != nil {
		return err
	}
	_ = m.header().Decode(b)
	return m.decodeData(b[HeaderLen:Len])
}

// decodeData decodes the MAD data d (DataLen bytes or more) of m under
// the header h, m already reset: the data decoder of the gopacket
// adapters, whose MAD layer holds the header.
func decodeMADData(m madLayout, layer string, h *Header, d []byte) error {
	*m.header() = *h
	if len(d) < DataLen {
		return truncated(layer, DataLen, len(d))
	}
	return m.decodeData(d[:DataLen])
}

// appendMAD appends the MAD m to b, or nothing when m does not validate.
func appendMAD(m madLayout, b []byte) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return b, err
	}
	b = grow(b, Len)
	p := b[len(b)-Len:]
	_, _ = m.header().AppendTo(p[:0:HeaderLen])
	m.putData(p[HeaderLen:])
	return b, nil
}

func (s *SMP) header() *Header         { return &s.Header }
func (s *SMPDirected) header() *Header { return &s.Header }
func (m *PerfMgt) header() *Header     { return &m.Header }

// AppendData appends the DataLen bytes of MAD data, what follows the
// common header, to b, unchecked: the header's Validate covers none of
// them. It is what a gopacket adapter writes after its MAD layer, which
// writes the header.
func (s *SMP) AppendData(b []byte) []byte {
	b = grow(b, DataLen)
	s.putData(b[len(b)-DataLen:])
	return b
}

// AppendData appends the MAD data, as SMP.AppendData does.
func (s *SMPDirected) AppendData(b []byte) []byte {
	b = grow(b, DataLen)
	s.putData(b[len(b)-DataLen:])
	return b
}

// AppendData appends the MAD data, as SMP.AppendData does.
func (m *PerfMgt) AppendData(b []byte) []byte {
	b = grow(b, DataLen)
	m.putData(b[len(b)-DataLen:])
	return b
}
