package chars

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBadHostName: the URL Standard (3.5, host parsing: a forbidden
// domain code point after percent-decoding is a failure) and RFC 3986
// 3.2.2 (non-ASCII as percent-encoded UTF-8).
func TestBadHostName(t *testing.T) {
	tests := []struct {
		raw  string
		want int
	}{
		{"example.com", -1},
		{"a-b_c~!$&'()*+,;=", -1},
		{"%e2%98%83", -1},            // U+2603
		{"xn--n3h.%F0%9F%92%A9", -1}, // U+1F4A9
		{"%41%42", -1},
		{"bad%20host", 3},
		{"a%00", 1},
		{"a%0D%0A", 1},
		{"a%25b", 1},     // "%"
		{"a%2Fb", 1},     // "/"
		{"a%40b", 1},     // "@"
		{"a%7F", 1},      // DEL
		{"a%5Eb", 1},     // "^"
		{"%FF", 0},       // not UTF-8
		{"ab%C3", 2},     // cut short
		{"ab%C3x", 2},    // cut short by ASCII
		{"%C0%80", 0},    // overlong NUL
		{"%E0%80%80", 0}, // overlong
		{"%ED%A0%80", 0}, // a surrogate
		{"%F4%90%80%80", 0},
		{"x%E2%98", 1},
	}
	for _, tt := range tests {
		if got := BadHostName(tt.raw); got != tt.want {
			t.Errorf("BadHostName(%q) = %d, want %d", tt.raw, got, tt.want)
		}
	}
}

// TestBadHostNameAgrees: over every single octet and every pair,
// BadHostName refuses exactly the decoded strings that are not UTF-8 or
// hold a forbidden domain code point.
func TestBadHostNameAgrees(t *testing.T) {
	const hex = "0123456789ABCDEF"
	enc := func(b []byte) string {
		var s strings.Builder
		for _, c := range b {
			s.WriteByte('%')
			s.WriteByte(hex[c>>4])
			s.WriteByte(hex[c&15])
		}
		return s.String()
	}
	check := func(b []byte) {
		d := string(b)
		want := utf8.ValidString(d) && !strings.ContainsFunc(d, func(r rune) bool { return r < 0x80 && forbiddenDomain[r] })
		if got := BadHostName(enc(b)) < 0; got != want {
			t.Fatalf("BadHostName(%q) ok = %v, want %v", enc(b), got, want)
		}
		if u, err := url.Parse("http://" + enc(b) + "/"); want && err == nil && u.Hostname() != d {
			t.Fatalf("net/url decodes %q to %q", enc(b), u.Hostname())
		}
	}
	for a := 0; a < 256; a++ {
		check([]byte{byte(a)})
		for b := 0x80; b < 256; b++ {
			check([]byte{byte(a), byte(b)})
			check([]byte{0xE2, byte(a), byte(b)})
			check([]byte{0xF0, 0x9F, byte(a), byte(b)})
		}
	}
}
