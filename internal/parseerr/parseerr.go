// Package parseerr is the one error vocabulary of the module: the
// ParseError type that packages uri and urn both return (each under its
// own name, as a type alias), the components an error can be about, and
// the sentinel reasons callers branch on with errors.Is.
//
// Because the type and the sentinels are shared, errors.Is(err,
// uri.ErrInvalidPercent) holds for an error of urn.Parse, and a caller
// that handles *uri.ParseError handles URN errors too.
package parseerr

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Component names the part of an identifier an error is about. The zero
// value is None: an error that belongs to no component (a stray "%" in
// a string given to Unescape, say).
type Component uint8

// The components of a URI reference (RFC 3986 section 3) and of a URN
// (RFC 8141 section 2).
const (
	None Component = iota
	Scheme
	Authority
	Userinfo
	Host
	Port
	Path
	Query
	Fragment
	NID
	NSS
	RComponent
	QComponent
	FComponent
)

var componentNames = [...]string{
	None:       "",
	Scheme:     "scheme",
	Authority:  "authority",
	Userinfo:   "userinfo",
	Host:       "host",
	Port:       "port",
	Path:       "path",
	Query:      "query",
	Fragment:   "fragment",
	NID:        "NID",
	NSS:        "NSS",
	RComponent: "r-component",
	QComponent: "q-component",
	FComponent: "f-component",
}

// String returns the component's name, as in "path" or "NSS", and ""
// for None.
func (c Component) String() string {
	if int(c) < len(componentNames) {
		return componentNames[c]
	}
	return "component(" + strconv.Itoa(int(c)) + ")"
}

// Reasons shared by every parser of the module.
var (
	ErrInvalidCharacter = errors.New("invalid character")
	ErrInvalidPercent   = errors.New("malformed percent-encoding")
	ErrUnexpectedEnd    = errors.New("unexpected end of input")
	ErrTooLong          = errors.New("input longer than 2 GiB")
)

// Reasons of the generic syntax (package uri).
var (
	ErrInvalidScheme       = errors.New("invalid scheme")
	ErrInvalidPort         = errors.New("invalid port")
	ErrInvalidIPLiteral    = errors.New("invalid IP literal")
	ErrZoneID              = errors.New("IPv6 zone identifier not allowed")
	ErrColonInFirstSegment = errors.New("colon in the first segment of a relative path")
	ErrAboveRoot           = errors.New(`".." above the root of the base path`)
	ErrUnreachable         = errors.New("no reference resolves to a target with a dot segment")
)

// Reasons of the URN syntax (package urn).
var (
	ErrNotURN           = errors.New(`scheme is not "urn"`)
	ErrInvalidNID       = errors.New("invalid namespace identifier")
	ErrNIDTooShort      = errors.New("namespace identifier shorter than 2 characters")
	ErrNIDTooLong       = errors.New("namespace identifier longer than 32 characters")
	ErrNIDHyphen        = errors.New("namespace identifier ends with a hyphen")
	ErrReservedNID      = errors.New(`namespace identifier "urn" is reserved`)
	ErrNUL              = errors.New("NUL octet")
	ErrEmptyComponent   = errors.New("empty component")
	ErrInvalidDirective = errors.New("invalid query directive")
)

// IPLiteralError is a reason that says what is wrong with an IP literal,
// as net/netip does ("more than one \"::\""). It matches
// ErrInvalidIPLiteral under errors.Is.
type IPLiteralError string

func (e IPLiteralError) Error() string { return "invalid IP literal: " + string(e) }

// Is makes errors.Is(e, ErrInvalidIPLiteral) true.
func (e IPLiteralError) Is(target error) bool { return target == ErrInvalidIPLiteral }

// Error reports why and where a string is not a URI reference or a URN.
//
// Offset is the length of the longest prefix of Input that is still the
// beginning of some valid string of the grammar: the offset of the first
// byte that no valid string could have there, or len(Input) when the
// input ends too early. It is -1 when no byte is to blame.
type Error struct {
	Input     string
	Offset    int
	Component Component
	Reason    error

	urn bool // the error of a URN parser: Error says "urn:"
}

// NewURN is New for the URN parsers.
func NewURN(input string, offset int, c Component, reason error) *Error {
	e := New(input, offset, c, reason)
	e.urn = true
	return e
}

// New returns the error for input at offset. An offset at or past the
// end of the input means that the input ended too early, whatever the
// reason was going to be.
func New(input string, offset int, c Component, reason error) *Error {
	if offset >= len(input) && reason != ErrTooLong {
		offset = len(input)
		reason = ErrUnexpectedEnd
	}
	return &Error{Input: input, Offset: offset, Component: c, Reason: reason}
}

// Error returns a message such as
// `uri: invalid character '{' at offset 9 in path of "http://a/{x}"`.
// URN errors start with "urn:". A long input is quoted as a window of at
// most 64 bytes around the offset, with "…" for what is left out, so
// that a megabyte of bad input does not make a megabyte of message.
func (e *Error) Error() string {
	prefix := "uri: "
	if e.urn {
		prefix = "urn: "
	}
	return prefix + e.Message() + " of " + Window(e.Input, e.Offset)
}

// Message returns the error without the input: the reason, the
// offending byte for the reasons about a byte, the offset and the
// component, as in `invalid character '{' at offset 9 in path`.
func (e *Error) Message() string {
	msg := e.what()
	if e.Offset >= 0 {
		msg += " at offset " + strconv.Itoa(e.Offset)
	}
	if e.Component != None {
		msg += " in " + e.Component.String()
	}
	return msg
}

// Detail is Message without the offset, for a caller that shows the
// offset on its own: `invalid character '{' in path`.
func (e *Error) Detail() string {
	msg := e.what()
	if e.Component != None {
		msg += " in " + e.Component.String()
	}
	return msg
}

// what returns the reason and the offending byte.
func (e *Error) what() string {
	reason := "invalid"
	if e.Reason != nil {
		reason = e.Reason.Error()
	}
	if showsByte(e.Reason) && e.Offset >= 0 && e.Offset < len(e.Input) {
		reason += " " + quoteByte(e.Input[e.Offset])
	}
	return reason
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Reason }

// showsByte reports whether the reason is about the byte at the offset,
// so that naming the byte helps. It is not for the reasons about a
// length, an end or a whole part.
func showsByte(reason error) bool {
	switch reason {
	case nil, ErrUnexpectedEnd, ErrTooLong, ErrAboveRoot, ErrUnreachable, ErrNotURN, ErrNIDTooShort, ErrNIDTooLong,
		ErrNIDHyphen, ErrReservedNID, ErrNUL, ErrEmptyComponent:
		return false
	}
	var ip IPLiteralError
	if errors.As(reason, &ip) {
		return strings.HasPrefix(string(ip), "invalid character")
	}
	return true
}

// quoteByte writes b as 'c' when it is printable ASCII and as byte 0xHH
// otherwise.
func quoteByte(b byte) string {
	const hex = "0123456789ABCDEF"
	if b >= 0x20 && b < 0x7f {
		return "'" + string(rune(b)) + "'"
	}
	return "byte 0x" + string(hex[b>>4]) + string(hex[b&15])
}

// windowSize is the most bytes of an input that Window quotes.
const windowSize = 64

// Window returns s quoted (strconv.Quote), or, when s is longer than 64
// bytes, a window of it around offset with "…" marking the cut ends.
// The window's ends are moved to UTF-8 boundaries.
func Window(s string, offset int) string {
	if len(s) <= windowSize {
		return strconv.Quote(s)
	}
	offset = max(0, min(offset, len(s)))
	lo := max(0, offset-windowSize/2)
	hi := min(len(s), lo+windowSize)
	lo = max(0, hi-windowSize)
	for lo > 0 && lo < len(s) && !utf8.RuneStart(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8.RuneStart(s[hi]) {
		hi++
	}
	q := strconv.Quote(s[lo:hi])
	if lo > 0 {
		q = "…" + q
	}
	if hi < len(s) {
		q += "…"
	}
	return q
}
