package whatwg

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestScanAuthority: the one pass over the authority (scanAuthority)
// must find what the authority state finds (section 4.4: the last '@'
// ends the credentials, "buffer is the empty string" after it starts
// the host over, and the host state stops at ':' when "insideBrackets
// is false") and say of the host what the second pass it replaced says
// (scanLDH: an LDH domain, whether the strict domain to ASCII surely
// accepts it, and whether "the ends in a number checker" may return
// true, section 3.5). Random authorities over the bytes that matter,
// both ways: each verdict must be met true and false.
func TestScanAuthority(t *testing.T) {
	const alphabet = "ab09-.@:[]Z%x/\\?#"
	rng := rand.New(rand.NewPCG(21, 3))
	seen := map[string]int{}
	for n := 0; n < 300000; n++ {
		var b strings.Builder
		b.WriteString("http://")
		for range rng.IntN(14) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		if rng.IntN(20) == 0 {
			// Long labels and long domains, for the length limits.
			b.WriteString(strings.Repeat("a", 60+rng.IntN(8)) + "." + strings.Repeat("b.", rng.IntN(130)))
		}
		in := b.String()
		special := rng.IntN(2) == 0
		e, at, colon, hs := scanAuthority(in, 7, special)

		// The reference: byte by byte as the standard says.
		we, wat, wcolon, inside := 7, -1, -1, false
		for ; we < len(in); we++ {
			c := in[we]
			if c == '/' || c == '?' || c == '#' || c == '\\' && special {
				break
			}
			switch c {
			case '@':
				wat, wcolon, inside = we, -1, false
			case ':':
				if wcolon < 0 && !inside {
					wcolon = we
				}
			case '[':
				inside = true
			case ']':
				inside = false
			}
		}
		if e != we || at != wat || colon != wcolon {
			t.Fatalf("%q: end %d, @ %d, : %d; want %d, %d, %d", in, e, at, colon, we, wat, wcolon)
		}
		h, k := at+1, e
		if at < 0 {
			h = 7
		}
		if colon >= 0 {
			k = colon
		}
		got := hs.scan(in, h, k)
		ldh, strict, numeric := scanLDH(in[h:k])
		if got.ldh != ldh || ldh && (got.strict != strict || got.numeric != numeric) {
			t.Fatalf("%q host %q: ldh %v strict %v numeric %v; scanLDH %v %v %v", in, in[h:k], got.ldh, got.strict, got.numeric, ldh, strict, numeric)
		}
		seen[strings.Join([]string{b2s(ldh), b2s(strict), b2s(numeric)}, "")]++
	}
	for _, v := range []string{"ttt", "ttf", "tft", "tff", "fff"} {
		if seen[v] == 0 {
			t.Errorf("no host with ldh, strict, numeric = %s: %v", v, seen)
		}
	}
}

func b2s(b bool) string {
	if b {
		return "t"
	}
	return "f"
}
