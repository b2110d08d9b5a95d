package mad

// The CM messages (IBTA Vol 1, 12.6, 12.8 and 12.11). Each is the 232
// bytes of MAD data after the common header, described once by its walk
// method: byte offset, bit offset from the most significant bit, width.
// Field names are IBTA's (P_Key and Q_Key as PKey and QKey, "QPN/EECN" as
// QPN); Resv fields keep the reserved bits so that a decoded message
// encodes back byte for byte. GIDs are the 16 wire bytes
// (netip.AddrFrom16 reads them); PrivateData and the other byte fields
// alias the decoded input, and encode as at most their field's size, the
// rest zero.

// The sizes of the private data of each message (IBTA Vol 1, 12.6).
const (
	REQPrivateDataLen     = 92
	MRAPrivateDataLen     = 222
	REJPrivateDataLen     = 148
	REPPrivateDataLen     = 196
	RTUPrivateDataLen     = 224
	DREQPrivateDataLen    = 220
	DREPPrivateDataLen    = 224
	SIDRREQPrivateDataLen = 216
	SIDRREPPrivateDataLen = 136
	LAPPrivateDataLen     = 168
	APRPrivateDataLen     = 148
	ARILen                = 72 // REJ additional reject information
	AdditionalInfoLen     = 72 // SIDR_REP and APR additional information
)

// CMPath is the primary or alternate path of a REQ (IBTA Vol 1, 12.6.5,
// bytes 52-95 and 96-139 of the message).
type CMPath struct {
	LocalPortLID    uint16
	RemotePortLID   uint16
	LocalPortGID    [16]byte
	RemotePortGID   [16]byte
	FlowLabel       uint32 // 20 bits
	Resv36          uint8  // reserved, 6 bits
	PacketRate      uint8  // 6 bits
	TrafficClass    uint8
	HopLimit        uint8
	SL              uint8 // 4 bits
	SubnetLocal     bool
	Resv42          uint8 // reserved, 3 bits
	LocalACKTimeout uint8 // 5 bits
	Resv43          uint8 // reserved, 3 bits
}

func (p *CMPath) walkAt(c *codec, o int) {
	c.u16(&p.LocalPortLID, "LocalPortLID", o, 0, 16)
	c.u16(&p.RemotePortLID, "RemotePortLID", o+2, 0, 16)
	c.gid(&p.LocalPortGID, o+4)
	c.gid(&p.RemotePortGID, o+20)
	c.u32(&p.FlowLabel, "FlowLabel", o+36, 0, 20)
	c.u8(&p.Resv36, "Resv36", o+36, 20, 6)
	c.u8(&p.PacketRate, "PacketRate", o+36, 26, 6)
	c.u8(&p.TrafficClass, "TrafficClass", o+40, 0, 8)
	c.u8(&p.HopLimit, "HopLimit", o+41, 0, 8)
	c.u8(&p.SL, "SL", o+42, 0, 4)
	c.flag(&p.SubnetLocal, "SubnetLocal", o+42, 4)
	c.u8(&p.Resv42, "Resv42", o+42, 5, 3)
	c.u8(&p.LocalACKTimeout, "LocalACKTimeout", o+43, 0, 5)
	c.u8(&p.Resv43, "Resv43", o+43, 5, 3)
}

// REQ is ConnectRequest (IBTA Vol 1, 12.6.5, Table 99).
type REQ struct {
	LocalCommID             uint32
	Resv4                   uint32
	ServiceID               ServiceID
	LocalCAGUID             uint64
	Resv24                  uint32
	LocalQKey               uint32
	LocalQPN                uint32 // 24 bits
	ResponderResources      uint8
	LocalEECN               uint32 // 24 bits
	InitiatorDepth          uint8
	RemoteEECN              uint32 // 24 bits
	RemoteCMResponseTimeout uint8  // 5 bits
	TransportServiceType    uint8  // 2 bits: 0 RC, 1 UC, 2 RD
	EndToEndFlowControl     bool
	StartingPSN             uint32 // 24 bits
	LocalCMResponseTimeout  uint8  // 5 bits
	RetryCount              uint8  // 3 bits
	PartitionKey            uint16
	PathPacketPayloadMTU    uint8 // 4 bits
	RDCExists               bool
	RNRRetryCount           uint8 // 3 bits
	MaxCMRetries            uint8 // 4 bits
	SRQ                     bool
	ExtendedTransportType   uint8 // 3 bits: 1 XRC
	Primary                 CMPath
	Alternate               CMPath
	PrivateData             []byte // 92 bytes; RDMA-CM puts its IP-CM header here (see IPCM)
}

func (m *REQ) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.Resv4, "Resv4", 4, 0, 32)
	c.u64((*uint64)(&m.ServiceID), "ServiceID", 8)
	c.u64(&m.LocalCAGUID, "LocalCAGUID", 16)
	c.u32(&m.Resv24, "Resv24", 24, 0, 32)
	c.u32(&m.LocalQKey, "LocalQKey", 28, 0, 32)
	c.u32(&m.LocalQPN, "LocalQPN", 32, 0, 24)
	c.u8(&m.ResponderResources, "ResponderResources", 35, 0, 8)
	c.u32(&m.LocalEECN, "LocalEECN", 36, 0, 24)
	c.u8(&m.InitiatorDepth, "InitiatorDepth", 39, 0, 8)
	c.u32(&m.RemoteEECN, "RemoteEECN", 40, 0, 24)
	c.u8(&m.RemoteCMResponseTimeout, "RemoteCMResponseTimeout", 43, 0, 5)
	c.u8(&m.TransportServiceType, "TransportServiceType", 43, 5, 2)
	c.flag(&m.EndToEndFlowControl, "EndToEndFlowControl", 43, 7)
	c.u32(&m.StartingPSN, "StartingPSN", 44, 0, 24)
	c.u8(&m.LocalCMResponseTimeout, "LocalCMResponseTimeout", 47, 0, 5)
	c.u8(&m.RetryCount, "RetryCount", 47, 5, 3)
	c.u16(&m.PartitionKey, "PartitionKey", 48, 0, 16)
	c.u8(&m.PathPacketPayloadMTU, "PathPacketPayloadMTU", 50, 0, 4)
	c.flag(&m.RDCExists, "RDCExists", 50, 4)
	c.u8(&m.RNRRetryCount, "RNRRetryCount", 50, 5, 3)
	c.u8(&m.MaxCMRetries, "MaxCMRetries", 51, 0, 4)
	c.flag(&m.SRQ, "SRQ", 51, 4)
	c.u8(&m.ExtendedTransportType, "ExtendedTransportType", 51, 5, 3)
	c.sub = "Primary."
	m.Primary.walkAt(&c, 52)
	c.sub = "Alternate."
	m.Alternate.walkAt(&c, 96)
	c.sub = ""
	c.data(&m.PrivateData, "PrivateData", 140, REQPrivateDataLen)
	return c.err
}

// MRA is MsgRcptAck, the message receipt acknowledgement (IBTA Vol 1,
// 12.6.6).
type MRA struct {
	LocalCommID    uint32
	RemoteCommID   uint32
	MessageMRAed   uint8 // 2 bits: CMMsgREQ, CMMsgREP, CMMsgOther (LAP)
	Resv8          uint8 // reserved, 6 bits
	ServiceTimeout uint8 // 5 bits
	Resv9          uint8 // reserved, 3 bits
	PrivateData    []byte
}

// The message a MRA acknowledges or a REJ rejects (MessageMRAed,
// MessageRejected).
const (
	CMMsgREQ   = 0
	CMMsgREP   = 1
	CMMsgOther = 2 // MRA: a LAP; REJ: no or another message
)

func (m *MRA) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u8(&m.MessageMRAed, "MessageMRAed", 8, 0, 2)
	c.u8(&m.Resv8, "Resv8", 8, 2, 6)
	c.u8(&m.ServiceTimeout, "ServiceTimeout", 9, 0, 5)
	c.u8(&m.Resv9, "Resv9", 9, 5, 3)
	c.data(&m.PrivateData, "PrivateData", 10, MRAPrivateDataLen)
	return c.err
}

// REJ is ConnectReject (IBTA Vol 1, 12.6.7). Reason is the reject
// reason (RejectReason.String names it, Table 105), ARI the additional
// reject information of RejectedInfoLength bytes (see ARIKind).
type REJ struct {
	LocalCommID        uint32
	RemoteCommID       uint32
	MessageRejected    uint8 // 2 bits: CMMsgREQ, CMMsgREP, CMMsgOther
	Resv8              uint8 // reserved, 6 bits
	RejectedInfoLength uint8 // 7 bits: the bytes of ARI in use
	Resv9              uint8 // reserved, 1 bit
	Reason             RejectReason
	ARI                []byte // 72 bytes
	PrivateData        []byte // 148 bytes
}

func (m *REJ) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u8(&m.MessageRejected, "MessageRejected", 8, 0, 2)
	c.u8(&m.Resv8, "Resv8", 8, 2, 6)
	c.u8(&m.RejectedInfoLength, "RejectedInfoLength", 9, 0, 7)
	c.u8(&m.Resv9, "Resv9", 9, 7, 1)
	c.u16((*uint16)(&m.Reason), "Reason", 10, 0, 16)
	c.data(&m.ARI, "ARI", 12, ARILen)
	c.data(&m.PrivateData, "PrivateData", 84, REJPrivateDataLen)
	return c.err
}

// REP is ConnectReply (IBTA Vol 1, 12.6.8).
type REP struct {
	LocalCommID         uint32
	RemoteCommID        uint32
	LocalQKey           uint32
	LocalQPN            uint32 // 24 bits
	Resv15              uint8
	LocalEECN           uint32 // 24 bits
	Resv19              uint8
	StartingPSN         uint32 // 24 bits
	Resv23              uint8
	ResponderResources  uint8
	InitiatorDepth      uint8
	TargetACKDelay      uint8 // 5 bits
	FailoverAccepted    uint8 // 2 bits
	EndToEndFlowControl bool
	RNRRetryCount       uint8 // 3 bits
	SRQ                 bool
	Resv27              uint8 // reserved, 4 bits
	LocalCAGUID         uint64
	PrivateData         []byte // 196 bytes
}

func (m *REP) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u32(&m.LocalQKey, "LocalQKey", 8, 0, 32)
	c.u32(&m.LocalQPN, "LocalQPN", 12, 0, 24)
	c.u8(&m.Resv15, "Resv15", 15, 0, 8)
	c.u32(&m.LocalEECN, "LocalEECN", 16, 0, 24)
	c.u8(&m.Resv19, "Resv19", 19, 0, 8)
	c.u32(&m.StartingPSN, "StartingPSN", 20, 0, 24)
	c.u8(&m.Resv23, "Resv23", 23, 0, 8)
	c.u8(&m.ResponderResources, "ResponderResources", 24, 0, 8)
	c.u8(&m.InitiatorDepth, "InitiatorDepth", 25, 0, 8)
	c.u8(&m.TargetACKDelay, "TargetACKDelay", 26, 0, 5)
	c.u8(&m.FailoverAccepted, "FailoverAccepted", 26, 5, 2)
	c.flag(&m.EndToEndFlowControl, "EndToEndFlowControl", 26, 7)
	c.u8(&m.RNRRetryCount, "RNRRetryCount", 27, 0, 3)
	c.flag(&m.SRQ, "SRQ", 27, 3)
	c.u8(&m.Resv27, "Resv27", 27, 4, 4)
	c.u64(&m.LocalCAGUID, "LocalCAGUID", 28)
	c.data(&m.PrivateData, "PrivateData", 36, REPPrivateDataLen)
	return c.err
}

// RTU is ReadyToUse (IBTA Vol 1, 12.6.9).
type RTU struct {
	LocalCommID  uint32
	RemoteCommID uint32
	PrivateData  []byte // 224 bytes
}

func (m *RTU) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.data(&m.PrivateData, "PrivateData", 8, RTUPrivateDataLen)
	return c.err
}

// DREQ is DisconnectRequest (IBTA Vol 1, 12.6.10).
type DREQ struct {
	LocalCommID  uint32
	RemoteCommID uint32
	RemoteQPN    uint32 // remote QPN/EECN, 24 bits
	Resv11       uint8
	PrivateData  []byte // 220 bytes
}

func (m *DREQ) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u32(&m.RemoteQPN, "RemoteQPN", 8, 0, 24)
	c.u8(&m.Resv11, "Resv11", 11, 0, 8)
	c.data(&m.PrivateData, "PrivateData", 12, DREQPrivateDataLen)
	return c.err
}

// DREP is DisconnectReply (IBTA Vol 1, 12.6.11).
type DREP struct {
	LocalCommID  uint32
	RemoteCommID uint32
	PrivateData  []byte // 224 bytes
}

func (m *DREP) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.data(&m.PrivateData, "PrivateData", 8, DREPPrivateDataLen)
	return c.err
}

// SIDRREQ is ServiceIDResReq, the service ID resolution request of UD
// (IBTA Vol 1, 12.11.1).
type SIDRREQ struct {
	RequestID    uint32
	PartitionKey uint16
	Resv6        uint16
	ServiceID    ServiceID
	PrivateData  []byte // 216 bytes
}

func (m *SIDRREQ) walk(c codec) error {
	c.u32(&m.RequestID, "RequestID", 0, 0, 32)
	c.u16(&m.PartitionKey, "PartitionKey", 4, 0, 16)
	c.u16(&m.Resv6, "Resv6", 6, 0, 16)
	c.u64((*uint64)(&m.ServiceID), "ServiceID", 8)
	c.data(&m.PrivateData, "PrivateData", 16, SIDRREQPrivateDataLen)
	return c.err
}

// SIDRREP is ServiceIDResReqResp (IBTA Vol 1, 12.11.2). With Status
// SIDRRedirect, AdditionalInformation holds a ClassPortInfo.
type SIDRREP struct {
	RequestID                   uint32
	Status                      SIDRStatus
	AdditionalInformationLength uint8
	Resv6                       uint16
	QPN                         uint32 // 24 bits
	Resv11                      uint8
	ServiceID                   ServiceID
	QKey                        uint32
	AdditionalInformation       []byte // 72 bytes (ClassPortInfo)
	PrivateData                 []byte // 136 bytes
}

func (m *SIDRREP) walk(c codec) error {
	c.u32(&m.RequestID, "RequestID", 0, 0, 32)
	c.u8((*uint8)(&m.Status), "Status", 4, 0, 8)
	c.u8(&m.AdditionalInformationLength, "AdditionalInformationLength", 5, 0, 8)
	c.u16(&m.Resv6, "Resv6", 6, 0, 16)
	c.u32(&m.QPN, "QPN", 8, 0, 24)
	c.u8(&m.Resv11, "Resv11", 11, 0, 8)
	c.u64((*uint64)(&m.ServiceID), "ServiceID", 12)
	c.u32(&m.QKey, "QKey", 20, 0, 32)
	c.data(&m.AdditionalInformation, "AdditionalInformation", 24, AdditionalInfoLen)
	c.data(&m.PrivateData, "PrivateData", 96, SIDRREPPrivateDataLen)
	return c.err
}

// LAP is LoadAlternatePath (IBTA Vol 1, 12.8.1).
type LAP struct {
	LocalCommID              uint32
	RemoteCommID             uint32
	Resv8                    uint32
	RemoteQPN                uint32 // remote QPN/EECN, 24 bits
	RemoteCMResponseTimeout  uint8  // 5 bits
	Resv15                   uint8  // reserved, 3 bits
	Resv16                   uint32
	AlternateLocalPortLID    uint16
	AlternateRemotePortLID   uint16
	AlternateLocalPortGID    [16]byte
	AlternateRemotePortGID   [16]byte
	AlternateFlowLabel       uint32 // 20 bits
	Resv58                   uint8  // reserved, 4 bits
	AlternateTrafficClass    uint8
	AlternateHopLimit        uint8
	Resv61                   uint8 // reserved, 2 bits
	AlternatePacketRate      uint8 // 6 bits
	AlternateSL              uint8 // 4 bits
	AlternateSubnetLocal     bool
	Resv62                   uint8  // reserved, 3 bits
	AlternateLocalACKTimeout uint8  // 5 bits
	Resv63                   uint8  // reserved, 3 bits
	PrivateData              []byte // 168 bytes
}

func (m *LAP) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u32(&m.Resv8, "Resv8", 8, 0, 32)
	c.u32(&m.RemoteQPN, "RemoteQPN", 12, 0, 24)
	c.u8(&m.RemoteCMResponseTimeout, "RemoteCMResponseTimeout", 15, 0, 5)
	c.u8(&m.Resv15, "Resv15", 15, 5, 3)
	c.u32(&m.Resv16, "Resv16", 16, 0, 32)
	c.u16(&m.AlternateLocalPortLID, "AlternateLocalPortLID", 20, 0, 16)
	c.u16(&m.AlternateRemotePortLID, "AlternateRemotePortLID", 22, 0, 16)
	c.gid(&m.AlternateLocalPortGID, 24)
	c.gid(&m.AlternateRemotePortGID, 40)
	c.u32(&m.AlternateFlowLabel, "AlternateFlowLabel", 56, 0, 20)
	c.u8(&m.Resv58, "Resv58", 58, 4, 4)
	c.u8(&m.AlternateTrafficClass, "AlternateTrafficClass", 59, 0, 8)
	c.u8(&m.AlternateHopLimit, "AlternateHopLimit", 60, 0, 8)
	c.u8(&m.Resv61, "Resv61", 61, 0, 2)
	c.u8(&m.AlternatePacketRate, "AlternatePacketRate", 61, 2, 6)
	c.u8(&m.AlternateSL, "AlternateSL", 62, 0, 4)
	c.flag(&m.AlternateSubnetLocal, "AlternateSubnetLocal", 62, 4)
	c.u8(&m.Resv62, "Resv62", 62, 5, 3)
	c.u8(&m.AlternateLocalACKTimeout, "AlternateLocalACKTimeout", 63, 0, 5)
	c.u8(&m.Resv63, "Resv63", 63, 5, 3)
	c.data(&m.PrivateData, "PrivateData", 64, LAPPrivateDataLen)
	return c.err
}

// APR is AlternatePathResponse (IBTA Vol 1, 12.8.2).
type APR struct {
	LocalCommID          uint32
	RemoteCommID         uint32
	AdditionalInfoLength uint8
	APStatus             APStatus
	Resv10               uint16
	AdditionalInfo       []byte // 72 bytes
	PrivateData          []byte // 148 bytes
}

func (m *APR) walk(c codec) error {
	c.u32(&m.LocalCommID, "LocalCommID", 0, 0, 32)
	c.u32(&m.RemoteCommID, "RemoteCommID", 4, 0, 32)
	c.u8(&m.AdditionalInfoLength, "AdditionalInfoLength", 8, 0, 8)
	c.u8((*uint8)(&m.APStatus), "APStatus", 9, 0, 8)
	c.u16(&m.Resv10, "Resv10", 10, 0, 16)
	c.data(&m.AdditionalInfo, "AdditionalInfo", 12, AdditionalInfoLen)
	c.data(&m.PrivateData, "PrivateData", 84, APRPrivateDataLen)
	return c.err
}
