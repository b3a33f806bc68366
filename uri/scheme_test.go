package uri_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
)

func TestRegistryMechanism(t *testing.T) {
	r, err := uri.NewRegistry(uri.Scheme{Name: "x", DefaultPort: 7}, uri.Scheme{Name: "y", EmptyPathIsRoot: true})
	if err != nil {
		t.Fatal(err)
	}
	// RFC 3986 3.1: schemes compare without regard to case.
	if s, ok := r.Lookup("X"); !ok || s.DefaultPort != 7 {
		t.Errorf("Lookup(X) = %+v, %v", s, ok)
	}
	if !r.Equal(uri.MustParse("x://h:7/a"), uri.MustParse("X://H/a")) { // RFC 3986 6.2.3
		t.Errorf("x: default port 7 not removed")
	}
	if !r.Equal(uri.MustParse("y://h"), uri.MustParse("y://h/")) { // RFC 3986 6.2.3
		t.Errorf("y: empty path not \"/\"")
	}
	if r.Equal(uri.MustParse("http://h:80/"), uri.MustParse("http://h/")) {
		t.Errorf("a registry without http knows its default port")
	}
	// Issue 22: a scheme name over 32 bytes (IANA registers
	// "microsoft.windows.camera.multipicker") is found too.
	long := "microsoft.windows.camera.multipicker"
	rl, err := r.With(uri.Scheme{Name: long, DefaultPort: 9})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := rl.Lookup(strings.ToUpper(long)); !ok || s.DefaultPort != 9 {
		t.Errorf("Lookup of a %d-byte name = %+v, %v", len(long), s, ok)
	}
	// With returns a new registry and leaves r alone.
	r2, err := r.With(uri.Scheme{Name: "x", DefaultPort: 8})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Lookup("x"); s.DefaultPort != 7 {
		t.Errorf("With changed the original registry")
	}
	if s, _ := r2.Lookup("x"); s.DefaultPort != 8 {
		t.Errorf("With did not replace x")
	}
	if _, ok := r2.Lookup("y"); !ok {
		t.Errorf("With lost y")
	}
	// A Scheme returned by Lookup is a copy.
	s, _ := r.Lookup("x")
	s.DefaultPort = 9
	if s, _ := r.Lookup("x"); s.DefaultPort != 7 {
		t.Errorf("changing a looked-up Scheme changed the registry")
	}
	for _, bad := range [][]uri.Scheme{{{Name: "X"}}, {{Name: "1x"}}, {{Name: ""}}, {{Name: "a"}, {Name: "a"}}} {
		if _, err := uri.NewRegistry(bad...); !errors.Is(err, uri.ErrSchemeName) && !errors.Is(err, uri.ErrSchemeDuplicate) {
			t.Errorf("NewRegistry(%+v) = %v, want an error", bad, err)
		}
	}
	// The zero Registry is RFC 3986 6.2.2 alone.
	var zero uri.Registry
	if got := zero.Normalize(uri.MustParse("HTTP://A:80/%7e")).String(); got != "http://a:80/~" {
		t.Errorf("zero Registry: %q", got)
	}
	names := []string{}
	for _, s := range uri.DefaultRegistry().Schemes() {
		names = append(names, s.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "http https") || !strings.Contains(strings.Join(names, " "), "urn") {
		t.Errorf("DefaultRegistry().Schemes() = %v", names)
	}
}

// TestURNEquivalenceInURI: issue 11. uri.Equal gives RFC 8141's answer on
// URNs: section 3.1 decodes nothing, folds the case of "urn" and the NID
// and of hex digits, and ignores the r-, q- and f-components.
func TestURNEquivalenceInURI(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{"urn:example:%61", "urn:example:a", false},                   // RFC 8141 3.1: no decoding (issue 11)
		{"urn:example:a123,z456", "URN:example:a123,z456", true},      // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:EXAMPLE:a123,z456", true},      // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:a123,z456?+abc", true}, // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:a123,z456?=xyz", true}, // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:a123,z456#789", true},  // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:a123,z456/foo", false}, // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:a123%2Cz456", false},   // RFC 8141 3.2
		{"urn:example:a123,z456", "urn:example:A123,z456", false},     // RFC 8141 3.2
		{"urn:example:a123%2Cz456", "URN:EXAMPLE:a123%2cz456", true},  // RFC 8141 3.2
		{"urn:example:a/./b", "urn:example:a/b", false},               // RFC 8141 3.1: no dot-segment removal
	}
	for _, tt := range tests {
		if got := uri.Equal(uri.MustParse(tt.a), uri.MustParse(tt.b)); got != tt.equal {
			t.Errorf("Equal(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.equal)
		}
	}
	if k := uri.MustParse("URN:Example:a%2c?=q#f").Key(); k != "urn:example:a%2C" {
		t.Errorf("Key = %q", k)
	}
	if n := uri.MustParse("URN:Example:a%2c?=q#f").Normalize().String(); n != "urn:example:a%2C?=q#f" {
		t.Errorf("Normalize = %q", n)
	}
}
