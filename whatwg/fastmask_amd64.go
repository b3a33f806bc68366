//go:build !purego

package whatwg

// haveClassify tells whether classify64 runs here: it needs AVX-512
// with byte operations and byte permutes (AVX512BW, AVX512VBMI) and
// BMI2, and an operating system that saves the registers.
var haveClassify = hasAVX512VBMI()

// classify64 sets the masks of s, which has at most 64 bytes: one
// masked load, a 128-byte table lookup (the ASCII half of fastByte)
// and a mask per flag bit.
//
//go:noescape
func classify64(s string, m *fastMasks)

func hasAVX512VBMI() bool
