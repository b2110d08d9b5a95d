module github.com/roce-go/roce/rocelayers/internal/samegoogle

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/google/gopacket v1.1.19
	github.com/gopacket/gopacket v1.7.7
	github.com/roce-go/roce v0.0.0-00010101000000-000000000000
	github.com/roce-go/roce/rocelayers v0.0.0-00010101000000-000000000000
)

require (
	golang.org/x/net v0.55.0 // indirect
	golang.org/x/sys v0.45.0 // indirect
)

// The tests of this module decode every capture with both gopacket
// modules and compare: rocelayers itself does not depend on
// github.com/google/gopacket, so they live here, beside it.
replace (
	github.com/roce-go/roce => ../../..
	github.com/roce-go/roce/rocelayers => ../..
)
