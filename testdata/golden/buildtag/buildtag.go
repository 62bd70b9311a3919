//go:build go1.21

// Package buildtag declares its types in a file with a build constraint;
// the generated file must carry the same constraint, so that it builds
// exactly when the types exist.
package buildtag

// Sample exists only under the file's constraint.
type Sample struct {
	Name  string
	Count int
}
