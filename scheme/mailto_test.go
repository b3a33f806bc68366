package scheme

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

// TestMailtoHeaderInjection: RFC 6068 section 7, "the fewer header
// fields interpreted from the URI, the less likely it is that a sending
// agent will create an unsafe message": a CR or LF decoded into an
// address, a header field name or a header field value could add header
// fields (issue 20, item 7). Each is warned about, and the accessors
// never give a CR or LF inside an address or a header field name. In the
// body a CR LF is a line break (RFC 6068 6.1: "send%20current-issue%0D%0Asend%20index").
func TestMailtoHeaderInjection(t *testing.T) {
	tests := []struct {
		url      string
		warnings []Warning
	}{
		{"mailto:a@b?x%0D%0ABcc:evil@x=1", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?subject=x%0D%0ABcc:c@d", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?In-Reply-To=%3Cx@y%3E%0D%0A", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?subject=x%00", []Warning{WarnEncodedNUL}},
		{"mailto:a@b?body=x%00", []Warning{WarnEncodedNUL}},
		{"mailto:a@b?x%0A=1&body=x%00", []Warning{WarnEncodedCRLF, WarnEncodedNUL}},
		// Not header lines: no warning.
		{"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index", nil},
		{"mailto:a@b?subject=caf%C3%A9", nil},
		{"mailto:gorby%25kremvax@example.com", nil},
	}
	for _, tt := range tests {
		v, err := ParseMailto(uri.MustParse(tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if !slices.Equal(v.Warnings(), tt.warnings) {
			t.Errorf("%s: warnings %v, want %v", tt.url, v.Warnings(), tt.warnings)
		}
		var parts []string
		parts = append(parts, v.To()...)
		parts = append(parts, v.Cc()...)
		for _, hf := range v.HeaderFields() {
			parts = append(parts, hf[0])
		}
		for _, p := range parts {
			if strings.ContainsAny(p, "\r\n\x00") {
				t.Errorf("%s: an address or header name %q holds a CR, LF or NUL", tt.url, p)
			}
		}
	}
	// The CR LF is kept visible, percent-encoded.
	v, _ := ParseMailto(uri.MustParse("mailto:a@b?x%0D%0ABcc:evil@x=1"))
	if hf := v.HeaderFields(); len(hf) != 1 || hf[0][0] != "x%0D%0ABcc:evil@x" {
		t.Errorf("header fields %q", hf)
	}
	v, _ = ParseMailto(uri.MustParse("mailto:a@b?body=x%0D%0Ay"))
	if b, _ := v.Body(); b != "x\r\ny" {
		t.Errorf("body %q", b)
	}
	// In an address a CR or LF is no addr-spec at all: an error at the
	// escape (RFC 6068 2), so To and Cc never hold one.
	for _, tt := range []struct {
		url    string
		offset int
		reason error
	}{
		{"mailto:a@b%0D%0ABcc:evil@x", 10, ErrMailAddress},
		{"mailto:?to=a@b%0D%0ABcc:x", 14, ErrMailAddressList},
		{"mailto:a@b?cc=c@d%0A", 17, ErrMailAddressList},
		{"mailto:a@b?bcc=%0D%0Ac@d", 15, ErrMailAddressList},
	} {
		_, err := ParseMailto(uri.MustParse(tt.url))
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || !errors.Is(err, tt.reason) {
			t.Errorf("%s: %v, want %v at %d", tt.url, err, tt.reason, tt.offset)
		}
	}
}

// TestMailtoGrammar: RFC 6068 section 2,
//
//	mailtoURI = "mailto:" [ to ] [ hfields ]
//	to        = addr-spec *("," addr-spec )
//	hfields   = "?" hfield *( "&" hfield )
//	hfield    = hfname "=" hfvalue
//	addr-spec = local-part "@" domain
//	local-part = dot-atom-text / quoted-string
//	domain    = dot-atom-text / "[" *dtext-no-obs "]"
//
// and "Within 'mailto' URIs, the characters "?", "=", and "&" are
// reserved, serving as delimiters. They have to be escaped (as "%3F",
// "%3D", and "%26", respectively) when not serving as delimiters"
// (issue 16, item 1). A URL the grammar refuses is still a URI.
func TestMailtoGrammar(t *testing.T) {
	// Every example of RFC 6068 section 6 is accepted.
	for _, s := range []string{
		"mailto:chris@example.com",
		"mailto:infobot@example.com?subject=current-issue",
		"mailto:infobot@example.com?body=send%20current-issue",
		"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
		"mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
		"mailto:majordomo@example.com?body=subscribe%20bamboo-l",
		"mailto:joe@example.com?cc=bob@example.com&body=hello",
		"mailto:gorby%25kremvax@example.com",
		"mailto:unlikely%3Faddress@example.com?blat=foop",
		"mailto:Mike%26family@example.org",
		"mailto:%22not%40me%22@example.org",
		"mailto:%22oh%5C%5Cno%22@example.org",
		"mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
		"mailto:user@example.org?subject=caf%C3%A9",
		"mailto:user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
		"mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9",
		"mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
		"mailto:addr1@an.example,addr2@an.example",
		"mailto:?to=addr1@an.example,addr2@an.example",
		"mailto:addr1@an.example?to=addr2@an.example",
		// Beyond the examples: a domain literal, a display name in "to"
		// (RFC 5322 3.4 mailbox), an empty to, no to at all, a "/" in
		// a value.
		"mailto:a@%5B192.0.2.1%5D",
		"mailto:?to=Joe%20Doe%20%3Cjoe@x.example%3E,%22Doe,%20J.%22%20%3Cj@x.example%3E",
		"mailto:?to=&subject=x",
		"mailto:?subject=x",
		"mailto:",
		"mailto:a@b?body=see%20http://x.example/y",
		"mailto:j%C3%B6rg@example.de",
	} {
		if _, err := ParseMailto(uri.MustParse(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, tt := range []struct {
		url    string
		offset int
		reason error
	}{
		// RFC 6068 6.1: "The following example, using "?" twice, is
		// incorrect: <mailto:joe@example.com?cc=bob@example.com?body=hello> ; WRONG!"
		{"mailto:joe@example.com?cc=bob@example.com?body=hello", 41, ErrMailQuestion},
		{"mailto:@example.com", 7, ErrMailAddress},          // no local part
		{"mailto:a@b..c", 11, ErrMailAddress},               // an empty domain label
		{"mailto:a@", 9, ErrMailAddress},                    // no domain
		{"mailto:a.@b", 9, ErrMailAddress},                  // an empty local label
		{"mailto:postmaster", 17, ErrMailAddress},           // no "@"
		{"mailto:a@b,,c@d", 11, ErrMailAddress},             // an empty address
		{"mailto:a@b,", 11, ErrMailAddress},                 // a trailing ","
		{"mailto:a%20b@c", 8, ErrMailAddress},               // a space outside quotes
		{"mailto:a@b%5B", 10, ErrMailAddress},               // "[" in a dot-atom
		{"mailto:%22a@b", 13, ErrMailAddress},               // an unclosed quote
		{"mailto:a%C3@b", 8, ErrMailAddress},                // not UTF-8
		{"mailto:?to=a@b;c@d", 14, ErrMailAddressList},      // not a list of mailboxes
		{"mailto:?to=Joe%20%3Ca@b", 23, ErrMailAddressList}, // an unclosed "<"
		{"mailto:?to=a@b,", 15, ErrMailAddressList},
		{"mailto:a@b?subject=1+1=2", 22, ErrMailHfield}, // an unescaped "=" in a value
		{"mailto:a@b?subject", 18, ErrMailHfield},       // no "="
		{"mailto:a@b?", 11, ErrMailHfield},
		{"mailto:a@b?subject=x&&body=y", 21, ErrMailHfield},
	} {
		u := uri.MustParse(tt.url) // a valid URI reference all the same
		_, err := ParseMailto(u)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || !errors.Is(err, tt.reason) || !errors.Is(err, ErrSchemeSyntax) {
			t.Errorf("%s: %v, want %v at %d", tt.url, err, tt.reason, tt.offset)
		}
	}
	// The mailboxes of "to" and "cc" are the recipients.
	v, _ := ParseMailto(uri.MustParse("mailto:a@x?to=%20Joe%20%3Cb@x%3E%20,c@x&cc=d@x"))
	if !slices.Equal(v.To(), []string{"a@x", "Joe <b@x>", "c@x"}) || !slices.Equal(v.Cc(), []string{"d@x"}) {
		t.Errorf("to %q cc %q", v.To(), v.Cc())
	}
}
