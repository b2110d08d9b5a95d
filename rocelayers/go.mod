module github.com/roce-go/roce/rocelayers

go 1.25.0

require (
	github.com/gopacket/gopacket v1.7.7
	github.com/roce-go/roce v0.0.0-00010101000000-000000000000
)

// Built from this repository: the module beside it. A release tags this
// module as rocelayers/vX.Y.Z and requires a tagged github.com/roce-go/roce
// instead; a replace in a dependency's go.mod does not apply to its users.
replace github.com/roce-go/roce => ../
