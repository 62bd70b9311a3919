package diag

// CDDL writes the types of s as RFC 8610 CDDL.
func CDDL(s *Schema, source string) []byte { return nil }
