package iri_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/iri"
)

func TestHostToASCII(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{"bücher.example", "xn--bcher-kva.example", nil}, // RFC 3492 / UTS #46 ToASCII
		{"例え.jp", "xn--r8jz45g.jp", nil},
		{"EXAMPLE.com", "example.com", nil},                 // UTS #46 mapping lowercases
		{strings.Repeat("é", 64), "", iri.ErrLabelTooLong},  // RFC 1034 3.1: 63 a label
		{strings.Repeat("é.", 127), "", iri.ErrNameTooLong}, // 254 code points
	}
	for _, tt := range tests {
		got, err := iri.HostToASCII(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("HostToASCII(%.20q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	// 40 code points (80 bytes) fit in a 63-character A-label.
	if got, err := iri.HostToASCII(strings.Repeat("é", 40)); err != nil || !strings.HasPrefix(got, "xn--") || len(got) > 63 {
		t.Errorf("40 × é: %q, %v", got, err)
	}
	// A long name fails fast: linear, before Punycode.
	testshared.CheckLinearN(t, "long host", 24<<10, func(n int) string { return strings.Repeat("例え", n/6) }, func(h string) {
		if _, err := iri.HostToASCII(h); !errors.Is(err, iri.ErrNameTooLong) {
			t.Fatalf("HostToASCII(%d bytes): %v", len(h), err)
		}
	})
}

// TestEmptyACELabel: UTS #46 section 4 (Processing) step 4, for a label
// that starts with "xn--": "If the label is empty, or if the label
// contains only ASCII code points, record that there was an error."
// x/net/idna's Lookup profile drops such a label without one.
func TestEmptyACELabel(t *testing.T) {
	for _, h := range []string{"xn--.ß", "1.2.3.ｘｎ－－", "ß.xn--", "ß.ｘｎ－－.example"} {
		if got, err := iri.HostToASCII(h); err == nil {
			t.Errorf("HostToASCII(%q) = %q; want an error", h, got)
		}
	}
	for _, s := range []string{"http://xn--.ß/", "http://1.2.3.ｘｎ－－/", "http://ß.xn--/p"} {
		if got, err := iri.ToURI(s); err == nil {
			t.Errorf("ToURI(%q) = %q; want an error", s, got)
		}
	}
	if got, err := iri.ToURI("http://xn--zca.ß/"); err != nil || got.String() != "http://xn--zca.xn--zca/" {
		t.Errorf("ToURI(http://xn--zca.ß/) = %q, %v", got, err)
	}
}

func ExampleHostToASCII() {
	fmt.Println(iri.HostToASCII("bücher.example"))
	// Output: xn--bcher-kva.example <nil>
}
