package uri_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/urn"
)

// TestOneErrorVocabulary: issue 11. The two packages share one
// ParseError type and their common reasons.
func TestOneErrorVocabulary(t *testing.T) {
	_, err := urn.Parse("urn:ab:%zz")
	if !errors.Is(err, uri.ErrInvalidPercent) || !errors.Is(err, urn.ErrInvalidPercent) {
		t.Errorf("urn error %v is not uri.ErrInvalidPercent", err)
	}
	var pe *uri.ParseError
	if !errors.As(err, &pe) || pe.Component != urn.ComponentNSS || pe.Offset != 8 {
		t.Errorf("urn error as *uri.ParseError: %#v", pe)
	}
	_, err = uri.Parse("%zz")
	var ne *urn.ParseError
	if !errors.As(err, &ne) || ne.Component != uri.ComponentPath {
		t.Errorf("uri error as *urn.ParseError: %v", err)
	}
	// The zero Component is none, in both packages.
	_, err = uri.Unescape("100%")
	if !errors.As(err, &pe) || pe.Component != uri.ComponentNone || uri.ComponentNone != urn.ComponentNone || pe.Component.String() != "" {
		t.Errorf("Unescape error component: %#v", pe)
	}
	if urn.ComponentScheme == urn.ComponentNone {
		t.Errorf("urn.ComponentScheme is the zero value")
	}
}

// TestIPLiteralMessages: issue 11. Every IP-literal failure says what is
// wrong, as net/netip does, and still matches ErrInvalidIPLiteral.
func TestIPLiteralMessages(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		want string
	}{
		{"http://[1::2::3]/", 13, `more than one "::"`},             // RFC 3986 3.2.2: one "::" at most
		{"http://[1:::2]/", 11, `":::"`},                            // RFC 3986 3.2.2
		{"http://[12345::]/", 12, "more than 4 hexadecimal digits"}, // h16 = 1*4HEXDIG
		{"http://[1:2:3:4:5:6:7:8:9]/", 23, "more than 8 groups"},   // RFC 3986 3.2.2
		{"http://[1:2:3:4:5:6:7]/", 21, `fewer than 8 groups`},      // RFC 3986 3.2.2
		{"http://[:1::]/", 9, `starts with a single ":"`},           // RFC 3986 3.2.2
		{"http://[1:2:3:4:5:6:7:]/", 22, `ends with a single ":"`},  // RFC 3986 3.2.2
		{"http://[::1.2.3.256]/", 18, "octet above 255"},            // dec-octet
		{"http://[::1.02.3.4]/", 13, "leading zero"},                // dec-octet
		{"http://[::1.2.3]/", 15, "fewer than 4 octets"},            // IPv4address
		{"http://[1.2.3.4::]/", 9, "last 32 bits"},                  // ls32 comes last
		{"http://[::g]/", 10, "invalid character in IPv6 address"},  // HEXDIG
		{"http://[v.x]/", 9, `hexadecimal version after "v"`},       // IPvFuture
		{"http://[v7x]/", 10, `"." after its version`},              // IPvFuture
		{"http://[v7.]/", 11, "IPvFuture address is empty"},         // IPvFuture
		{"http://[::1x/", 11, "invalid character in IPv6 address"},  // RFC 3986 3.2.2
		{"http://[::1.2.3.4x]/", 17, `want "]" after the address`},  // IP-literal
	}
	for _, tt := range tests {
		_, err := uri.Parse(tt.in)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, uri.ErrInvalidIPLiteral) || pe.Offset != tt.off || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v (offset %d), want %q at %d matching ErrInvalidIPLiteral", tt.in, err, pe.Offset, tt.want, tt.off)
		}
	}
	// RFC 6874: a zone needs AllowZoneID, "%25" and one character.
	for _, tt := range []struct{ in, want string }{
		{"http://[fe80::1%en0]/", `zone identifier must follow "%25"`},
		{"http://[fe80::1%25]/", "empty zone identifier"},
	} {
		_, err := uri.ParseWith(tt.in, uri.Options{AllowZoneID: true})
		if !errors.Is(err, uri.ErrInvalidIPLiteral) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseWith(%q, zone IDs) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestParseWithOptions: issue 11. Options that mean nothing are rejected.
func TestParseWithOptions(t *testing.T) {
	for _, o := range []uri.Options{{Grammar: uri.RFC2396, AllowZoneID: true}, {Grammar: 7}} {
		if _, err := uri.ParseWith("http://a/", o); !errors.Is(err, uri.ErrInvalidOptions) {
			t.Errorf("ParseWith(%+v) = %v, want ErrInvalidOptions", o, err)
		}
	}
	if _, err := urn.ParseWith("urn:ab:c", urn.Options{Dialect: 4}); !errors.Is(err, urn.ErrInvalidOptions) {
		t.Errorf("urn.ParseWith(dialect 4) = %v, want ErrInvalidOptions", err)
	}
}

// TestErrorWindow: issue 7 item 8. The message of a long bad input
// quotes a window around the offset; Input keeps it whole.
func TestErrorWindow(t *testing.T) {
	in := "http://a/" + strings.Repeat("b", 10<<20) + "{" + strings.Repeat("c", 1000)
	_, err := uri.Parse(in)
	var pe *uri.ParseError
	if !errors.As(err, &pe) || pe.Input != in || pe.Offset != 9+10<<20 {
		t.Fatalf("Parse: %v", err)
	}
	msg := err.Error()
	if len(msg) > 200 || !strings.Contains(msg, `…"bbbb`) || !strings.Contains(msg, `{cccc`) || !strings.HasSuffix(msg, `"…`) {
		t.Errorf("message of a 10 MB input: %d bytes: %.300s", len(msg), msg)
	}
}

// TestBuildErrors: issue 11 and issue 7 item 2. Editor errors name the
// part at fault and wrap the cause.
func TestBuildErrors(t *testing.T) {
	var e uri.Editor
	_, err := e.SetHost("1::2::3").URI()
	var be *uri.BuildError
	if !errors.As(err, &be) || be.Component != uri.ComponentHost || be.Value != "1::2::3" ||
		!errors.Is(err, uri.ErrBuildHost) || !errors.Is(err, uri.ErrInvalidIPLiteral) || !strings.Contains(err.Error(), `more than one "::"`) {
		t.Errorf("SetHost(1::2::3): %v", err)
	}
	var e2 uri.Editor
	_, err = e2.SetScheme("h t").URI()
	if !errors.As(err, &be) || be.Component != uri.ComponentScheme || !errors.Is(err, uri.ErrBuildScheme) {
		t.Errorf("SetScheme(h t): %v", err)
	}
	// A long host is encoded in linear time.
	testshared.CheckLinearN(t, "long host", 24<<10, func(n int) string { return strings.Repeat("例え", n/6) }, func(h string) {
		var e uri.Editor
		if _, err := e.SetHost(h).URI(); err != nil {
			t.Fatalf("SetHost(%d bytes): %.200v", len(h), err)
		}
	})
}

// TestResolve2396RejectOffset: issue 11. ErrAboveRoot has an offset.
func TestResolve2396RejectOffset(t *testing.T) {
	base := uri.MustParse("http://a/b/c/d;p?q")
	opts := uri.Options{Grammar: uri.RFC2396}
	for _, tt := range []struct {
		base, ref string
		input     string
		off       int
	}{
		{"http://a/b/c/d;p?q", "../../../g", "../../../g", 6},                // 1998 draft 5.2 step 6g
		{"http://a/b/c/d;p?q", "./g/../../../../x", "./g/../../../../x", 13}, // the third ".." of the reference
		{"http://a/../b/c", "g", "http://a/../b/c", 9},                       // the excess is the base's own
	} {
		b, _ := uri.ParseWith(tt.base, opts)
		r, _ := uri.ParseWith(tt.ref, opts)
		_, err := b.Resolve2396(r, uri.RejectDots)
		var re *uri.ResolveError // not a ParseError: no byte is wrong
		if !errors.As(err, &re) || !errors.Is(err, uri.ErrAboveRoot) || re.Input != tt.input || re.Offset != tt.off || re.Op != "resolve" || errors.As(err, new(*uri.ParseError)) {
			t.Errorf("Resolve2396(%q, %q, RejectDots) = %v; want ErrAboveRoot at %d of %q", tt.base, tt.ref, err, tt.off, tt.input)
		}
	}
	_ = base
	_, err := uri.MustParse("http://a/b").Relativize(uri.MustParse("http://a/x/./y"))
	var re *uri.ResolveError
	if !errors.As(err, &re) || !errors.Is(err, uri.ErrUnreachable) || re.Offset != 11 || re.Op != "relativize" {
		t.Errorf("Relativize to a dot segment: %v", err)
	}
}
