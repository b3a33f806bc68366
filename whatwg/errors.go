package whatwg

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/quote"
)

// A ValidationError is one of the validation error types of the URL
// Standard (section 1.3, "Writing"): a way the input differs from valid
// input. Most are repaired and the parser goes on; the ones the table
// marks as failures end the parse, and a ParseError names them.
// ValidationError implements error, so that errors.Is(err,
// whatwg.HostMissing) tells why Parse failed.
type ValidationError uint8

// The validation errors, in the order of the standard's table. String
// returns the name the standard gives each one.
const (
	DomainToASCII                        ValidationError = iota // domain-to-ASCII
	DomainPercentEncoded                                        // domain-percent-encoded
	HostInvalidCodePoint                                        // host-invalid-code-point
	IPv4EmptyPart                                               // IPv4-empty-part
	IPv4TooFewParts                                             // IPv4-too-few-parts
	IPv4TooManyParts                                            // IPv4-too-many-parts
	IPv4NonNumericPart                                          // IPv4-non-numeric-part
	IPv4NonDecimalPart                                          // IPv4-non-decimal-part
	IPv4OutOfRangePart                                          // IPv4-out-of-range-part
	IPv6Unclosed                                                // IPv6-unclosed
	IPv6InvalidCompression                                      // IPv6-invalid-compression
	IPv6TooManyPieces                                           // IPv6-too-many-pieces
	IPv6MultipleCompression                                     // IPv6-multiple-compression
	IPv6InvalidCodePoint                                        // IPv6-invalid-code-point
	IPv6TooFewPieces                                            // IPv6-too-few-pieces
	IPv6PieceLeadingZero                                        // IPv6-piece-leading-zero
	IPv4InIPv6TooManyPieces                                     // IPv4-in-IPv6-too-many-pieces
	IPv4InIPv6InvalidCodePoint                                  // IPv4-in-IPv6-invalid-code-point
	IPv4InIPv6OutOfRangePart                                    // IPv4-in-IPv6-out-of-range-part
	IPv4InIPv6TooFewParts                                       // IPv4-in-IPv6-too-few-parts
	InvalidURLUnit                                              // invalid-URL-unit
	SpecialSchemeMissingFollowingSolidus                        // special-scheme-missing-following-solidus
	MissingSchemeNonRelativeURL                                 // missing-scheme-non-relative-URL
	InvalidReverseSolidus                                       // invalid-reverse-solidus
	InvalidCredentials                                          // invalid-credentials
	HostMissing                                                 // host-missing
	PortOutOfRange                                              // port-out-of-range
	PortInvalid                                                 // port-invalid
	FileInvalidWindowsDriveLetter                               // file-invalid-Windows-drive-letter
	FileInvalidWindowsDriveLetterHost                           // file-invalid-Windows-drive-letter-host
	numValidationErrors
)

var validationErrorNames = [numValidationErrors]string{
	"domain-to-ASCII",
	"domain-percent-encoded",
	"host-invalid-code-point",
	"IPv4-empty-part",
	"IPv4-too-few-parts",
	"IPv4-too-many-parts",
	"IPv4-non-numeric-part",
	"IPv4-non-decimal-part",
	"IPv4-out-of-range-part",
	"IPv6-unclosed",
	"IPv6-invalid-compression",
	"IPv6-too-many-pieces",
	"IPv6-multiple-compression",
	"IPv6-invalid-code-point",
	"IPv6-too-few-pieces",
	"IPv6-piece-leading-zero",
	"IPv4-in-IPv6-too-many-pieces",
	"IPv4-in-IPv6-invalid-code-point",
	"IPv4-in-IPv6-out-of-range-part",
	"IPv4-in-IPv6-too-few-parts",
	"invalid-URL-unit",
	"special-scheme-missing-following-solidus",
	"missing-scheme-non-relative-URL",
	"invalid-reverse-solidus",
	"invalid-credentials",
	"host-missing",
	"port-out-of-range",
	"port-invalid",
	"file-invalid-Windows-drive-letter",
	"file-invalid-Windows-drive-letter-host",
}

// String returns the standard's name of the error, as "host-missing".
func (e ValidationError) String() string {
	if e < numValidationErrors {
		return validationErrorNames[e]
	}
	return "validation-error(" + strconv.Itoa(int(e)) + ")"
}

// Error returns the standard's name of the error.
func (e ValidationError) Error() string { return e.String() }

// ParseValidationError returns the validation error the standard names
// name ("IPv4-empty-part"), and false when no error has that name.
func ParseValidationError(name string) (ValidationError, bool) {
	for i, n := range validationErrorNames {
		if n == name {
			return ValidationError(i), true
		}
	}
	return 0, false
}

// errorSet is a set of validation errors: one bit each, so that a
// parse records them without allocating.
type errorSet uint32

func (s *errorSet) add(e ValidationError) { *s |= 1 << e }

// list returns the errors of the set in the order of the standard's
// table, or nil for the empty set.
func (s errorSet) list() []ValidationError {
	if s == 0 {
		return nil
	}
	var l []ValidationError
	for e := ValidationError(0); e < numValidationErrors; e++ {
		if s&(1<<e) != 0 {
			l = append(l, e)
		}
	}
	return l
}

// ParseError reports why the URL parser returned failure: the
// validation error that ends the parse (Err, one of the types the
// standard marks as failure), and where.
//
// Offset is the byte offset in Input of the component or code point the
// failure is about, or -1 when it is about the input as a whole (a
// relative reference without a base). Errors lists the validation
// errors the parser met before it failed, Err included.
type ParseError struct {
	Input  string
	Offset int
	Err    ValidationError
	Errors []ValidationError
}

// Error returns a message such as
// `whatwg: host-missing at offset 7 of "https://@/x"`.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("whatwg: ")
	b.WriteString(e.Err.String())
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	b.WriteString(" of ")
	b.WriteString(quote.Window(e.Input, e.Offset))
	return b.String()
}

// Unwrap returns the validation error, for errors.Is.
func (e *ParseError) Unwrap() error { return e.Err }
