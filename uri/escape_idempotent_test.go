package uri

import (
	"math/rand/v2"
	"testing"
)

// Issue 7, defect 4: NormalizeEscapes made new triplets out of a stray
// "%" and decoded text ("%%32%65" gave "%2e", which a second pass turned
// into "."), so it was not idempotent on malformed input.
func TestNormalizeEscapesStrayPercent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"%%32%65", "%%32e"},   // the example: "%32" stays encoded, so no "%2e" appears
		{"%a%62", "%a%62"},     // "%a" + "b" would be "%ab"
		{"%%41", "%%41"},       // "A" is a hex digit
		{"%%47", "%G"},         // "G" is not: decoded
		{"%%2e", "%."},         // "." cannot join a triplet
		{"%zz%41", "%zzA"},     // the stray "%" is two bytes back, "z" is not hex: decoded
		{"%%%34%31", "%%%341"}, // two strays
		{"%41%42", "AB"},       // no stray "%": decoded as before
		{"100%", "100%"},
		{"%e%2e", "%e."},
	}
	for _, tt := range tests {
		got := NormalizeEscapes(tt.in)
		if got != tt.want {
			t.Errorf("NormalizeEscapes(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := NormalizeEscapes(got); again != got {
			t.Errorf("NormalizeEscapes(NormalizeEscapes(%q)) = %q, want %q", tt.in, again, got)
		}
	}
}

// The property of defect 4 on random strings over the bytes that matter
// ("%", hexadecimal digits of both cases, unreserved and other bytes).
func TestNormalizeEscapesIdempotentRandom(t *testing.T) {
	const alphabet = "%%%%0123456789abcdefABCDEFgG.-_~/?#z\xff"
	r := rand.New(rand.NewPCG(7, 4))
	b := make([]byte, 0, 24)
	for range 200000 {
		b = b[:0]
		for n := r.IntN(24); n > 0; n-- {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
		s := string(b)
		once := NormalizeEscapes(s)
		if twice := NormalizeEscapes(once); twice != once {
			t.Fatalf("NormalizeEscapes not idempotent on %q: %q, then %q", s, once, twice)
		}
	}
}

// FuzzNormalizeEscapes: NormalizeEscapes is idempotent on every string.
func FuzzNormalizeEscapes(f *testing.F) {
	for _, s := range []string{"%%32%65", "%a%62", "%41", "%", "a%2e%2E%7e", "%zz%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := NormalizeEscapes(s)
		if twice := NormalizeEscapes(once); twice != once {
			t.Fatalf("NormalizeEscapes(%q) = %q, then %q", s, once, twice)
		}
	})
}
