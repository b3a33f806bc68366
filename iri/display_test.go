package iri

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
	"golang.org/x/net/idna"
)

func TestToIRI(t *testing.T) {
	tests := []struct{ in, want, why string }{
		// RFC 3987 3.2.1, the examples.
		{"http://www.example.org/D%C3%BCrst", "http://www.example.org/D\u00FCrst",
			`3.2.1: "%C3%BC" ... "is converted into the actual character U+00FC"`},
		{"http://www.example.org/D%FCrst", "http://www.example.org/D%FCrst",
			`3.2.1: "<fc> is not part of a strictly legal UTF-8 sequence, it is re-percent-encoded in step 3"`},
		{"http://xn--99zt52a.example.org/%e2%80%ae", "http://\u7D0D\u8C46.example.org/%e2%80%ae",
			`3.2.1: RIGHT-TO-LEFT OVERRIDE "the corresponding octets are re-percent-encoded in step 4"; "the label "xn--99zt52a" may be converted to U+7D0D U+8C46"`},

		// RFC 3987 3.2 step 2: "Convert all percent-encodings ... except
		// those corresponding to "%", characters in "reserved", and
		// characters in US-ASCII not allowed in URIs" (issue 16 item 5).
		{"http://a/%7Euser/%41%62%2D%5F", "http://a/~user/Ab-_", "step 2: unreserved ASCII is decoded"},
		{"http://%41%42.example/", "http://AB.example/", "step 2, in a host"},
		{"http://a/%2F%3F%23%25%20", "http://a/%2F%3F%23%25%20", `step 2: "%", reserved and excluded characters stay`},
		{"http://a/%2E%2E/b?%2E#%2E", "http://a/%2E%2E/b?.#.", `"%2E" stays in the path, where it would make a dot segment (RFC 3986 5.2.4)`},
		{"http://a%2Eb.example/", "http://a%2Eb.example/", `"%2E" stays in a host, where it would make a label`},

		// Issue 20 item 15: a host must not be decoded into characters
		// that change it or hide.
		{"//google%E3%80%82com", "//google%E3%80%82com", "U+3002 IDEOGRAPHIC FULL STOP, which UTS #46 maps to \".\", stays"},
		{"http://%E2%80%8Bgoogle.com/", "http://%E2%80%8Bgoogle.com/", "U+200B ZERO WIDTH SPACE, default-ignorable, stays"},
		{"http://a/%E2%80%8B/%E2%80%8D/%EF%B8%8F", "http://a/%E2%80%8B/%E2%80%8D/%EF%B8%8F", "ZWSP, ZWJ and a variation selector (Default_Ignorable_Code_Point) stay in a path"},
		{"http://a/%E2%80%8F%E2%81%A6%D8%9C", "http://a/%E2%80%8F%E2%81%A6%D8%9C", "RFC 3987 4.1 bidi controls (RLM, LRI, ALM: Bidi_Control) stay"},
		{"http://a/x%C2%A0y%E3%80%80", "http://a/x%C2%A0y%E3%80%80", "6.1 b: look-alikes of space (NO-BREAK SPACE, IDEOGRAPHIC SPACE) stay"},
		{"http://a/%EF%BC%A1%EF%BD%B6", "http://a/%EF%BC%A1%EF%BD%B6", "6.1 b: full-width Latin and half-width Katakana stay"},
		{"http://a/b%E2%88%95c%E2%88%B6d%E2%80%A4e", "http://a/b%E2%88%95c%E2%88%B6d%E2%80%A4e", "6.1 b: look-alikes of delims (DIVISION SLASH, RATIO, ONE DOT LEADER) stay"},
		{"http://a/%E2%82%AC%F0%9F%98%80", "http://a/€😀", "symbols and emoji in a path are shown, as browsers show them (issue 26)"},
		{"http://a/%E2%99%A5/%E2%9C%93/%F0%90%8C%80", "http://a/♥/✓/𐌀", "issue 26: ♥, ✓ and 𐌀 (Old Italic) are shown in a path, as Chromium's unescaping shows them"},
		{"http://a/?q=%E2%99%A5#%E2%9C%93", "http://a/?q=♥#✓", "and in a query and a fragment"},
		{"http://a/%F0%9F%94%92%F0%9F%94%93%E2%A0%80", "http://a/%F0%9F%94%92%F0%9F%94%93%E2%A0%80", "the lock emoji (they pass for the browser's padlock) and U+2800 BRAILLE PATTERN BLANK (drawn as a space) stay, as in Chromium"},
		{"http://a/%EF%BC%8F%E2%81%84%E2%A7%B8", "http://a/%EF%BC%8F%E2%81%84%E2%A7%B8", "6.1 b: look-alikes of \"/\" (FULLWIDTH SOLIDUS, FRACTION SLASH, BIG SOLIDUS: UTS #39 prototype \"/\") stay"},
		{"http://a/%D7%99%D7%A9%D7%A8%D7%90%D7%9C", "http://a/ישראל", "a letter whose prototype is a delimiter (Hebrew yod is \"'\") is a letter: shown in a path"},
		{"http://a/%EE%80%80?%EE%80%80", "http://a/%EE%80%80?%EE%80%80", "private-use characters stay, in the query too (their glyph depends on the font)"},
		{"http://a/%E1%8E%A0", "http://a/Ꭰ", "Cherokee is shown in a path (issue 26: every script is)"},
		{"http://%E1%8E%A0%E1%8E%A1.example/", "http://%E1%8E%A0%E1%8E%A1.example/", "but not in a host: Cherokee is not a recommended script (UTS #31 Table 5; UTS #39 3.1 Identifier_Status=Restricted)"},
		{"http://a/=%CC%B8/e%CC%81", "http://a/=%CC%B8/e%CC%81", "a combining mark on an ASCII character (\"=\" with U+0338 reads \"≠\") stays"},
		{"http://a/%E0%A4%95%E0%A5%8D", "http://a/\u0915\u094D", "a combining mark after a decoded letter is shown"},
		{"http://a/%C3", "http://a/%C3", "a truncated UTF-8 sequence stays"},
		{"http://a/%ED%A0%80", "http://a/%ED%A0%80", "a surrogate is not UTF-8"},

		// Issue 16 item 5: IDNA labels are shown in Unicode, except
		// labels that would show what must stay encoded.
		{"https://xn--mnchen-3ya.de/", "https://münchen.de/", "UTS #46 ToUnicode of an A-label"},
		{"https://XN--MNCHEN-3YA.DE/", "https://münchen.DE/", "the ACE prefix in any case"},
		{"https://m%C3%BCnchen.de/", "https://münchen.de/", "percent-encoded UTF-8 in a DNS host that maps to itself"},
		{"https://M%C3%9Cnchen.de/", "https://M%C3%9Cnchen.de/", "\"Ü\" is mapped to \"ü\" by UTS #46: the host would change, so it stays"},
		{"https://xn--r8jz45g.jp/", "https://例え.jp/", "Han with Hiragana: Highly Restrictive allows it"},
		{"https://xn--pypal-4ve.com/", "https://xn--pypal-4ve.com/", "a Cyrillic \"а\" among Latin letters (UTS #39 5.2) keeps its A-label"},
		{"https://xn--58dc.com/", "https://xn--58dc.com/", "Cherokee letters keep their A-label"},
		{"https://my_host.xn--mnchen-3ya.de/", "https://my_host.xn--mnchen-3ya.de/", "ToURI could not map the Unicode host back (\"_\" fails ToASCII): no label is converted"},
		{"https://xn--a.de/", "https://xn--a.de/", "not valid Punycode: kept"},
		{"foo://xn--mnchen-3ya/", "foo://xn--mnchen-3ya/", "not a DNS scheme: an A-label is left alone"},
		{"foo://%E4%BE%8B/", "foo://例/", "not a DNS scheme: percent-encoded UTF-8 is decoded, and ToURI encodes it back"},
		{"http://[::1]/%C3%A9", "http://[::1]/é", "an IP literal is left alone"},
	}
	for _, tt := range tests {
		got, err := ToIRI(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ToIRI(%q) = %q, %v; want %q (%s)", tt.in, got, err, tt.want, tt.why)
			continue
		}
		back, err := ToURI(got)
		if err != nil || !displayEquivalent(tt.in, back.String()) {
			t.Errorf("ToURI(ToIRI(%q)) = ToURI(%q) = %q, %v: not equivalent", tt.in, got, back, err)
		}
	}
	if _, err := ToIRI("http://a b/"); err == nil {
		t.Error("ToIRI of an invalid URI: no error")
	}
}

// TestSafeLabel checks the script rules of UTS #39 5.2 both ways.
func TestSafeLabel(t *testing.T) {
	for _, tt := range []struct {
		label string
		want  bool
	}{
		{"münchen", true},       // Latin
		{"пример", true},        // Cyrillic alone
		{"pаypal", false},       // Latin and Cyrillic
		{"αβγx", false},         // Greek and Latin
		{"例えabc", true},         // Latin, Han, Hiragana
		{"中文abc", true},         // Latin, Han
		{"한국어abc", true},        // Latin, Hangul
		{"ㄅ中", false},           // Bopomofo is Limited_Use in UTS #39 17.0 IdentifierStatus.txt
		{"ㄅ한", false},           // and never mixes with Hangul
		{"日本カタカナ", true},        // Han and Katakana
		{"\u0301a", false},      // a mark first
		{"a\u200Db", false},     // ZWJ
		{"ab\u0660", false},     // Latin with Arabic digits
		{"abc123-x", true},      // ASCII
		{"\u13A0\u13A1", false}, // Cherokee
	} {
		if got := safeLabel(tt.label); got != tt.want {
			t.Errorf("safeLabel(%q) = %v, want %v", tt.label, got, tt.want)
		}
	}
	// The indexes the rules use name the scripts they mean.
	for i, want := range map[int]*unicode.RangeTable{scriptCommon: unicode.Common, scriptInherited: unicode.Inherited,
		scriptLatin: unicode.Latin, scriptHangul: unicode.Hangul, scriptHiragana: unicode.Hiragana,
		scriptKatakana: unicode.Katakana, scriptBopomofo: unicode.Bopomofo, scriptHan: unicode.Han} {
		if recommendedScripts[i] != want {
			t.Errorf("recommendedScripts[%d] is not the script its constant names", i)
		}
	}
}

// displayEquivalent reports whether back, ToURI of the display form of
// the URI reference u, is equivalent to u: the same components after
// percent-encoding normalization (RFC 3986 6.2.2.1 and 6.2.2.2, RFC 3987
// 5.3.2.3), and the same host up to case, where a label of u may come
// back as an A-label only when ToUnicode of that A-label is exactly the
// decoded label (RFC 3987 5.3.3: an IDN and its Punycode are
// equivalent). A label that UTS #46 maps to another one is not.
func displayEquivalent(u, back string) bool {
	a, err1 := uri.Parse(u)
	b, err2 := uri.Parse(back)
	if err1 != nil || err2 != nil {
		return false
	}
	type parts struct {
		scheme, userinfo, port, path, query, fragment string
		flags                                         [5]bool
		kind                                          uri.HostKind
	}
	get := func(x uri.URI) parts {
		return parts{
			strings.ToLower(x.Scheme()), uri.NormalizeEscapes(x.Userinfo()), x.Port(),
			uri.NormalizeEscapes(x.Path()), uri.NormalizeEscapes(x.Query()), uri.NormalizeEscapes(x.Fragment()),
			[5]bool{x.HasScheme(), x.HasAuthority(), x.HasUserinfo(), x.HasPort(), x.HasQuery()},
			x.HostKind(),
		}
	}
	if get(a) != get(b) || a.HasFragment() != b.HasFragment() {
		return false
	}
	ha, hb := uri.NormalizeEscapes(a.Host()), uri.NormalizeEscapes(b.Host())
	if strings.EqualFold(ha, hb) {
		return true
	}
	la, lb := strings.Split(ha, "."), strings.Split(hb, ".")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if strings.EqualFold(la[i], lb[i]) {
			continue
		}
		d, err := uri.Unescape(la[i])
		if err != nil || !isACE(lb[i]) {
			return false
		}
		if u, err := idna.Lookup.ToUnicode(lb[i]); err != nil || u != d {
			return false
		}
	}
	return true
}

// hiddenRune is the test's own reading of "hides or passes for
// another", from Unicode properties alone: what a display must never
// show decoded.
func hiddenRune(r rune) bool {
	return !unicode.IsGraphic(r) || unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point,
		unicode.Variation_Selector, unicode.Bidi_Control, unicode.White_Space, unicode.Co)
}

// checkDisplay checks ToIRI on the valid URI reference s: the round
// trip is equivalent and nothing hidden is shown.
func checkDisplay(t *testing.T, s string) {
	t.Helper()
	d, err := ToIRI(s)
	if err != nil {
		t.Fatalf("ToIRI(%q): %v", s, err)
	}
	for i, r := range d {
		if r >= utf8.RuneSelf && (hiddenRune(r) || !isUcschar(r)) || r == utf8.RuneError {
			t.Fatalf("ToIRI(%q) = %q shows %U at %d", s, d, r, i)
		}
	}
	back, err := ToURI(d)
	if err != nil {
		t.Fatalf("ToURI(ToIRI(%q)) = ToURI(%q): %v", s, d, err)
	}
	if !displayEquivalent(s, back.String()) {
		t.Fatalf("ToURI(ToIRI(%q)) = ToURI(%q) = %q: not equivalent", s, d, back)
	}
}

// TestToIRIRoundTripCorpus: ToURI(ToIRI(u)) is equivalent to u for
// every valid URI of the corpora, the adversarial lists and the WHATWG
// URL tests (issue 20 item 15).
func TestToIRIRoundTripCorpus(t *testing.T) {
	var inputs []string
	for _, name := range testshared.CorpusNames {
		inputs = append(inputs, testshared.LoadCorpus(t, name).Lines...)
	}
	for _, f := range []string{"Open-Redirect-payloads.txt", "open_redirect_wordlist.txt", "openredirects.txt"} {
		inputs = append(inputs, testshared.Lines(t, "corpora", "adversarial", f)...)
	}
	var wpt []json.RawMessage
	testshared.ReadJSON(t, &wpt, "conformance", "whatwg", "urltestdata.json")
	for _, raw := range wpt {
		var c struct{ Input, Href string }
		if json.Unmarshal(raw, &c) == nil {
			inputs = append(inputs, c.Input, c.Href)
		}
	}
	n, shown := 0, 0
	for _, s := range inputs {
		if _, err := uri.Parse(s); err != nil {
			continue
		}
		checkDisplay(t, s)
		if d, _ := ToIRI(s); d != s {
			shown++
		}
		n++
	}
	t.Logf("%d valid URIs, %d displayed differently, all round trips equivalent", n, shown)
}

// TestToIRIEveryCodePoint: each code point, percent-encoded in a path,
// a query and a DNS host, is shown only when it is safe, and always
// maps back (issue 20 item 15).
func TestToIRIEveryCodePoint(t *testing.T) {
	step := rune(7) // every seventh code point: all blocks, in about a second
	if testing.Short() {
		step = 61
	}
	shownPath, shownHost := 0, 0
	for r := rune(0x80); r <= unicode.MaxRune; r += step {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		e := uri.Escape(string(r), nil)
		s := "http://x" + e + "y.example/a" + e + "?" + e + "#" + e
		checkDisplay(t, s)
		d, _ := ToIRI(s)
		if strings.Contains(d, "/a"+string(r)) {
			shownPath++
		}
		if strings.HasPrefix(d, "http://x"+string(r)) {
			shownHost++
		}
	}
	t.Logf("shown in a path: %d code points, in a host: %d", shownPath, shownHost)
}

// TestToIRISpoofedHosts: the reproducers of issue 26 ("display that
// misleads") and the rules they break. A host label is shown in Unicode
// only when UTS #39 finds no spoof in it; otherwise it keeps its A-label
// or percent-encoded form, which maps to the same host.
func TestToIRISpoofedHosts(t *testing.T) {
	ace := func(u string) string {
		a, err := idna.Lookup.ToASCII(u)
		if err != nil || a == u {
			t.Fatalf("ToASCII(%q) = %q, %v", u, a, err)
		}
		return a
	}
	tests := []struct{ in, want, why string }{
		{"mailto:u@%D0%B0pple.com", "mailto:u@%D0%B0pple.com",
			`RFC 6068 2 item 4: in a mailto domain "The considerations for <reg-name> in [STD66] apply": a Cyrillic "а" among Latin letters (UTS #39 5.2) stays encoded`},
		{"mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO", "mailto:user@納豆.example.org?subject=Test&body=NATTO",
			`RFC 6068 6, the "natto" example: a safe internationalized domain is shown`},
		{"mailto:?to=u@%D0%B0pple.com&cc=v@%D0%B0pple.com&subject=%E2%99%A5", "mailto:?to=u@%D0%B0pple.com&cc=v@%D0%B0pple.com&subject=♥",
			`RFC 6068 2: the "to" and "cc" header fields hold addresses too; "subject" is text`},
		{"mailto:a@example.com,%D0%B0@%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com", "mailto:a@example.com,%D0%B0@%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com",
			`RFC 6068 2: to = addr-spec *("," addr-spec); every address is checked ("аррӏе" is a whole-script confusable, its local part "а" reads "a")`},
		{"mailto:u@xn--mnchen-3ya.de", "mailto:u@xn--mnchen-3ya.de",
			"an A-label in a mailto domain stays: iri-to-uri would give it back percent-encoded, not as the same A-label"},
		{"http://xn--vek.com/", "http://xn--vek.com/",
			`RFC 5892 A.7: KATAKANA MIDDLE DOT needs Hiragana, Katakana or Han in its label; alone, "・.com" reads as a dot`},
		{"https://%D0%B0%CC%B8.com/", "https://%D0%B0%CC%B8.com/",
			"U+0338 COMBINING LONG SOLIDUS OVERLAY (an overlay, combining class 1; not Identifier_Status=Allowed, UTS #39 3.1) stays"},
		{"http://xn--80ak6aa92e.com/", "http://xn--80ak6aa92e.com/",
			`UTS #39 4: "аррӏе" is all Cyrillic and its skeleton is "apple", a whole-script confusable with Latin`},
		{"http://" + ace("ѕсоре") + ".com/", "http://" + ace("ѕсоре") + ".com/", `UTS #39 4: "ѕсоре" (Cyrillic) reads "scope"`},
		{"http://xn--e1afmkfd.xn--p1ai/", "http://пример.рф/", `a Cyrillic label whose skeleton is not Latin ("и", "м") is shown`},
		{"http://%D0%B0pple.com@evil.example/", "http://%D0%B0pple.com@evil.example/",
			"a userinfo that reads as a host (RFC 3986 3.2.1, 7.6: semantic attacks) is held to a host's rules"},
		{"http://j%C3%BCrgen:p%C3%A4ss@example.com/", "http://jürgen:päss@example.com/", "a userinfo that passes them is shown"},
		{"ftp://%E2%80%AEu@h/", "ftp://%E2%80%AEu@h/", "RFC 3987 4.1: a bidi control stays, in a userinfo too"},
		{"http://" + ace("ıd") + ".com/", "http://" + ace("ıd") + ".com/", `UTS #39 4: "ıd" (dotless i) has the skeleton "id": it reads as an ASCII label`},
	}
	for _, tt := range tests {
		got, err := ToIRI(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ToIRI(%q) = %q, %v; want %q (%s)", tt.in, got, err, tt.want, tt.why)
			continue
		}
		checkDisplay(t, tt.in)
	}
}

// TestSafeLabelSpoofs: each rule of safeLabel refuses its spoof and
// lets the ordinary label of the same script through.
func TestSafeLabelSpoofs(t *testing.T) {
	for _, tt := range []struct {
		label string
		want  bool
		why   string
	}{
		{"・", false, "RFC 5892 A.7 KATAKANA MIDDLE DOT without kana or Han"},
		{"a・b", false, "RFC 5892 A.7, with Latin"},
		{"カ・カ", true, "RFC 5892 A.7, with Katakana"},
		{"l·l", true, "RFC 5892 A.3 MIDDLE DOT between two l (Catalan)"},
		{"a·b", false, "RFC 5892 A.3 MIDDLE DOT elsewhere"},
		{"а\u0338", false, "an overlay"},
		{"\u00e9\u0300", true, "a mark after a non-ASCII letter"},
		{"e\u0300", false, "a mark on an ASCII letter"},
		{"аррӏе", false, "UTS #39 4 whole-script confusable (Cyrillic, skeleton apple)"},
		{"αβγ", false, "UTS #39 4 whole-script confusable (Greek α β γ: a ß y)"},
		{"пример", true, "Cyrillic with letters no allowed Latin letter looks like"},
		{"ελλάδα", true, "Greek likewise"},
		{"ıd", false, "a Latin label whose skeleton is ASCII"},
		{"münchen", true, "a diacritic shows"},
		{"a1٣", false, "UTS #39 5.4 mixed numbers (and scripts)"},
		{"١٢٣", true, "one decimal system"},
		{"١۲", false, "UTS #39 5.4: Arabic-Indic and Extended Arabic-Indic digits (RFC 5892 A.8, A.9)"},
		{"googleノcom", false, "a look-alike of \"/\" among Latin letters"},
		{"カタカナノ", true, "the same letter among Katakana"},
		{"ノ", false, "a look-alike of \"/\" alone"},
		{"ー", false, "no letter of any script"},
	} {
		if got := safeLabel(tt.label); got != tt.want {
			t.Errorf("safeLabel(%q) = %v, want %v (%s)", tt.label, got, tt.want, tt.why)
		}
	}
}
