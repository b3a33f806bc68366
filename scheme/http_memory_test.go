package scheme

import (
	"runtime"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHTTPMemory: an http URL of any shape costs memory linear in its
// length and a small multiple of it (issue 20: 10 MB of "+" in a query,
// a search of 10M empty words, took 160 MB to make the view that uri
// check and uri plan read, and uri parse --json 540 MB). The view splits
// the search words only when asked (SearchWords), and AppendJSON grows
// the caller's buffer once.
func TestHTTPMemory(t *testing.T) {
	shapes := []struct{ name, head, unit string }{
		{"search of empty words", "http://a/?", "+"},
		{"search of one-letter words", "http://a/?", "a+"},
		{"search of triplets", "http://a/?", "%41+"},
		{"form pairs", "http://a/?", "a=b&"},
		{"long path", "http://a/", "b/"},
		{"long host", "http://", "a."},
	}
	const n = 1 << 20
	for _, sh := range shapes {
		u := uri.MustParse(sh.head + strings.Repeat(sh.unit, n/len(sh.unit)))
		if got := allocated(func() {
			v, err := ParseHTTP(u)
			if err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
			v.Warnings()
			v.Plan(PlanOptions{})
		}); got > 3*n+64<<10 {
			t.Errorf("%s: ParseHTTP and Plan of %d bytes allocated %d bytes (more than 3 times)", sh.name, n, got)
		}
		// The command appends the object to its line, which holds the
		// input already.
		line := make([]byte, 0, len(u.String())+64)
		line = append(line, u.String()...)
		if got := allocated(func() {
			if _, err := AppendJSON(line, u); err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
		}); got > 8*n+64<<10 {
			t.Errorf("%s: AppendJSON of %d bytes allocated %d bytes (more than 8 times)", sh.name, n, got)
		}
		testshared.CheckLinearN(t, "http JSON "+sh.name, 64<<10, func(n int) uri.URI {
			return uri.MustParse(sh.head + strings.Repeat(sh.unit, n/len(sh.unit)))
		}, func(u uri.URI) { AppendJSON(nil, u) })
	}
}
