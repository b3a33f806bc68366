package iri

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
	"github.com/urikit/urikit/uri"
)

func TestToURI(t *testing.T) {
	tests := []struct{ in, want string }{
		// RFC 3987 3.1's example: "http://r&#xE9;sum&#xE9;.example.org"
		// (the host through IDNA here, the RFC's step 2 alternative).
		{"http://résumé.example.org", "http://xn--rsum-bpad.example.org"},
		// RFC 3987 3.1: "http://www.example.org/red%09ros&#xE9;#red"
		// gives "http://www.example.org/red%09ros%C3%A9#red".
		{"http://www.example.org/red%09rosé#red", "http://www.example.org/red%09ros%C3%A9#red"},
		// RFC 3987 3.2's example IRI.
		{"http://www.example.org/D\u00FCrst", "http://www.example.org/D%C3%BCrst"},
		// A URI is its own IRI.
		{"http://a/b%20c?d#e", "http://a/b%20c?d#e"},
		{"https://例え.jp/", "https://xn--r8jz45g.jp/"},
		// Not a DNS scheme: the host is percent-encoded.
		{"foo://例/", "foo://%E4%BE%8B/"},
		// iprivate is allowed in the query only (RFC 3987 2.2).
		{"http://a/?\uE000", "http://a/?%EE%80%80"},
		{"urn:example:ä", "urn:example:%C3%A4"},
	}
	for _, tt := range tests {
		got, err := ToURI(tt.in)
		if err != nil || got.String() != tt.want {
			t.Errorf("ToURI(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []struct {
		in     string
		reason error
		offset int
	}{
		{"http://a/\uE000", ErrPrivateUse, 9},
		{"http://a/\uFFFF", ErrNotUcschar, 9},
		{"http://a/\xff", ErrInvalidUTF8, 9},
		{"http://a b/é", uri.ErrInvalidCharacter, 8},
	} {
		_, err := ToURI(bad.in)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, bad.reason) || pe.Offset != bad.offset {
			t.Errorf("ToURI(%q) = %v; want %v at %d", bad.in, err, bad.reason, bad.offset)
		}
	}
}

func TestRepair(t *testing.T) {
	tests := []struct {
		in, want string
		reps     []Change
	}{
		{"page 2.html", "page%202.html", []Change{{4, " ", "%20"}}},
		{" <http://a/b c> ", "http://a/b%20c", []Change{{0, " ", ""}, {1, "<", ""}, {12, " ", "%20"}, {14, ">", ""}, {15, " ", ""}}},
		{`"http://a/x"`, "http://a/x", []Change{{0, `"`, ""}, {11, `"`, ""}}},
		{`http://a\b\c?x\y`, "http://a/b/c?x%5Cy", []Change{{8, `\`, "/"}, {10, `\`, "/"}, {14, `\`, "%5C"}}},
		{"http://a/{x}|^", "http://a/%7Bx%7D%7C%5E", []Change{{9, "{", "%7B"}, {11, "}", "%7D"}, {12, "|", "%7C"}, {13, "^", "%5E"}}},
		{"http://a/100%", "http://a/100%25", []Change{{12, "%", "%25"}}},
		{"https://例え.jp/a b", "https://xn--r8jz45g.jp/a%20b", []Change{{8, "例え.jp", "xn--r8jz45g.jp"}, {19, " ", "%20"}}},
		{"http://a/é", "http://a/%C3%A9", []Change{{9, "é", "%C3%A9"}}},
	}
	for _, tt := range tests {
		u, reps, err := Repair(tt.in)
		if err != nil || u.String() != tt.want || !reflect.DeepEqual(reps, tt.reps) {
			t.Errorf("Repair(%q) = %q, %v, %v; want %q, %v", tt.in, u, reps, err, tt.want, tt.reps)
		}
	}
	if _, _, err := Repair("http://a:port/"); err == nil {
		t.Error("Repair of an invalid port: no error")
	}
}

// TestRepairWhitespaceAndBrackets: issue 16 item 6.
func TestRepairWhitespaceAndBrackets(t *testing.T) {
	tests := []struct {
		in, want string
		reps     []Change
		why      string
	}{
		// The 1998 draft, Appendix E: "extra whitespace (spaces,
		// linebreaks, tabs, etc.) may need to be added to break long
		// URIs across lines. The whitespace should be ignored when
		// extracting the URI."
		{"http://a/b\nc", "http://a/bc", []Change{{10, "\n", ""}}, "a line break is removed"},
		{"http://a/b\r\nc", "http://a/bc", []Change{{10, "\r\n", ""}}, "CR LF is removed"},
		{"http://a/b\rc", "http://a/bc", []Change{{10, "\r", ""}}, "a CR is removed"},
		{"http://a/b\tc", "http://a/bc", []Change{{10, "\t", ""}}, "a tab is removed"},
		{"ht\ttp://a/", "http://a/", []Change{{2, "\t", ""}}, "in the scheme too"},
		{"ftp://ds.internic.\n      net/rfc/", "ftp://ds.internic.net/rfc/", []Change{{18, "\n      ", ""}},
			"Appendix E's example: the line break and the indentation after it"},
		{"<http://www.ics.uci.edu/pub/\n      ietf/uri/historical.html#WARNING>", "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
			[]Change{{0, "<", ""}, {28, "\n      ", ""}, {67, ">", ""}}, "Appendix E's example, in angle brackets"},
		{"http://a/b \n c", "http://a/bc", []Change{{10, " \n ", ""}}, "spaces around a line break go with it"},
		{"https://例\tえ.jp/", "https://xn--r8jz45g.jp/", []Change{{8, "例\tえ.jp", "xn--r8jz45g.jp"}}, "a tab in an IDN host"},
		// A space on its own is data (a file name), not a line break.
		{"http://a/b c", "http://a/b%20c", []Change{{10, " ", "%20"}}, "a space is percent-encoded"},
		{"http://a/b \t c", "http://a/b%20%20c", []Change{{10, " ", "%20"}, {11, "\t", ""}, {12, " ", "%20"}}, "a tab between spaces"},
		{"http://a/b\fc", "http://a/b%0Cc", []Change{{10, "\f", "%0C"}}, "a form feed is a control, encoded"},

		// 2.4.3: unwise = "{" | "}" | "|" | "\" | "^" | "[" | "]" | "`"
		{"http://a/[x]", "http://a/%5Bx%5D", []Change{{9, "[", "%5B"}, {11, "]", "%5D"}}, "brackets in a path"},
		{"http://a/?q[]=1", "http://a/?q%5B%5D=1", []Change{{11, "[", "%5B"}, {12, "]", "%5D"}}, "brackets in a query"},
		{"http://[::1]/[x] y", "http://[::1]/%5Bx%5D%20y", []Change{{13, "[", "%5B"}, {15, "]", "%5D"}, {16, " ", "%20"}}, "an IP literal keeps its brackets"},
		{"http://u@[v1.x]:8/#[", "http://u@[v1.x]:8/#%5B", []Change{{19, "[", "%5B"}}, "after userinfo, with a port"},
		{"foo://a[b]/", "foo://a%5Bb%5D/", []Change{{7, "[", "%5B"}, {9, "]", "%5D"}}, "a bracket inside a reg-name"},
		{"//[::1]/ x", "//[::1]/%20x", []Change{{8, " ", "%20"}}, "a network-path reference"},
	}
	for _, tt := range tests {
		u, reps, err := Repair(tt.in)
		if err != nil || u.String() != tt.want || !reflect.DeepEqual(reps, tt.reps) {
			t.Errorf("Repair(%q) = %q, %v, %v; want %q, %v (%s)", tt.in, u, reps, err, tt.want, tt.reps, tt.why)
		}
	}
	// Refused: what stays invalid after the repairs, with the offset
	// of the input.
	for _, tt := range []struct {
		in     string
		offset int
	}{
		{"http://[::1/", 11},     // an IP literal never closed: "[" escaped, and ":1/" ends no port
		{" http://a:port/", 14},  // the offset in the input, after the space removed
		{"http://a:p\nort/", 14}, // and after the line break removed
		{"//[::1] x", 7},         // nothing may follow an IP literal but a port
	} {
		_, _, err := Repair(tt.in)
		var pe *uri.ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || pe.Input != tt.in {
			t.Errorf("Repair(%q) = %v; want an error at %d", tt.in, err, tt.offset)
		}
	}
}

// TestRepairKeepsValid: a valid URI is never changed (over the corpora).
func TestRepairKeepsValid(t *testing.T) {
	n := 0
	for _, name := range testshared.CorpusNames {
		for _, line := range testshared.LoadCorpus(t, name).Lines {
			if _, err := uri.Parse(line); err != nil {
				continue
			}
			u, reps, err := Repair(line)
			if err != nil || u.String() != line || reps != nil {
				t.Fatalf("Repair(%q) = %q, %v, %v", line, u, reps, err)
			}
			if got, err := ToURI(line); err != nil || got.String() != line {
				t.Fatalf("ToURI(%q) = %q, %v", line, got, err)
			}
			n++
		}
	}
	t.Logf("%d valid URIs kept", n)
}

// TestRepairKeepsReason: issue 26. A repair never makes a host that
// names nothing acceptable for a scheme whose host is a DNS name (the
// URL Standard's host parser fails on a forbidden domain code point;
// trurl says "Bad hostname"), and never changes the reason an input is
// refused: the error is the strict parse's when the repairs left its
// byte alone.
func TestRepairKeepsReason(t *testing.T) {
	for _, in := range []string{
		"http://[::1/",     // the "]" is missing: not a port
		"http://bad host/", // a space in a DNS host
		"https://a b.example/x y",
		"http://a\x00b/",
		"http://a<b>/",
		"http://a%zz/",      // a "%" that, escaped, would be a "%" in the host
		"ftp://u@bad host/", // every scheme with a default port
		"//bad host/x",      // a reference without a scheme: a DNS host
		"http://a[b]/",
	} {
		_, strict := uri.Parse(in)
		_, _, err := Repair(in)
		if err == nil || strict == nil || err.Error() != strict.Error() {
			t.Errorf("Repair(%q) = %v; want the strict error %v", in, err, strict)
		}
	}
	// An IDN host goes to UTS #46, whose error says more.
	if _, _, err := Repair("http://例 え.jp/"); err == nil || !strings.Contains(err.Error(), "U+0020") {
		t.Errorf("Repair of an IDN host with a space: %v", err)
	}
	// A host that is no DNS name (a scheme without a default port) is
	// data: its space is escaped as elsewhere.
	for in, want := range map[string]string{
		"foo://bad host/": "foo://bad%20host/",
		"http://h/a b":    "http://h/a%20b",
		"http://[::1]/ x": "http://[::1]/%20x",
	} {
		if u, _, err := Repair(in); err != nil || u.String() != want {
			t.Errorf("Repair(%q) = %q, %v; want %q", in, u, err, want)
		}
	}
}
