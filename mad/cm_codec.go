package mad

// Decode and AppendTo of each CM message: the layout is its walk method.

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *REQ) Decode(b []byte) error {
	*m = REQ{}
	return decodeWalker(b, "CM.REQ", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.REQ.<field>").
func (m *REQ) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.REQ", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *MRA) Decode(b []byte) error {
	*m = MRA{}
	return decodeWalker(b, "CM.MRA", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.MRA.<field>").
func (m *MRA) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.MRA", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *REJ) Decode(b []byte) error {
	*m = REJ{}
	return decodeWalker(b, "CM.REJ", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.REJ.<field>").
func (m *REJ) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.REJ", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *REP) Decode(b []byte) error {
	*m = REP{}
	return decodeWalker(b, "CM.REP", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.REP.<field>").
func (m *REP) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.REP", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *RTU) Decode(b []byte) error {
	*m = RTU{}
	return decodeWalker(b, "CM.RTU", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.RTU.<field>").
func (m *RTU) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.RTU", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *DREQ) Decode(b []byte) error {
	*m = DREQ{}
	return decodeWalker(b, "CM.DREQ", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.DREQ.<field>").
func (m *DREQ) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.DREQ", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *DREP) Decode(b []byte) error {
	*m = DREP{}
	return decodeWalker(b, "CM.DREP", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.DREP.<field>").
func (m *DREP) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.DREP", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *SIDRREQ) Decode(b []byte) error {
	*m = SIDRREQ{}
	return decodeWalker(b, "CM.SIDR_REQ", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.SIDR_REQ.<field>").
func (m *SIDRREQ) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "CM.SIDR_REQ", DataLen, m)
}

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *SIDRREP) Decode(b []byte) error {
	*m = SIDRREP{}
	return decodeWalker(b, "CM.SIDR_REP", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.SIDR_REP.<field>").
func (m *SIDRREP) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "CM.SIDR_REP", DataLen, m)
}

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *LAP) Decode(b []byte) error {
	*m = LAP{}
	return decodeWalker(b, "CM.LAP", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.LAP.<field>").
func (m *LAP) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.LAP", DataLen, m) }

// Decode decodes the message from the MAD data b (232 bytes), resetting
// m first. Byte fields alias b.
func (m *APR) Decode(b []byte) error {
	*m = APR{}
	return decodeWalker(b, "CM.APR", DataLen, m)
}

// AppendTo appends the 232 bytes of the message to b. It refuses, and
// appends nothing, a field wider than its bits or longer than its bytes
// (an *FieldError naming it, "CM.APR.<field>").
func (m *APR) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "CM.APR", DataLen, m) }
