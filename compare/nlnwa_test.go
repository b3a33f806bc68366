package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	nurl "github.com/nlnwa/whatwg-url/url"
	"github.com/urikit/urikit/whatwg"
)

type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Failure  bool    `json:"failure"`
	Href     string  `json:"href"`
	Pathname string  `json:"pathname"`
}

func testdata(elem ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), "..", "testdata"}, elem...)...)
}

func readURLTestData(t testing.TB) []wptCase {
	b, err := os.ReadFile(testdata("conformance", "whatwg", "urltestdata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var out []wptCase
	for _, r := range raw {
		var c wptCase
		if json.Unmarshal(r, &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// nlnwaHref parses as nlnwa/whatwg-url does, base first.
func nlnwaHref(in string, base *string) (string, bool) {
	var u *nurl.Url
	var err error
	if base == nil {
		u, err = nurl.Parse(in)
	} else {
		u, err = nurl.ParseRef(*base, in)
	}
	if err != nil {
		return "", false
	}
	return u.Href(false), true
}

func oursHref(in string, base *string) (string, bool) {
	var u whatwg.URL
	var err error
	if base == nil {
		u, err = whatwg.Parse(in)
	} else {
		b, err2 := whatwg.Parse(*base)
		if err2 != nil {
			return "", false
		}
		u, err = whatwg.ParseRef(b, in)
	}
	if err != nil {
		return "", false
	}
	return u.Href(), true
}

func TestNlnwaWPT(t *testing.T) {
	n, bad := 0, 0
	for _, c := range readURLTestData(t) {
		n++
		h, ok := nlnwaHref(c.Input, c.Base)
		if c.Failure == ok || ok && h != c.Href {
			bad++
			b := ""
			if c.Base != nil {
				b = *c.Base
			}
			t.Logf("nlnwa: %q base %q: got %q %v, want %q failure=%v", c.Input, b, h, ok, c.Href, c.Failure)
		}
	}
	t.Logf("nlnwa passes %d of %d", n-bad, n)
}
