package mad

// Decode and AppendTo of each SA record: the layout is its walk method.

// Decode decodes the record from the start of b (PathRecordLen bytes or more,
// SA.Record returns them), resetting r first. Byte fields alias b.
func (r *PathRecord) Decode(b []byte) error {
	*r = PathRecord{}
	return decodeWalker(b, "SA.PathRecord", PathRecordLen, r)
}

// AppendTo appends the record to b. It refuses, and appends nothing, a
// field wider than its bits or longer than its bytes (an *FieldError
// naming it, "SA.PathRecord.<field>").
func (r *PathRecord) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SA.PathRecord", PathRecordLen, r)
}

// Decode decodes the record from the start of b (NodeRecordLen bytes or more,
// SA.Record returns them), resetting r first. Byte fields alias b.
func (r *NodeRecord) Decode(b []byte) error {
	*r = NodeRecord{}
	return decodeWalker(b, "SA.NodeRecord", NodeRecordLen, r)
}

// AppendTo appends the record to b. It refuses, and appends nothing, a
// field wider than its bits or longer than its bytes (an *FieldError
// naming it, "SA.NodeRecord.<field>").
func (r *NodeRecord) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SA.NodeRecord", NodeRecordLen, r)
}

// Decode decodes the record from the start of b (PortInfoRecordLen bytes or more,
// SA.Record returns them), resetting r first. Byte fields alias b.
func (r *PortInfoRecord) Decode(b []byte) error {
	*r = PortInfoRecord{}
	return decodeWalker(b, "SA.PortInfoRecord", PortInfoRecordLen, r)
}

// AppendTo appends the record to b. It refuses, and appends nothing, a
// field wider than its bits or longer than its bytes (an *FieldError
// naming it, "SA.PortInfoRecord.<field>").
func (r *PortInfoRecord) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SA.PortInfoRecord", PortInfoRecordLen, r)
}

// Decode decodes the record from the start of b (ServiceRecordLen bytes or more,
// SA.Record returns them), resetting r first. Byte fields alias b.
func (r *ServiceRecord) Decode(b []byte) error {
	*r = ServiceRecord{}
	return decodeWalker(b, "SA.ServiceRecord", ServiceRecordLen, r)
}

// AppendTo appends the record to b. It refuses, and appends nothing, a
// field wider than its bits or longer than its bytes (an *FieldError
// naming it, "SA.ServiceRecord.<field>").
func (r *ServiceRecord) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SA.ServiceRecord", ServiceRecordLen, r)
}

// Decode decodes the record from the start of b (MCMemberRecordLen bytes or more,
// SA.Record returns them), resetting r first. Byte fields alias b.
func (r *MCMemberRecord) Decode(b []byte) error {
	*r = MCMemberRecord{}
	return decodeWalker(b, "SA.MCMemberRecord", MCMemberRecordLen, r)
}

// AppendTo appends the record to b. It refuses, and appends nothing, a
// field wider than its bits or longer than its bytes (an *FieldError
// naming it, "SA.MCMemberRecord.<field>").
func (r *MCMemberRecord) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SA.MCMemberRecord", MCMemberRecordLen, r)
}
