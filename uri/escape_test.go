package uri

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/testshared"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		in   string
		set  *Set
		want string
	}{
		{"a b", PathSet, "a%20b"},                   // RFC 3986 2.1: "%20" is SP
		{"À", PathSet, "%C3%80"},                    // RFC 3986 2.5: UTF-8 octets, uppercase hex (2.1)
		{"100%", QuerySet, "100%25"},                // RFC 3986 2.4: "%" itself is "%25"
		{"a/b", SegmentSet, "a%2Fb"},                // RFC 3986 3.3: segment has no "/"
		{"a/b", PathSet, "a/b"},                     // RFC 3986 3.3: path-abempty keeps "/"
		{"a?b#c", PathSet, "a%3Fb%23c"},             // RFC 3986 3.3: "?" and "#" end the path
		{"a/b?c", QuerySet, "a/b?c"},                // RFC 3986 3.4: query = *( pchar / "/" / "?" )
		{"a#b", QuerySet, "a%23b"},                  // RFC 3986 3.4: "#" ends the query
		{"a#b?/", FragmentSet, "a%23b?/"},           // RFC 3986 3.5: fragment has no "#"
		{"u:p@h", UserinfoSet, "u:p%40h"},           // RFC 3986 3.2.1: ":" allowed, "@" ends it
		{"a:b[c]", HostSet, "a%3Ab%5Bc%5D"},         // RFC 3986 3.2.2: reg-name has no ":" "[" "]"
		{"k=v&w+x", QueryValueSet, "k%3Dv%26w%2Bx"}, // form structure: "=" "&" "+" encoded
		{"a-._~z", nil, "a-._~z"},                   // RFC 3986 2.3: unreserved never needs encoding
		{"!$", nil, "%21%24"},                       // nil set is unreserved only (RFC 3986 2.2 sub-delims encoded)
		{"ab", NewSet("a"), "a%62"},                 // caller-supplied set
		{"%", NewSet("%"), "%25"},                   // RFC 3986 2.4: "%" is never in a set
		{"", PathSet, ""},
	}
	for _, tt := range tests {
		if got := Escape(tt.in, tt.set); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSetsMatchABNF checks every predefined set byte by byte against the
// ABNF classes of internal/chars (RFC 3986 Appendix A).
func TestSetsMatchABNF(t *testing.T) {
	tests := []struct {
		name string
		in   func(b byte) bool
	}{
		{"userinfo", func(b byte) bool { return chars.Is(b, chars.UserInfo) }},
		{"host", func(b byte) bool { return chars.Is(b, chars.RegName) }},
		{"segment", func(b byte) bool { return chars.Is(b, chars.PChar) }},
		{"path", func(b byte) bool { return chars.Is(b, chars.PChar) || b == '/' }},
		{"query", func(b byte) bool { return chars.Is(b, chars.QueryFrag) }},
		{"fragment", func(b byte) bool { return chars.Is(b, chars.QueryFrag) }},
		// The form's delimiters, and ";" which net/url and old servers split at.
		{"query-value", func(b byte) bool { return chars.Is(b, chars.QueryFrag) && !strings.ContainsRune("&=+;", rune(b)) }},
	}
	for _, tt := range tests {
		set, ok := SetByName(tt.name)
		if !ok {
			t.Fatalf("SetByName(%q) not found", tt.name)
		}
		for b := 0; b < 256; b++ {
			if set.Contains(byte(b)) != tt.in(byte(b)) {
				t.Errorf("%s set: Contains(%q) = %v", tt.name, byte(b), set.Contains(byte(b)))
			}
		}
	}
	if _, ok := SetByName("scheme"); ok {
		t.Error(`SetByName("scheme") found a set`)
	}
}

// TestEscapeRoundTrip: for random strings, every set's output decodes
// back, and holds only bytes of the set and triplets (RFC 3986 2.1).
func TestEscapeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"userinfo", "host", "segment", "path", "query", "fragment", "query-value"}
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		s := string(b)
		for _, name := range names {
			set, _ := SetByName(name)
			e := Escape(s, set)
			d, err := Unescape(e)
			if err != nil || d != s {
				t.Fatalf("%s: Unescape(Escape(%q)) = %q, %v", name, s, d, err)
			}
			for i := 0; i < len(e); i++ {
				if e[i] == '%' {
					if chars.PctError(e, i) >= 0 {
						t.Fatalf("%s: Escape(%q) = %q: bad triplet", name, s, e)
					}
					i += 2
				} else if !set.Contains(e[i]) {
					t.Fatalf("%s: Escape(%q) = %q keeps %q", name, s, e, e[i])
				}
			}
		}
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		offset int // -1: no error
	}{
		{"%41%7e", "A~", -1},   // RFC 3986 2.1, 2.3
		{"a%20b", "a b", -1},   // RFC 3986 2.1
		{"a+b", "a+b", -1},     // RFC 3986 gives "+" no special meaning
		{"%e2%82%ac", "€", -1}, // RFC 3986 2.5: UTF-8 octets
		{"%", "", 1},           // RFC 3986 2.1: pct-encoded = "%" HEXDIG HEXDIG
		{"ab%4", "", 4},
		{"%G1", "", 1},
		{"%1G", "", 2},
		{"ok%41%%41", "", 6},
	}
	for _, tt := range tests {
		got, err := Unescape(tt.in)
		if tt.offset < 0 {
			if err != nil || got != tt.want {
				t.Errorf("Unescape(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || !errors.Is(err, ErrInvalidPercent) {
			t.Errorf("Unescape(%q) error = %v, want ErrInvalidPercent at %d", tt.in, err, tt.offset)
		}
	}
}

func TestNormalizeEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"%7Euser", "~user"},                               // RFC 3986 6.2.2.2 (and 2.3: %7E is "~")
		{"%7euser", "~user"},                               // RFC 3986 6.2.2.2
		{"%41%5A%61%7A%30%39", "AZaz09"},                   // RFC 3986 2.3: ALPHA and DIGIT ranges
		{"%2D%2E%5F%7E", "-._~"},                           // RFC 3986 2.3
		{"%7bfoo%7d", "%7Bfoo%7D"},                         // RFC 3986 6.2.2 example
		{"%3a%2f%3f%23%5b%5d%40", "%3A%2F%3F%23%5B%5D%40"}, // RFC 3986 2.2: reserved stay encoded
		{"%25", "%25"},                                     // RFC 3986 2.4: "%" is not unreserved
		{"a%", "a%"},                                       // malformed: left as is (documented)
		{"%zz%4", "%zz%4"},                                 // malformed: left as is
		{"%c3%a9", "%C3%A9"},                               // RFC 3986 6.2.2.1: uppercase hex
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := NormalizeEscapes(tt.in); got != tt.want {
			t.Errorf("NormalizeEscapes(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := NormalizeEscapes(tt.want); got != tt.want {
			t.Errorf("NormalizeEscapes(%q) = %q, not idempotent", tt.want, got)
		}
	}
}

func TestEscapeAllocs(t *testing.T) {
	s := "/a/normal-path/with~unreserved?and=query"
	n := s + "%2F%C3%A9"
	tests := []struct {
		name string
		f    func()
	}{
		{"Escape", func() { Escape(s, QuerySet) }},
		{"Unescape", func() { Unescape(s) }},
		{"NormalizeEscapes", func() { NormalizeEscapes(n) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: %v allocs, want 0", tt.name, n)
		}
	}
}

// TestEscapeLinear: 1 MB of "%" is handled correctly, and Escape,
// NormalizeEscapes and Unescape take linear time on it.
func TestEscapeLinear(t *testing.T) {
	s := strings.Repeat("%", 1<<20)
	if got := Escape(s, PathSet); len(got) != 3<<20 {
		t.Fatalf("len = %d", len(got))
	}
	if got := NormalizeEscapes(s); got != s {
		t.Fatal("NormalizeEscapes changed malformed input")
	}
	if _, err := Unescape(s); err == nil {
		t.Fatal("Unescape accepted a lone %")
	}
	pct := func(n int) string { return strings.Repeat("%", n) }
	testshared.CheckLinear(t, "Escape %%%%", pct, func(s string) { Escape(s, PathSet) })
	testshared.CheckLinear(t, "NormalizeEscapes %%%%", pct, func(s string) { NormalizeEscapes(s) })
	testshared.CheckLinear(t, "Unescape %%%%", pct, func(s string) { Unescape(s) })
}
