package extract

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
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
	ms := all(t, "<http://例.jp/>", Options{Map: func(s string) (uri.URI, error) { return uri.Parse("http://xn--fsq.jp/") }})
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

// TestAngleAndSchemeLinear: the shapes of issue 26's rules stay linear:
// brackets whose content opens with a URI and goes on with whitespace
// (no ">", or a ">" after content that is no URI), and long runs of
// scheme characters before a ":" (every start after punctuation is
// tried once).
func TestAngleAndSchemeLinear(t *testing.T) {
	for _, shape := range []struct {
		name string
		gen  func(n int) string
	}{
		{"open<", func(n int) string { return strings.Repeat("<a:b"+strings.Repeat(" c", 50)+" ", n/100+1) }},
		{"open<>", func(n int) string { return strings.Repeat("<a:%zz"+strings.Repeat(" c", 50)+">", n/100+1) }},
		{"one<", func(n int) string { return "<http://a.example/" + strings.Repeat(" b", n) }},
		{"dots", func(n int) string { return strings.Repeat("a.", n) + "http://x.example/ " }},
		{"runs", func(n int) string { return strings.Repeat(strings.Repeat("a.", 40)+":", n/80+1) }},
	} {
		testshared.CheckLinearN(t, shape.name, 300000, shape.gen, func(text string) { all(t, text, Options{Abbrev: true}) })
	}
}

// recallURIs are valid URIs with registered schemes that end in a
// character no rule trims: RFC 3986 1.1.2's examples and others.
var recallURIs = []string{
	"http://a.example/x",
	"ftp://ftp.is.co.za/rfc/rfc1808.txt",
	"http://www.ietf.org/rfc/rfc2396.txt",
	"ldap://[2001:db8::7]/c=GB?objectClass?one",
	"mailto:John.Doe@example.com",
	"news:comp.infosystems.www.servers.unix",
	"tel:+1-816-555-1212",
	"telnet://192.0.2.16:80/",
	"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
	"http://en.wikipedia.org/wiki/Foo_(bar)",
	"https://a.example/p?q=1&r=(2)#frag",
	"http://[::1]:8080/a?b=c#d",
	"file:///etc/hosts",
	"https://例え.jp/パス",
	"URL:http://a.example/y",
}

// recallSeps are the whitespace put around the URI.
var recallSeps = []string{" ", "\t", "\n", "  ", " \n\t", "\r\n"}

// FuzzScanner checks, on any text, that every match is where it says
// (Raw is the input between its offsets, in order) and that the matches
// do not depend on how the reads cut the input; and recall: a URI of
// recallURIs put between any prose, with whitespace on both sides, is
// found where it is.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"<http://a/\nb>", `"http://x/"`, "www.a.b/c-\nd", "http://a.example/(x)).", "<URL:ftp://a/>", "\xff<http://\xff>", "<a href=", "x-", "<", "\"", "foo:"} {
		f.Add(s, s, uint8(0), uint8(0), true)
	}
	f.Add("see <URL:", ">", uint8(3), uint8(2), false)
	f.Add("<", ">", uint8(11), uint8(0x22), true)
	f.Fuzz(func(t *testing.T, prefix, suffix string, pick, seps uint8, abbrev bool) {
		u := recallURIs[int(pick)%len(recallURIs)]
		sep1, sep2 := recallSeps[int(seps&15)%len(recallSeps)], recallSeps[int(seps>>4)%len(recallSeps)]
		// Appendix E: "<" and ">" wrap a URI with whitespace inside, so
		// "<x:y" + sep + u + sep + "z>" is one URI.
		prefix = strings.ReplaceAll(prefix, "<", "")
		text := prefix + sep1 + u + sep2 + suffix
		o := Options{Abbrev: abbrev, BothReadings: true, MaxLen: 256}
		scan := func(r io.Reader) []Match {
			s := NewScanner(r, o)
			var ms []Match
			for s.Scan() {
				ms = append(ms, s.Match())
			}
			return ms
		}
		ms := scan(strings.NewReader(text))
		last := int64(0)
		for _, m := range ms {
			if m.Start < last || m.End < m.Start || m.End > int64(len(text)) || text[m.Start:m.End] != m.Raw {
				t.Fatalf("%q: bad match %+v", text, m)
			}
			last = m.Start
		}
		if ms2 := scan(iotest.OneByteReader(strings.NewReader(text))); !reflect.DeepEqual(ms, ms2) {
			t.Fatalf("%q: read whole %+v, a byte at a time %+v", text, ms, ms2)
		}
		// Recall.
		start := int64(len(prefix) + len(sep1))
		end := start + int64(len(u))
		want := strings.TrimPrefix(u, "URL:")
		for _, m := range ms {
			exact := m.Start == start && m.End == end || u != want && m.Start == start+4 && m.End == end
			// "<" + " " + u + " " + ">" is a wrapper around it.
			wrapped := m.Wrapper != None && m.Start < start && m.End > end
			if m.URI == want && (exact || wrapped) {
				return
			}
		}
		t.Fatalf("%q: %q at %d:%d not found in %+v", text, u, start, end, ms)
	})
}

// TestSchemeAfterPunctuation: Appendix E delimits a URI "from
// punctuation marks that might be mistaken for part of the URI"; a
// scheme starts at a letter (RFC 3986 3.1: scheme = ALPHA *( ALPHA /
// DIGIT / "+" / "-" / "." )), so punctuation glued before it is the
// text's, and the longest registered scheme that ends at the ":" and
// starts at a letter after punctuation (or at the start of the word)
// starts the URI (issue 26: "c.http://c.example/" and
// "can...http://bit.ly/x" found nothing).
func TestSchemeAfterPunctuation(t *testing.T) {
	tests := []struct {
		text string
		want string // "" for no match
	}{
		{"see:http://x.example/", "http://x.example/"},
		{"...http://x.example/", "http://x.example/"},
		{"-https://x.example/", "https://x.example/"},
		{".http://x.example/", "http://x.example/"},
		{"+-.http://x.example/", "http://x.example/"},
		{"(see:-http://x.example/)", "http://x.example/"},
		// Issue 26: the punctuation ends a word that is no scheme.
		{"c.http://c.example/", "http://c.example/"},
		{"can...http://bit.ly/x", "http://bit.ly/x"},
		{"a.http://x.example/", "http://x.example/"},
		{"x-https://x.example/", "https://x.example/"},
		{"3.http://x.example/", "http://x.example/"},
		{"git+https://x.example/r", "https://x.example/r"},
		// The longest registered name wins: "ms-settings" is one.
		{"ms-settings:display", "ms-settings:display"},
		{"x.ms-settings:display", "ms-settings:display"},
		// A letter after a letter or digit starts no scheme.
		{"xhttp://x.example/", ""},
		{"a1http://x.example/", ""},
	}
	for _, tt := range tests {
		got := uris(all(t, tt.text, Options{}))
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
	// The offsets leave the punctuation out.
	if ms := all(t, "...http://x.example/", Options{}); len(ms) != 1 || ms[0].Start != 3 || ms[0].Raw != "http://x.example/" {
		t.Errorf("%+v", ms)
	}
}

// TestAngleWrapper: Appendix E's angle brackets wrap one URI ("These
// wrappers do not form part of the URI"), and "extra whitespace
// (spaces, linebreaks, tabs, etc.) may need to be added to break long
// URIs across lines. The whitespace should be ignored when extracting
// the URI." Brackets whose content is not one URI broken across lines
// are text.
func TestAngleWrapper(t *testing.T) {
	tests := []struct {
		text    string
		abbrev  bool
		want    []string
		wrapper Wrapper // of the first match
	}{
		// Wrappers.
		{"<http://x.example/a>", false, []string{"http://x.example/a"}, Angle},
		{"<URL:http://x.example/a>", false, []string{"http://x.example/a"}, Angle},
		// "The prefix "URL:" (with or without a trailing space)".
		{"<URL: http://x.example/a>", false, []string{"http://x.example/a"}, Angle},
		{"< http://x.example/a >", false, []string{"http://x.example/a"}, Angle},
		{"<http://x.example/a\n   b/c>", false, []string{"http://x.example/ab/c"}, Angle},
		{"<foo:bar>", false, []string{"foo:bar"}, Angle},
		// Appendix F inside brackets, with Abbrev.
		{"<www.x.org/p> and <ftp.x.org>", true, []string{"http://www.x.org/p", "ftp://ftp.x.org"}, Angle},
		{"<www.x.org/p> and <ftp.x.org>", false, nil, ""},
		// An HTML fragment: a "<" that starts a tag is no wrapper; the
		// quoted URI is found.
		{`<a href="http://x.example/">x</a>`, false, []string{"http://x.example/"}, Quote},
		{`<img src=http://x.example/i.png>`, false, []string{"http://x.example/i.png"}, None},
		{`<p>Hello http://x.example/</p>`, false, []string{"http://x.example/"}, None},
		// A "<" never closed.
		{"<http://x.example/a and more text", false, []string{"http://x.example/a"}, None},
		{"<http://x.example/a", false, []string{"http://x.example/a"}, None},
		{"<http://x.example/a\nnext line of text", false, []string{"http://x.example/a"}, None},
		// Prose in brackets: the content does not open with a URI.
		{"<see http://x.example/ for details>", false, []string{"http://x.example/"}, None},
		{"<note: see http://x.example/>", false, []string{"http://x.example/"}, None},
		{"<URL: see http://x.example/>", false, []string{"http://x.example/"}, None},
		// Issue 26: "extra whitespace (spaces, linebreaks, tabs, etc.) ...
		// should be ignored when extracting the URI", on one line too:
		// "Using <> angle brackets around each URI is especially
		// recommended as a delimiting style for URIs that contain
		// whitespace".
		{"<http://www.example.org/a \t/b\r\n/c>", false, []string{"http://www.example.org/a/b/c"}, Angle},
		{"<gopher://h/00/Information About Gopher>", false, []string{"gopher://h/00/InformationAboutGopher"}, Angle},
		{"<http://x.example/a and more text>", false, []string{"http://x.example/aandmoretext"}, Angle},
		{"<URL: http://x.example/a b>", false, []string{"http://x.example/ab"}, Angle},
		// A blank line ends a paragraph, and any wrapper.
		{"<http://x.example/a\n\nb>", false, []string{"http://x.example/a"}, None},
		// Content that is not one URI.
		{"<not a uri>", false, nil, ""},
		{"<b>", false, nil, ""},
		{"<URL:foo>", false, nil, ""},
	}
	for _, tt := range tests {
		ms := all(t, tt.text, Options{Abbrev: tt.abbrev})
		if got := uris(ms); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
			continue
		}
		if len(ms) > 0 && ms[0].Wrapper != tt.wrapper {
			t.Errorf("%q: wrapper %s, want %s", tt.text, ms[0].Wrapper, tt.wrapper)
		}
	}
	ms := all(t, "<www.x.org/p>", Options{Abbrev: true})
	if len(ms) != 1 || !ms[0].Abbrev || ms[0].Raw != "<www.x.org/p>" || ms[0].Start != 0 || ms[0].End != 13 {
		t.Errorf("%+v", ms)
	}
	ms = all(t, `x <a href="http://x.example/">`, Options{})
	if len(ms) != 1 || ms[0].Raw != `"http://x.example/"` || ms[0].Start != 10 || ms[0].Col != 11 {
		t.Errorf("%+v", ms)
	}
}

// TestHyphenNextLineURI: the hyphen join of Appendix E applies to "a URI
// containing a line break immediately after a hyphen"; a next line that
// starts a URI of its own is not the rest of this one.
func TestHyphenNextLineURI(t *testing.T) {
	tests := []struct {
		text   string
		abbrev bool
		want   []string
	}{
		{"http://a.example/-\nhttp://b.example/", false, []string{"http://a.example/-", "http://b.example/"}},
		{"http://a.example/-\n  (https://b.example/)", false, []string{"http://a.example/-", "https://b.example/"}},
		{"http://a.example/-\r\nURL:http://b.example/", false, []string{"http://a.example/-", "http://b.example/"}},
		{"http://a.example/-\nwww.b.example/", true, []string{"http://a.example/-", "http://www.b.example/"}},
		// The join is taken when the next line does not start a URI.
		{"http://a.example/x-\n  y.html", false, []string{"http://a.example/x-y.html"}},
		{"http://a.example/x-\nhttpfoo/y", false, []string{"http://a.example/x-httpfoo/y"}},
		{"http://a.example/x-\r\n  y", false, []string{"http://a.example/x-y"}},
		{"http://a.example/x-\nwww.b.example/", false, []string{"http://a.example/x-www.b.example/"}},
		// A stop character or the end of the text after the break.
		{"http://a.example/x-\n \"y\"", false, []string{"http://a.example/x-"}},
		{"http://a.example/x-\n", false, []string{"http://a.example/x-"}},
	}
	for _, tt := range tests {
		if got := uris(all(t, tt.text, Options{Abbrev: tt.abbrev})); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
	// The other reading, also after CR LF.
	ms := all(t, "see http://a.example/x-\r\n  y", Options{BothReadings: true})
	if len(ms) != 1 || ms[0].Alt != "http://a.example/xy" || ms[0].Raw != "http://a.example/x-\r\n  y" {
		t.Errorf("%+v", ms)
	}
	// An abbreviated URL over a break: Raw is the source text.
	ms = all(t, "www.a.example/x-\n  y z", Options{Abbrev: true, BothReadings: true})
	if len(ms) != 1 || ms[0].URI != "http://www.a.example/x-y" || ms[0].Raw != "www.a.example/x-\n  y" || ms[0].Alt != "http://www.a.example/xy" {
		t.Errorf("%+v", ms)
	}
}

// TestManyMatchesInToken: the bound on candidates per token counts
// failures only: a token of twelve URIs gives twelve.
func TestManyMatchesInToken(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := range 12 {
		u := "http://a" + string(rune('a'+i)) + ".example/#x"
		b.WriteString(u + "#")
		want = append(want, u)
	}
	if got := uris(all(t, b.String(), Options{})); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %d %q", len(got), got)
	}
	// Failures are still bounded: after eight, the rest of the token
	// is given up.
	text := strings.Repeat("http:/", 9) + "%z" + "#http://b.example/"
	if got := uris(all(t, text, Options{})); got != nil {
		t.Errorf("got %q", got)
	}
	text = strings.Repeat("http:/", 7) + "%z" + "#http://b.example/"
	if got := uris(all(t, text, Options{})); strings.Join(got, " ") != "http://b.example/" {
		t.Errorf("got %q", got)
	}
}

// TestRecords: with Options.Records, NUL bytes separate records that no
// URI spans; offsets, lines and columns restart in each.
func TestRecords(t *testing.T) {
	records := func(text string) [][]Match {
		s := NewScanner(iotest.HalfReader(strings.NewReader(text)), Options{Records: true})
		var out [][]Match
		for s.NextRecord() {
			var ms []Match
			for s.Scan() {
				ms = append(ms, s.Match())
			}
			out = append(out, ms)
		}
		if s.Err() != nil {
			t.Fatal(s.Err())
		}
		return out
	}
	rs := records("a http://x.example/ b\x00no uri\x00\n<https://y.example/>")
	if len(rs) != 3 || len(rs[0]) != 1 || len(rs[1]) != 0 || len(rs[2]) != 1 {
		t.Fatalf("%+v", rs)
	}
	if m := rs[0][0]; m.Start != 2 || m.Line != 1 || m.Col != 3 {
		t.Errorf("%+v", m)
	}
	if m := rs[2][0]; m.Start != 1 || m.End != 21 || m.Line != 2 || m.Col != 1 || m.Raw != "<https://y.example/>" {
		t.Errorf("%+v", m)
	}
	// A "<" that a NUL cuts is not closed: text.
	rs = records("<http://a.example/x\x00y>")
	if len(rs) != 2 || len(rs[0]) != 1 || rs[0][0].URI != "http://a.example/x" || rs[0][0].Wrapper != None || len(rs[1]) != 0 {
		t.Errorf("%+v", rs)
	}
	// The number of records: the empty input is one; a NUL at the end
	// does not start another.
	for text, want := range map[string]int{"": 1, "a": 1, "a\x00": 1, "a\x00b": 2, "\x00": 1, "\x00\x00": 2, "a\x00\x00b\x00": 3} {
		if got := len(records(text)); got != want {
			t.Errorf("%q: %d records, want %d", text, got, want)
		}
	}
	// Without Records, NUL is a stop character and the input is one
	// record.
	s := NewScanner(strings.NewReader("http://a.example/\x00http://b.example/"), Options{})
	n := 0
	for s.NextRecord() {
		for s.Scan() {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d matches", n)
	}
	// NextRecord skips what Scan has not returned.
	s = NewScanner(strings.NewReader("http://a.example/ http://b.example/\x00http://c.example/"), Options{Records: true})
	s.Scan()
	if !s.NextRecord() || !s.Scan() || s.Match().URI != "http://c.example/" || s.NextRecord() {
		t.Errorf("%+v", s.Match())
	}
}

// TestRecordsLinear: one Scanner reads every record (issue 20 item 12:
// a Scanner per record cost 12 µs each). Counted in allocated bytes: a
// million empty records allocate less than one byte each.
func TestRecordsLinear(t *testing.T) {
	scan := func(text string) int {
		s := NewScanner(strings.NewReader(text), Options{Records: true})
		n := 0
		for s.NextRecord() {
			for s.Scan() {
			}
			n++
		}
		return n
	}
	testshared.CheckLinearN(t, "records", 64<<10, func(n int) string {
		return strings.Repeat("\x00", n)
	}, func(text string) { scan(text) })
	text := strings.Repeat("\x00", 1<<20)
	var n int
	allocs := testing.AllocsPerRun(1, func() { n = scan(text) })
	if n != 1<<20 || allocs > 10 {
		t.Errorf("%d records, %v allocations", n, allocs)
	}
}

// TestClosingBrackets: a token that ends in a long run of ")" or "]"
// costs its length (issue 20 item 13: "http://a/" and 60,000 ")" were
// counted again for each one removed).
func TestClosingBrackets(t *testing.T) {
	for _, c := range []string{")", "]"} {
		testshared.CheckLinearN(t, "run of "+c, 8<<10, func(n int) string {
			return "http://a/" + strings.Repeat(c, n) + " http://b/("
		}, func(text string) {
			if ms := all(t, text, Options{MaxLen: 1 << 20}); len(ms) != 2 || ms[0].URI != "http://a/" {
				t.Fatalf("%+v", ms)
			}
		})
	}
	// Many tokens of that shape, within the default MaxLen.
	testshared.CheckLinearN(t, "tokens", 4, func(n int) string {
		return strings.Repeat("http://a/"+strings.Repeat(")", 30000)+"\n", n)
	}, func(text string) { all(t, text, Options{}) })
}
