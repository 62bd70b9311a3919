package runtime

// Hooks for the external tests: the general walker that the fast paths
// must agree with.

// WalkSkip skips one item with the general walker, as Skip did before its
// fast path.
func WalkSkip(d *Decoder) error { return d.walk(0, d.depth) }

// ValidSlow is Valid by the general walker alone.
var ValidSlow = validSlow
