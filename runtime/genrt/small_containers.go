package genrt

// Slices and maps of one scalar or text element under -small: the loops
// that the default code writes at each such field, here once for each
// element type of a program (generic, one instance shared by every field
// and type with that element), each element read or written by the call
// that -small code makes for its kind. Each does what the generated loop
// it replaces does, with the same checks and errors; the caller adds the
// field's path.
//
// The element's call is chosen by one type switch per slice or map, each
// case a loop of direct calls: a switch per element cost Tables' slices
// 15-25% of their time, and a call through a function value would let
// the Decoder or the buffer escape (UnmarshalCBOR's Decoder and
// MarshalCBOR's buffer, in their frames, would move to the heap).

// SmallElem is the element types of the helpers: the Go types whose
// values -small code reads and writes by one runtime call.
type SmallElem interface {
	string | bool | int | int8 | int16 | int32 | int64 | uint | uint16 | uint32 | uint64
}

// ReadSliceOf reads an array into s, or null as nil, reusing s's
// elements as the generated loop does: each element is read over the
// value it held. On an error it returns what it has read so far and the
// error, inside element i as AtIndex names it.
func ReadSliceOf[E SmallElem](d *Decoder, s []E) ([]E, error) {
	null, err := d.ReadNil()
	if err != nil {
		return s, err
	}
	if null {
		return nil, nil
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return s, err
	}
	s = ReuseSlice(d, s, n)
	switch p := any(&s).(type) {
	case *[]string:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, "")
			}
			if (*p)[i], err = d.ReadStringOr((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]int64:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadInt64Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]uint64:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadUint64Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]int:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadIntOr((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]uint:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadUintOr((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]bool:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, false)
			}
			if (*p)[i], err = d.ReadBoolOr((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]int32:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadInt32Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]uint32:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadUint32Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]int16:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadInt16Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]uint16:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadUint16Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	case *[]int8:
		for i := 0; i != n; i++ {
			if n < 0 {
				if more, err := d.NextElem(n, i); err != nil {
					return s, err
				} else if !more {
					break
				}
			}
			if len(*p) < cap(*p) {
				*p = (*p)[:len(*p)+1]
			} else {
				*p = append(*p, 0)
			}
			if (*p)[i], err = d.ReadInt8Or((*p)[i]); err != nil {
				return s, AtIndex(err, i)
			}
		}
	}
	d.Leave()
	return s, nil
}

// AppendSliceOf appends s as an array, nil as null.
func AppendSliceOf[E SmallElem](dst []byte, s []E) []byte {
	if s == nil {
		return AppendNull(dst)
	}
	dst = AppendArrayHeadCall(dst, len(s))
	switch p := any(&s).(type) {
	case *[]string:
		for _, x := range *p {
			dst = AppendStringCall(dst, x)
		}
	case *[]int64:
		for _, x := range *p {
			dst = AppendIntCall(dst, x)
		}
	case *[]uint64:
		for _, x := range *p {
			dst = AppendUintCall(dst, x)
		}
	case *[]int:
		for _, x := range *p {
			dst = AppendIntCall(dst, int64(x))
		}
	case *[]uint:
		for _, x := range *p {
			dst = AppendUintCall(dst, uint64(x))
		}
	case *[]bool:
		for _, x := range *p {
			dst = AppendBool(dst, x)
		}
	case *[]int32:
		for _, x := range *p {
			dst = AppendIntCall(dst, int64(x))
		}
	case *[]uint32:
		for _, x := range *p {
			dst = AppendUintCall(dst, uint64(x))
		}
	case *[]int16:
		for _, x := range *p {
			dst = AppendIntCall(dst, int64(x))
		}
	case *[]uint16:
		for _, x := range *p {
			dst = AppendUintCall(dst, uint64(x))
		}
	case *[]int8:
		for _, x := range *p {
			dst = AppendIntCall(dst, int64(x))
		}
	}
	return dst
}

// AppendStringMapOf appends m, a map with text keys, nil as null, its
// pairs in the order of the encoding options (StringPairs.Order).
func AppendStringMapOf[V SmallElem](dst []byte, m map[string]V) []byte {
	if m == nil {
		return AppendNull(dst)
	}
	dst = AppendMapHeadCall(dst, len(m))
	ps := GetStringPairs()
	switch p := any(&m).(type) {
	case *map[string]string:
		vs := PairValues[string](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendStringCall(dst, vs[j])
		}
		ReleasePairs(ps, vs)
	case *map[string]int64:
		vs := PairValues[int64](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendIntCall(dst, vs[j])
		}
		ReleasePairs(ps, vs)
	case *map[string]uint64:
		vs := PairValues[uint64](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendUintCall(dst, vs[j])
		}
		ReleasePairs(ps, vs)
	case *map[string]int:
		vs := PairValues[int](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendIntCall(dst, int64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]uint:
		vs := PairValues[uint](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendUintCall(dst, uint64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]bool:
		vs := PairValues[bool](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendBool(dst, vs[j])
		}
		ReleasePairs(ps, vs)
	case *map[string]int32:
		vs := PairValues[int32](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendIntCall(dst, int64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]uint32:
		vs := PairValues[uint32](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendUintCall(dst, uint64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]int16:
		vs := PairValues[int16](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendIntCall(dst, int64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]uint16:
		vs := PairValues[uint16](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendUintCall(dst, uint64(vs[j]))
		}
		ReleasePairs(ps, vs)
	case *map[string]int8:
		vs := PairValues[int8](ps)
		for k, x := range *p {
			ps.AddKey(k)
			vs = append(vs, x)
		}
		for _, j := range ps.Order() {
			dst = AppendStringCall(dst, ps.KeyAt(j))
			dst = AppendIntCall(dst, int64(vs[j]))
		}
		ReleasePairs(ps, vs)
	}
	return dst
}
