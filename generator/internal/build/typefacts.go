package build

import (
	"fmt"
	"go/types"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// What the builder asks go/types about a named type before it selects or
// translates it: the methods it has (marshalers of its own, generated
// ones, a lock), and its kind.

// notGenerated reports whether the default selection leaves the exported
// struct type tn out, and why. A type with both MarshalCBOR and
// UnmarshalCBOR of its own is left out silently: it is a hand-written
// marshaler, and leaving those alone is what the default is for.
func notGenerated(tn *types.TypeName) (skip bool, why string) {
	if have := existingMethods(tn); len(have) > 0 {
		named := tn.Type().(*types.Named)
		if hasSignature(named, "MarshalCBOR", false) && hasSignature(named, "UnmarshalCBOR", true) {
			return true, ""
		}
		return true, fmt.Sprintf("%s is not generated: it has a method %s of its own, which the generated code would declare again", tn.Name(), have[0])
	}
	if why := binaryEncoded(tn); why != "" {
		return true, fmt.Sprintf("%s is not generated: %s", tn.Name(), why)
	}
	return false, ""
}

// binaryEncoded says why fxamacker/cbor encodes tn through
// encoding.BinaryMarshaler (or decodes it through BinaryUnmarshaler)
// rather than as a struct, or "" when it does not.
func binaryEncoded(tn *types.TypeName) string {
	named := tn.Type().(*types.Named)
	for _, m := range []struct {
		name string
		in   bool
	}{{"MarshalBinary", false}, {"UnmarshalBinary", true}} {
		if !hasSignature(named, m.name, m.in) {
			continue
		}
		sel := types.NewMethodSet(types.NewPointer(named)).Lookup(nil, m.name)
		how := "fxamacker/cbor writes it as a byte string of MarshalBinary's output"
		if m.in {
			how = "fxamacker/cbor reads it from a byte string with UnmarshalBinary"
		}
		if len(sel.Index()) > 1 {
			return fmt.Sprintf("it has a method %s promoted from an embedded field, so %s", m.name, how)
		}
		return fmt.Sprintf("it has a method %s, so %s", m.name, how)
	}
	return ""
}

// isStructType reports whether tn is a defined struct type.
func isStructType(tn *types.TypeName) bool {
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return false
	}
	_, ok = named.Underlying().(*types.Struct)
	return ok
}

// existingMethods lists the methods of tn (outside the output file, which
// the loader leaves out) that generation would declare again.
func existingMethods(tn *types.TypeName) []string {
	// Only the type's own methods count: those promoted from an embedded
	// type are shadowed by the generated ones, as fxamacker/cbor's
	// promotion rules ignore the embedded type's methods too.
	named := tn.Type().(*types.Named)
	var have []string
	for _, name := range model.GeneratedNames {
		for i := 0; i < named.NumMethods(); i++ {
			if named.Method(i).Name() == name {
				have = append(have, name)
			}
		}
	}
	return have
}

// containsLock reports whether a value of type t holds a lock that copying
// it would copy, as go vet's copylocks sees it: a type whose pointer has
// Lock and Unlock methods (sync.Mutex, sync.RWMutex, and the noCopy guard
// of sync.WaitGroup, sync.Once and the sync/atomic types), held directly
// or in a struct field or array element, not behind a pointer.
func containsLock(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if _, ok := types.Unalias(t).(*types.Named); ok {
		if _, isIface := t.Underlying().(*types.Interface); !isIface && hasNullaryMethod(t, "Lock") && hasNullaryMethod(t, "Unlock") {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if containsLock(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return containsLock(u.Elem(), seen)
	}
	return false
}

// hasNullaryMethod reports whether *t has a method name without
// parameters or results, its own or promoted (looked up by name: a whole
// method set, time.Time's say, costs more for every field that holds one).
func hasNullaryMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 0
}

// isValueType reports whether tn is a defined type that is not a struct
// but can have generated methods: a named basic, slice, array or map type
// (type UInt64Value uint64, type Dict map[string]Value). Such a type is
// generated when named with -type or declared with //cborgen:tag.
func isValueType(tn *types.TypeName) bool {
	named, ok := tn.Type().(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		return false
	}
	switch named.Underlying().(type) {
	case *types.Basic, *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}

// hasSignature reports whether T or *T has the method name of
// fxamacker's (and encoding's) marshaler interfaces: with in, one []byte
// parameter and an error result (UnmarshalCBOR, UnmarshalBinary); without,
// no parameter and ([]byte, error) (MarshalCBOR, MarshalBinary).
func hasSignature(t types.Type, name string, in bool) bool {
	sel := types.NewMethodSet(types.NewPointer(t)).Lookup(nil, name)
	if sel == nil {
		return false
	}
	sig := sel.Type().(*types.Signature)
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	errType := types.Universe.Lookup("error").Type()
	if in {
		return sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), byteSlice) &&
			sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), errType)
	}
	return sig.Params().Len() == 0 && sig.Results().Len() == 2 &&
		types.Identical(sig.Results().At(0).Type(), byteSlice) && types.Identical(sig.Results().At(1).Type(), errType)
}

// hasGeneratedMethods reports whether *T has the methods enclosing
// generated types call: AppendCBOR(dst []byte) ([]byte, error) and
// DecodeCBOR(*runtime.Decoder) error.
func hasGeneratedMethods(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	errType := types.Universe.Lookup("error").Type()

	app := ms.Lookup(nil, "AppendCBOR")
	if app == nil {
		return false
	}
	sig := app.Type().(*types.Signature)
	if sig.Params().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), byteSlice) ||
		sig.Results().Len() != 2 || !types.Identical(sig.Results().At(0).Type(), byteSlice) ||
		!types.Identical(sig.Results().At(1).Type(), errType) {
		return false
	}

	dec := ms.Lookup(nil, "DecodeCBOR")
	if dec == nil {
		return false
	}
	sig = dec.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), errType) {
		return false
	}
	ptr, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	dn, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && dn.Obj().Name() == "Decoder" && dn.Obj().Pkg() != nil && model.IsRuntimeType(dn.Obj().Pkg().Path())
}

// isPlainByte reports whether t is byte (uint8) itself, not a named type.
func isPlainByte(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// zeroFormOf is how the zero value of a value of type t is written.
func zeroFormOf(t types.Type) model.ZeroForm {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return model.ZeroNew
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return model.ZeroFalse
		case u.Info()&types.IsString != 0:
			return model.ZeroText
		case u.Info()&types.IsNumeric != 0:
			return model.ZeroNumber
		}
	case *types.Struct, *types.Array:
		return model.ZeroComposite
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Chan, *types.Signature:
		return model.ZeroNil
	}
	return model.ZeroNew
}

// isNamedByte reports whether t is a named type whose underlying type is
// byte: fxamacker/cbor writes slices of it as byte strings too.
func isNamedByte(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	b, ok := n.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}
