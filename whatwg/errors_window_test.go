package whatwg

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorWindowUTF8: issue 31. The message of a failure in a long
// input quotes a window of it (internal/quote, the one windowing of the
// module) that never cuts a character: at every alignment of 1- to
// 4-byte characters before the failing port, the message is valid
// UTF-8 without a \x escape, short, and names the offset.
func TestErrorWindowUTF8(t *testing.T) {
	for _, unit := range []string{"é", "€", "𝄞"} {
		for k := 0; k < 8; k++ {
			s := "https://" + strings.Repeat("a", k) + strings.Repeat(unit, 200/len(unit)) + "@h:9x/" + strings.Repeat(unit, 100/len(unit))
			_, err := Parse(s)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Err != PortInvalid {
				t.Fatalf("%q: %v, want port-invalid", s, err)
			}
			msg := err.Error()
			if !utf8.ValidString(msg) || strings.Contains(msg, `\x`) || len(msg) > 150 || !strings.Contains(msg, "@h:9x/") {
				t.Errorf("%d × %q: %s", k, unit, msg)
			}
		}
	}
}
