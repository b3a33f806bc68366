package glob

import (
	"path"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"utm_*", "utm_source", true},
		{"utm_*", "utm_", true},
		{"utm_*", "xutm_source", false},
		{"*", "", true},
		{"*", "a/b", true}, // unlike path.Match
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"?", "é", true}, // one character, not one byte
		{"??", "é", false},
		{"[a-c]x", "bx", true},
		{"[!a-c]x", "bx", false},
		{"[^a-c]x", "dx", true},
		{"[]]", "]", true},
		{`\*`, "*", true},
		{`\*`, "a", false},
		{"fb?clid", "fbclid", false},
		{"*clid", "fbclid", true},
		{"", "", true},
		{"", "a", false},
		{"a**", "a", true},
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.s); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, bad := range []string{"[", "[a", `a\`, `[\`, "[!"} {
		if Check(bad) == nil {
			t.Errorf("Check(%q) = nil, want ErrBadPattern", bad)
		}
		if Match(bad, "a") {
			t.Errorf("Match(%q, %q) = true for a malformed pattern", bad, "a")
		}
	}
	for _, good := range []string{"a", "*", "[a-z]", `\[`, "[]]"} {
		if err := Check(good); err != nil {
			t.Errorf("Check(%q) = %v", good, err)
		}
	}
}

// TestAgreesWithPathMatch compares with path.Match on strings without
// "/", where the two define the same language.
func TestAgreesWithPathMatch(t *testing.T) {
	patterns := []string{"a*", "*b", "a?c", "[ab]*", "[^a]?", "*a*b*", "x", "??*"}
	words := []string{"", "a", "ab", "abc", "ba", "xab", "aab", "x", "bab"}
	for _, p := range patterns {
		for _, w := range words {
			want, _ := path.Match(p, w)
			if got := Match(p, w); got != want {
				t.Errorf("Match(%q, %q) = %v, path.Match says %v", p, w, got, want)
			}
		}
	}
}

// TestMatchTime: the worst case of a star backtracking matcher stays
// polynomial (quadratic), not exponential.
func TestMatchTime(t *testing.T) {
	s := strings.Repeat("a", 4000)
	p := strings.Repeat("*a", 20) + "b"
	if Match(p, s) {
		t.Fatal("matched")
	}
}
