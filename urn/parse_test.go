package urn

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// comp describes an optional component: absent, or present with a value.
type comp struct {
	v  string
	ok bool
}

func some(v string) comp { return comp{v, true} }

var none = comp{}

type parseTest struct {
	in       string
	nid, nss string
	r, q, f  comp
}

func runParseTests(t *testing.T, d Dialect, tests []parseTest) {
	t.Helper()
	for _, tt := range tests {
		u, err := ParseWith(tt.in, Options{Dialect: d})
		if err != nil {
			t.Errorf("%v: ParseDialect(%q): %v", d, tt.in, err)
			continue
		}
		if u.String() != tt.in {
			t.Errorf("%v: %q: String() = %q", d, tt.in, u.String())
		}
		if u.NID() != tt.nid || u.NSS() != tt.nss {
			t.Errorf("%v: %q: NID, NSS = %q, %q; want %q, %q", d, tt.in, u.NID(), u.NSS(), tt.nid, tt.nss)
		}
		for _, c := range []struct {
			name string
			get  func() (string, bool)
			want comp
		}{{"r", u.RComponent, tt.r}, {"q", u.QComponent, tt.q}, {"f", u.FComponent, tt.f}} {
			v, ok := c.get()
			if v != c.want.v || ok != c.want.ok {
				t.Errorf("%v: %q: %s-component = %q, %v; want %q, %v", d, tt.in, c.name, v, ok, c.want.v, c.want.ok)
			}
		}
	}
}

// RFC 8141 section 2 and the examples of its sections 2.2, 2.3.1, 2.3.2,
// 2.3.3 and 3.2.
func TestParseRFC8141(t *testing.T) {
	runParseTests(t, RFC8141, []parseTest{
		{"urn:example:foo", "example", "foo", none, none, none},                                                             // RFC 6963 section 2
		{"urn:example:1/406/47452/2", "example", "1/406/47452/2", none, none, none},                                         // RFC 8141 2.2
		{"urn:example:foo-bar-baz-qux?+CCResolve:cc=uk", "example", "foo-bar-baz-qux", some("CCResolve:cc=uk"), none, none}, // RFC 8141 2.3.1
		{"urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z", "example", "weather",
			none, some("op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z"), none}, // RFC 8141 2.3.2
		{"urn:example:foo-bar-baz-qux#somepart", "example", "foo-bar-baz-qux", none, none, some("somepart")}, // RFC 8141 2.3.3
		{"urn:example:a123,z456", "example", "a123,z456", none, none, none},                                  // RFC 8141 3.2
		{"URN:example:a123,z456", "example", "a123,z456", none, none, none},                                  // RFC 8141 3.2
		{"urn:EXAMPLE:a123,z456", "EXAMPLE", "a123,z456", none, none, none},                                  // RFC 8141 3.2
		{"urn:example:a123,z456?+abc", "example", "a123,z456", some("abc"), none, none},                      // RFC 8141 3.2
		{"urn:example:a123,z456?=xyz", "example", "a123,z456", none, some("xyz"), none},                      // RFC 8141 3.2
		{"urn:example:a123,z456#789", "example", "a123,z456", none, none, some("789")},                       // RFC 8141 3.2
		{"urn:example:a123,z456/foo", "example", "a123,z456/foo", none, none, none},                          // RFC 8141 3.2
		{"urn:example:a123%2Cz456", "example", "a123%2Cz456", none, none, none},                              // RFC 8141 3.2
		{"URN:EXAMPLE:a123%2cz456", "EXAMPLE", "a123%2cz456", none, none, none},                              // RFC 8141 3.2
		{"urn:example:%D0%B0123,z456", "example", "%D0%B0123,z456", none, none, none},                        // RFC 8141 3.2
		{"urn:example:a?+r?=q#f", "example", "a", some("r"), some("q"), some("f")},                           // RFC 8141 2: all three, in order
	})
	runParseTests(t, RFC8141, []parseTest{
		{"urn:example:a?+r?x/?=q?y/#f?/", "example", "a", some("r?x/"), some("q?y/"), some("f?/")}, // "?" and "/" inside components (RFC 8141 2)
		{"urn:example:a#", "example", "a", none, none, some("")},                                   // empty fragment (RFC 3986 3.5)
		{"urn:example:a?+r?+s", "example", "a", some("r?+s"), none, none},                          // r-component ends only at "?=" or "#" (2.3.1)
		{"urn:example:a?=q?=s?+t", "example", "a", none, some("q?=s?+t"), none},                    // q-component ends only at "#" (2.3.2)
	})
	runParseTests(t, RFC8141, []parseTest{
		{"urn:a1:b", "a1", "b", none, none, none},
		{"urn:" + "a123456789012345678901234567890b" + ":x", "a123456789012345678901234567890b", "x", none, none, none}, // 32 characters
		{"urn:urn-7:informal", "urn-7", "informal", none, none, none},
		{"urn:urn:x", "urn", "x", none, none, none}, // reserved, but not a syntax error in RFC 8141 (see ClassifyNID)
		{"urn:ab:%00", "ab", "%00", none, none, none},
		{"urn:ab:a&b~c", "ab", "a&b~c", none, none, none},
	})
}

// The 2015 draft, section 3: "?" q-component before "??" r-component. Its
// text copy lost the example URNs of sections 3.3.1 to 3.3.3; these are
// RFC 8141's examples (sections 2.3.1 to 2.3.3) written in the draft's
// syntax.
func TestParseDraft2015(t *testing.T) {
	runParseTests(t, Draft2015, []parseTest{
		{"urn:example:weather?op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z", "example", "weather",
			none, some("op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z"), none}, // 3.3.1
		{"urn:example:foo-bar-baz-qux??CCResolve:cc=uk", "example", "foo-bar-baz-qux", some("CCResolve:cc=uk"), none, none}, // 3.3.2
		{"urn:example:foo-bar-baz-qux#somepart", "example", "foo-bar-baz-qux", none, none, some("somepart")},                // 3.3.3
		{"urn:example:1/406/47452/2", "example", "1/406/47452/2", none, none, none},                                         // 3.2
		{"urn:example:a?q??r#f", "example", "a", some("r"), some("q"), some("f")},                                           // 3
		{"urn:example:a?q?x??r?y#f", "example", "a", some("r?y"), some("q?x"), some("f")},                                   // "?" inside (3)
		{"urn:example:a?+r", "example", "a", none, some("+r"), none},                                                        // "?+" means nothing here
	})
}

// The 2012 draft, section 2: NSS = 1*pchar, query = directives, fragment.
func TestParseDraft2012(t *testing.T) {
	runParseTests(t, Draft2012, []parseTest{
		{"URN:foo:a123,456", "foo", "a123,456", none, none, none},                                        // 5.1 (1)
		{"urn:foo:a123,456?x=y", "foo", "a123,456", none, some("x=y"), none},                             // 5.1 (7)
		{"urn:foo:a123,456#xyz", "foo", "a123,456", none, none, some("xyz")},                             // 5.1 (8)
		{"URN:ISBN:0-395-36341-1?s=I2L&c=ToC", "ISBN", "0-395-36341-1", none, some("s=I2L&c=ToC"), none}, // 2.3.2
		{"urn:foo:a?s=I2U", "foo", "a", none, some("s=I2U"), none},                                       // 2.3.1
		{"urn:foo:a?k=&b-2=v/?:@=#f", "foo", "a", none, some("k=&b-2=v/?:@="), some("f")},                // 2.3 keywd and v-pchar
		{"urn:foo:a&b~c", "foo", "a&b~c", none, none, none},                                              // Appendix C: "&" and "~" allowed
	})
}

// RFC 2141 section 2.
func TestParseRFC2141(t *testing.T) {
	runParseTests(t, RFC2141, []parseTest{
		{"urn:a:b", "a", "b", none, none, none},                       // <NID> ::= <let-num> [ 1,31<let-num-hyp> ]
		{"URN:abcd-:x", "abcd-", "x", none, none, none},               // trailing hyphen allowed
		{"urn:foo:a123%2C456", "foo", "a123%2C456", none, none, none}, // section 5 example
		{"urn:foo:a/b", "foo", "a/b", none, none, none},               // "/" is in <reserved>, only discouraged (2.3.2)
		{"urn:ciao:@!=%2C(xyz)+a,b.*@g=$_'", "ciao", "@!=%2C(xyz)+a,b.*@g=$_'", none, none, none},
	})
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		d      Dialect
		in     string
		offset int
		comp   Component
		reason error
	}{
		{RFC8141, "", 0, ComponentScheme, ErrUnexpectedEnd},
		{RFC8141, "ur", 2, ComponentScheme, ErrUnexpectedEnd},
		{RFC8141, "urn", 3, ComponentScheme, ErrUnexpectedEnd},
		{RFC8141, "urno", 3, ComponentScheme, ErrNotURN},
		{RFC8141, "arn:a:b", 0, ComponentScheme, ErrNotURN},
		{RFC8141, "urn:", 4, ComponentNID, ErrUnexpectedEnd},
		{RFC8141, "urn::", 4, ComponentNID, ErrInvalidNID},
		{RFC8141, "urn:a", 5, ComponentNID, ErrUnexpectedEnd},
		{RFC8141, "urn:a:nss", 5, ComponentNID, ErrNIDTooShort},      // 2 to 32 characters
		{RFC8141, "urn:-a:nss", 4, ComponentNID, ErrInvalidNID},      // starts with alphanum
		{RFC8141, "URN:trailing-:w", 13, ComponentNID, ErrNIDHyphen}, // ends with alphanum
		{RFC8141, "urn:a_b:x", 5, ComponentNID, ErrInvalidNID},
		{RFC8141, "urn:" + "a123456789012345678901234567890bc:x", 36, ComponentNID, ErrNIDTooLong},
		{RFC8141, "urn:" + "a123456789012345678901234567890-:x", 35, ComponentNID, ErrNIDHyphen}, // a 32nd character must be the last
		{RFC8141, "urn:ab:", 7, ComponentNSS, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:/x", 7, ComponentNSS, ErrInvalidCharacter}, // NSS = pchar *(pchar / "/")
		{RFC8141, "urn:ab:?", 7, ComponentNSS, ErrInvalidCharacter},
		{RFC8141, "urn:ab:a b", 8, ComponentNSS, ErrInvalidCharacter},
		{RFC8141, "urn:example:а123", 12, ComponentNSS, ErrInvalidCharacter}, // RFC 8141 3.2 sixth: must be encoded
		{RFC8141, "urn:ab:%", 8, ComponentNSS, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:%A", 9, ComponentNSS, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:%G0", 8, ComponentNSS, ErrInvalidPercent},
		{RFC8141, "urn:ab:%0G", 9, ComponentNSS, ErrInvalidPercent},
		{RFC8141, "urn:ab:c?", 9, ComponentQ, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:c?x", 9, ComponentQ, ErrInvalidCharacter}, // "?" not followed by "+" or "=" (RFC 8141 2)
		{RFC8141, "urn:ab:c?+", 10, ComponentR, ErrUnexpectedEnd},   // r-component = pchar *(...)
		{RFC8141, "urn:ab:c?+?=q", 10, ComponentR, ErrInvalidCharacter},
		{RFC8141, "urn:ab:c?+/", 10, ComponentR, ErrInvalidCharacter},
		{RFC8141, "urn:ab:c?=", 10, ComponentQ, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:c?=?", 10, ComponentQ, ErrInvalidCharacter},
		{RFC8141, "urn:ab:c?+r?=", 13, ComponentQ, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:c#a b", 10, ComponentF, ErrInvalidCharacter},
		{RFC8141, "urn:ab:c#%", 10, ComponentF, ErrUnexpectedEnd},
		{RFC8141, "urn:ab:c#a#", 10, ComponentF, ErrInvalidCharacter},
		{Draft2015, "urn:ab:c?", 9, ComponentQ, ErrUnexpectedEnd},
		{Draft2015, "urn:ab:c??", 10, ComponentR, ErrUnexpectedEnd},
		{Draft2015, "urn:ab:c???x", 10, ComponentR, ErrInvalidCharacter},
		{Draft2015, "urn:ab:c?q??", 12, ComponentR, ErrUnexpectedEnd},
		{Draft2015, "urn:ab:c?q???r", 12, ComponentR, ErrInvalidCharacter}, // the first "??" ends the q-component (3.3.1)
		{Draft2012, "urn:ab:a/b", 8, ComponentNSS, ErrInvalidCharacter},    // NSS = 1*pchar (2.2)
		{Draft2012, "urn:urn:x", 7, ComponentNID, ErrReservedNID},          // 2.1
		{Draft2012, "urn:ab-:x", 7, ComponentNID, ErrNIDHyphen},            // 2.1, not Appendix B
		{Draft2012, "urn:ab:%00", 9, ComponentNSS, ErrNUL},                 // 2.5.3
		{Draft2012, "urn:ab:c#%00", 11, ComponentF, ErrNUL},                // 2.5.3: "in URNs"
		{Draft2012, "urn:ab:c?", 9, ComponentQ, ErrUnexpectedEnd},          // urn-query = directive *( "&" directive )
		{Draft2012, "urn:ab:c?1=x", 9, ComponentQ, ErrInvalidDirective},    // keywd = ALPHA ...
		{Draft2012, "urn:ab:c?a-=x", 11, ComponentQ, ErrInvalidDirective},
		{Draft2012, "urn:ab:c?a--b=x", 11, ComponentQ, ErrInvalidDirective},
		{Draft2012, "urn:ab:c?a", 10, ComponentQ, ErrUnexpectedEnd},
		{Draft2012, "urn:ab:c?a=x&", 13, ComponentQ, ErrUnexpectedEnd},
		{Draft2012, "urn:ab:c?a=x&&", 13, ComponentQ, ErrInvalidDirective},
		{Draft2012, "urn:ab:c?a=[", 11, ComponentQ, ErrInvalidCharacter},
		{RFC2141, "urn:urn:x", 7, ComponentNID, ErrReservedNID}, // RFC 2141 2.1
		{RFC2141, "urn:a:b&c", 7, ComponentNSS, ErrInvalidCharacter},
		{RFC2141, "urn:a:b~c", 7, ComponentNSS, ErrInvalidCharacter},
		{RFC2141, "urn:a:b?c", 7, ComponentNSS, ErrInvalidCharacter},
		{RFC2141, "urn:a:b#c", 7, ComponentNSS, ErrInvalidCharacter},
		{RFC2141, "urn:" + "a123456789012345678901234567890b-:x", 36, ComponentNID, ErrNIDTooLong},
	}
	for _, tt := range tests {
		u, err := ParseWith(tt.in, Options{Dialect: tt.d})
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%v: ParseDialect(%q) = %q, %v; want a *ParseError", tt.d, tt.in, u, err)
			continue
		}
		if pe.Offset != tt.offset || pe.Component != tt.comp || !errors.Is(err, tt.reason) || pe.Input != tt.in {
			t.Errorf("%v: ParseDialect(%q) error = %v (offset %d, %v); want offset %d in %v, %v",
				tt.d, tt.in, err, pe.Offset, pe.Component, tt.offset, tt.comp, tt.reason)
		}
		if !u.IsZero() {
			t.Errorf("%v: ParseDialect(%q) returned a non-zero URN with an error", tt.d, tt.in)
		}
	}
}

// TestOffsetIsLongestPrefix checks the promise of ParseError.Offset on the
// error table's inputs: the prefix before the offset still begins a valid
// URN, so some completion of it parses.
func TestOffsetIsLongestPrefix(t *testing.T) {
	completions := []string{"", "a", "0", "b:x", "a:x", "=x", "+x", "x", ":x", "1", "a-b:x", "41", "s=x", "b=x"}
	for _, d := range []Dialect{RFC8141, Draft2015, Draft2012, RFC2141} {
		for _, in := range []string{
			"urn:a:nss", "URN:trailing-:w", "urn:ab:/x", "urn:ab:c?x", "urn:ab:c?+?=q",
			"urn:ab:%G0", "urn:ab:c???x", "urn:ab:c?a--b=x", "urn:urn:x", "urn:ab:%00x",
		} {
			_, err := ParseWith(in, Options{Dialect: d})
			var pe *ParseError
			if !errors.As(err, &pe) {
				continue
			}
			prefix := in[:pe.Offset]
			ok := false
			for _, c := range completions {
				for _, c2 := range []string{c, ":" + c, "?" + c, "??" + c, "?+" + c, "?=" + c, "?" + c + "=x"} {
					if _, err := ParseWith(prefix+c2, Options{Dialect: d}); err == nil {
						ok = true
					}
				}
			}
			if !ok {
				t.Errorf("%v: %q fails at %d but no completion of %q parses", d, in, pe.Offset, prefix)
			}
		}
	}
}

func TestParseAllocs(t *testing.T) {
	in := "urn:example:CamelCase1/406/47452/2?+Cc=it&prefix=39?=lat=41.22255&long=16.06596#frag"
	n := testing.AllocsPerRun(100, func() {
		if _, err := Parse(in); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("Parse allocates %v times, want 0", n)
	}
}

// Messages name the offending byte only when the reason is about its
// character class; the offsets follow the ParseError definition.
func TestErrorMessage(t *testing.T) {
	tests := []struct {
		d          Dialect
		in, want   string
		wantReason error
	}{
		{RFC8141, "urn:foo:/x", `urn: invalid character '/' at offset 8 in NSS of "urn:foo:/x"`, ErrInvalidCharacter}, // RFC 8141 2: NSS starts with pchar
		{RFC8141, "urn:foo", `urn: unexpected end of input at offset 7 in NID of "urn:foo"`, ErrUnexpectedEnd},
		{RFC8141, "urn:a:b", `urn: namespace identifier shorter than 2 characters at offset 5 in NID of "urn:a:b"`, ErrNIDTooShort}, // RFC 8141 2: NID is 2 to 32 characters
		{RFC8141, "urn:a!:b", `urn: invalid namespace identifier '!' at offset 5 in NID of "urn:a!:b"`, ErrInvalidNID},              // ldh only
		{RFC8141, "urn:ab-:c", `urn: namespace identifier ends with a hyphen at offset 7 in NID of "urn:ab-:c"`, ErrNIDHyphen},      // NID ends alphanum
		{RFC8141, "urn:ab:%G1", `urn: malformed percent-encoding 'G' at offset 8 in NSS of "urn:ab:%G1"`, ErrInvalidPercent},        // RFC 3986 2.1 HEXDIG
		{Draft2012, "urn:ab:c%00", `urn: NUL octet at offset 10 in NSS of "urn:ab:c%00"`, ErrNUL},                                   // 2012 draft 2.5.3
		{RFC8141, "urx:ab:c", `urn: scheme is not "urn" at offset 2 in scheme of "urx:ab:c"`, ErrNotURN},
		{RFC8141, "urn:ab:c\x01", `urn: invalid character byte 0x01 at offset 8 in NSS of "urn:ab:c\x01"`, ErrInvalidCharacter},
	}
	for _, tt := range tests {
		_, err := ParseWith(tt.in, Options{Dialect: tt.d})
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseDialect(%q) error = %v, want %s", tt.in, err, tt.want)
		}
		if !errors.Is(err, tt.wantReason) {
			t.Errorf("ParseDialect(%q) error %v is not %v", tt.in, err, tt.wantReason)
		}
	}
}

func TestAccessors(t *testing.T) {
	u := MustParse("URN:Example:a%2Cb%c3%a9?+r?=q#f")
	if u.Scheme() != "URN" || u.AssignedName() != "URN:Example:a%2Cb%c3%a9" || u.DecodedNSS() != "a,bé" {
		t.Errorf("Scheme, AssignedName, DecodedNSS = %q, %q, %q", u.Scheme(), u.AssignedName(), u.DecodedNSS())
	}
	if u.Dialect() != RFC8141 || u.HasNUL() {
		t.Errorf("Dialect, HasNUL = %v, %v", u.Dialect(), u.HasNUL())
	}
	var z URN
	if !z.IsZero() || z.String() != "" || z.NID() != "" || z.NSS() != "" || z.Key() != "" {
		t.Errorf("zero URN is not empty")
	}
	if _, ok := z.QComponent(); ok {
		t.Errorf("zero URN has a q-component")
	}
	n := MustParse("urn:ab:%00")
	if !n.HasNUL() || len(n.Warnings()) == 0 {
		t.Errorf("urn:ab:%%00: HasNUL, Warnings = %v, %v", n.HasNUL(), n.Warnings())
	}
}

func TestDialectNames(t *testing.T) {
	for _, d := range []Dialect{RFC8141, Draft2015, Draft2012, RFC2141} {
		got, ok := DialectByName(d.String())
		if !ok || got != d {
			t.Errorf("DialectByName(%q) = %v, %v", d.String(), got, ok)
		}
	}
	if _, ok := DialectByName("rfc3986"); ok {
		t.Errorf("DialectByName accepts rfc3986")
	}
}

// TestScanNSS holds the eight-byte loop of scanNSS to the byte loop it
// replaces: for every byte value at every offset of a run of plain NSS
// bytes, both stop at the same place (issue 18).
func TestScanNSS(t *testing.T) {
	ref := func(s string, i int) int {
		for i < len(s) && nssPlain[s[i]] {
			i++
		}
		return i
	}
	plain := "abcdefghij0123456789-._~!$&'()*+,;=:@/%"[:39] // pchar and "/", no "%"
	for n := 0; n <= 20; n++ {
		for k := 0; k < n; k++ {
			for c := 0; c < 256; c++ {
				b := make([]byte, n)
				for x := range b {
					b[x] = plain[(x*7)%len(plain)]
				}
				b[k] = byte(c)
				s := string(b)
				for i := 0; i <= min(n, 3); i++ {
					if got, want := scanNSS(s, i), ref(s, i); got != want {
						t.Fatalf("scanNSS(%q, %d) = %d, want %d", s, i, got, want)
					}
				}
			}
		}
	}
	if got := scanNSS("ab?cdefghijk", 0); got != 2 {
		t.Errorf(`scanNSS("ab?cdefghijk", 0) = %d, want 2 (RFC 8141 2: "?" ends the NSS)`, got)
	}
	if got := scanNSS("abcdefghijk/lmnopq", 0); got != 18 {
		t.Errorf(`scanNSS("abcdefghijk/lmnopq", 0) = %d, want 18 (RFC 8141 2: "/" is in the NSS)`, got)
	}
}

// TestParseCommonCase holds the common case of parse (a plain NSS to
// the end, built without the component scan) to parseSlow on every URN
// of the corpus and its prefixes, in every dialect (issue 18).
func TestParseCommonCase(t *testing.T) {
	n := 0
	for _, s := range testshared.LoadCorpus(t, "urns").Lines {
		for _, in := range []string{s, s[:len(s)/2], s + "/", s + "?+r", s + "#f", s + "%2", s + " "} {
			for _, d := range []Dialect{RFC8141, Draft2015, Draft2012, RFC2141} {
				u, err := ParseWith(in, Options{Dialect: d})
				v, err2 := parseSlow(in, d)
				if u != v || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
					t.Fatalf("%v: %q: Parse = %v, %v; component by component %v, %v", d, in, u, err, v, err2)
				}
				n++
			}
		}
	}
	t.Logf("%d parses compared", n)
}

// TestOwnReasons: issue 31. The reasons of the URN syntax are this
// package's (package uri names none of them), and uri's ParseError, the
// one error type, still prints a URN error as one: "urn: " before the
// message, the byte named where the reason is about a byte. A reason of
// the generic syntax keeps "uri: " outside a URN component.
func TestOwnReasons(t *testing.T) {
	for _, r := range []error{ErrNotURN, ErrInvalidNID, ErrNIDTooShort, ErrNIDTooLong, ErrNIDHyphen, ErrReservedNID, ErrNUL, ErrEmptyComponent, ErrInvalidDirective} {
		e := &ParseError{Input: "urn:x{:y", Offset: 5, Component: ComponentScheme, Reason: r}
		msg := e.Error()
		if !strings.HasPrefix(msg, "urn: "+r.Error()) {
			t.Errorf("%v: %s", r, msg)
		}
		if byteNamed := strings.Contains(msg, "'{'"); byteNamed != (r == ErrInvalidNID || r == ErrInvalidDirective) {
			t.Errorf("%v: byte named %v in %s", r, byteNamed, msg)
		}
	}
	e := &ParseError{Input: "x{", Offset: 1, Component: uri.ComponentPath, Reason: ErrInvalidCharacter}
	if msg := e.Error(); !strings.HasPrefix(msg, "uri: invalid character '{'") {
		t.Errorf("generic reason: %s", msg)
	}
	e.Component = ComponentNSS
	if msg := e.Error(); !strings.HasPrefix(msg, "urn: invalid character '{'") {
		t.Errorf("generic reason in the NSS: %s", msg)
	}
}
