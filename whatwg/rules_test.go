package whatwg

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// Rules of the URL Standard, each quoted with its section, tested both
// ways: an input that triggers the rule and one that does not.

func TestRulesParse(t *testing.T) {
	tests := []struct {
		rule string // the standard's sentence, and its section
		in   string
		href string          // "" when the parse fails
		fail ValidationError // with href "", the failure
		errs []ValidationError
	}{
		{"4.4: remove any leading and trailing C0 control or space from input", "\x01 http://a/ \x1f", "http://a/", 0, []ValidationError{InvalidURLUnit}},
		{"4.4 (not applied): DEL is no C0 control, and stays, encoded", "http://a/\x7f", "http://a/%7F", 0, []ValidationError{InvalidURLUnit}},
		{"4.4 (not applied): a C0 control inside the input is encoded", "http://a/\x01b", "http://a/%01b", 0, []ValidationError{InvalidURLUnit}},
		{"4.4: remove all ASCII tab or newline from input", "ht\ttp://a\n/b\r", "http://a/b", 0, []ValidationError{InvalidURLUnit}},
		{"4.4 special authority slashes: otherwise, special-scheme-missing-following-solidus", "http:a/b", "http://a/b", 0, []ValidationError{SpecialSchemeMissingFollowingSolidus}},
		{"4.4 authority state: if atSignSeen and buffer is empty, host-missing, return failure", "http://u@/x", "", HostMissing, nil},
		{"4.4 authority state: credentials before the last @, earlier @ encoded", "http://a@b@c/", "http://a%40b@c/", 0, []ValidationError{InvalidCredentials}},
		{"4.4 host state: special URL with empty host, host-missing failure", "http://:80/", "", HostMissing, nil},
		{"4.4 host state: a non-special URL may have an empty host", "sc://", "sc://", 0, nil},
		{"4.4 port state: port not a 16-bit unsigned integer, port-out-of-range failure", "http://a:65536/", "", PortOutOfRange, nil},
		{"4.4 port state: 65535 is a port", "http://a:65535/", "http://a:65535/", 0, nil},
		{"4.4 port state: otherwise, port-invalid failure", "http://a:8x/", "", PortInvalid, nil},
		{"4.4 port state: the scheme's default port becomes null", "https://a:0443/", "https://a/", 0, nil},
		{"4.4 path state: single-dot segment removed", "http://a/b/./c", "http://a/b/c", 0, nil},
		{"4.4 path state: double-dot segment shortens the path, %2e counts", "http://a/b/c/%2E./d", "http://a/b/d", 0, nil},
		{"4.4 path state: '...' is no dot segment", "http://a/b/.../d", "http://a/b/.../d", 0, nil},
		{"4.4 path state: special URL and \\ is invalid-reverse-solidus", `http://a\b\c`, "http://a/b/c", 0, []ValidationError{InvalidReverseSolidus}},
		{"4.4 path state: in a non-special URL \\ is a path code point (not a URL unit)", `sc://a/b\c`, `sc://a/b\c`, 0, []ValidationError{InvalidURLUnit}},
		{"4.4 file host state: a Windows drive letter is no host", "file://C|/x", "file:///C:/x", 0, []ValidationError{InvalidURLUnit, FileInvalidWindowsDriveLetterHost}},
		{"4.4 file host state: localhost becomes the empty host", "file://LOCALHOST/x", "file:///x", 0, nil},
		{"4.4 opaque path state: a space before '?' or '#' is %20", "sc:a  ?q", "sc:a %20?q", 0, []ValidationError{InvalidURLUnit}},
		{"4.4 no scheme state: base null, missing-scheme-non-relative-URL failure", "/x", "", MissingSchemeNonRelativeURL, nil},
		{"4.5 serializer: /. keeps a path from reading as a host", "sc:/..//x", "sc:/.//x", 0, nil},
		{"3.5 host parser: IPv6-unclosed", "http://[::1/", "", IPv6Unclosed, nil},
		{"3.5 IPv6 parser: IPv6-multiple-compression", "http://[1::2::3]/", "", IPv6MultipleCompression, nil},
		{"3.6 IPv6 serializer: the first longest run of zeros compressed", "http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/", 0, nil},
		{"3.6 IPv6 serializer: a single zero piece is not compressed", "http://[1:0:2:3:4:5:6:7]/", "http://[1:0:2:3:4:5:6:7]/", 0, nil},
		{"3.5 IPv4 parser: hex and octal parts, IPv4-non-decimal-part", "http://0x7F.0.0.01/", "http://127.0.0.1/", 0, []ValidationError{IPv4NonDecimalPart}},
		{"3.5 IPv4 parser: the last part fills the rest", "http://1.65535/", "http://1.0.255.255/", 0, []ValidationError{IPv4TooFewParts, IPv4OutOfRangePart}},
		{"3.5 IPv4 parser: a part over 255 but the last, failure", "http://256.1.1.1/", "", IPv4OutOfRangePart, nil},
		{"3.5 IPv4 parser: more than four parts, failure", "http://1.2.3.4.5/", "", IPv4TooManyParts, nil},
		{"3.5 ends in a number: a last label of letters is a domain", "http://1.2.3.x/", "http://1.2.3.x/", 0, nil},
		{"3.5 host parser: domain-percent-encoded, then decoded", "http://ex%61mple.com/", "http://example.com/", 0, []ValidationError{DomainPercentEncoded}},
		{"3.3 domain parser: a forbidden domain code point fails", "http://a%25b/", "", DomainToASCII, nil},
		{"3.3 domain parser: an ASCII domain is lowercased whatever ToASCII says", "http://XN--A.com/", "http://xn--a.com/", 0, []ValidationError{DomainToASCII}},
		{"3.3 domain parser: a non-ASCII domain goes through ToASCII", "http://Bücher.de/", "http://xn--bcher-kva.de/", 0, nil},
		{"3.5 opaque-host parser: a forbidden host code point fails", "sc://a<b/", "", HostInvalidCodePoint, nil},
		{"3.5 opaque-host parser: other code points are encoded", "sc://ä/", "sc://%C3%A4/", 0, nil},
	}
	for _, tc := range tests {
		u, err := Parse(tc.in)
		if tc.href == "" {
			if !errors.Is(err, tc.fail) {
				t.Errorf("%s: Parse(%q) = %q, %v; want failure %v", tc.rule, tc.in, u.Href(), err, tc.fail)
			}
			continue
		}
		if err != nil || u.Href() != tc.href {
			t.Errorf("%s: Parse(%q) = %q, %v; want %q", tc.rule, tc.in, u.Href(), err, tc.href)
			continue
		}
		if got := u.Errors(); !slices.Equal(got, tc.errs) {
			t.Errorf("%s: Parse(%q) errors %v, want %v", tc.rule, tc.in, got, tc.errs)
		}
	}
}

// TestParseErrorOffset: a ParseError points at the component it is
// about, in the input as given (tabs and trimmed bytes counted).
func TestParseErrorOffset(t *testing.T) {
	for _, tc := range []struct {
		in  string
		off int
	}{
		{"http://a:8x/", 10},
		{"  http://a:8x/", 12},
		{"ht\ttp://a:8x/", 11},
		{"http://[::1/", 7},
		{"/relative", -1},
	} {
		_, err := Parse(tc.in)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset != tc.off || pe.Input != tc.in {
			t.Errorf("Parse(%q) = %v, want offset %d", tc.in, err, tc.off)
		}
	}
}

// TestValidationErrorNames: every error has the standard's name, and
// ParseValidationError reads it back.
func TestValidationErrorNames(t *testing.T) {
	for e := ValidationError(0); e < numValidationErrors; e++ {
		got, ok := ParseValidationError(e.String())
		if !ok || got != e || strings.HasPrefix(e.String(), "validation-error(") {
			t.Errorf("%d: %q reads back as %v, %v", e, e, got, ok)
		}
	}
	if _, ok := ParseValidationError("no-such-error"); ok {
		t.Error("an unknown name reads as an error")
	}
}

// TestLinear: hostile inputs cost time and memory in proportion to
// their length.
func TestLinear(t *testing.T) {
	base := MustParse("http://example.com/a/b/c")
	cases := []struct {
		name string
		gen  func(n int) string
	}{
		{"dotdot", func(n int) string { return "http://a/" + strings.Repeat("x/../", n) }},
		{"at-signs", func(n int) string { return "http://" + strings.Repeat("a@", n) + "h/" }},
		{"dots", func(n int) string { return "http://" + strings.Repeat("a.", n) + "b/" }},
		{"idna", func(n int) string { return "http://" + strings.Repeat("ü.", n) + "de/" }},
		{"percent", func(n int) string { return "http://a/?" + strings.Repeat("%z%41 ", n) }},
		{"brackets", func(n int) string { return "sc://" + strings.Repeat("[", n) }},
		{"tabs", func(n int) string { return strings.Repeat("\t", n) + "http://a/" + strings.Repeat("\n", n) }},
		{"backslashes", func(n int) string { return `\\` + strings.Repeat(`a\`, n) }},
	}
	for _, c := range cases {
		testshared.CheckLinearN(t, c.name, 2000, c.gen, func(s string) {
			sinkURL, sinkErr = Parse(s)
			sinkURL, sinkErr = ParseRef(base, s)
		})
	}
}
