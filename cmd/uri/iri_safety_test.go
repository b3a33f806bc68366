package main

import (
	"reflect"
	"testing"
)

// TestURIToIRISafety: uri-to-iri never shows a host that iri-to-uri
// would map elsewhere, nor an invisible character (issue 20 item 15),
// and shows IDN labels and unreserved escapes decoded (issue 16 item
// 5, RFC 3987 3.2 step 2).
func TestURIToIRISafety(t *testing.T) {
	for _, tt := range []struct{ in, want, back string }{
		{"//google%E3%80%82com", "//google%E3%80%82com", "//google%E3%80%82com"},
		{"http://%E2%80%8Bgoogle.com/", "http://%E2%80%8Bgoogle.com/", "http://%E2%80%8Bgoogle.com/"},
		{"https://xn--mnchen-3ya.de/", "https://münchen.de/", "https://xn--mnchen-3ya.de/"},
		{"https://xn--pypal-4ve.com/", "https://xn--pypal-4ve.com/", "https://xn--pypal-4ve.com/"},
		{"http://a/%7Euser/%41", "http://a/~user/A", "http://a/~user/A"},
		{"http://a/%E2%80%AE", "http://a/%E2%80%AE", "http://a/%E2%80%AE"},
		// Issue 26: a mailto domain is a host (RFC 6068 2), a whole-script
		// confusable keeps its A-label (UTS #39 4), a symbol in a path is
		// shown.
		{"mailto:u@%D0%B0pple.com", "mailto:u@%D0%B0pple.com", "mailto:u@%D0%B0pple.com"},
		{"http://xn--80ak6aa92e.com/", "http://xn--80ak6aa92e.com/", "http://xn--80ak6aa92e.com/"},
		{"http://a/%E2%99%A5", "http://a/♥", "http://a/%E2%99%A5"},
	} {
		out, _, code := uriCmd(t, "", "uri-to-iri", tt.in)
		if code != 0 || out != tt.want+"\n" {
			t.Errorf("uri-to-iri %q = %q, exit %d; want %q", tt.in, out, code, tt.want)
			continue
		}
		// The display maps back to the same URI, up to the decoded
		// unreserved escapes (RFC 3986 6.2.2.2).
		back, _, code := uriCmd(t, "", "iri-to-uri", tt.want)
		if code != 0 || back != tt.back+"\n" {
			t.Errorf("iri-to-uri %q = %q, exit %d; want %q", tt.want, back, code, tt.back)
		}
	}
}

// TestRepairPasted: --repair removes a line break or tab a user did not
// mean and escapes "[" and "]" outside an IP literal (issue 16 item 6;
// the 1998 draft, Appendix E and 2.4.3), listing each change.
func TestRepairPasted(t *testing.T) {
	out, _, code := uriCmd(t, "", "parse", "--repair", "--json", "http://a/b\tc?q[]=1")
	objs := jsonLines(t, out)
	want := []any{
		map[string]any{"offset": 10.0, "from": "\t", "to": ""},
		map[string]any{"offset": 14.0, "from": "[", "to": "%5B"},
		map[string]any{"offset": 15.0, "from": "]", "to": "%5D"},
	}
	if code != 0 || len(objs) != 1 || objs[0]["path"] != "/bc" || objs[0]["query"] != "q%5B%5D=1" || !reflect.DeepEqual(objs[0]["repairs"], want) {
		t.Errorf("parse --repair --json = %s, exit %d", out, code)
	}
	// Without --repair the same input is refused.
	if _, _, code := uriCmd(t, "", "check", "http://a/?q[]=1"); code != 1 {
		t.Errorf("check without --repair: exit %d", code)
	}
	if out, _, code := uriCmd(t, "", "normalize", "--repair", "http://[::1]/[x]"); code != 0 || out != "http://[::1]/%5Bx%5D\n" {
		t.Errorf("normalize --repair = %q, exit %d", out, code)
	}
}
