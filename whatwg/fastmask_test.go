package whatwg

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestClassifyEveryByte: classify64 gives the masks of classifyGo for
// every byte value in every place of a string of every length up to 64,
// the other bytes drawn at random.
func TestClassifyEveryByte(t *testing.T) {
	if !haveClassify {
		t.Skip("classify64 is classifyGo on this machine (no AVX512BW, AVX512VBMI and BMI2)")
	}
	r := rand.New(rand.NewPCG(64, 1))
	buf := make([]byte, 64+64) // s, then bytes past its end that must not count
	for n := 0; n <= 64; n++ {
		for k := 0; k < n; k++ {
			for j := range buf {
				buf[j] = byte(r.IntN(256))
			}
			for c := range 256 {
				buf[k] = byte(c)
				s := string(buf)[:n]
				var got, want fastMasks
				classify64(s, &got)
				classifyGo(s, &want)
				if got != want {
					t.Fatalf("%q: classify64 %+v, classifyGo %+v", s, got, want)
				}
			}
		}
	}
}

// checkFastMasks runs parseFastMasks on s (when it has a special scheme
// and at most 64 bytes) with the masks of classifyGo, and fails when it
// takes s and parseFastWords does not, or gives another URL.
// parseFast, and checkFast through it, runs the same with the masks of
// classify64 where the machine has it; this runs it everywhere.
func checkFastMasks(t *testing.T, s string) {
	t.Helper()
	kind, se := fastScheme(s)
	if se == 0 || len(s) > 64 {
		return
	}
	var m fastMasks
	classifyGo(s, &m)
	var fast, words URL
	if !parseFastMasks(s, &m, kind, se, &fast) {
		return
	}
	if !parseFastWords(s, kind, se, &words) {
		t.Fatalf("%q: parseFastMasks takes it, parseFastWords does not", s)
	}
	if fast != words {
		t.Fatalf("%q: parseFastMasks %+v, parseFastWords %+v", s, fast, words)
	}
}

// TestParseFastMasksTakes: the URLs of at most 64 bytes that
// parseFastMasks must take (or the common case would pay for it twice)
// and those it leaves to parseFastWords, each at every length of
// padding that keeps it within 64 bytes.
func TestParseFastMasksTakes(t *testing.T) {
	cases := []struct {
		in    string // "@" is replaced by the padding
		takes bool
	}{
		{"https://@example.com/", true},
		{"https://www.example.com/@", true},
		{"http://a-b.c/@/d;e?f=g&h#i", true},
		{"file://host/@", true},
		{"ws://a/@", true},
		{"https://h/@?", true},
		{"https://h/@#", true},
		{"https://h/?@#", true},
		{"https://h/#@", true},
		{"https://1a.@b/", true},
		{"https://h/x@.gitignore", true},
		{"https://h/a/.@", false}, // a '.' after a '/': for hasDotSegment
		{"https://h/@%41", false},
		{"https://h/?@%41", false},
		{"https://h/#@%41", false},
		{"https://h:81/@", false},
		{"file:///@", false},
		{"https://a_b@/", false},
		{"https://@b.1/", false},
		{"https://@b..c/", false},
		{"https://@b-.c/", false},
		{"https://@b.-c/", false},
		{"https://b@-/", false},
		{"https://b.c@", false},
		{"https://h/@ ", false},
		{"https://h/?'@", false},
		{"https://h/#@#", false},
		{"https://h/@é", false},
		{"file://localhost/@", false},
	}
	for _, c := range cases {
		for n := 0; len(c.in)-1+n <= 64; n++ {
			s := strings.Replace(c.in, "@", strings.Repeat("x", n), 1)
			kind, se := fastScheme(s)
			var m fastMasks
			classifyGo(s, &m)
			var u URL
			if got := parseFastMasks(s, &m, kind, se, &u); got != c.takes {
				t.Errorf("%q: parseFastMasks %v, want %v", s, got, c.takes)
			}
			checkFastMasks(t, s)
			checkFast(t, s, nil)
		}
	}
}
