package cbgcompat

import _ "unsafe" // go:linkname

// procPin and procUnpin pin the calling goroutine to its P, as
// sync.Pool does for its private values: between them the goroutine is
// not preempted, so no other goroutine runs on that P.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
