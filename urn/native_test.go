package urn

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// RFC 8141 section 2.2 (2012 draft section 2.2): characters outside pchar,
// "/" "?" "#" "[" "]" and "%" included, are UTF-8 encoded and
// percent-encoded.
func TestFromNative(t *testing.T) {
	tests := []struct{ nid, in, want string }{
		{"example", "a123,z456", "urn:example:a123,z456"},
		{"example", "а123,z456", "urn:example:%D0%B0123,z456"}, // RFC 8141 3.2, sixth example
		{"example", "1/406/47452/2", "urn:example:1%2F406%2F47452%2F2"},
		{"example", "a?b#c[d]e%f", "urn:example:a%3Fb%23c%5Bd%5De%25f"},
		{"example", "a b\x00", "urn:example:a%20b%00"},
		{"nbn", "no-nb_digibok_2012032124032", "urn:nbn:no-nb_digibok_2012032124032"},
		{"example", "Bjørnson", "urn:example:Bj%C3%B8rnson"},
		{"example", "a:b@c!$&'()*+,;=-._~", "urn:example:a:b@c!$&'()*+,;=-._~"},
	}
	for _, tt := range tests {
		u, err := FromNative(tt.nid, tt.in)
		if err != nil || u.String() != tt.want {
			t.Errorf("FromNative(%q, %q) = %q, %v; want %q", tt.nid, tt.in, u, err, tt.want)
			continue
		}
		if got := u.DecodedNSS(); got != tt.in {
			t.Errorf("FromNative(%q, %q).DecodedNSS() = %q", tt.nid, tt.in, got)
		}
	}
	for _, bad := range []struct{ nid, in string }{{"a", "x"}, {"example", ""}, {"example", "\xff"}, {"ex ample", "x"}} {
		if u, err := FromNative(bad.nid, bad.in); err == nil {
			t.Errorf("FromNative(%q, %q) = %q, want an error", bad.nid, bad.in, u)
		}
	}
	if _, err := FromNative("example", "\xff"); !errors.Is(err, ErrNotUTF8) {
		t.Errorf("FromNative with invalid UTF-8: %v", err)
	}
}

// RFC 8141 section 4.4 and 2012 draft section 4: display forms.
func TestDisplay(t *testing.T) {
	tests := []struct {
		in      string
		text    string
		mixed   bool
		warning string
	}{
		{"urn:example:a123,z456", "urn:example:a123,z456", false, ""},
		{"urn:example:%D0%B0123,z456", "urn:example:а123,z456", true, "U+0430 CYRILLIC SMALL LETTER A"}, // RFC 8141 3.2 sixth
		{"urn:example:Bj%C3%B8rnson", "urn:example:Bjørnson", false, ""},
		{"urn:example:a%2Cb", "urn:example:a%2Cb", false, ""}, // ASCII stays encoded (2012 draft 4, note)
		{"urn:example:a%20b", "urn:example:a%20b", false, ""},
		{"urn:example:a%E2%80%AEb", "urn:example:a%E2%80%AEb", false, ""},             // U+202E RIGHT-TO-LEFT OVERRIDE stays encoded
		{"urn:example:a%C3%28", "urn:example:a%C3%28", false, ""},                     // invalid UTF-8 stays encoded
		{"urn:example:%CE%B1%CE%B2?=%D0%B0#%D0%B0", "urn:example:αβ?=а#а", false, ""}, // components decoded, not judged
		{"urn:example:p%D0%B0yp%D0%B0l", "urn:example:pаypаl", true, "U+0430 CYRILLIC SMALL LETTER A (Cyrillic) among Latin letters, 2 times"},
	}
	for _, tt := range tests {
		d := MustParse(tt.in).Display()
		if d.Text != tt.text || d.MixedScript != tt.mixed {
			t.Errorf("Display(%q) = %q, mixed %v; want %q, %v", tt.in, d.Text, d.MixedScript, tt.text, tt.mixed)
		}
		if tt.warning != "" && (len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], tt.warning)) {
			t.Errorf("Display(%q).Warnings = %q, want %q", tt.in, d.Warnings, tt.warning)
		}
		if tt.warning == "" && len(d.Warnings) != 0 {
			t.Errorf("Display(%q).Warnings = %q, want none", tt.in, d.Warnings)
		}
	}
}

func TestEncodeNSS(t *testing.T) {
	if got := EncodeNSS("plain"); got != "plain" {
		t.Errorf("EncodeNSS(plain) = %q", got)
	}
	if got := EncodeNSS("%"); got != "%25" {
		t.Errorf("EncodeNSS(%%) = %q", got)
	}
}

// Issue 7, defect 1: Display on a long URN mixing scripts takes linear
// time and warns once per kind of letter, with its count.
func TestDisplayLinear(t *testing.T) {
	const unit = "p%D0%B0yp%CE%B1" // Latin, U+0430 CYRILLIC, Latin, U+03B1 GREEK
	gen := func(n int) URN { return MustParse("urn:example:" + strings.Repeat(unit, n/len(unit))) }
	testshared.CheckLinear(t, "Display", gen, func(u URN) {
		if d := u.Display(); len(d.Warnings) != 2 {
			t.Fatalf("Display: %d warnings, want 2 (one per kind)", len(d.Warnings))
		}
	})
	d := MustParse("urn:example:" + strings.Repeat(unit, 1000)).Display()
	want := []string{
		"U+0430 CYRILLIC SMALL LETTER A (Cyrillic) among Latin letters, 1000 times",
		"U+03B1 GREEK SMALL LETTER ALPHA (Greek) among Latin letters, 1000 times",
	}
	if strings.Join(d.Warnings, "|") != strings.Join(want, "|") || strings.Join(d.Scripts, " ") != "Latin Cyrillic Greek" {
		t.Errorf("Display: scripts %q, warnings %q; want %q", d.Scripts, d.Warnings, want)
	}
}
