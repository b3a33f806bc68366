package uts46

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"

	"github.com/urikit/urikit/internal/punycode"
)

// lenient is the profile of the URL Standard's domain parser ToASCII
// with beStrict false (section 3.3), as package whatwg sets it.
var lenient = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.CheckHyphens(false), idna.CheckJoiners(true), idna.StrictDomainName(false),
	idna.VerifyDNSLength(false))

// TestEmptyACE: UTS #46 section 4 (Processing), step 4, for a label
// that starts with "xn--": "If the label is empty, or if the label
// contains only ASCII code points, record that there was an error."
// x/net/idna decodes "xn--" to an empty label and goes on.
func TestEmptyACE(t *testing.T) {
	for _, s := range []string{
		"xn--.ß", "ß.xn--", "XN--.ß", "ß.xn--.", "1.2.3.ｘｎ－－", "ß.ｘｎ－－", "ß。xn--", "ß.x\u00ADn--",
		"ß.xn--\u00AD", "ｘｎ－－", "xn--",
		// Step 4.1: "If the label contains any non-ASCII code point ...,
		// record that there was an error".
		"xn--ngbrxéxn--", "ß.xn--ü-", "ß.ｘｎ－－ü", "xn--ü-abc",
	} {
		for _, p := range []*idna.Profile{lenient, idna.Lookup} {
			if got, err := AppendToASCII(nil, p, s); !errors.Is(err, ErrACE) {
				t.Errorf("%v: %+q = %q, %v; want ErrACE", p, s, got, err)
			}
		}
	}
	// The same domains with a label after the prefix, or none, pass.
	for s, want := range map[string]string{
		"xn--zca.ß": "xn--zca.xn--zca", "ß.ｘｎ－－ｚｃａ": "xn--zca.xn--zca", "ß.": "xn--zca.", "ß..a": "xn--zca..a",
		"ß.x\u00ADn-": "xn--zca.xn-", "ß.xn-": "xn--zca.xn-", "a.ß.": "a.xn--zca.",
	} {
		got, err := AppendToASCII(nil, lenient, s)
		if err != nil || string(got) != want {
			t.Errorf("%+q = %q, %v; want %q", s, got, err, want)
		}
	}
}

// TestDecodedLabel: a label decoded here must pass what x/net checks on
// the labels it decodes (UTS #46 section 4.1): its code points valid,
// not mapped ("xn--8i7caa" is "ｗｗｗ", whose code points are mapped, the
// URL Standard's example in section 3.3), not all ASCII, not empty.
func TestDecodedLabel(t *testing.T) {
	for _, s := range []string{"xn--8i7caa.ß", "xn--a.ß", "xn--abc-.ß", "xn--zca-.ß", "xn--ls8h=.ß", "xn--tešla.ß"} {
		if got, err := AppendToASCII(nil, lenient, s); err == nil {
			t.Errorf("%+q = %q; want an error", s, got)
		}
	}
	// Criterion 1, "The label must be in Unicode Normalization Form
	// NFC": "a" and U+0301 (NFC: "á"), and the same label in NFC.
	nfd, _ := punycode.AppendEncode([]byte("xn--"), "a\u0301b")
	nfc, _ := punycode.AppendEncode([]byte("xn--"), "\u00e1b")
	if got, err := AppendToASCII(nil, lenient, string(nfd)+".ß"); err == nil {
		t.Errorf("%s.ß (NFD) = %q; want an error", nfd, got)
	}
	if got, err := AppendToASCII(nil, lenient, string(nfc)+".ß"); err != nil || string(got) != string(nfc)+".xn--zca" {
		t.Errorf("%s.ß (NFC) = %q, %v", nfc, got, err)
	}
	// A decoded label that is also written as it is.
	if got, err := AppendToASCII(nil, lenient, "ß.xn--zca.ß"); err != nil || string(got) != "xn--zca.xn--zca.xn--zca" {
		t.Errorf("ß.xn--zca.ß = %q, %v", got, err)
	}
	// Uppercase letters are mapped to lowercase before the label is
	// decoded; the result is the lowercase label.
	if got, err := AppendToASCII(nil, lenient, "XN--ZCA.ß"); err != nil || string(got) != "xn--zca.xn--zca" {
		t.Errorf("XN--ZCA.ß = %q, %v", got, err)
	}
}

// pieces are the parts of the generated domains: prefixes in several
// forms, Punycode valid and not, dots of every kind, code points that
// are ignored, mapped, joiners, right-to-left.
var pieces = []string{
	"xn--", "XN--", "ｘｎ－－", "Xn--", "zca", "ß", "a", "-", ".", "。", "．", "\u00AD", "ü", "1", "xn--zca",
	"xn--a", "xn--ls8h", "xn---", "xn--ß", "\u200D", "א", "9", "xn--bcher-kva", "xn--8i7caa", "Ａ", "xn--zn7c",
	"xn--a-yoc", "xn--1ug", "xn--0", "xn--", "ｘ", "n", "--", "xn--mgba3a4f16a", "ا", "xn--ngbrx",
}

func genDomain(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(6) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestHyphenMappings: hyphens knows every code point that UTS #46 maps
// to a string with '-' in it (mapped, or disallowed_STD3_mapped, which
// the lenient profile maps), by the mapping table of x/net/idna.
func TestHyphenMappings(t *testing.T) {
	for r := rune(0x80); r <= 0x10FFFF; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		m, _ := lenient.ToUnicode(string(r))
		if strings.Contains(m, "-") != (hyphens(string(r)) == 1) {
			t.Errorf("%U maps to %q; hyphens says %d", r, m, hyphens(string(r)))
		}
	}
}

// TestDifferentialXNet: on the sources of Unicode's IdnaTestV2 and on
// generated domains, AppendToASCII gives what x/net/idna's ToASCII
// gives with the same profile, but for an "xn--" label empty or with a
// non-ASCII code point, which only it refuses: the known difference,
// checked here against the labels of the input's NFKC case folding.
func TestDifferentialXNet(t *testing.T) {
	inputs := idnaSources(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		inputs = append(inputs, genDomain(r))
	}
	agree, badACE := 0, 0
	for _, s := range inputs {
		for _, p := range []*idna.Profile{lenient, idna.Lookup} {
			want, werr := p.ToASCII(s)
			got, err := AppendToASCII(nil, p, s)
			switch {
			case (err == nil) == (werr == nil) && (err != nil || string(got) == want):
				agree++
			case errors.Is(err, ErrACE) && werr == nil && hasBadACELabel(s):
				badACE++
			default:
				t.Errorf("%v: %+q = %q, %v; x/net: %q, %v", p, s, got, err, want, werr)
			}
		}
	}
	t.Logf("%d agree, %d refused for an xn-- label empty or not ASCII", agree, badACE)
	if badACE == 0 {
		t.Error("no generated domain has such a label")
	}
}

// hasBadACELabel reports whether a label of s, folded, starts with
// "xn--" and is empty after it or holds a non-ASCII code point.
func hasBadACELabel(s string) bool {
	f := strings.ToLower(norm.NFKC.String(strings.NewReplacer("。", ".", "\u00AD", "").Replace(s)))
	return slices.ContainsFunc(strings.Split(f, "."), func(l string) bool {
		return strings.HasPrefix(l, "xn--") && (l == "xn--" || !isASCII(l))
	})
}

// idnaSources returns the source column of IdnaTestV2.
func idnaSources(t *testing.T) []string {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "unicode", "IdnaTestV2-13.0.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		src, _, ok := strings.Cut(line, ";")
		if !ok {
			continue
		}
		src = strings.TrimSpace(src)
		if !strings.Contains(src, `\`) { // escapes: the file's surrogates and controls
			out = append(out, src)
		}
	}
	if len(out) < 1000 {
		t.Fatalf("%d sources in IdnaTestV2", len(out))
	}
	return out
}
