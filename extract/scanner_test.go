package extract

import (
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urikit/urikit/internal/testshared"
)

func all(t *testing.T, text string, o Options) []Match {
	t.Helper()
	s := NewScanner(strings.NewReader(text), o)
	var ms []Match
	for s.Scan() {
		m := s.Match()
		if got := text[m.Start:m.End]; got != m.Raw {
			t.Fatalf("%q: Raw %q, but input[%d:%d] is %q", text, m.Raw, m.Start, m.End, got)
		}
		ms = append(ms, m)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return ms
}

func uris(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.URI)
	}
	return out
}

// TestAppendixE is the example of the 1998 draft's Appendix E: the text
// "contains the URI references" listed after it.
func TestAppendixE(t *testing.T) {
	const text = `Yes, Jim, I found it under "http://www.w3.org/Addressing/",
but you can probably pick it up from <ftp://ds.internic.
net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
ietf/uri/historical.html#WARNING>.`
	ms := all(t, text, Options{})
	want := []string{"http://www.w3.org/Addressing/", "ftp://ds.internic.net/rfc/", "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING"}
	if got := uris(ms); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if ms[0].Wrapper != Quote || ms[1].Wrapper != Angle || ms[2].Wrapper != Angle {
		t.Errorf("wrappers %s %s %s", ms[0].Wrapper, ms[1].Wrapper, ms[2].Wrapper)
	}
	if ms[1].Line != 2 || ms[1].Col != 38 || ms[2].Line != 3 {
		t.Errorf("positions: %d:%d, %d:%d", ms[1].Line, ms[1].Col, ms[2].Line, ms[2].Col)
	}
}

// TestURLDraftWrappers is the example of the 1994 URL draft's
// "Wrappers for URIs in plain text": "The recommendation is that the
// angle brackets ... be used for this purpose. These wrappers do not
// form part of the URL".
func TestURLDraftWrappers(t *testing.T) {
	const text = `Yes, Jim, I found it under <ftp://ftp.w3.org/pub/www/doc> but
    you can probably pick it up from <ftp://ds.internic.net/rfc>.`
	got := uris(all(t, text, Options{}))
	if strings.Join(got, " ") != "ftp://ftp.w3.org/pub/www/doc ftp://ds.internic.net/rfc" {
		t.Errorf("got %q", got)
	}
	// The 1994 draft: "the whole string must start with a constant
	// prefix "URL:"".
	got = uris(all(t, "at <URL:http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html> and URL:ftp://a.example/b", Options{}))
	if strings.Join(got, " ") != "http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html ftp://a.example/b" {
		t.Errorf("got %q", got)
	}
}

func TestDelimiting(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		// Appendix E: "double-quotes "http://test.com/", angle brackets
		// <http://test.com/>, or just using whitespace".
		{`"http://test.com/"`, []string{"http://test.com/"}},
		{`<http://test.com/>`, []string{"http://test.com/"}},
		{`   http://test.com/   `, []string{"http://test.com/"}},
		// The URL drafts' prefix: <URL:...>, also across lines.
		{"<URL:ftp://foo.bar/a\n   b/c>", []string{"ftp://foo.bar/ab/c"}},
		{"URL:http://a.example/x", []string{"http://a.example/x"}},
		// Trailing punctuation is the text's.
		{"See http://a.example/x. And http://b.example/y, or (http://c.example/z)!", []string{"http://a.example/x", "http://b.example/y", "http://c.example/z"}},
		{"Wikipedia http://en.wikipedia.org/wiki/Foo_(bar) here", []string{"http://en.wikipedia.org/wiki/Foo_(bar)"}},
		{"[http://a.example/x]", []string{"http://a.example/x"}},
		{"it's at http://a.example/it's'", []string{"http://a.example/it's"}},
		// Stops: " < > \ ^ ` { | }, Unicode quotes, bidi controls.
		{"http://a.example/x|y http://b.example/{z}", []string{"http://a.example/x", "http://b.example/"}},
		{"“http://a.example/q” «http://b.example/r»", []string{"http://a.example/q", "http://b.example/r"}},
		{"http://a.example/x\u202Eevil", []string{"http://a.example/x"}},
		// A bare scheme must be registered with IANA; in <> any scheme.
		{"note:this is not foo:bar but <foo:bar>", []string{"foo:bar"}},
		{"mailto:joe@example.com, urn:isbn:0451450523.", []string{"mailto:joe@example.com", "urn:isbn:0451450523"}},
		// Not URIs.
		{"ratio 3:4 at 10:30, joe@example.com", nil},
		{"<not a uri>", nil},
		// IRIs are found.
		{"see https://例え.jp/パス and", []string{"https://例え.jp/パス"}},
	}
	for _, tt := range tests {
		if got := uris(all(t, tt.text, Options{})); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q:\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

// TestHyphen: Appendix E, "the interpreter of a URI containing a line
// break immediately after a hyphen should ignore all unescaped
// whitespace around the line break, and should be aware that the hyphen
// may or may not actually be part of the URI".
func TestHyphen(t *testing.T) {
	text := "see http://www.example.com/long-\n    name.html today"
	ms := all(t, text, Options{BothReadings: true})
	if len(ms) != 1 || ms[0].URI != "http://www.example.com/long-name.html" || ms[0].Alt != "http://www.example.com/longname.html" {
		t.Fatalf("%+v", ms)
	}
	ms = all(t, "<http://a.example/x-\n  y>", Options{BothReadings: true})
	if len(ms) != 1 || ms[0].URI != "http://a.example/x-y" || ms[0].Alt != "http://a.example/xy" {
		t.Fatalf("%+v", ms)
	}
	// Without a hyphen, a line break ends a bare URI.
	if got := uris(all(t, "http://a.example/x\ny", Options{})); len(got) != 1 || got[0] != "http://a.example/x" {
		t.Errorf("%q", got)
	}
}

// TestAppendixF: "www.w3.org/Addressing/" and ftp hosts, on request.
func TestAppendixF(t *testing.T) {
	text := "Visit www.w3.org/Addressing/ or ftp.example.com, ftp2.example.org/pub; mail joe@www.example.com; example.com is a domain."
	if got := uris(all(t, text, Options{})); got != nil {
		t.Errorf("without Abbrev: %q", got)
	}
	ms := all(t, text, Options{Abbrev: true})
	want := []string{"http://www.w3.org/Addressing/", "ftp://ftp.example.com", "ftp://ftp2.example.org/pub"}
	if got := uris(ms); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q want %q", got, want)
	}
	if !ms[0].Abbrev || ms[0].Raw != "www.w3.org/Addressing/" {
		t.Errorf("%+v", ms[0])
	}
}

// TestMap: an IRI mapped by Options.Map.
func TestMap(t *testing.T) {
	ms := all(t, "<http://例.jp/>", Options{Map: func(s string) (string, error) { return "http://xn--fsq.jp/", nil }})
	if len(ms) != 1 || ms[0].URI != "http://xn--fsq.jp/" || !ms[0].IRI {
		t.Fatalf("%+v", ms)
	}
}

// TestChunks: the same matches whatever the reads return.
func TestChunks(t *testing.T) {
	text := strings.Repeat("a <http://x.example/a\n b> \"https://y.example/\" www.z.example/p-\nq. ", 50)
	want := all(t, text, Options{Abbrev: true})
	s := NewScanner(iotest.OneByteReader(strings.NewReader(text)), Options{Abbrev: true})
	i := 0
	for s.Scan() {
		if s.Match() != want[i] {
			t.Fatalf("match %d: %+v, want %+v", i, s.Match(), want[i])
		}
		i++
	}
	if i != len(want) || i != 150 {
		t.Fatalf("%d matches, want %d", i, len(want))
	}
}

// TestLinear: time grows linearly with the input, also for a long run
// without a delimiter.
func TestLinear(t *testing.T) {
	testshared.CheckLinear(t, "extract", func(n int) string {
		return strings.Repeat("a", n) + " " + strings.Repeat("<http://a.example/", n/20)
	}, func(text string) { all(t, text, Options{Abbrev: true}) })
}

// TestManyCandidates: a token of many candidates that all fail
// ("http:/http:/...%z") stays linear: each check may read the rest of
// the token, so the candidates of one token are bounded.
func TestManyCandidates(t *testing.T) {
	testshared.CheckLinearN(t, "candidates", 500, func(n int) string {
		return strings.Repeat(strings.Repeat("http:/", n)+"%z ", 64)
	}, func(text string) { all(t, text, Options{Abbrev: true}) })
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{"<http://a/\nb>", `"http://x/"`, "www.a.b/c-\nd", "http://a.example/(x)).", "<URL:ftp://a/>", "\xff<http://\xff>"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, abbrev bool) {
		s := NewScanner(strings.NewReader(text), Options{Abbrev: abbrev, BothReadings: true, MaxLen: 256})
		last := int64(0)
		for s.Scan() {
			m := s.Match()
			if m.Start < last || m.End < m.Start || m.End > int64(len(text)) || text[m.Start:m.End] != m.Raw {
				t.Fatalf("%q: bad match %+v", text, m)
			}
			last = m.Start
		}
	})
}
