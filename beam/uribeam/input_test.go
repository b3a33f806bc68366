package uribeam

import (
	"slices"
	"strings"
	"testing"
)

// linesOf reads the lines of text that start in [start, end) as a
// range reader does: from the byte before start.
func linesOf(t *testing.T, text string, start, end, max int64) []string {
	t.Helper()
	var got []string
	r := strings.NewReader(text)
	if start > 0 {
		r = strings.NewReader(text[start-1:])
	}
	err := eachLine(r, start, end, max, func(line []byte, long bool) {
		if long {
			got = append(got, "LONG:"+string(line))
			return
		}
		got = append(got, string(line))
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestEachLineRanges: the ranges of a file, whatever their size, give
// every line once, as one reading of the whole file does: a line
// belongs to the range it starts in.
func TestEachLineRanges(t *testing.T) {
	texts := []string{
		"a\nbb\n\nccc\r\n\n\nd",
		"a\nbb\n\nccc\r\n\n\nd\n",
		"\n\n\n",
		"",
		"x",
		strings.Repeat("0123456789\n", 30),
	}
	for _, text := range texts {
		want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if text == "" {
			want = nil
		}
		if whole := linesOf(t, text, 0, -1, 1<<20); !slices.Equal(whole, want) {
			t.Errorf("%q: %q, want %q", text, whole, want)
		}
		for size := int64(1); size <= int64(len(text))+1; size++ {
			var got []string
			for start := int64(0); start < int64(len(text)); start += size {
				end := start + size
				if end >= int64(len(text)) {
					end = -1
				}
				got = append(got, linesOf(t, text, start, end, 1<<20)...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q in ranges of %d: %q, want %q", text, size, got, want)
			}
		}
	}
}

// TestEachLineLong: a line over max is given by its first bytes, marked
// long; the lines around it are read.
func TestEachLineLong(t *testing.T) {
	long := strings.Repeat("y", 3*longLinePrefix)
	got := linesOf(t, "a\n"+long+"\nb\n"+long, 0, -1, 100)
	want := []string{"a", "LONG:" + long[:longLinePrefix], "b", "LONG:" + long[:longLinePrefix]}
	if !slices.Equal(got, want) {
		t.Errorf("got %.60q, want %.60q", got, want)
	}
	// A line of exactly max bytes is not long, with or without "\r\n".
	if got := linesOf(t, "12345\n1234\r\n", 0, -1, 5); !slices.Equal(got, []string{"12345", "1234\r"}) {
		t.Errorf("got %q", got)
	}
}
