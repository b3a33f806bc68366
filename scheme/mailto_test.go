package scheme

import (
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
		{"mailto:a@b%0D%0ABcc:evil@x", []Warning{WarnEncodedCRLF}},
		{"mailto:?to=a@b%0D%0ABcc:x", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?x%0D%0ABcc:evil@x=1", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?cc=c@d%0A", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?subject=x%0D%0ABcc:c@d", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?In-Reply-To=%3Cx@y%3E%0D%0A", []Warning{WarnEncodedCRLF}},
		{"mailto:a@b?subject=x%00", []Warning{WarnEncodedNUL}},
		{"mailto:a@b?body=x%00", []Warning{WarnEncodedNUL}},
		{"mailto:a@b%0A?body=x%00", []Warning{WarnEncodedCRLF, WarnEncodedNUL}},
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
			switch strings.ToLower(hf[0]) {
			case "to", "cc", "bcc":
				parts = append(parts, hf[1])
			}
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
}
