package chars

import (
	"strings"
	"testing"
)

// TestIsHTTP compares IsHTTP with strings.EqualFold on every case of
// "http" and "https" and on every byte value at every place of them and
// after them.
func TestIsHTTP(t *testing.T) {
	for _, base := range []string{"http", "https"} {
		for i := range len(base) + 1 {
			for c := range 256 {
				b := []byte(base)
				if i < len(b) {
					b[i] = byte(c)
				} else {
					b = append(b, byte(c))
				}
				s := string(b)
				if got, want := IsHTTP(s), strings.EqualFold(s, "http") || strings.EqualFold(s, "https"); got != want {
					t.Errorf("IsHTTP(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
	for mask := range 1 << 5 {
		b := []byte("https")
		for i := range b {
			if mask>>i&1 != 0 {
				b[i] -= 'a' - 'A'
			}
		}
		if !IsHTTP(string(b)) || !IsHTTP(string(b[:4])) {
			t.Errorf("IsHTTP(%q) or IsHTTP(%q) = false", b, b[:4])
		}
	}
}
