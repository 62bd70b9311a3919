package store

// Samples are the example values: a composite holding every kind, nested
// through dictionaries and composites, as a store's record of an account.
func Samples() map[string]Value {
	owner := &Composite{
		Kind: "Account.Owner",
		Fields: []Field{
			{Name: "name", Value: StringValue("alice")},
			{Name: "verified", Value: BoolValue(true)},
		},
	}
	return map[string]Value{
		"account": &Composite{
			Kind: "Account",
			Fields: []Field{
				{Name: "balance", Value: UInt64Value(1_000_000_007)},
				{Name: "delta", Value: Int64Value(-42)},
				{Name: "flags", Value: UInt8Value(7)},
				{Name: "owner", Value: owner},
				{Name: "limits", Value: Dict{"daily": UInt64Value(500), "nested": Dict{"x": BoolValue(false)}}},
				{Name: "note", Value: nil},
			},
			Metadata: Dict{"version": UInt8Value(2)},
		},
		"dictionary": Dict{"a": StringValue("x"), "b": Int64Value(-1), "c": Dict{}},
		"text":       StringValue("plain text is untagged"),
	}
}
