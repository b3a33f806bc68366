package uri

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/quote"
	"github.com/urikit/urikit/internal/urnerr"
)

// Component names the part of a URI reference (or of a URN) an error is
// about. The zero value, ComponentNone, is no part: an error that belongs
// to no component (a stray "%" in a string given to Unescape, say).
type Component uint8

// The components of a URI reference (RFC 3986 section 3), and those of a
// URN (RFC 8141 section 2), which package urn parses: its errors are
// ParseErrors too, and one Component type names the part at fault in
// both. The URN components are names only: no function of this package
// takes one (an Editor's parts are Parts), and the URN's rules and
// reasons are package urn's.
const (
	ComponentNone Component = iota
	ComponentScheme
	ComponentAuthority
	ComponentUserinfo
	ComponentHost
	ComponentPort
	ComponentPath
	ComponentQuery
	ComponentFragment
	ComponentNID
	ComponentNSS
	ComponentR // the r-component of a URN
	ComponentQ // the q-component of a URN
	ComponentF // the f-component of a URN
)

var componentNames = [...]string{
	ComponentNone:      "",
	ComponentScheme:    "scheme",
	ComponentAuthority: "authority",
	ComponentUserinfo:  "userinfo",
	ComponentHost:      "host",
	ComponentPort:      "port",
	ComponentPath:      "path",
	ComponentQuery:     "query",
	ComponentFragment:  "fragment",
	ComponentNID:       "NID",
	ComponentNSS:       "NSS",
	ComponentR:         "r-component",
	ComponentQ:         "q-component",
	ComponentF:         "f-component",
}

// ComponentByName returns the component whose String is name ("host",
// "NSS", "r-component"), compared without case, and false for a name
// that is none (or "").
func ComponentByName(name string) (Component, bool) {
	for c, n := range componentNames {
		if n != "" && strings.EqualFold(n, name) {
			return Component(c), true
		}
	}
	return ComponentNone, false
}

// String returns the component's name, as in "path" or "NSS", and ""
// for None.
func (c Component) String() string {
	if int(c) < len(componentNames) {
		return componentNames[c]
	}
	return "component(" + strconv.Itoa(int(c)) + ")"
}

// Reasons a reference fails to parse. A *ParseError wraps one of them,
// so callers branch with errors.Is(err, uri.ErrInvalidPercent). They are
// the values of every parser of the module: package urn returns the
// same ones (urn.ErrInvalidPercent is uri.ErrInvalidPercent), and the
// scheme and iri packages wrap them. A failure inside an IP literal has
// a reason that says what is wrong ("invalid IP literal: more than one
// \"::\"") and matches ErrInvalidIPLiteral.
var (
	ErrInvalidCharacter = errors.New("invalid character")
	ErrInvalidPercent   = errors.New("malformed percent-encoding")
	ErrUnexpectedEnd    = errors.New("unexpected end of input")
	ErrTooLong          = errors.New("input longer than 2 GiB")
)

// Reasons of the generic syntax.
var (
	ErrInvalidScheme       = errors.New("invalid scheme")
	ErrInvalidPort         = errors.New("invalid port")
	ErrInvalidIPLiteral    = errors.New("invalid IP literal")
	ErrZoneID              = errors.New("IPv6 zone identifier not allowed")
	ErrColonInFirstSegment = errors.New("colon in the first segment of a relative path")
)

// ipLiteralError is a reason that says what is wrong with an IP literal,
// as net/netip does ("more than one \"::\""). It matches
// ErrInvalidIPLiteral under errors.Is.
type ipLiteralError string

func (e ipLiteralError) Error() string { return "invalid IP literal: " + string(e) }

// Is makes errors.Is(e, ErrInvalidIPLiteral) true.
func (e ipLiteralError) Is(target error) bool { return target == ErrInvalidIPLiteral }

// ParseError reports why and where a string is not a URI reference (or,
// from package urn, not a URN): the Input, the Offset of the first
// offending byte, the Component and the Reason (one of the Err values,
// for errors.Is).
//
// Offset is the length of the longest prefix of Input that is still the
// beginning of some valid string of the grammar: the offset of the first
// byte that no valid string could have there, or len(Input) when the
// input ends too early; -1 when no byte is to blame. So "http://u@s@h/"
// fails at 10 (the second "@"), and "#a#b" at 2. Error quotes a window
// of a long input around the offset; Message leaves the input out:
// `invalid character '{' at offset 9 in path`.
type ParseError struct {
	Input     string
	Offset    int
	Component Component
	Reason    error
}

// NewParseError returns the error for input at offset, as the parsers of
// the module make it (package urn uses it): an offset at or past the end
// of the input means that the input ended too early, whatever the reason
// was going to be, so the reason becomes ErrUnexpectedEnd.
func NewParseError(input string, offset int, c Component, reason error) *ParseError {
	if offset >= len(input) && reason != ErrTooLong {
		offset = len(input)
		reason = ErrUnexpectedEnd
	}
	return &ParseError{Input: input, Offset: offset, Component: c, Reason: reason}
}

// isURN reports whether the error comes from a URN parser: its
// component or its reason belongs to the URN syntax.
func (e *ParseError) isURN() bool {
	return e.Component >= ComponentNID || urnerr.Is(e.Reason)
}

// Error returns a message such as
// `uri: invalid character '{' at offset 9 in path of "http://a/{x}"`.
// URN errors start with "urn:". A long input is quoted as a window of at
// most 64 bytes around the offset, with "…" for what is left out, so
// that a megabyte of bad input does not make a megabyte of message.
func (e *ParseError) Error() string {
	prefix := "uri: "
	if e.isURN() {
		prefix = "urn: "
	}
	return prefix + e.Message() + " of " + window(e.Input, e.Offset)
}

// Message returns the error without the input: the reason, the
// offending byte for the reasons about a byte, the offset and the
// component, as in `invalid character '{' at offset 9 in path`.
func (e *ParseError) Message() string {
	msg := e.what()
	if e.Offset >= 0 {
		msg += " at offset " + strconv.Itoa(e.Offset)
	}
	if e.Component != ComponentNone {
		msg += " in " + e.Component.String()
	}
	return msg
}

// Detail is Message without the offset, for a caller that shows the
// offset on its own: `invalid character '{' in path`.
func (e *ParseError) Detail() string {
	msg := e.what()
	if e.Component != ComponentNone {
		msg += " in " + e.Component.String()
	}
	return msg
}

// what returns the reason and the offending byte.
func (e *ParseError) what() string {
	reason := "invalid"
	if e.Reason != nil {
		reason = e.Reason.Error()
	}
	if showsByte(e.Reason) && e.Offset >= 0 && e.Offset < len(e.Input) {
		reason += " " + quote.Byte(e.Input[e.Offset])
	}
	return reason
}

// Unwrap returns the reason.
func (e *ParseError) Unwrap() error { return e.Reason }

// showsByte reports whether the reason is about the byte at the offset,
// so that naming the byte helps. It is not for the reasons about a
// length, an end or a whole part.
//
// It is a list of the module's byte-level reasons: a reason from
// elsewhere (a scheme's rule that wraps a ParseError, "the scheme needs
// a host") is about a part, and naming a byte would mislead.
func showsByte(reason error) bool {
	switch reason {
	case ErrInvalidCharacter, ErrInvalidPercent, ErrInvalidScheme, ErrInvalidPort, ErrZoneID,
		ErrColonInFirstSegment:
		return true
	}
	if urnerr.ShowsByte(reason) {
		return true
	}
	var ip ipLiteralError
	if errors.As(reason, &ip) {
		return strings.HasPrefix(string(ip), "invalid character")
	}
	return false
}

// window quotes s, or a window of it around offset when it is long
// (internal/quote, shared with package whatwg).
func window(s string, offset int) string { return quote.Window(s, offset) }
