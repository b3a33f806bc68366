// Package scheme holds what individual URI schemes add to the generic
// syntax: the complete registry of scheme rules (Registry), and typed
// views of the classic schemes of the 1993 and 1994 URL drafts.
//
// Where a scheme's rules live: the rules that decide equivalence
// (default ports, an empty http path meaning "/", URN case rules) are
// in package uri (uri.DefaultRegistry), so that uri.Equal applies them;
// the URN syntax is in package urn (urn.Scheme); this package adds the
// validation and the views, and assembles them all in Registry, which
// is what the uri command uses.
//
//	r := scheme.Registry()
//	err := r.Check(uri.MustParse("urn:a:b")) // a URN with a 1-letter NID
package scheme
