//go:build !amd64 || purego

package chars

// Vector reports whether Masks runs in vector instructions: never here.
const Vector = false

func masks64(p *byte, n int, tab *[128]byte, m *[8]uint64) { panic("chars: no vector code") }

func unsafeStringData(s string) *byte { return nil }
