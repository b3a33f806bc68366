package chars

// A Classifier sorts the bytes of a string into up to eight classes of a
// parser's choosing at once: Masks gives, for each class, a word with
// bit i set when byte i of the string is in it. A parser then finds
// where a component ends (the first byte outside its class) with one
// trailing-zero count instead of a loop whose exit, different from URL
// to URL, the processor cannot predict. With the vector instructions of
// AVX-512 VBMI (Vector), the 64 bytes are classified by one table lookup
// in a few instructions; elsewhere Masks reads a byte at a time, which is
// slower than Skip, so callers use it only when Vector is true.
//
// The classes are made from the package's table (NewClassifier), so
// that a class means what Is says; bytes 0x80-0xFF are in no class.
type Classifier struct {
	tab [128]byte // bit k of tab[b]: b is in class k
}

// NewClassifier returns the Classifier whose class k holds the ASCII
// bytes b for which in(b) has bit k set.
func NewClassifier(in func(b byte) uint8) *Classifier {
	c := new(Classifier)
	for b := range c.tab {
		c.tab[b] = in(byte(b))
	}
	return c
}

// MaxMasked is the longest string Masks classifies.
const MaxMasked = 64

// Masks sets m[k] to the bytes of s in class k, bit i for s[i]. s must
// be at most MaxMasked bytes long; bits at and past len(s) are 0.
func (c *Classifier) Masks(s string, m *[8]uint64) {
	if Vector {
		masks64(unsafeStringData(s), len(s), &c.tab, m)
		return
	}
	c.masksGeneric(s, m)
}

// masksGeneric is Masks a byte at a time: the vector code's twin, which
// its tests compare it with. It is not inlined, so that Masks is.
//
//go:noinline
func (c *Classifier) masksGeneric(s string, m *[8]uint64) {
	*m = [8]uint64{}
	for i := 0; i < len(s) && i < MaxMasked; i++ {
		b := s[i]
		if b >= 0x80 {
			continue
		}
		t := c.tab[b]
		for k := range m {
			m[k] |= uint64(t>>k&1) << i
		}
	}
}
