package main

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/chars"
	"github.com/urikit/urikit/internal/jsonstr"
	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

// TestParseJSONShortAndLong: the line uri parse --json writes in one run
// for a short clean input (componentsResult.writeJSON, appendShort) is
// byte for byte the one it writes member by member for any URI
// (writeLongJSON), over both corpora and every combination of the
// components' forms (each scheme with a view, hosts of every kind, empty
// and missing parts, escapes, queries of pairs and of search words, a
// "+" or "%" in a host or a pair, lines around chars.MaxMasked bytes),
// every byte value in every component, in both grammars and with zone
// identifiers, with the line classified at once (lineScan, masked) and
// not; and it is JSON.
func TestParseJSONShortAndLong(t *testing.T) {
	inputs := parseJSONInputs(t)
	defer func(m bool) { scanMasked = m }(scanMasked)
	for _, masked := range []bool{false, true} {
		// Masked on a processor without the vector code too: Masks
		// reads a byte at a time, with the same result.
		scanMasked = masked
		short := 0
		w1, w2 := newWriter(io.Discard, true), newWriter(io.Discard, true)
		for _, opts := range []uri.Options{{}, {AllowZoneID: true}, {Grammar: uri.RFC2396}} {
			for _, in := range inputs {
				u, err := uri.ParseWith(in, opts)
				if err != nil {
					continue
				}
				r := componentsResult{u: u}
				w1.B, w2.B = w1.B[:0], w2.B[:0]
				w1.in, w2.in = in, in
				r.writeJSON(w1)
				r.writeLongJSON(w2)
				if string(w1.B) != string(w2.B) {
					t.Fatalf("%q (%+v, masked %v):\n short %s\n  long %s", in, opts, masked, w1.B, w2.B)
				}
				if !json.Valid(w1.B) {
					t.Fatalf("%q: not JSON: %s", in, w1.B)
				}
				var l lineScan
				if jsonstr.NeedsNoEscape(in) && len(in) <= shortInput && l.scan(in) {
					short++
				}
			}
		}
		if short < 1000 {
			t.Fatalf("masked %v: only %d inputs took the short path", masked, short)
		}
	}
}

// parseJSONInputs returns the inputs of TestParseJSONShortAndLong.
func parseJSONInputs(t *testing.T) []string {
	var inputs []string
	for _, name := range []string{"kasztp", "node_files"} {
		inputs = append(inputs, testshared.LoadCorpus(t, name).Lines...)
	}
	for _, scheme := range []string{"http:", "HTTPS:", "https:", "ftp:", "gopher:", "mailto:", "news:", "nntp:", "telnet:", "wais:", "file:", "urn:", "foo:", ""} {
		for _, auth := range []string{"", "//", "//a", "//u:p@EX.com:8080", "//@h:", "//[::1]:80", "//[fe80::1%25en0]", "//[v1.x]", "//192.0.2.1", "//ex%41mple.com", "//a+b.example", "//u@h", "//h:"} {
			for _, path := range []string{"", "/", "/a/b", "isbn:0451450523", "a@b.example", "/%22x%5C", "/a:b@c"} {
				for _, query := range []string{"", "?", "?a=b&c=%00+d", "?w1+w2", "?to=x@y&subject=%E2%80%A8", "?a=b", "?a&&b=", "?x:y/z?"} {
					for _, frag := range []string{"", "#", "#f", "#a?b/c:d"} {
						inputs = append(inputs, scheme+auth+path+query+frag)
					}
				}
			}
		}
	}
	// Every byte value in every component, raw and escaped (an input
	// the grammar refuses is left out by the caller).
	for c := range 256 {
		b := string(rune(c))
		if c >= 0x80 {
			b = string([]byte{byte(c)})
		}
		for _, f := range []string{"http://u%sx@h/p?q=v#f", "http://h%sx/p?q=v#f", "http://h:8%s/p", "http://h/p%sx?q=v#f", "http://h/p?q%s=v&k=w#f", "http://h/p?q=v%s&k=w#f", "http://h/p?s%sw", "http://h/p#f%sx", "x%s:y", "%sa/b"} {
			inputs = append(inputs, strings.Replace(f, "%s", b, 1), strings.Replace(f, "%s", "%"+strings.ToUpper(hex.EncodeToString([]byte{byte(c)})), 1))
		}
	}
	// Lines around the longest one classified at once.
	for n := chars.MaxMasked - 3; n <= chars.MaxMasked+3; n++ {
		for _, f := range []string{"http://example.com/", "http://example.com/?a=", "http://%s.example/"} {
			pad := strings.Repeat("a", max(0, n-len(f)+2))
			if strings.Contains(f, "%s") {
				inputs = append(inputs, strings.Replace(f, "%s", pad, 1))
			} else {
				inputs = append(inputs, f+pad, f+pad[1:]+"%41", f+pad[1:]+"+")
			}
		}
	}
	return inputs
}

// TestLineScan: lineScan says that a line needs no JSON escape exactly
// when jsonstr.NeedsNoEscape does, and has finds a byte of each class
// in a part exactly when a search of the part does, for every byte
// value at every place of lines of every length up to past
// chars.MaxMasked, classified at once and not.
func TestLineScan(t *testing.T) {
	defer func(m bool) { scanMasked = m }(scanMasked)
	for _, masked := range []bool{false, true} {
		scanMasked = masked
		for n := 0; n <= chars.MaxMasked+2; n++ {
			line := []byte(strings.Repeat("a=b&c%2B+/?#:@", 6)[:n])
			for i := 0; i < n; i++ {
				keep := line[i]
				for c := range 256 {
					line[i] = byte(c)
					s := string(line)
					var l lineScan
					if got, want := l.scan(s), jsonstr.NeedsNoEscape(s); got != want {
						t.Fatalf("masked %v: scan(%q) = %v, want %v", masked, s, got, want)
					}
					if !jsonstr.NeedsNoEscape(s) {
						continue
					}
					for class := classPct; class < len(classBytes); class++ {
						for _, r := range [][2]int{{0, n}, {i, n}, {0, i}, {i, i + 1}, {min(i+1, n), n}, {n, n}} {
							if got, want := l.has(class, r[0], r[1]), strings.ContainsAny(s[r[0]:r[1]], classBytes[class]); got != want {
								t.Fatalf("masked %v: has(%d, %d, %d) in %q = %v, want %v", masked, class, r[0], r[1], s, got, want)
							}
						}
					}
				}
				line[i] = keep
			}
		}
	}
}

// TestPartsRead: parts.read gives the components the accessors of
// uri.URI give, and where the host and query start, for every input of
// TestParseJSONShortAndLong in both grammars.
func TestPartsRead(t *testing.T) {
	for _, opts := range []uri.Options{{}, {AllowZoneID: true}, {Grammar: uri.RFC2396}} {
		for _, in := range parseJSONInputs(t) {
			u, err := uri.ParseWith(in, opts)
			if err != nil {
				continue
			}
			var p parts
			p.read(&u)
			want := parts{s: u.String(), kind: u.HostKind(),
				scheme: u.Scheme(), hasScheme: u.HasScheme(),
				userinfo: u.Userinfo(), hasUserinfo: u.HasUserinfo(),
				host: u.Host(), port: u.Port(), hasPort: u.HasPort(), path: u.Path(),
				query: u.Query(), hasQuery: u.HasQuery(),
				fragment: u.Fragment(), hasFragment: u.HasFragment()}
			if u.HasAuthority() {
				want.hostAt = strings.Index(u.String(), "//"+u.Authority()) + len("//") + len(u.Userinfo())
				if u.HasUserinfo() {
					want.hostAt++
				}
			}
			if u.HasQuery() {
				want.queryAt = len(u.String()) - len(u.Query())
				if u.HasFragment() {
					want.queryAt -= len("#") + len(u.Fragment())
				}
			}
			if p != want {
				t.Fatalf("%q (%+v):\n got %+v\nwant %+v", in, opts, p, want)
			}
		}
	}
}
