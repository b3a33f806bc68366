//go:build !purego

package chars

import (
	"os"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Vector reports whether Masks runs in vector instructions: AVX-512 with
// VBMI's byte permutes, the operating system saving their registers,
// and URIKIT_NOVECTOR unset or empty in the environment (which turns
// the vector code off, so that the byte-at-a-time parsers are tested
// on a machine that has it, and a user can rule it out).
var Vector = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI && os.Getenv("URIKIT_NOVECTOR") == ""

// masks64 is Masks on s[:n], n <= 64, in AVX-512: a masked load (which
// reads nothing past n, so no page past the string is touched), one
// two-register byte permute of tab by each ASCII byte (non-ASCII bytes
// give 0), and one test per class bit.
//
//go:noescape
func masks64(p *byte, n int, tab *[128]byte, m *[8]uint64)

func unsafeStringData(s string) *byte { return unsafe.StringData(s) }
