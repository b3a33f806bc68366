package punycode

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/urikit/urikit/internal/testshared"
)

// rfcSamples are the sample strings of RFC 3492 section 7.1, as code
// points and Punycode (the letters of the code point lists that the RFC
// writes "U+" are the mixed-case annotations of appendix A, which this
// package neither writes nor reads: the basic code points keep their
// own case, and digits are written in lowercase).
var rfcSamples = []struct{ name, points, puny string }{
	{"A Arabic (Egyptian)", "0644 064A 0647 0645 0627 0628 062A 0643 0644 0645 0648 0634 0639 0631 0628 064A 061F",
		"egbpdaj6bu4bxfgehfvwxn"},
	{"B Chinese (simplified)", "4ED6 4EEC 4E3A 4EC0 4E48 4E0D 8BF4 4E2D 6587",
		"ihqwcrb4cv8a8dqg056pqjye"},
	{"C Chinese (traditional)", "4ED6 5011 7232 4EC0 9EBD 4E0D 8AAA 4E2D 6587",
		"ihqwctvzc91f659drss3x8bo0yb"},
	{"D Czech", "0050 0072 006F 010D 0070 0072 006F 0073 0074 011B 006E 0065 006D 006C 0075 0076 00ED 010D 0065 0073 006B 0079",
		"Proprostnemluvesky-uyb24dma41a"},
	{"E Hebrew", "05DC 05DE 05D4 05D4 05DD 05E4 05E9 05D5 05D8 05DC 05D0 05DE 05D3 05D1 05E8 05D9 05DD 05E2 05D1 05E8 05D9 05EA",
		"4dbcagdahymbxekheh6e0a7fei0b"},
	{"F Hindi (Devanagari)", "092F 0939 0932 094B 0917 0939 093F 0928 094D 0926 0940 0915 094D 092F 094B 0902 0928 0939 0940 0902 092C 094B 0932 0938 0915 0924 0947 0939 0948 0902",
		"i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
	{"G Japanese (kanji and hiragana)", "306A 305C 307F 3093 306A 65E5 672C 8A9E 3092 8A71 3057 3066 304F 308C 306A 3044 306E 304B",
		"n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
	{"H Korean (Hangul syllables)", "C138 ACC4 C758 BAA8 B4E0 C0AC B78C B4E4 C774 D55C AD6D C5B4 B97C C774 D574 D55C B2E4 BA74 C5BC B9C8 B098 C88B C744 AE4C",
		"989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"},
	{"I Russian (Cyrillic)", "043F 043E 0447 0435 043C 0443 0436 0435 043E 043D 0438 043D 0435 0433 043E 0432 043E 0440 044F 0442 043F 043E 0440 0443 0441 0441 043A 0438",
		"b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
	{"J Spanish", "0050 006F 0072 0071 0075 00E9 006E 006F 0070 0075 0065 0064 0065 006E 0073 0069 006D 0070 006C 0065 006D 0065 006E 0074 0065 0068 0061 0062 006C 0061 0072 0065 006E 0045 0073 0070 0061 00F1 006F 006C",
		"PorqunopuedensimplementehablarenEspaol-fmd56a"},
	{"K Vietnamese", "0054 1EA1 0069 0073 0061 006F 0068 1ECD 006B 0068 00F4 006E 0067 0074 0068 1EC3 0063 0068 1EC9 006E 00F3 0069 0074 0069 1EBF 006E 0067 0056 0069 1EC7 0074",
		"TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
	{"L 3<nen>B<gumi><kinpachi><sensei>", "0033 5E74 0042 7D44 91D1 516B 5148 751F",
		"3B-ww4c5e180e575a65lsy2b"},
	{"M <amuro><namie>-with-SUPER-MONKEYS", "5B89 5BA4 5948 7F8E 6075 002D 0077 0069 0074 0068 002D 0053 0055 0050 0045 0052 002D 004D 004F 004E 004B 0045 0059 0053",
		"-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
	{"N Hello-Another-Way-<sorezore><no><basho>", "0048 0065 006C 006C 006F 002D 0041 006E 006F 0074 0068 0065 0072 002D 0057 0061 0079 002D 305D 308C 305E 308C 306E 5834 6240",
		"Hello-Another-Way--fc4qua05auwb3674vfr0b"},
	{"O <hitotsu><yane><no><shita>2", "3072 3068 3064 5C4B 6839 306E 4E0B 0032",
		"2-u9tlzr9756bt3uc0v"},
	{"P Maji<de>Koi<suru>5<byou><mae>", "004D 0061 006A 0069 3067 004B 006F 0069 3059 308B 0035 79D2 524D",
		"MajiKoi5-783gue6qz075azm5e"},
	{"Q <pafii>de<runba>", "30D1 30D5 30A3 30FC 0064 0065 30EB 30F3 30D0",
		"de-jg4avhby1noc0d"},
	{"R <sono><supiido><de>", "305D 306E 30B9 30D4 30FC 30C9 3067",
		"d9juau41awczczp"},
	{"S -> $1.00 <-", "002D 003E 0020 0024 0031 002E 0030 0030 0020 003C 002D",
		"-> $1.00 <--"},
}

func fromPoints(t *testing.T, points string) string {
	var b strings.Builder
	for f := range strings.FieldsSeq(points) {
		v, err := strconv.ParseUint(f, 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}

// lowerDigits is p as this package writes it: the digits after the last
// delimiter in lowercase, the basic code points before it as they are.
func lowerDigits(p string) string {
	i := strings.LastIndexByte(p, '-') + 1
	return p[:i] + strings.ToLower(p[i:])
}

func TestRFC3492Samples(t *testing.T) {
	for _, c := range rfcSamples {
		u := fromPoints(t, c.points)
		enc, err := AppendEncode(nil, u)
		if err != nil || string(enc) != lowerDigits(c.puny) {
			t.Errorf("%s: encode = %q, %v; RFC 3492 7.1 gives %q", c.name, enc, err, c.puny)
		}
		dec, err := AppendDecode(nil, c.puny)
		if err != nil || string(dec) != u {
			t.Errorf("%s: decode(%q) = %q, %v; want %q", c.name, c.puny, dec, err, u)
		}
	}
}

// TestAppend: both append to what dst holds.
func TestAppend(t *testing.T) {
	enc, err := AppendEncode([]byte("xn--"), "bücher")
	if err != nil || string(enc) != "xn--bcher-kva" {
		t.Errorf("AppendEncode = %q, %v", enc, err)
	}
	dec, err := AppendDecode([]byte("www."), "bcher-kva")
	if err != nil || string(dec) != "www.bücher" {
		t.Errorf("AppendDecode = %q, %v", dec, err)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		err error
		off int
	}{
		// Section 6.2: "fail on any non-basic code point" before the
		// last delimiter.
		{"bü-cher", ErrInvalid, 1},
		// "fail if it has none" (a digit-value): '-' in the digits when
		// no basic code point came before the delimiter, '.' anywhere.
		{"-abc", ErrInvalid, 0},
		{"abc-d.e", ErrInvalid, 5},
		{"a-ü", ErrInvalid, 2},
		// "consume a code point, or fail if there was none to consume":
		// 'z' (25) is not below the first thresholds (1), so more digits
		// must come.
		{"z", ErrTruncated, 1},
		{"abc-99", ErrTruncated, 6},
		// "fail on overflow" of i (section 6.4): '9' (35) never ends an
		// integer, and the eighth one passes 2^31-1.
		{"999999999999", ErrOverflow, 7},
		// U+110000, above the last code point, and U+D800 and U+DFFF,
		// surrogates (a label is UTF-8).
		{"en32g", ErrCodePoint, 4},
		{"ib9b", ErrCodePoint, 3},
		{"zy0c", ErrCodePoint, 3},
	} {
		out, err := AppendDecode(nil, c.in)
		var pe *Error
		if !errors.Is(err, c.err) || !errors.As(err, &pe) || pe.Offset != c.off {
			t.Errorf("AppendDecode(%q) = %q, %v; want %v at offset %d", c.in, out, err, c.err, c.off)
		}
	}
	if _, err := AppendEncode(nil, "a\xffb"); !errors.Is(err, ErrCodePoint) {
		t.Errorf("AppendEncode of invalid UTF-8: %v", err)
	}
	// Section 6.4: a delta past 2^31-1 fails. (0x10FFFF-0x80)*(h+1)
	// passes it once there are 2,000 basic code points before.
	long := strings.Repeat("a", 2100) + "\U0010FFFF"
	if _, err := AppendEncode(nil, long); !errors.Is(err, ErrOverflow) {
		t.Errorf("AppendEncode of a delta past 2^31-1: %v", err)
	}
	if _, err := AppendEncode(nil, long[1000:]); err != nil {
		t.Errorf("AppendEncode of a delta below 2^31-1: %v", err)
	}
}

// genLabel returns a random label of n code points drawn from a few
// ranges, so that values repeat, neighbour one another and jump far:
// the shapes that exercise deltas, the bias and the thresholds.
func genLabel(r *rand.Rand, n int) string {
	ranges := [][2]rune{{'a', 'z'}, {'0', '9'}, {'-', '-'}, {0x80, 0x2FF}, {0x400, 0x4FF}, {0x3040, 0x30FF},
		{0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}, {0xE000, 0xF8FF}, {0x10000, 0x1FFFF}, {0x100000, 0x10FFFD}}
	var b strings.Builder
	k := 1 + r.IntN(len(ranges))
	use := r.Perm(len(ranges))[:k]
	for range n {
		rg := ranges[use[r.IntN(k)]]
		b.WriteRune(rg[0] + rune(r.IntN(int(rg[1]-rg[0]+1))))
	}
	return b.String()
}

// TestDifferentialXNet compares both directions with the Punycode of
// golang.org/x/net/idna (its Punycode profile: no mapping, no checks),
// on random labels of up to 300 code points (x/net decodes at most
// 1,023) and on their encodings, and on random digit strings.
func TestDifferentialXNet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		u := genLabel(r, 1+r.IntN(1+i/10))
		if strings.ContainsAny(u, ".") || strings.HasPrefix(u, "xn--") {
			continue
		}
		compareXNet(t, u)
	}
	digits := "abcdefghijklmnopqrstuvwxyz0123456789-"
	for range 3000 {
		b := make([]byte, 1+r.IntN(12))
		for j := range b {
			b[j] = digits[r.IntN(len(digits))]
		}
		compareDecode(t, string(b))
	}
}

func compareXNet(t *testing.T, u string) {
	t.Helper()
	if isASCII(u) {
		return // x/net leaves an ASCII label as it is; this package encodes it
	}
	want, werr := idna.Punycode.ToASCII(u)
	got, err := AppendEncode([]byte("xn--"), u)
	if (err == nil) != (werr == nil) || err == nil && string(got) != want {
		t.Fatalf("encode %+q: %q, %v; x/net: %q, %v", u, got, err, want, werr)
	}
	if err == nil {
		compareDecode(t, string(got[4:]))
	}
}

// compareDecode compares the decoding of the ASCII string p with
// x/net's, and checks that it encodes back to p.
func compareDecode(t *testing.T, p string) {
	t.Helper()
	want, werr := idna.Punycode.ToUnicode("xn--" + p)
	got, err := AppendDecode(nil, p)
	switch {
	case err == nil && len(got) > 0 && isASCII(string(got)):
		// x/net refuses an all-ASCII result (UTS #46 section 4 step 4);
		// that is the caller's rule here.
		if werr == nil {
			t.Fatalf("decode %q: x/net accepts all-ASCII %q", p, want)
		}
	case errors.Is(err, ErrCodePoint) && werr == nil && strings.ContainsRune(want, utf8.RuneError):
		// A surrogate, which x/net turns into U+FFFD.
	case err == nil && werr != nil && utf8.RuneCount(got) >= 1024:
		// x/net decodes at most 1,023 code points; RFC 3492 has no
		// limit, nor has the URL Standard.
	case (err == nil) != (werr == nil) || err == nil && string(got) != want:
		t.Fatalf("decode %q: %+q, %v; x/net: %+q, %v", p, got, err, want, werr)
	}
	if err == nil {
		// RFC 3492 6.2: "there is only one encoded string that can
		// represent a given sequence of integers".
		back, err := AppendEncode(nil, string(got))
		if err != nil || string(back) != lowerDigits(p) {
			t.Fatalf("decode %q = %+q, encodes back to %q, %v", p, got, back, err)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func FuzzPunycode(f *testing.F) {
	for _, c := range rfcSamples {
		f.Add(c.puny)
	}
	f.Add("bücher")
	f.Add("\U0010FFFF" + strings.Repeat("a", 100))
	f.Fuzz(func(t *testing.T, s string) {
		if utf8.ValidString(s) && !strings.Contains(s, ".") && !strings.HasPrefix(s, "xn--") && len(s) < 1024 {
			compareXNet(t, s)
		}
		if len(s) < 1024 && isASCII(s) && !strings.Contains(s, ".") {
			compareDecode(t, s)
		}
		// Round trip, with no length bound: decode(encode(s)) is s.
		if utf8.ValidString(s) {
			enc, err := AppendEncode(nil, s)
			if err != nil {
				if !errors.Is(err, ErrOverflow) {
					t.Fatalf("encode %+q: %v", s, err)
				}
				return
			}
			dec, err := AppendDecode(nil, string(enc))
			if err != nil || string(dec) != s {
				t.Fatalf("encode %+q = %q, decodes to %+q, %v", s, enc, dec, err)
			}
		}
	})
}

// distinct returns n distinct code points from U+4E00 up (CJK
// ideographs, then on, surrogates skipped): the shape that made the
// quadratic encoder slow.
func distinct(n int) string {
	var b strings.Builder
	for r := rune(0x4E00); n > 0; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		b.WriteRune(r)
		n--
	}
	return b.String()
}

// reversed is distinct backwards: each code point the decoder inserts
// goes at the front of the output.
func reversed(n int) string {
	rs := []rune(distinct(n))
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

// TestNLogN: encoding and decoding cost O(n log n) (a factor 8 in size
// costs about 10 in time), where RFC 3492's loops cost n² (64).
func TestNLogN(t *testing.T) {
	for _, shape := range []struct {
		name string
		gen  func(int) string
	}{{"distinct", distinct}, {"reversed", reversed}} {
		testshared.CheckLinearN(t, "encode/"+shape.name, 32768, shape.gen, func(s string) {
			if _, err := AppendEncode(nil, s); err != nil {
				t.Fatal(err)
			}
		})
		testshared.CheckLinearN(t, "decode/"+shape.name, 32768, func(n int) string {
			enc, err := AppendEncode(nil, shape.gen(n))
			if err != nil {
				t.Fatal(err)
			}
			return string(enc)
		}, func(s string) {
			if _, err := AppendDecode(nil, s); err != nil {
				t.Fatal(err)
			}
		})
	}
}
