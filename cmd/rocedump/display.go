package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/roce-go/roce/dfilter"
)

// displayFlags are -Y (a Wireshark display filter) and -v (every header
// on its own line after each text line).
type displayFlags struct {
	filter  *string
	verbose *bool
}

// addDisplayFlags registers -Y and -v; one registers a flag that takes
// one value.
func addDisplayFlags(fs *flag.FlagSet, one func(name, value, usage string) *string) displayFlags {
	return displayFlags{
		filter: one("Y", "", "only frames that pass this Wireshark display `filter`, as tshark -Y: "+
			"'infiniband.bth.destqp == 0x12 && ip.src == 10.0.0.1' (fields as the JSON keys)"),
		verbose: fs.Bool("v", false, "after each text line, every header on its own line with all its fields"),
	}
}

// apply compiles -Y into c.opt.Match and sets -v. A bad filter's error
// names the column and shows it under the expression, as tshark does.
func (d displayFlags) apply(c *config) error {
	c.opt.Verbose = *d.verbose
	if *d.filter == "" {
		return nil
	}
	f, err := dfilter.Compile(*d.filter)
	if err != nil {
		var se *dfilter.SyntaxError
		if errors.As(err, &se) {
			caret := strings.ReplaceAll(se.Caret(), "\n", "\n    ")
			return fmt.Errorf("-Y: column %d: %s\n    %s", se.Column(), se.Msg, caret)
		}
		return fmt.Errorf("-Y: %v", err)
	}
	c.opt.Match = f.Match
	return nil
}
