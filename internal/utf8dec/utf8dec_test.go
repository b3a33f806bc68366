package utf8dec

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValid: valid UTF-8 is its own decoding (no copy), and
// the decoding of any bytes is valid UTF-8 with the valid sequences of
// the input in order.
func TestValid(t *testing.T) {
	s := "a€😀\u00e9"
	if got := String(s); got != s {
		t.Errorf("%q decodes to %q", s, got)
	}
	for i := range 1 << 16 {
		b := []byte{byte(i >> 8), byte(i), 0xBF, 'x'}
		got := String(string(b))
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "x") {
			t.Fatalf("% x decodes to %+q", b, got)
		}
	}
}
