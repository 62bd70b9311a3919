package genrt

// Hooks for the external tests: the general walker that the fast paths
// must agree with.

// WalkSkip skips one item with the general walker, as Skip did before its
// fast path.
func WalkSkip(d *Decoder) error { return d.walk(0, d.depth) }

// ValidSlow is Valid by the general walker alone.
var ValidSlow = validSlow

// ValidFast reports whether Valid's fast validator accepts data by itself,
// without the general walker.
func ValidFast(data []byte) bool {
	v := validator{buf: data}
	return v.items(0, 1, 0) == len(data)
}

// CountItem runs the indefinite-length counter over the item at the start
// of data, with the options' MaxDepth: where the item ends, and whether
// the counter accepted it.
func CountItem(data []byte, o Options) (int, bool) {
	d := NewBytesDecoder(data)
	d.SetOptions(o)
	d.slowPath()
	return d.countItem(0, len(data), 0)
}

// KeyForm is keyForm.
var KeyForm = keyForm

// DepthOf is the number of containers open around the read position.
func DepthOf(d *Decoder) int { return d.depth }

// KeyWork is what the duplicate-key checks of d have done so far: items
// printed plus bytes hashed or compared. It grows with the input, not
// with the input times its depth.
func KeyWork(d *Decoder) int {
	if d.slow == nil {
		return 0
	}
	return d.slow.keys.work
}

// ValidWork is validSlow, with the options o, and the work of its
// duplicate-key checks.
func ValidWork(data []byte, o Options) (int, error) {
	resolved := o.withDefaults()
	d := Decoder{buf: data, opts: &resolved, shortText: shortTextLimit}
	err := d.walk(validFlags, 0)
	if err == nil && d.off != len(data) {
		err = d.errAt(d.Offset(), ErrTrailing, "trailing bytes")
	}
	return KeyWork(&d), err
}

// Checked runs the checker over the item at the start of data with the
// options o (tags: with the checks of tags 0-3, as Valid; without, as a
// strict decoder's check): where the item ends, or -1 when the checker
// leaves it to walk.
func Checked(data []byte, o Options, tags bool) int {
	resolved := o.withDefaults()
	d := Decoder{buf: data, opts: &resolved}
	if d.checked(tags) {
		return d.off
	}
	return -1
}

// WalkChecks walks the item at the start of data as the checker checks
// it: with Valid's flags (tags) or a strict decoder's check.
func WalkChecks(data []byte, o Options, tags bool) (int, error) {
	resolved := o.withDefaults()
	d := Decoder{buf: data, opts: &resolved, shortText: shortTextLimit}
	flags := checkUTF8 | checkDups
	if tags {
		flags = validFlags
	}
	err := d.walk(flags, 0)
	return d.off, err
}
