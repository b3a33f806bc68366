package scheme

import (
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// URN is the View of a "urn:" URI: the urn.URN of RFC 8141 (package urn
// has its accessors), with warning codes of this package's vocabulary
// so that one loop reads the warnings of every scheme.
type URN struct {
	urn.URN
	u uri.URI
}

// Warnings implements View: WarnEncodedNUL for a "%00" (RFC 2141 2.4:
// never to be used), WarnReservedNID for a NID that may not be assigned
// (RFC 8141 5.1).
func (v URN) Warnings() []Warning {
	var w []Warning
	if v.HasNUL() {
		w = append(w, WarnEncodedNUL)
	}
	if !urn.ClassifyNID(v.NID()).Class.Valid() {
		w = append(w, WarnReservedNID)
	}
	return w
}

// URI implements View.
func (v URN) URI() uri.URI {
	if v.u.IsZero() {
		u, _ := uri.Parse(v.String()) // a URN is a URI
		return u
	}
	return v.u
}

// Redacted implements View: a URN has no password.
func (v URN) Redacted() string { return v.String() }

// MarshalJSON implements View: {"urn", "nid", "nss", "warnings"}.
func (v URN) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, nil), nil }

// appendJSON writes the URN and its NSS (twice its length) a block at a
// time with flush (issue 26).
func (v URN) appendJSON(b []byte, flush func([]byte) []byte) []byte {
	return newObjOn(b, flush).LongStr("urn", v.String()).Str("nid", v.NID()).LongStr("nss", v.NSS()).
		Strs("warnings", codes(v.Warnings())).Close().B
}
