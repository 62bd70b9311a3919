package emit

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The keys of Go maps, written and read: a bool, integer or text key by
// its scalar's runtime functions, a key of any other comparable type as a
// value of its type is (a byte array as a byte string, a struct as its
// own encoding). The pairs are put into order by the runtime's recorders
// and MapSorter (appendMap); a key that comes twice keeps its last value.

// appendKey appends the key k of a pair of a map of type t. A key whose
// encoder takes its address (a struct's AppendCBOR, fxamacker) is first
// copied into a local declared before the loop, as a value is; a byte
// array is only sliced, which the append does not keep.
func (e *emitter) appendKey(t model.Map, k jen.Code, depth int) []jen.Code {
	if _, bytes := t.Key.(model.ByteArray); bytes || !addressed(t.Key) {
		return e.appendValue(t.Key, k, depth+1)
	}
	key := jen.Id(local("ke", depth))
	e.hoist = append(e.hoist, jen.Var().Add(key).Add(typeCode(t.Key.GoType())))
	return append([]jen.Code{jen.Add(key).Op("=").Add(k)}, e.appendValue(t.Key, key, depth+1)...)
}

// decodeKey is the code that reads the key of a pair of a map of type t
// at the start of the loop over the pairs, the key as the map is indexed
// with, and the key as AtKey shows it in an error's path. A bool, integer
// or text key is read by the runtime's Read method of its scalar; a key
// of any other type is decoded as a value of its type is, into a local
// that is zero for each pair (declared before the loop when its decoder
// takes its address), in a block of its own, so that its names do not
// meet the value's.
func (e *emitter) decodeKey(t model.Map, wrap pathFunc, depth int) (code []jen.Code, key, forPath jen.Code) {
	switch t.Key.(type) {
	case model.Bool, model.Int, model.String:
		k := jen.Id(local("k", depth))
		ks, _ := model.ScalarOf(t.Key)
		// The key as AtKey shows it: one of the types it formats.
		forPath = convert(types.Typ[ks.Kind], types.Int64, k)
		if it, ok := t.Key.(model.Int); ok && !it.Signed {
			forPath = convert(types.Typ[ks.Kind], types.Uint64, k)
		} else if !ok {
			forPath = k
		}
		code = []jen.Code{jen.List(k, jen.Id("err")).Op(":=").Id("d").Dot(ks.Read).Call(), ifErr(wrap)}
		if _, text := t.Key.(model.String); text {
			// Short ASCII text first (TryText: a view under ZeroCopy, else
			// a copy, as ReadString makes them), without ReadString's call.
			s := jen.Id(local("s", depth))
			code = []jen.Code{
				jen.List(k, jen.Id("err")).Op(":=").List(jen.Lit(""), jen.Error().Call(jen.Nil())),
				jen.If(jen.List(s, jen.Id("ok")).Op(":=").Id("d").Dot("TryText").Call(), jen.Id("ok")).Block(
					jen.Add(k).Op("=").Add(s),
				).Else().Block(
					jen.List(k, jen.Id("err")).Op("=").Id("d").Dot(ks.Read).Call(),
				),
				ifErr(wrap),
			}
		}
		return code, convertTo(t.Key.GoType(), ks.Kind, k), forPath
	}
	k := jen.Id(local("ke", depth))
	if addressed(t.Key) {
		e.hoist = append(e.hoist, jen.Var().Add(k).Add(typeCode(t.Key.GoType())))
		code = []jen.Code{jen.Add(k).Op("=").Add(zeroValue(t.KeyZero, t.Key.GoType()))}
	} else {
		code = []jen.Code{jen.Var().Add(k).Add(typeCode(t.Key.GoType()))}
	}
	keyWrap := wrap
	switch t.Key.(type) {
	case model.ByteArray, model.Float:
	default:
		keyWrap = wrap.then(func(err jen.Code) jen.Code { return rt("InKey").Call(err) })
	}
	if _, param := t.Key.(model.TypeParam); param {
		code = append(code, checkErr(jen.Qual(model.DynamicPath, "DecodeKey").Call(jen.Id("d"), jen.Op("&").Add(k)), keyWrap))
	} else {
		code = append(code, jen.Block(e.withLocalErr(func() []jen.Code { return e.decodeValue(t.Key, k, keyWrap, depth+1) })...))
	}
	switch kt := t.Key.(type) {
	case model.ByteArray:
		forPath = jen.Add(k).Index(jen.Empty(), jen.Empty())
		if kt.NamedElem {
			forPath = jen.Nil()
		}
	case model.Float:
		forPath = jen.Float64().Call(k)
	default:
		forPath = jen.Nil() // shown as [?]
	}
	return code, k, forPath
}
