package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/dump"
)

// tshark's -T fields: -T fields -e FIELD... -E NAME=VALUE prints one
// line per frame of the fields named, as tshark -T fields does. -T text
// and -T json are the text lines (the default) and -json. Without -T
// fields, -e is tcpdump's (the link-level header on each text line).

// fieldsFlags are -T, -E and the names -e gives with -T fields.
type fieldsFlags struct {
	format  *string
	set     dump.FieldsFormat
	options int // -E flags given
	e       *eFlag
}

// eFlag is -e: a flag of its own with -T fields (tfields set), where
// each takes a field's name, else tcpdump's -e.
type eFlag struct {
	tfields bool
	link    bool
	names   []string
}

func (e *eFlag) String() string {
	if e == nil || !e.link {
		return "false"
	}
	return "true"
}

func (e *eFlag) Set(s string) error {
	if e.tfields {
		e.names = append(e.names, s)
		return nil
	}
	v, err := strconv.ParseBool(s)
	e.link = v
	return err
}

// IsBoolFlag says -e takes no value, but with -T fields.
func (e *eFlag) IsBoolFlag() bool { return !e.tfields }

// addFieldsFlags registers -T, -E and -e; tfields says -T fields is on
// the command line (asksFields), which makes -e take a field's name.
func addFieldsFlags(cmd *cli.Command, tfields bool) *fieldsFlags {
	f := &fieldsFlags{e: &eFlag{tfields: tfields}}
	f.format = cmd.String("T", "", "print the frames as tshark -T does: `format` fields (with -e FIELD... and -E), text (the default lines) or json (as -json)")
	cmd.Flags.Var(f.e, "e", "text: the link-level header on each line: MACs, VLAN tags, Ethertypes, length (tcpdump -e); "+
		"with -T fields, -e FIELD prints that field (as the JSON keys, or a Wireshark name such as vlan.id or ip.addr), repeated: one column each")
	cmd.Flags.Func("E", "-T fields: tshark's -E `option`: header=y|n, separator=/t|/s|C, aggregator=,|/s|C, quote=d|s|n, occurrence=f|l|a; repeated", func(s string) error {
		f.options++
		return f.set.ParseFieldsOption(s)
	})
	return f
}

// asksFields reports whether args hold -T fields, before they are
// parsed: -e takes a value then.
func asksFields(args []string) bool {
	for i, a := range args {
		switch a {
		case "--":
			return false
		case "-T", "--T":
			if i+1 < len(args) && args[i+1] == "fields" {
				return true
			}
		case "-Tfields", "-T=fields", "--T=fields":
			return true
		}
	}
	return false
}

// apply sets c's output from -T, -e and -E; it returns what is wrong
// with them, or "".
func (f *fieldsFlags) apply(c *config, pos []string) string {
	switch *f.format {
	case "", "text":
	case "json":
		c.opt.JSON = true
	case "fields":
		if len(f.e.names) == 0 {
			return "-T fields needs the fields to print: -e FIELD (repeated)"
		}
		cols, err := dump.CompileFields(f.e.names)
		if err != nil {
			return "-e: " + cli.Message(err)
		}
		f.set.Columns = cols
		c.opt.Fields = &f.set
		return ""
	default:
		return fmt.Sprintf("-T %s: rocedump prints fields, text or json", strconv.Quote(*f.format))
	}
	if f.options > 0 {
		return "-E is a setting of -T fields lines: give -T fields -e FIELD"
	}
	if f.e.link {
		for _, p := range pos {
			if _, err := dump.CompileFields([]string{p}); err == nil {
				return fmt.Sprintf("-e %s: a field is printed with -T fields -e FIELD (without -T fields, -e is tcpdump's link-level header)", p)
			}
		}
	}
	return ""
}

// writeFieldsHeader writes the header line of -T fields -E header=y,
// once, before the frames of every capture.
func writeFieldsHeader(w io.Writer, c config) {
	if f := c.opt.Fields; f != nil && f.Header {
		w.Write(f.AppendHeader(nil))
	}
}
