package uri

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// indexDotSegmentSplit is indexDotSegment by splitting the path at "/".
func indexDotSegmentSplit(path string) int {
	off := 0
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "." || seg == ".." {
			return off
		}
		off += len(seg) + 1
	}
	return -1
}

// TestIndexDotSegment compares indexDotSegment, which jumps from "." to
// ".", with the split at "/" on every path of up to 11 bytes of ".", "/"
// and "a", and on random longer paths.
func TestIndexDotSegment(t *testing.T) {
	const alphabet = "./a"
	var walk func(b []byte)
	walk = func(b []byte) {
		if got, want := indexDotSegment(string(b)), indexDotSegmentSplit(string(b)); got != want {
			t.Fatalf("indexDotSegment(%q) = %d, want %d", b, got, want)
		}
		if len(b) == 11 {
			return
		}
		for k := range len(alphabet) {
			walk(append(b, alphabet[k]))
		}
	}
	walk(nil)
	rng := rand.New(rand.NewPCG(3, 4))
	const bytes = "./a.%/b"
	for range 100000 {
		b := make([]byte, rng.IntN(48))
		for j := range b {
			b[j] = bytes[rng.IntN(len(bytes))]
		}
		if got, want := indexDotSegment(string(b)), indexDotSegmentSplit(string(b)); got != want {
			t.Fatalf("indexDotSegment(%q) = %d, want %d", b, got, want)
		}
	}
}
