package parquetrows

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"

	"github.com/roce-go/roce/dump"
)

// TestSchemaElements checks the footer's schema elements, which build
// makes by hand, against those parquet-go's own Writer writes for a
// parquet-go schema of the same columns (the nodes of the package doc's
// table, in an orderedGroup): their Thrift encodings, what the footer
// holds, must be equal byte for byte, and the columns in the order
// parquet-go gives their leaves.
func TestSchemaElements(t *testing.T) {
	once.Do(build)
	var g orderedGroup
	for i := range columns {
		g = append(g, groupField{Node: parquet.Optional(oracleNode(&columns[i])), name: columns[i].name})
	}
	schema := parquet.NewSchema("rocedump", g)
	for i := range columns {
		leaf, ok := schema.Lookup(columns[i].name)
		if !ok || leaf.ColumnIndex != i {
			t.Errorf("column %s is not parquet-go's leaf %d (%v)", columns[i].name, i, ok)
		}
	}
	var b bytes.Buffer
	w := parquet.NewWriter(&b, schema)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := f.Metadata().Schema
	if len(want) != len(elements) {
		t.Fatalf("%d schema elements, parquet-go writes %d", len(elements), len(want))
	}
	kinds := map[colType]bool{}
	for i := range want {
		got, err1 := thrift.Marshal(new(thrift.CompactProtocol), &elements[i])
		exp, err2 := thrift.Marshal(new(thrift.CompactProtocol), &want[i])
		if err1 != nil || err2 != nil || !bytes.Equal(got, exp) {
			t.Errorf("element %d (%s): %x (%v), parquet-go writes %x (%v)\n%+v\n%+v", i, want[i].Name, got, err1, exp, err2, elements[i], want[i])
		}
		if i > 0 {
			kinds[columns[i-1].typ] = true
		}
	}
	if len(kinds) != int(typeDecimal)+1 {
		t.Errorf("the columns have %d of the %d types: the check covers the others no more", len(kinds), typeDecimal+1)
	}
}

// oracleNode returns the parquet-go node of column c, from the package
// doc's table.
func oracleNode(c *column) parquet.Node {
	switch {
	case c.field == nil:
		return parquet.String()
	case c.name == TimeDecimalColumn:
		return parquet.Decimal(9, 28, parquet.FixedLenByteArrayType(12))
	}
	f := c.field
	switch f.Type {
	case dump.FieldUint:
		switch {
		case f.Bits <= 8:
			return parquet.Uint(8)
		case f.Bits <= 16:
			return parquet.Uint(16)
		case f.Bits <= 32:
			return parquet.Uint(32)
		}
		return parquet.Uint(64)
	case dump.FieldHex64, dump.FieldDec64:
		return parquet.Uint(64)
	case dump.FieldBool:
		return parquet.Leaf(parquet.BooleanType)
	case dump.FieldTime:
		return parquet.TimestampAdjusted(parquet.Nanosecond, false)
	}
	return parquet.String()
}

// TestSchemaElementsCanFail checks that the comparison sees a wrong
// element: a UINT_16 column written as UINT_8.
func TestSchemaElementsCanFail(t *testing.T) {
	e8, e16 := element("x", typeUint8), element("x", typeUint16)
	a, _ := thrift.Marshal(new(thrift.CompactProtocol), &e8)
	b, _ := thrift.Marshal(new(thrift.CompactProtocol), &e16)
	if bytes.Equal(a, b) {
		t.Errorf("UINT_8 and UINT_16 elements encode the same: %x", a)
	}
}

// orderedGroup (the schema rocedump's files had when parquet-go's Writer
// laid them out) is a parquet.Group whose fields keep the order they are
// given in (parquet.Group, a map, sorts them by name): the columns of the
// files are in the order of the JSON keys. Only its Fields differ from a
// Group's; rows are written as parquet.Row values, never through Go
// reflection on the group.
type orderedGroup []groupField

// groupField is a named node of an orderedGroup.
type groupField struct {
	parquet.Node
	name string
}

func (f groupField) Name() string { return f.name }

// Value returns the field's value in a map of the group's fields, as a
// parquet.Group's fields do.
func (f groupField) Value(base reflect.Value) reflect.Value {
	if base.Kind() == reflect.Map {
		return base.MapIndex(reflect.ValueOf(f.name))
	}
	return reflect.Value{}
}

func (g orderedGroup) group() parquet.Group {
	m := make(parquet.Group, len(g))
	for _, f := range g {
		m[f.name] = f.Node
	}
	return m
}

func (g orderedGroup) ID() int                     { return 0 }
func (g orderedGroup) String() string              { return g.group().String() }
func (g orderedGroup) Type() parquet.Type          { return g.group().Type() }
func (g orderedGroup) Optional() bool              { return false }
func (g orderedGroup) Repeated() bool              { return false }
func (g orderedGroup) Required() bool              { return true }
func (g orderedGroup) Leaf() bool                  { return false }
func (g orderedGroup) Encoding() encoding.Encoding { return nil }
func (g orderedGroup) Compression() compress.Codec { return nil }
func (g orderedGroup) GoType() reflect.Type        { return g.group().GoType() }

// Fields returns the fields in the group's order.
func (g orderedGroup) Fields() []parquet.Field {
	fs := make([]parquet.Field, len(g))
	for i := range g {
		fs[i] = g[i]
	}
	return fs
}
