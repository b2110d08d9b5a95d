// Package dfilter compiles Wireshark display filters ("tshark -Y") and
// runs them on frames decoded by package dump, without allocating:
//
//	f, err := dfilter.Compile(`infiniband.bth.destqp == 0x12 && ip.src == 10.0.0.1`)
//	...
//	if f.Match(rec) { ... } // rec is a *dump.Record
//
// The names are those of the JSON objects rocedump writes (dump's field
// table, dump.Fields, and the protocols of dump.Protocols), which are
// Wireshark's wherever Wireshark has the field: an expression selects the
// same frames as tshark 4.0's -Y wherever tshark decodes the field (the
// tests run each of their expressions through both and compare frame
// numbers).
//
// # What is supported
//
//   - A field or protocol name alone tests presence: infiniband.reth,
//     vlan, macc, infiniband.bth.se (a flag present whatever its value).
//   - Comparisons: == != < <= > >= and their word forms eq ne lt le gt ge;
//     Wireshark 4's === (all_eq), !== and ~= (any_ne), all_ne and any_eq;
//     contains for strings and bytes.
//   - field in {4, 10, 0x11}, field in {1..5, 9}, field not in {...}.
//     tshark 4.0 wants commas between the elements; elements separated by
//     spaces alone, as older Wireshark took them, are accepted too.
//   - && || ! and their words and or not (lower case, as tshark): !
//     binds tightest, then &&, then ||, as in tshark 4.0, which takes a
//     mix of and and or without parentheses and without a warning.
//     Parentheses group.
//   - Values by the field's type: numbers in decimal, 0x hex or 0 octal
//     (as tshark: 011 is 9), refused, as tshark refuses them, when they
//     do not fit the Wireshark type that holds the field (dump.Field's
//     TypeBits: ip.dsfield.ecn, two bits of an FT_UINT8, takes 0 to 255).
//     A value the type holds but the field's bits do not is compared
//     like any other: ip.dsfield.ecn == 4 matches no frame,
//     ip.dsfield.ecn < 4 every frame with the field; flags as 1, 0, True, False (like tshark, any number but 0
//     is true); IPv4 and IPv6 addresses and prefixes (ip.src ==
//     10.0.0.0/24, ipv6.dst == 2001:db8::/32; GIDs are IPv6); MAC
//     addresses with ':', '-' or '.' (02:00:00:00:00:01, 0200.0000.0001);
//     bytes as de:ad:be:ef (infiniband.immdt, infiniband.ieth); quoted
//     strings ("bad") for the string fields; seconds for frame.time_epoch
//     (frame.time_epoch >= 1764400000.5). The 64-bit fields the JSON
//     writes as strings (infiniband.reth.va, infiniband.atomiceth.swapdt
//     ...) compare as numbers.
//   - A field on the right of a comparison: udp.srcport == udp.dstport.
//
// # Fields that occur more than once
//
// As in tshark, a name can stand for several values in one frame: a
// second VLAN tag of the same kind (the JSON's vlan.inner.id and
// ieee8021ad.inner.id are a second vlan.id and ieee8021ad.id, as tshark
// shows them), ip.addr (ip.src and ip.dst), ipv6.addr, eth.addr,
// udp.port, tcp.port, and infiniband.reth.va and infiniband.reth.r_key,
// which tshark 4.0 also shows for an AtomicETH. == and the other
// relations hold when one value does; != holds when every value differs
// (Wireshark 3.6 and later: a != b is !(a == b)), and like every
// comparison it is false when the frame lacks the field.
//
// # Not supported
//
// Slices (eth.src[0:3]), functions (len(), upper()), arithmetic,
// matches (regular expressions), value names ("RC SEND Only" for an
// opcode) and fields rocedump does not decode: Compile refuses them
// with an error naming the column. The names Wireshark lacks
// (infiniband.bth.fecn, infiniband.payload.len,
// infiniband.invariant.crc.status, _error ...) work here and not in
// tshark.
//
// # Errors
//
// Compile returns a *SyntaxError with the byte offset of the problem in
// the expression: Error gives "roce: display filter: column N: ...",
// counting from 1 as tshark's caret does, and Caret the expression with
// a caret under the column.
//
// # Adding fields
//
// A field added to dump's table (one row in dump/fieldtable.go) is a
// filter field at once: nothing here names fields.
package dfilter
