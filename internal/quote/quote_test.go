package quote

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// unwindow returns the text Window quoted, without its "…" marks.
func unwindow(t *testing.T, q string) (text string, cutLo, cutHi bool) {
	t.Helper()
	q, cutLo = strings.CutPrefix(q, "…")
	q, cutHi = strings.CutSuffix(q, "…")
	text, err := strconv.Unquote(q)
	if err != nil {
		t.Fatalf("Window gave %s: %v", q, err)
	}
	return text, cutLo, cutHi
}

// TestWindowUTF8: issue 31. On text of characters of every UTF-8 length
// (1 to 4 bytes), the window at every offset holds whole characters:
// valid UTF-8, quoted without a \x escape, a piece of the input that
// holds the offset's byte, at most WindowSize bytes and the two cut
// characters, with "…" exactly where the input goes on.
func TestWindowUTF8(t *testing.T) {
	for _, unit := range []string{"a", "é", "€", "𝄞", "aé€𝄞", "𝄞€éa"} {
		s := strings.Repeat(unit, 3*WindowSize/len(unit)+1)
		for off := -1; off <= len(s)+1; off++ {
			q := Window(s, off)
			w, cutLo, cutHi := unwindow(t, q)
			if !utf8.ValidString(w) || strings.Contains(q, `\x`) {
				t.Fatalf("%q at %d: %s cuts a character", unit, off, q)
			}
			lo, hi := bounds(s, off)
			if w != s[lo:hi] || cutLo != (lo > 0) || cutHi != (hi < len(s)) {
				t.Fatalf("%q at %d: %s is not the window [%d:%d]", unit, off, q, lo, hi)
			}
			if at := max(0, min(off, len(s)-1)); at < lo || at >= hi {
				t.Errorf("%q at %d: [%d:%d] does not hold the offset", unit, off, lo, hi)
			}
			if len(w) > WindowSize+2*(utf8.UTFMax-1) || len(w) < WindowSize {
				t.Errorf("%q at %d: a window of %d bytes", unit, off, len(w))
			}
		}
	}
}

// TestWindowShort: an input of at most WindowSize bytes is quoted whole.
func TestWindowShort(t *testing.T) {
	for _, s := range []string{"", "http://a/{x}", strings.Repeat("é", WindowSize/2), "a\x00\xff"} {
		if got := Window(s, 3); got != strconv.Quote(s) {
			t.Errorf("Window(%q) = %s", s, got)
		}
	}
}

// TestWindowNotUTF8: bytes that are not UTF-8 (a long run of
// continuation bytes, as hostile input may be) cannot widen the window:
// it stays within WindowSize and the cut bytes, whatever the input.
func TestWindowNotUTF8(t *testing.T) {
	for _, s := range []string{strings.Repeat("\x80", 1<<20), "a" + strings.Repeat("\xbf", 1<<16) + "b", strings.Repeat("\xe2\x82", 1000)} {
		for _, off := range []int{0, 1, 33, len(s) / 2, len(s) - 1, len(s)} {
			q := Window(s, off)
			w, _, _ := unwindow(t, q)
			if len(w) > WindowSize+2*(utf8.UTFMax-1) {
				t.Errorf("offset %d of %d bytes: a window of %d bytes", off, len(s), len(w))
			}
		}
	}
}

func TestByte(t *testing.T) {
	for b, want := range map[byte]string{'{': "'{'", ' ': "' '", 0: "byte 0x00", 0x7f: "byte 0x7F", 0xe2: "byte 0xE2", '~': "'~'"} {
		if got := Byte(b); got != want {
			t.Errorf("Byte(%#x) = %s, want %s", b, got, want)
		}
	}
}
