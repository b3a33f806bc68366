package main

import (
	"strings"
	"testing"
)

// TestExtractDelimiting: the rules of package extract hold through the
// command (issue 16 items 8 and 9): punctuation before a scheme, HTML in
// text, brackets that are not wrappers, and a hyphen at a line end
// before a line that starts a URI.
func TestExtractDelimiting(t *testing.T) {
	tests := []struct {
		in   string
		args []string
		want string
	}{
		{"...http://x.example/ -https://y.example/", nil, "http://x.example/\nhttps://y.example/\n"},
		{`<a href="http://x.example/">x</a>`, nil, "http://x.example/\n"},
		{"<http://x.example/a and more text", nil, "http://x.example/a\n"},
		{"<see http://x.example/ for details>", nil, "http://x.example/\n"},
		{"<www.x.org/p> <ftp.x.org>", []string{"--abbrev"}, "http://www.x.org/p\nftp://ftp.x.org\n"},
		{"http://a.example/-\nhttp://b.example/", nil, "http://a.example/-\nhttp://b.example/\n"},
		{"http://a.example/x-\n  y.html", nil, "http://a.example/x-y.html\n"},
	}
	for _, tt := range tests {
		out, _, code := uriCmd(t, tt.in, append([]string{"extract"}, tt.args...)...)
		if code != 0 || out != tt.want {
			t.Errorf("extract %s on %q = %q, exit %d; want %q", strings.Join(tt.args, " "), tt.in, out, code, tt.want)
		}
	}
}
