// Package nested is a golden case: structs inside structs, through
// values, pointers, slices, arrays and maps, and a struct that refers to
// itself.
package nested

import "github.com/cborgen/cborgen/testdata/golden/basic"

// Item is a line of an Order.
type Item struct {
	SKU   string
	Qty   uint32
	Price float64
}

// Order holds Items in every way a struct can hold another.
type Order struct {
	ID       uint64
	First    Item
	Last     *Item
	Items    []Item
	Pointers []*Item
	Pair     [2]Item
	ByName   map[string]Item
	ByID     map[int]*Item
	Parent   *Order
	Children []Order
	Kind     basic.Kind
	Scalars  basic.Scalars
	PNamed   *basic.Named
}
