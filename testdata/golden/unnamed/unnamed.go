// Package unnamed has fields whose types hold unnamed interfaces with
// methods: the generated code must write those types out (new, make, a
// local per map value) instead of naming them.
package unnamed

import "fmt"

type T struct {
	Ptr   *interface{ M() }
	Slice []interface{ M() }
	Map   map[string]interface{ M() }
	Deep  []*interface {
		fmt.Stringer
		Visit(n int, path ...string) (bool, error)
		Hook(func(chan<- int, <-chan bool) struct {
			A int `json:"a"`
			fmt.Stringer
		})
	}
}
