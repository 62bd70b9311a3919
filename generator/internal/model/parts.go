package model

// MaxParts is the most parts a large output is worked on in at once: the
// chunks the emitters render it in and the parts the finisher formats
// and type-checks it in, one goroutine each.
const MaxParts = 8
