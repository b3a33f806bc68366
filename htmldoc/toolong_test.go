package htmldoc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urikit/urikit/htmldoc"
	"github.com/urikit/urikit/uri"
	"github.com/urikit/urikit/whatwg"
)

// TestLinkTooLong: an href longer than MaxLinkBytes (Chromium's
// url::kMaxURLChars, 2 MiB) is a link no browser follows: it is handed
// out with ErrLinkTooLong and not resolved, in both readings; one of
// MaxLinkBytes is resolved. The length is the href as the URL parser
// reads it: a NUL in an attribute is U+FFFD, three bytes (HTML 13.2.5.36).
func TestLinkTooLong(t *testing.T) {
	base := uri.MustParse("http://r/")
	wbase, err := whatwg.Parse("http://r/")
	if err != nil {
		t.Fatal(err)
	}
	nul := strings.Repeat("\x00", htmldoc.MaxLinkBytes/3+1) // 3 bytes each once read
	for _, tt := range []struct {
		name, href string
		tooLong    bool
	}{
		{"at the limit", strings.Repeat("a", htmldoc.MaxLinkBytes), false},
		{"one byte over", strings.Repeat("a", htmldoc.MaxLinkBytes+1), true},
		{"NULs read as U+FFFD over it", nul, true},
		{"javascript: over it", "javascript:" + strings.Repeat("a", htmldoc.MaxLinkBytes), true},
	} {
		page := `<a href="` + tt.href + `">x</a>`
		check := func(mode string, l htmldoc.Link) {
			if got := errors.Is(l.Err, htmldoc.ErrLinkTooLong); got != tt.tooLong {
				t.Errorf("%s, %s: Err = %.80v, want too long %v", tt.name, mode, l.Err, tt.tooLong)
			}
			if tt.tooLong && (l.URI != uri.URI{} || l.URL.String() != "") {
				t.Errorf("%s, %s: resolved although too long", tt.name, mode)
			}
			if !tt.tooLong && l.Err == nil && l.URI.String() == "" && l.URL.String() == "" {
				t.Errorf("%s, %s: not resolved", tt.name, mode)
			}
			if wantActive := strings.HasPrefix(tt.href, "javascript:"); l.Active != wantActive {
				t.Errorf("%s, %s: Active = %v, want %v", tt.name, mode, l.Active, wantActive)
			}
		}
		n := 0
		if _, err := htmldoc.Links(strings.NewReader(page), base, nil, func(l htmldoc.Link) bool {
			n++
			check("RFC 3986", l)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := htmldoc.BrowserLinks(strings.NewReader(page), wbase, htmldoc.Options{}, func(l htmldoc.Link) bool {
			n++
			check("URL Standard", l)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("%s: %d links handed out, want 1 in each reading", tt.name, n)
		}
	}
}
