package scheme

import (
	"errors"
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
		var out []byte
		if got := allocated(func() {
			var err error
			if out, err = AppendJSON(line, u); err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
		}); got > uint64(cap(out))+64<<10 {
			t.Errorf("%s: AppendJSON of %d bytes allocated %d bytes, more than the line it returns (%d)", sh.name, n, got, cap(out))
		}
		testshared.CheckLinearN(t, "http JSON "+sh.name, 64<<10, func(n int) uri.URI {
			return uri.MustParse(sh.head + strings.Repeat(sh.unit, n/len(sh.unit)))
		}, func(u uri.URI) { AppendJSON(nil, u) })
	}
}

// TestFTPMemory: an ftp path of a million one-letter directories (10 MB
// of "a/" took 660 MB to view and check, 720 MB to plan) costs its view
// nothing more than its text; the plan holds one string per CWD command
// (16 bytes each) and their text, the JSON the decoded names.
func TestFTPMemory(t *testing.T) {
	shapes := []struct{ name, head, unit, tail string }{
		{"one-letter directories", "ftp://h/", "a/", "f"},
		{"empty directories", "ftp://h/", "/", "f"},
		{"triplet directories", "ftp://h/", "%41/", "f;type=a"},
		{"one long name", "ftp://h/d/", "a", ""},
	}
	const n = 1 << 20
	for _, sh := range shapes {
		gen := func(n int) uri.URI {
			return uri.MustParse(sh.head + strings.Repeat(sh.unit, n/len(sh.unit)) + sh.tail)
		}
		u := gen(n)
		var v FTP
		if got := allocated(func() {
			var err error
			if v, err = ParseFTP(u); err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
			v.Warnings()
		}); got > n/2+64<<10 {
			t.Errorf("%s: ParseFTP of %d bytes allocated %d bytes", sh.name, n, got)
		}
		// Plan.Commands: "CWD " and "\n" for each directory, and the
		// text of the path, in one string (a string of 16 bytes per
		// command made 10 MB of "a/" a 300 MB uri plan, issue 26).
		dirs := strings.Count(u.Path(), "/") - 1
		if got := allocated(func() { v.Plan(PlanOptions{}) }); got > uint64(5*dirs+n+64<<10) {
			t.Errorf("%s: FTP.Plan of %d bytes, %d directories, allocated %d bytes", sh.name, n, dirs, got)
		}
		// The JSON writes each directory as `"name",`.
		if got := allocated(func() { v.MarshalJSON() }); got > uint64(2*dirs+2*n+64<<10) {
			t.Errorf("%s: FTP.MarshalJSON of %d bytes, %d directories, allocated %d bytes", sh.name, n, dirs, got)
		}
		// Flushed, it holds no more than the longest name.
		if got := allocated(func() {
			AppendJSONFlush(nil, u, func(b []byte) []byte { return b[:0] })
		}); got > uint64(n+128<<10) {
			t.Errorf("%s: its JSON, flushed, allocated %d bytes for %d", sh.name, got, n)
		}
		testshared.CheckLinearN(t, "ftp "+sh.name, 64<<10, gen, func(u uri.URI) {
			v, _ := ParseFTP(u)
			v.Plan(PlanOptions{})
			v.MarshalJSON()
		})
	}
	// The offset of a refused control is the same in a long path.
	long := "ftp://h/" + strings.Repeat("a/", 1000) + "b%0Ac"
	v, err := ParseFTP(uri.MustParse(long))
	if err != nil {
		t.Fatal(err)
	}
	var re *RefusedError
	if _, err := v.Plan(PlanOptions{}); !errors.As(err, &re) || re.Offset != strings.Index(long, "%0A") {
		t.Errorf("Plan of a long path with %%0A: %v, want refused at %d", err, strings.Index(long, "%0A"))
	}
}

// TestGopherMailtoMemory: 10 MB of "a%09" in a gopher path took 206 MB
// to view (the path was split at every encoded TAB, then joined again
// after the second); 10 MB of "a@b," in a mailto "to" query 300 MB (an
// offset of 8 bytes for every decoded octet, a string per address), and
// 8 MB of "x=1&" 24 times the input to write as uri parse --json (a
// [name, value] pair of 32 bytes for every 4-byte field, issue 26). The
// view reads its lists from the URL when asked and writes them in
// blocks (AppendJSONFlush): no string or pair per element is held.
func TestGopherMailtoMemory(t *testing.T) {
	checkViewMemory(t, []memShape{
		{"gopher encoded TABs", "gopher://h/1", "a%09", "", 2, 4.5},
		{"gopher encoded TABs after +", "gopher://h/1a%09b%09+", "a%09", "", 2, 4.5},
		{"mailto addresses", "mailto:", "a@b,", "x@y", 1.5, 2},
		{"mailto to= addresses", "mailto:?to=", "a@b,", "x@y", 1.5, 5},
		{"mailto cc= triplets", "mailto:a@b?cc=", "a@b.c%2C", "x@y", 1.5, 6.5},
		{"mailto header fields", "mailto:a@b?", "x=1&", "y=2", 0.5, 1},
	}, func(View) {})
	// An error deep in a long list still names its byte in the URL,
	// past a thousand triplets (the offset of the mailbox's "@", as
	// before the offsets were computed on demand).
	long := "mailto:?to=" + strings.Repeat("%61@b,", 1000) + "a@@b"
	_, err := ParseMailto(uri.MustParse(long))
	var pe *uri.ParseError
	if !errors.As(err, &pe) || pe.Offset != strings.Index(long, "@@") {
		t.Errorf("ParseMailto of a long list with a@@b: %v, want offset %d", err, strings.Index(long, "@@"))
	}
}

// TestProsperoNewsMemory: 10 MB of ";a=b" fields in a prospero URL took
// 400 MB to view (a regrowing slice of 32-byte pairs), then 88 MB (a
// pair held for each field) and 185 MB to write as uri parse --json
// (issue 26); an nntp group of 10 MB an offset of 8 bytes per octet to
// check.
func TestProsperoNewsMemory(t *testing.T) {
	checkViewMemory(t, []memShape{
		{"prospero fields", "prospero://h/a", ";a=b", "", 0.5, 1},
		{"prospero attributes", "prospero://h/a%00v", "%00a", "", 0.5, 1},
		{"nntp group", "nntp://h/", "a.", "b/1", 2, 3},
		{"news group", "news:", "a.", "b", 2, 3},
	}, func(v View) {
		if p, ok := v.(interface {
			Plan(PlanOptions) (Plan, error)
		}); ok {
			p.Plan(PlanOptions{})
		}
	})
}

// memShape is an input shape: head, then unit repeated, then tail, and
// the bytes the view may allocate per input byte, and its JSON written
// in blocks (AppendJSONFlush, as uri parse --json writes it).
type memShape struct {
	name, head, unit, tail string
	limit, json            float64
}

// checkViewMemory builds each shape at 1 MiB, checks that making its
// view (and use, on it) allocates at most limit times the input, and
// that the cost is linear (CheckLinearN).
func checkViewMemory(t *testing.T, shapes []memShape, use func(View)) {
	t.Helper()
	const n = 1 << 20
	for _, sh := range shapes {
		gen := func(n int) uri.URI {
			return uri.MustParse(sh.head + strings.Repeat(sh.unit, n/len(sh.unit)) + sh.tail)
		}
		u := gen(n)
		if got := allocated(func() {
			v, err := ViewOf(u)
			if err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
			v.Warnings()
			use(v)
		}); float64(got) > sh.limit*n+64<<10 {
			t.Errorf("%s: the view of %d bytes allocated %d bytes (more than %g times)", sh.name, n, got, sh.limit)
		}
		if got := allocated(func() {
			if _, err := AppendJSONFlush(nil, u, func(b []byte) []byte { return b[:0] }); err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
		}); float64(got) > sh.json*n+64<<10 {
			t.Errorf("%s: its JSON, flushed, allocated %d bytes for %d (more than %g times)", sh.name, got, n, sh.json)
		}
		testshared.CheckLinearN(t, sh.name, 64<<10, gen, func(u uri.URI) { ViewOf(u) })
	}
}

// TestURNViewMemory: the JSON of a URN's view holds the URN and its NSS,
// twice its length, which uri parse --repair --json built whole (20
// times an 8 MB line of mixed scripts in resident memory, issue 26);
// flushed, it is written a block at a time.
func TestURNViewMemory(t *testing.T) {
	checkViewMemory(t, []memShape{
		{"urn NSS", "urn:example:", "a%C3%A9", "", 0.5, 0.5},
	}, func(View) {})
}
