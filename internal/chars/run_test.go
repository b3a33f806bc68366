package chars

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// skipTable is Skip one byte at a time through the table.
func skipTable(s string, i int, c Class) int {
	for i < len(s) && Is(s[i], c) {
		i++
	}
	return i
}

var runSets = map[string]*RunSet{"SchemeRun": &SchemeRun, "HostRun": &HostRun, "PathRun": &PathRun, "QueryRun": &QueryRun}

// TestSkipEveryByte puts every byte value at every offset of strings of
// 1 to 24 bytes of fast bytes (so in every lane of a word, of the last
// overlapping word and of the bytes before it) and compares Skip with the
// table, from every start.
func TestSkipEveryByte(t *testing.T) {
	for name, r := range runSets {
		for n := 1; n <= 24; n++ {
			for at := 0; at < n; at++ {
				for b := 0; b < 256; b++ {
					s := []byte(strings.Repeat("a", n))
					s[at] = byte(b)
					for i := 0; i <= n; i++ {
						if got, want := Skip(string(s), i, r), skipTable(string(s), i, r.class); got != want {
							t.Fatalf("%s: Skip(%q, %d) = %d, want %d", name, s, i, got, want)
						}
					}
				}
			}
		}
	}
}

// TestSkipRandom compares Skip with the table on random strings whose
// bytes are drawn from a mix of each class and of all bytes, so that a
// carry from one byte of a word into the next would show.
func TestSkipRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, r := range runSets {
		var in, all []byte
		for b := 0; b < 256; b++ {
			all = append(all, byte(b))
			if Is(byte(b), r.class) {
				in = append(in, byte(b))
			}
		}
		for k := 0; k < 200000; k++ {
			s := make([]byte, rng.IntN(40))
			for j := range s {
				if rng.IntN(16) == 0 {
					s[j] = all[rng.IntN(len(all))]
				} else {
					s[j] = in[rng.IntN(len(in))]
				}
			}
			i := 0
			if len(s) > 0 {
				i = rng.IntN(len(s))
			}
			if got, want := Skip(string(s), i, r), skipTable(string(s), i, r.class); got != want {
				t.Fatalf("%s: Skip(%q, %d) = %d, want %d", name, s, i, got, want)
			}
		}
	}
}

// indexUpperBytes is IndexUpper one byte at a time.
func indexUpperBytes(s string) int {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return i
		}
	}
	return -1
}

// TestIndexUpperEveryByte puts every byte value at every offset of
// strings of 1 to 24 bytes, then a second one after it, among bytes
// next to the letters ("@" and "[", just outside "A"-"Z", and "Z"'s
// neighbours in other ways: "z", 0xDA), and compares IndexUpper with a
// byte at a time.
func TestIndexUpperEveryByte(t *testing.T) {
	for _, fill := range []byte{'@', '[', 'z', 0xDA, 0x7F} {
		for n := 1; n <= 24; n++ {
			for at := 0; at < n; at++ {
				for b := 0; b < 256; b++ {
					s := []byte(strings.Repeat(string(fill), n))
					s[at] = byte(b)
					if got, want := IndexUpper(string(s)), indexUpperBytes(string(s)); got != want {
						t.Fatalf("IndexUpper(%q) = %d, want %d", s, got, want)
					}
					if at+1 < n {
						s[at+1] = 'Q'
						if got, want := IndexUpper(string(s)), indexUpperBytes(string(s)); got != want {
							t.Fatalf("IndexUpper(%q) = %d, want %d", s, got, want)
						}
					}
				}
			}
		}
	}
}

// eachString calls f with every string of up to 9 bytes over alphabet,
// then with 20,000 random strings of up to 80 bytes, a byte in three of
// them any byte, the others from alphabet (seed picks them).
func eachString(alphabet string, seed uint64, f func(s string)) {
	var walk func(b []byte)
	walk = func(b []byte) {
		f(string(b))
		if len(b) == 9 {
			return
		}
		for k := range len(alphabet) {
			walk(append(b, alphabet[k]))
		}
	}
	walk(nil)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for range 20000 {
		b := make([]byte, rng.IntN(80))
		for k := range b {
			b[k] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(3) == 0 {
				b[k] = byte(rng.IntN(256))
			}
		}
		f(string(b))
	}
}

// TestIndexPair compares IndexPair with strings.Index on every string of
// up to 9 bytes over an alphabet with both bytes of the pair, a byte
// that differs from them in one bit, and a non-ASCII byte, and on
// random longer strings, for a pair of two bytes and of one byte twice.
func TestIndexPair(t *testing.T) {
	for _, p := range [][2]byte{{'/', '.'}, {'.', '.'}, {0x80, 0x00}} {
		want := func(s string) int {
			k := strings.Index(s, string([]byte{p[0], p[1]}))
			if k >= 0 {
				k++
			}
			return k
		}
		eachString(string([]byte{p[0], p[1], p[0] ^ 1, p[1] ^ 0x20, 0xFF}), 5, func(s string) {
			if got, w := IndexPair(s, p[0], p[1]), want(s); got != w {
				t.Fatalf("IndexPair(%q, %q, %q) = %d, want %d", s, p[0], p[1], got, w)
			}
		})
	}
}

// TestLastIndexByte compares LastIndexByte with strings.LastIndexByte on
// every string of up to 9 bytes over an alphabet with the byte, bytes
// that differ from it in one bit and a letter, and on random longer
// strings, for bytes with and without the high bit.
func TestLastIndexByte(t *testing.T) {
	for _, c := range []byte{'/', 0x00, 0x80, 0xFF} {
		eachString(string([]byte{c, c ^ 1, c ^ 0x80, 'a'}), 7, func(s string) {
			if got, want := LastIndexByte(s, c), strings.LastIndexByte(s, c); got != want {
				t.Fatalf("LastIndexByte(%q, %q) = %d, want %d", s, c, got, want)
			}
		})
	}
}
