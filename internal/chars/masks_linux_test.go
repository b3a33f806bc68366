//go:build linux && amd64 && !purego

package chars

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestMasksPageEnd puts strings that end at the last byte before a page
// that cannot be read: the vector code must read nothing past them.
func TestMasksPageEnd(t *testing.T) {
	if !Vector {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	c := NewClassifier(func(b byte) uint8 { return b })
	for n := 0; n <= MaxMasked; n++ {
		b := mem[page-n : page]
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		s := unsafe.String(unsafe.SliceData(b), n)
		var v, g [8]uint64
		c.Masks(s, &v)
		c.masksGeneric(s, &g)
		if v != g {
			t.Fatalf("n=%d: Masks = %x, byte at a time %x", n, v, g)
		}
	}
}
