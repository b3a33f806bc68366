package uri

import (
	"slices"
	"testing"
)

type normPair struct {
	rawKey, rawValue, key, value string
	hasValue                     bool
}

func TestQueryParams(t *testing.T) {
	tests := []struct {
		in   string
		want []normPair
	}{
		// golang/go#29985: order and duplicates must survive (request signing).
		{"http://a/?b=2&a=1&b=3", []normPair{
			{"b", "2", "b", "2", true}, {"a", "1", "a", "1", true}, {"b", "3", "b", "3", true}}},
		// Decoded as application/x-www-form-urlencoded (the URL Standard's
		// parser, and url.ParseQuery): "+" is a space, then triplets.
		{"http://a/?k%20ey=v%26al+ue%2B", []normPair{{"k%20ey", "v%26al+ue%2B", "k ey", "v&al ue+", true}}},
		// "=" present with an empty value vs absent.
		{"?a=&b", []normPair{{"a", "", "a", "", true}, {"b", "", "b", "", false}}},
		// Only the first "=" splits (HTML form decoding does the same).
		{"?a=b=c", []normPair{{"a", "b=c", "a", "b=c", true}}},
		// ";" is not a separator (documented; golang/go#25192 removed it from net/url).
		{"?a=1;b=2", []normPair{{"a", "1;b=2", "a", "1;b=2", true}}},
		// Empty pieces are skipped, as the HTML form decoding does.
		{"?&a=1&&", []normPair{{"a", "1", "a", "1", true}}},
		{"http://a/", nil},
		{"http://a/?", nil},
	}
	for _, tt := range tests {
		u := MustParse(tt.in)
		var got []normPair
		for i, p := range u.QueryParams().All() {
			if i != len(got) {
				t.Errorf("%q: index %d, want %d", tt.in, i, len(got))
			}
			got = append(got, normPair{p.RawKey(), p.RawValue(), p.Key(), p.Value(), p.HasValue()})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: pairs %+v, want %+v", tt.in, got, tt.want)
		}
		if n := u.QueryParams().Len(); n != len(tt.want) {
			t.Errorf("%q: Len = %d", tt.in, n)
		}
		if r := u.QueryParams().Encode(); r != u.Query() {
			t.Errorf("%q: Encode = %q", tt.in, r)
		}
	}
}

func TestQueryLookup(t *testing.T) {
	p := MustParse("http://a/?b=2&a=1&b=3&c%3D=x&s=a+b%2Bc&a+b=form&e=").QueryParams()
	if v := p.Get("b"); v != "2" { // first value wins, as url.Values.Get
		t.Errorf(`Get("b") = %q`, v)
	}
	if vs := p.Values("b"); !slices.Equal(vs, []string{"2", "3"}) {
		t.Errorf(`Values("b") = %q`, vs)
	}
	if v := p.Get("c="); v != "x" { // keys compare decoded
		t.Errorf(`Get("c=") = %q`, v)
	}
	if v := p.Get("z"); v != "" || p.Has("z") {
		t.Errorf(`Get("z") = %q, Has %v`, v, p.Has("z"))
	}
	if q, ok := p.Lookup("e"); !ok || q.Value() != "" || !p.Has("e") { // defined but empty
		t.Errorf(`Lookup("e") = %+v, %v`, q, ok)
	}
	// application/x-www-form-urlencoded, as net/url: "+" is a space.
	if v := p.Get("s"); v != "a b+c" {
		t.Errorf(`Get("s") = %q`, v)
	}
	if v := p.Get("a b"); v != "form" {
		t.Errorf(`Get("a b") = %q`, v)
	}
	if q, ok := p.Lookup("a"); !ok || q.Raw() != "a=1" || q.Key() != "a" || q.Value() != "1" {
		t.Errorf(`Lookup("a") = %+v`, q)
	}
	if n := testing.AllocsPerRun(100, func() {
		for range p.All() {
		}
		p.Lookup("b")
	}); n != 0 {
		t.Errorf("iteration and Lookup: %v allocs", n)
	}
	if got := ParseParams("x=%zz").Values("x"); !slices.Equal(got, []string{"%zz"}) {
		t.Errorf("malformed triplet: %q", got)
	}
}

// TestQueryEdits: the edits change the Params in place (a discarded
// result cannot lose an edit, as with url.Values), keep untouched pairs
// byte for byte, and read back what they wrote.
func TestQueryEdits(t *testing.T) {
	tests := []struct {
		in   string
		sep  byte
		edit func(p *Params)
		want string
	}{
		{"x=1&page=3&y=2", 0, func(p *Params) { p.Set("page", "4") }, "x=1&page=4&y=2"},
		{"x=1&page=3&y=2&page=5", 0, func(p *Params) { p.Set("page", "4") }, "x=1&page=4&y=2"},
		{"x=1", 0, func(p *Params) { p.Set("page", "4") }, "x=1&page=4"},
		{"x=1", 0, func(p *Params) { p.Replace("page", "4") }, "x=1"},
		{"x=%41&page=3", 0, func(p *Params) { p.Replace("page", "a b+c&d=e") }, "x=%41&page=a%20b%2Bc%26d%3De"},
		{"a=1&b=2&a=3", 0, func(p *Params) { p.Del("a") }, "b=2"},
		{"", 0, func(p *Params) { p.Add("k", "v") }, "k=v"},
		{"b=2&a=1", 0, func(p *Params) { p.Sort() }, "a=1&b=2"},
		{"utm_a=1&id=2", 0, func(p *Params) { p.Trim("utm_*") }, "id=2"},
		// trurl's --query-separator: "curl.se?search=fool;page=5".
		{"search=fool;page=5", ';', func(p *Params) { p.Trim("search") }, "page=5"},
		{"search=fool;page=5", ';', func(p *Params) { p.Add("q", "a;b") }, "search=fool;page=5;q=a%3Bb"},
		{"a=1;b=2", 0, func(p *Params) { p.Del("b") }, "a=1;b=2"}, // ";" is data by default
	}
	for _, tt := range tests {
		p := ParseParams(tt.in)
		if tt.sep != 0 {
			p = p.WithSeparator(tt.sep)
		}
		tt.edit(&p)
		if got := p.Encode(); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.want)
		}
	}
	p := ParseParams("a=1")
	if err := p.Trim("[a"); err != ErrBadPattern || p.Encode() != "a=1" {
		t.Errorf("Trim([a) = %v, %q", err, p.Encode())
	}
	for _, bad := range []byte{'=', '%', 'a', '#', ' '} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithSeparator(%q) did not panic", bad)
				}
			}()
			ParseParams("").WithSeparator(bad)
		}()
	}
}

func TestSearchKeywords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"http://info.cern.ch/hypertext/Index?www+uri", []string{"www", "uri"}}, // 1993 URL draft: search = xalphas [ + search ]
		{"wais://host/db?one", []string{"one"}},                                 // 1994 URL draft: wais database ? search
		{"http://a/?c%2B%2B+lang%20x", []string{"c++", "lang x"}},               // escapes decoded per keyword
		{"http://a/?", nil},
		{"http://a/", nil},
	}
	for _, tt := range tests {
		if got := MustParse(tt.in).SearchKeywords(); !slices.Equal(got, tt.want) {
			t.Errorf("SearchKeywords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
