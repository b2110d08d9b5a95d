// Package cnp is the RoCEv2 congestion notification packet (CNP, IBTA
// Vol 1 Annex A17.9.3) and the notification-point side of DCQCN: deciding
// that a CE-marked packet deserves a CNP, building that CNP, and pacing
// CNPs per queue pair.
//
// A CNP is a RoCEv2 packet whose BTH has opcode 0x81, BECN set, SE, M,
// PadCnt, TVer, FECN, AckReq and PSN zero, P_Key 0xFFFF in every public
// example, and DestQP the queue pair of the reaction point (the sender
// whose packet was CE-marked); 16 reserved zero bytes and the ICRC follow.
// Over IPv4 without VLAN tags that is a 74-byte frame (UDP length 40, IP
// total length 60).
//
// A CNP is an ib.Packet whose BTH opcode is ib.OpCNP and whose payload is
// the 16 reserved bytes: Decode finds it in a frame (as roce.Frame.Decode
// does) and adds the CNP's length rules, Check its field rules, and
// FillPacket sets a Packet up for roce.Frame.AppendTo. The package builds
// on ib and the module's internal floor alone, not on package roce. IsCNP is a cheap predicate on raw frames.
// Reply builds, straight into a caller's buffer, the CNP that answers a
// received CE-marked frame. Pacer limits CNPs to one per queue pair per
// interval, as NICs do with min_time_between_cnps.
//
// Aliasing: decoded byte slices alias the input frame, as in package roce;
// Reply keeps no reference to its input or output.
//
// Allocation contract: IsCNP, Reply (given capacity in its destination),
// Pacer.Allow, Decode and Check (on a conforming CNP) allocate nothing,
// and neither do Reply's refusals of frames that are not CE-marked or are
// CNPs themselves (ErrNotCE and ErrIsCNP are returned as they are).
// Errors for malformed frames allocate one *ib.Error, and a field that
// breaks a CNP rule one *ib.FieldError naming it, as everywhere in this
// module; every message starts "roce: ". NewPacer allocates its table
// once. Nothing panics on short or malformed input.
package cnp
