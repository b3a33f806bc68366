package compare_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"

	"github.com/urikit/urikit/iri"
	"github.com/urikit/urikit/uri"
)

// The display property of issue 26: no output of iri.ToIRI (which the
// uri-to-iri command prints) shows a character that changes or hides a
// host. The oracle is independent of package iri's own tables: UTS #39
// skeletons come from github.com/mtibben/confusables (Unicode 13.0
// confusables.txt), scripts and properties from the standard library.

// spoofPool returns the characters the generated labels are made of:
// ASCII letters and digits, the characters whose skeleton (per the
// oracle) is an ASCII letter or digit or a delimiter, and the kinds
// that hide or change a host: bidi controls, default-ignorables,
// combining marks with the overlays, spaces, kana, Han, middle dots and
// the digits of other systems.
func spoofPool() []rune {
	var pool []rune
	for c := 'a'; c <= 'z'; c++ {
		pool = append(pool, c)
	}
	pool = append(pool, '0', '1', '5', '-')
	for r := rune(0xA0); r <= 0x1FFFF; r++ {
		if !unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) {
			continue
		}
		sk := confusables.Skeleton(string(r))
		if len(sk) == 1 && sk[0] < utf8.RuneSelf && sk != string(r) {
			pool = append(pool, r) // an ASCII look-alike or a look-alike of a delimiter
		}
	}
	pool = append(pool,
		0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x061C, // bidi controls (RFC 3987 4.1)
		0x200B, 0x200C, 0x200D, 0x00AD, 0x034F, 0x2060, 0xFE0F, 0x180E, 0x3164, 0x115F, // default-ignorables
		0x0334, 0x0335, 0x0336, 0x0337, 0x0338, 0x20D2, 0x20E5, 0x1CD4, // overlays (ccc 1)
		0x0300, 0x0301, 0x0307, 0x0308, 0x0323, // combining marks
		0x00A0, 0x2000, 0x3000, 0x2800, // spaces
		0x30AB, 0x30BF, 0x30CE, 0x30FC, 0x30FB, 0x3042, 0x4F8B, 0x4E00, 0xAC00, 0x3105, // kana, Han, Hangul, Bopomofo
		0x00B7, 0x0387, 0x05F3, 0x0660, 0x0661, 0x06F1, 0x0967, // dots, geresh, digits
		0x00E9, 0x00FC, 0x0439, 0x0436, 0x03BB, 0x05D0, 0x0627, 0x0E01, // letters that are no look-alikes
		0x1F512, 0x2665, // lock emoji, a heart
	)
	return pool
}

// hides reports the characters that never show, in any component: the
// oracle's reading of RFC 3987 4.1 and of UTS #39 3.1's
// default-ignorables, from Unicode properties.
func hides(r rune) bool {
	return unicode.In(r, unicode.Bidi_Control, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point,
		unicode.Variation_Selector, unicode.White_Space, unicode.Co, unicode.Cc) || r == 0x2800 || r == 0x1F512 || r == 0xFFFD
}

// spoofedLabel returns why the label l, as shown in an authority, can
// change or hide the host a reader sees, or "".
func spoofedLabel(l string) string {
	if isASCIIString(l) {
		return ""
	}
	var scripts []string
	zero := rune(-1)
	prevNonASCII := false
	for _, r := range l {
		if hides(r) {
			return fmt.Sprintf("%U hides", r)
		}
		if unicode.Is(unicode.M, r) {
			if !prevNonASCII {
				return fmt.Sprintf("mark %U on an ASCII character or first", r)
			}
			if norm.NFD.PropertiesString(string(r)).CCC() == 1 {
				return fmt.Sprintf("overlay %U", r)
			}
		}
		prevNonASCII = r >= utf8.RuneSelf
		if unicode.Is(unicode.Nd, r) {
			z := r
			for unicode.Is(unicode.Nd, z-1) && r-z < 9 {
				z--
			}
			if zero >= 0 && z != zero {
				return "mixed numbers (UTS #39 5.4)"
			}
			zero = z
		}
		if s := scriptName(r); s != "" && !contains(scripts, s) {
			scripts = append(scripts, s)
		}
	}
	if !allowedMix(scripts) {
		return fmt.Sprintf("mixed scripts %v (UTS #39 5.2)", scripts)
	}
	sk := confusables.Skeleton(l)
	if isASCIIString(sk) {
		return fmt.Sprintf("skeleton %q reads as an ASCII label (UTS #39 4)", sk)
	}
	// A character that reads as ASCII punctuation ("ノ" as "/") sits
	// between characters of its own script, where it reads as a letter.
	rs := []rune(l)
	for i, r := range rs {
		if r < utf8.RuneSelf || !strings.ContainsFunc(confusables.Skeleton(string(r)), func(c rune) bool {
			return c < utf8.RuneSelf && !unicode.IsLetter(c) && !unicode.IsDigit(c)
		}) {
			continue
		}
		if len(rs) == 1 || i > 0 && scriptOf(rs[i-1]) != scriptOf(r) || i+1 < len(rs) && scriptOf(rs[i+1]) != scriptOf(r) {
			return fmt.Sprintf("%U reads as punctuation (skeleton %q) beside another script", r, confusables.Skeleton(string(r)))
		}
	}
	return ""
}

// scriptOf is the Script property of r, Common and Inherited included.
func scriptOf(r rune) string {
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return ""
}

func scriptName(r rune) string {
	if r < utf8.RuneSelf {
		if unicode.IsLetter(r) {
			return "Latin"
		}
		return ""
	}
	for name, t := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(t, r) {
			return name
		}
	}
	return ""
}

// allowedMix: one script, or a subset of the sets of UTS #39 5.2
// Highly Restrictive.
func allowedMix(scripts []string) bool {
	if len(scripts) <= 1 {
		return true
	}
	for _, set := range [][]string{{"Latin", "Han", "Hiragana", "Katakana"}, {"Latin", "Han", "Bopomofo"}, {"Latin", "Han", "Hangul"}} {
		ok := true
		for _, s := range scripts {
			ok = ok && contains(set, s)
		}
		if ok {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// displayForms are the URIs a label is put in, with the slot of the
// output that shows it: a DNS host (percent-encoded and as an A-label),
// a host of another scheme, a userinfo, the domain of a mailto address
// in its path and in its "to" field, and a path (text).
type displayForm struct {
	prefix, suffix string
	authority      bool
	ace            bool
}

var displayForms = []displayForm{
	{"http://", ".example/", true, false},
	{"https://", ".example/", true, true},
	{"foo://", "/", true, false},
	{"http://", "@h.example/", true, false},
	{"mailto:u@", ".example", true, false},
	{"mailto:?to=u@", ".example&subject=x", true, false},
	{"http://h.example/", "", false, false},
}

// checkDisplaySpoof runs ToIRI on the label l in every form and
// returns the forms checked.
func checkDisplaySpoof(t *testing.T, l string) int {
	t.Helper()
	n := 0
	for _, f := range displayForms {
		in := l
		if f.ace {
			a, err := idna.Lookup.ToASCII(l)
			if err != nil || a == l {
				continue
			}
			in = a
		} else {
			in = uri.Escape(l, nil)
		}
		u := f.prefix + in + f.suffix
		if _, err := uri.Parse(u); err != nil {
			continue
		}
		out, err := iri.ToIRI(u)
		if err != nil {
			t.Fatalf("ToIRI(%q): %v", u, err)
		}
		n++
		if !strings.HasPrefix(out, f.prefix) || !strings.HasSuffix(out, f.suffix) {
			t.Fatalf("ToIRI(%q) = %q changed the text around the label", u, out)
		}
		shown := out[len(f.prefix) : len(out)-len(f.suffix)]
		for _, r := range shown {
			if hides(r) {
				t.Fatalf("ToIRI(%q) = %q shows %U, which hides", u, out, r)
			}
		}
		if !f.authority {
			continue
		}
		// Labels as a reader cuts them: at dots, and at the escapes,
		// which show ASCII.
		for _, part := range strings.FieldsFunc(shown, func(r rune) bool { return r == '.' || r == '%' }) {
			if why := spoofedLabel(part); why != "" {
				t.Fatalf("ToIRI(%q) = %q shows the label %q: %s", u, out, part, why)
			}
		}
	}
	return n
}

// TestDisplaySpoofProperty: generated labels of look-alikes, hidden
// characters, overlays, mixed scripts and digits, in every authority
// form (a DNS host, an A-label, another scheme's host, a userinfo, a
// mailto domain in the path and in "to") and in a path: no output
// shows a character that hides, and no authority label it shows is
// mixed-script, has an overlay or a mark on ASCII, mixes numbers, or
// has a skeleton that reads as ASCII or holds a delimiter.
func TestDisplaySpoofProperty(t *testing.T) {
	pool := spoofPool()
	labels := 20000
	if testing.Short() {
		labels = 2000
	}
	rng := rand.New(rand.NewPCG(26, 39))
	forms, shownLabels := 0, 0
	for range labels {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteRune(pool[rng.IntN(len(pool))])
		}
		forms += checkDisplaySpoof(t, b.String())
	}
	// The known words: shown when they are safe, the reproducers of issue
	// 26 not.
	for _, l := range []string{"münchen", "пример", "例え", "ελλάδα", "納豆", "カタカナノ", "аррӏе", "ѕсоре", "・", "а\u0338", "pаypal", "ıd"} {
		forms += checkDisplaySpoof(t, l)
		if out, _ := iri.ToIRI("http://" + uri.Escape(l, nil) + ".example/"); strings.Contains(out, l) {
			shownLabels++
		}
	}
	if shownLabels != 6 {
		t.Errorf("%d of the 6 safe words shown", shownLabels)
	}
	t.Logf("pool of %d characters, %d labels, %d URIs checked", len(pool), labels, forms)
}

// FuzzDisplaySpoof: the same property on any label.
func FuzzDisplaySpoof(f *testing.F) {
	for _, s := range []string{"аррӏе", "・", "а\u0338", "pаypal", "ıd", "カ・カ", "a\u200Eb", "例え"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if !utf8.ValidString(l) || strings.ContainsAny(l, "./%") {
			return
		}
		checkDisplaySpoof(t, l)
	})
}
