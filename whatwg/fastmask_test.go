package whatwg

import (
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/chars"
)

// TestFastClassIndex: the masks of fastClasses are those of the bits of
// fastByte, in the order parseFastMasks reads them.
func TestFastClassIndex(t *testing.T) {
	for _, c := range []struct {
		bit uint8
		k   int
	}{{fbPath, mPath}, {fbQuery, mQuery}, {fbFrag, mFrag}, {fbDigit, mDigit}, {fbDot, mDot}, {fbHyphen, mHyphen}, {fbSlash, mSlash}, {fbLDH, mLDH}} {
		if c.bit != 1<<c.k {
			t.Errorf("class %d is bit %#x of fastByte", c.k, c.bit)
		}
	}
	s := "https://a-b.c9/d.e?f'#g`"
	var m [8]uint64
	fastClasses.Masks(s, &m)
	for i := range len(s) {
		for k := range m {
			if got, want := m[k]>>i&1 != 0, fastByte[s[i]]&(1<<k) != 0; got != want {
				t.Errorf("%q: byte %d in class %d: %v, fastByte says %v", s, i, k, got, want)
			}
		}
	}
}

// checkFastMasks runs parseFastMasks on s (when it has a special scheme
// and at most 64 bytes), and fails when it takes s and parseFastWords
// does not, or gives another URL. parseFast runs parseFastMasks only
// where chars.Vector is true; this runs it everywhere.
func checkFastMasks(t *testing.T, s string) {
	t.Helper()
	kind, se := fastScheme(s)
	if se == 0 || len(s) > chars.MaxMasked {
		return
	}
	var m [8]uint64
	fastClasses.Masks(s, &m)
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
			var m [8]uint64
			fastClasses.Masks(s, &m)
			var u URL
			if got := parseFastMasks(s, &m, kind, se, &u); got != c.takes {
				t.Errorf("%q: parseFastMasks %v, want %v", s, got, c.takes)
			}
			checkFastMasks(t, s)
			checkFast(t, s, nil)
		}
	}
}
