package parquetrows

import (
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// orderedGroup is a parquet.Group whose fields keep the order they are
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
