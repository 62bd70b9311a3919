// Package handwritten is what a careful programmer writes by hand against
// the runtime package for the two smallest workload shapes: the practical
// limit that generated code is measured against. It writes the same bytes
// as the generated code and reads the same array format (definite or
// indefinite length), with the same checks, but not the legacy map
// format, and its errors carry no Go path.
package handwritten

import (
	"github.com/cborgen/cborgen/bench/workload"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// AppendRequest appends the encoding of v to dst.
func AppendRequest(dst []byte, v *workload.Request) []byte {
	dst = append(dst, 0x88) // array of 8
	dst = genrt.AppendUint(dst, v.ID)
	dst = genrt.AppendString(dst, v.Service)
	dst = genrt.AppendString(dst, v.Method)
	dst = genrt.AppendInt(dst, v.Deadline)
	dst = genrt.AppendUint(dst, uint64(v.Priority))
	dst = genrt.AppendBool(dst, v.Idempotent)
	dst = append(dst, 0x50) // byte string of 16
	dst = append(dst, v.TraceID[:]...)
	if v.Payload == nil {
		return genrt.AppendNull(dst)
	}
	return genrt.AppendBytes(dst, v.Payload)
}

// DecodeRequest decodes data, which must hold exactly one Request, into v.
func DecodeRequest(data []byte, v *workload.Request) error {
	d := runtime.NewBytesDecoder(data)
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	if n >= 0 && n != 8 {
		return d.Errorf(runtime.ErrLength, "expected array of 8 elements, found %d", n)
	}
	if v.ID, err = d.ReadUint64(); err != nil {
		return err
	}
	if v.Service, err = d.ReadString(); err != nil {
		return err
	}
	if v.Method, err = d.ReadString(); err != nil {
		return err
	}
	if v.Deadline, err = d.ReadInt64(); err != nil {
		return err
	}
	if v.Priority, err = d.ReadUint8(); err != nil {
		return err
	}
	if v.Idempotent, err = d.ReadBool(); err != nil {
		return err
	}
	if err = d.ReadByteArray(v.TraceID[:]); err != nil {
		return err
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Payload = nil
	} else if v.Payload, err = d.ReadBytes(v.Payload); err != nil {
		return err
	}
	return finish(d, n, data)
}

// AppendProfile appends the encoding of v to dst.
func AppendProfile(dst []byte, v *workload.Profile) []byte {
	dst = append(dst, 0x8b) // array of 11
	dst = genrt.AppendUint(dst, v.UserID)
	dst = appendOptString(dst, v.Name)
	dst = appendOptString(dst, v.Email)
	if v.Age == nil {
		dst = genrt.AppendNull(dst)
	} else {
		dst = genrt.AppendUint(dst, uint64(*v.Age))
	}
	if v.Score == nil {
		dst = genrt.AppendNull(dst)
	} else {
		dst = genrt.AppendFloat64(dst, *v.Score)
	}
	dst = appendOptBool(dst, v.Verified)
	if v.Balance == nil {
		dst = genrt.AppendNull(dst)
	} else {
		dst = genrt.AppendInt(dst, *v.Balance)
	}
	dst = appendOptString(dst, v.Locale)
	if v.Ratio == nil {
		dst = genrt.AppendNull(dst)
	} else {
		dst = genrt.AppendFloat32(dst, *v.Ratio)
	}
	if v.Level == nil {
		dst = genrt.AppendNull(dst)
	} else {
		dst = genrt.AppendInt(dst, int64(*v.Level))
	}
	return appendOptBool(dst, v.Deleted)
}

func appendOptString(dst []byte, s *string) []byte {
	if s == nil {
		return genrt.AppendNull(dst)
	}
	return genrt.AppendString(dst, *s)
}

func appendOptBool(dst []byte, b *bool) []byte {
	if b == nil {
		return genrt.AppendNull(dst)
	}
	return genrt.AppendBool(dst, *b)
}

// DecodeProfile decodes data, which must hold exactly one Profile, into v.
// A pointer field that is already set is decoded into; a nil one gets a
// new target.
func DecodeProfile(data []byte, v *workload.Profile) error {
	d := runtime.NewBytesDecoder(data)
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	if n >= 0 && n != 11 {
		return d.Errorf(runtime.ErrLength, "expected array of 11 elements, found %d", n)
	}
	if v.UserID, err = d.ReadUint64(); err != nil {
		return err
	}
	if err = readOptString(d, &v.Name); err != nil {
		return err
	}
	if err = readOptString(d, &v.Email); err != nil {
		return err
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Age = nil
	} else {
		if v.Age == nil {
			v.Age = new(uint32)
		}
		if *v.Age, err = d.ReadUint32(); err != nil {
			return err
		}
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Score = nil
	} else {
		if v.Score == nil {
			v.Score = new(float64)
		}
		if *v.Score, err = d.ReadFloat64(); err != nil {
			return err
		}
	}
	if err = readOptBool(d, &v.Verified); err != nil {
		return err
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Balance = nil
	} else {
		if v.Balance == nil {
			v.Balance = new(int64)
		}
		if *v.Balance, err = d.ReadInt64(); err != nil {
			return err
		}
	}
	if err = readOptString(d, &v.Locale); err != nil {
		return err
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Ratio = nil
	} else {
		if v.Ratio == nil {
			v.Ratio = new(float32)
		}
		if *v.Ratio, err = d.ReadFloat32(); err != nil {
			return err
		}
	}
	if null, err := d.ReadNull(); err != nil {
		return err
	} else if null {
		v.Level = nil
	} else {
		if v.Level == nil {
			v.Level = new(int32)
		}
		if *v.Level, err = d.ReadInt32(); err != nil {
			return err
		}
	}
	if err = readOptBool(d, &v.Deleted); err != nil {
		return err
	}
	return finish(d, n, data)
}

func readOptString(d *runtime.Decoder, p **string) error {
	null, err := d.ReadNull()
	if err != nil || null {
		*p = nil
		return err
	}
	s, err := d.ReadString()
	if err != nil {
		return err
	}
	if *p == nil {
		*p = &s
	} else {
		**p = s
	}
	return nil
}

func readOptBool(d *runtime.Decoder, p **bool) error {
	null, err := d.ReadNull()
	if err != nil || null {
		*p = nil
		return err
	}
	b, err := d.ReadBool()
	if err != nil {
		return err
	}
	if *p == nil {
		*p = new(bool)
	}
	**p = b
	return nil
}

// finish closes the top-level array (reading the break of an indefinite
// one) and rejects bytes after it.
func finish(d *runtime.Decoder, n int, data []byte) error {
	if n < 0 {
		brk, err := d.ReadBreak()
		if err != nil {
			return err
		}
		if !brk {
			return d.Errorf(runtime.ErrLength, "expected the end of an indefinite-length array")
		}
	}
	d.Leave()
	if d.Offset() != int64(len(data)) {
		n := int64(len(data)) - d.Offset()
		if n == 1 {
			return d.Errorf(runtime.ErrTrailing, "1 byte after the item")
		}
		return d.Errorf(runtime.ErrTrailing, "%d bytes after the item", n)
	}
	return nil
}
