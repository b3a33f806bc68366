package compare

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urikit/urikit/whatwg"
)

// The differential fuzz against nlnwa/whatwg-url v0.6.2: every input on
// which the two disagree must fall under one of nlnwa's known failures
// below (each seen in the web-platform-tests it fails, 15 of 891 in
// our copy), or the fuzz fails: a disagreement is then ours to fix.

// knownNlnwa returns the name of the known nlnwa failure that explains
// the disagreement, or "".
func knownNlnwa(in string, base *string, ours string, oursOK bool, theirs string, theirsOK bool) string {
	if !utf8.ValidString(in) || base != nil && !utf8.ValidString(*base) {
		// nlnwa reads invalid UTF-8 by bytes, we as U+FFFD (a USVString).
		return "invalid UTF-8"
	}
	if oursOK {
		u, _ := whatwg.Parse(ours)
		if u.HasOpaquePath() && theirsOK {
			// The 2023 change of the opaque path state: a space before
			// '?' or '#' becomes %20 (WPT "non-special:opaque  ?hi").
			p := u.Pathname()
			if strings.HasSuffix(p, "%20") && strings.Replace(ours, p, strings.TrimSuffix(p, "%20")+" ", 1) == theirs {
				return "opaque path space"
			}
		}
		if theirsOK && strings.Contains(u.Pathname(), "%5E") && strings.Replace(ours, u.Pathname(), strings.ReplaceAll(u.Pathname(), "%5E", "^"), 1) == theirs {
			// '^' joined the path percent-encode set in 2024 (WPT
			// "foo://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~").
			return "path ^"
		}
		if !theirsOK {
			h := strings.ToLower(u.Hostname())
			for _, label := range strings.Split(h, ".") {
				if strings.HasPrefix(label, "xn--") {
					// An ASCII domain is lowercased whatever ToASCII says
					// (WPT "http://a.b.c.xn--pokxncvks", "https://xn--/").
					return "ASCII xn-- label"
				}
			}
		}
	}
	if !theirsOK && (lastLabelOverflows(in) || base != nil && lastLabelOverflows(*base)) {
		// nlnwa reads the last label of a host with strconv.ParseInt,
		// which reports an overflow before the character that makes the
		// label no number: "200000000000000000000a" ends in a number for
		// it, then fails the IPv4 parser.
		return "IPv4 number overflow"
	}
	if hasNonASCIIHost(in) || base != nil && hasNonASCIIHost(*base) {
		// IDNA: nlnwa uses x/net/idna's tables alone; we bring them up to
		// UTS #46 17.0.0 (idna_table.go), and refuse code points x/net
		// does not know.
		return "IDNA tables"
	}
	return ""
}

// lastLabelOverflows reports whether s, parsed, has a host whose last
// label is not a number but overflows strconv.ParseInt before that
// shows.
func lastLabelOverflows(s string) bool {
	u, err := whatwg.Parse(s)
	if err != nil {
		return false
	}
	h := strings.TrimSuffix(u.Hostname(), ".")
	last := h[strings.LastIndexByte(h, '.')+1:]
	radix := 10
	switch {
	case len(last) >= 2 && (last[:2] == "0x" || last[:2] == "0X"):
		last, radix = last[2:], 16
	case len(last) >= 2 && last[0] == '0':
		last, radix = last[1:], 8
	}
	_, err = strconv.ParseInt(last, radix, 64)
	return errors.Is(err, strconv.ErrRange)
}

// hasNonASCIIHost reports whether s holds a non-ASCII byte or a
// percent-encoded one before its path (a host that goes through IDNA).
func hasNonASCIIHost(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' {
			return true
		}
	}
	return false
}

func differ(t *testing.T, in string, base *string) {
	ours, oursOK := oursHref(in, base)
	theirs, theirsOK := nlnwaHref(in, base)
	if oursOK == theirsOK && ours == theirs {
		return
	}
	if knownNlnwa(in, base, ours, oursOK, theirs, theirsOK) != "" {
		return
	}
	b := "<none>"
	if base != nil {
		b = *base
	}
	t.Errorf("input %q base %q: ours %q (ok %v), nlnwa %q (ok %v)", in, b, ours, oursOK, theirs, theirsOK)
}

// TestDifferentialWPT: on the inputs of urltestdata.json every
// disagreement is known.
func TestDifferentialWPT(t *testing.T) {
	for _, c := range readURLTestData(t) {
		differ(t, c.Input, c.Base)
	}
}

func FuzzDifferential(f *testing.F) {
	for _, c := range readURLTestData(f) {
		b := ""
		if c.Base != nil {
			b = *c.Base
		}
		f.Add(c.Input, b)
	}
	f.Fuzz(func(t *testing.T, in, base string) {
		if base == "" {
			differ(t, in, nil)
			return
		}
		differ(t, in, &base)
	})
}
