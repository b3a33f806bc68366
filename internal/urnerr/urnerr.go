// Package urnerr holds the reasons of the URN syntax (RFC 8141 and the
// dialects package urn parses), which package urn exports. They live
// here, not in package uri, so that uri names no URN rule: its
// ParseError, the one parse error type of the module, asks this package
// whether a reason is a URN's (for the "urn: " of the message, and to
// name the offending byte).
package urnerr

import "errors"

// The reasons a string is not a URN, beyond those of the generic syntax
// (uri.ErrInvalidCharacter, uri.ErrInvalidPercent, ...), which URN
// errors share.
var (
	NotURN           = errors.New(`scheme is not "urn"`)
	InvalidNID       = errors.New("invalid namespace identifier")
	NIDTooShort      = errors.New("namespace identifier shorter than 2 characters")
	NIDTooLong       = errors.New("namespace identifier longer than 32 characters")
	NIDHyphen        = errors.New("namespace identifier ends with a hyphen")
	ReservedNID      = errors.New(`namespace identifier "urn" is reserved`)
	NUL              = errors.New("NUL octet")
	EmptyComponent   = errors.New("empty component")
	InvalidDirective = errors.New("invalid query directive")
)

// Is reports whether reason is one of the URN syntax's own.
func Is(reason error) bool {
	switch reason {
	case NotURN, InvalidNID, NIDTooShort, NIDTooLong, NIDHyphen, ReservedNID, NUL, EmptyComponent, InvalidDirective:
		return true
	}
	return false
}

// ShowsByte reports whether reason is a URN reason about the byte at the
// error's offset, which the message then names.
func ShowsByte(reason error) bool { return reason == InvalidNID || reason == InvalidDirective }
