package chars

import (
	"math/rand/v2"
	"testing"
)

// randomClassifier returns a Classifier of random classes.
func randomClassifier(r *rand.Rand) *Classifier {
	return NewClassifier(func(byte) uint8 { return uint8(r.Uint32()) })
}

// TestMasksVector compares the vector code with its byte-at-a-time twin
// on random tables and strings of every length up to 64, with every byte
// value (non-ASCII ones among them), and on each byte value in each
// lane.
func TestMasksVector(t *testing.T) {
	if !Vector {
		t.Skip("no AVX-512 VBMI on this machine: Masks is the byte-at-a-time code, which the other tests check")
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, MaxMasked)
	check := func(c *Classifier, s string) {
		t.Helper()
		var v, g [8]uint64
		c.Masks(s, &v)
		c.masksGeneric(s, &g)
		if v != g {
			t.Fatalf("Masks(%q) = %x, byte at a time %x", s, v, g)
		}
	}
	for range 200 {
		c := randomClassifier(r)
		for n := 0; n <= MaxMasked; n++ {
			for i := range n {
				buf[i] = byte(r.Uint32())
			}
			check(c, string(buf[:n]))
		}
	}
	c := randomClassifier(r)
	for lane := range MaxMasked {
		for b := range 256 {
			for i := range buf {
				buf[i] = 'a'
			}
			buf[lane] = byte(b)
			check(c, string(buf))
			check(c, string(buf[:lane+1]))
		}
	}
}

// TestMasksClasses checks the byte-at-a-time code against the table: bit
// k of m[k] for byte i is in(s[i]) bit k, and nothing past the string.
func TestMasksClasses(t *testing.T) {
	in := func(b byte) uint8 {
		var v uint8
		if Is(b, Alpha) {
			v |= 1
		}
		if Is(b, Digit) {
			v |= 2
		}
		if b == ':' {
			v |= 4
		}
		return v
	}
	c := NewClassifier(in)
	s := "ab:12\x80Z"
	var m [8]uint64
	c.Masks(s, &m)
	want := [8]uint64{0b1000011, 0b0011000, 0b0000100}
	if m != want {
		t.Errorf("Masks(%q) = %b, want %b", s, m, want)
	}
}
