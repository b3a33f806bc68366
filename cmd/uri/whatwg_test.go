package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestParseWhatwgJSON: "uri parse --whatwg --json" prints exactly the
// keys of the standard's URL getters and "errors" (issue 21), and an
// input the URL parser rejects prints {"input", "error"} with exit 1.
func TestParseWhatwgJSON(t *testing.T) {
	out, _, code := uriCmd(t, "", "parse", "--whatwg", "--json", "HTTP://EXAMPLE.com:80/a/../b c", "http://[::1")
	if code != 1 {
		t.Errorf("exit %d, want 1 (one input fails)", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("output %q, want two lines", out)
	}
	var ok map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &ok); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"input": "HTTP://EXAMPLE.com:80/a/../b c", "href": "http://example.com/b%20c",
		"origin": "http://example.com", "protocol": "http:", "username": "", "password": "",
		"host": "example.com", "hostname": "example.com", "port": "", "pathname": "/b%20c",
		"search": "", "hash": "", "errors": []any{"invalid-URL-unit"},
	}
	if !reflect.DeepEqual(ok, want) {
		t.Errorf("got %v\nwant %v", ok, want)
	}
	var bad map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &bad); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bad, map[string]any{"input": "http://[::1", "error": "IPv6-unclosed"}) {
		t.Errorf("failure line %v", bad)
	}
}

// TestParseWhatwgBase: --base resolves as new URL(input, base); a base
// the standard rejects is a usage error (exit 2); --base without
// --whatwg too.
func TestParseWhatwgBase(t *testing.T) {
	out, _, code := uriCmd(t, "", "normalize", "--whatwg", "--base", "https://a.example/b/c", "../d?x#y", "//x", `\\y\z`)
	if code != 0 || out != "https://a.example/d?x#y\nhttps://x/\nhttps://y/z\n" {
		t.Errorf("exit %d, output %q", code, out)
	}
	for _, args := range [][]string{
		{"parse", "--whatwg", "--base", "no-scheme", "x"},
		{"parse", "--base", "https://a/", "x"},
		{"normalize", "--whatwg", "--rfc", "2396", "x"},
	} {
		if _, _, code := uriCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// Without a base a relative reference is rejected (exit 1).
	out, _, code = uriCmd(t, "", "parse", "--whatwg", "../d")
	if code != 1 || out != "error: missing-scheme-non-relative-URL\n" {
		t.Errorf("exit %d, output %q", code, out)
	}
}

// TestParseWhatwgPlain: the plain output is one line of KEY=VALUE.
func TestParseWhatwgPlain(t *testing.T) {
	out, _, code := uriCmd(t, "", "parse", "--whatwg", "https://u:p@0x7f.1:8443/p?q#f")
	want := "href=https://u:p@127.0.0.1:8443/p?q#f origin=https://127.0.0.1:8443 protocol=https: username=u password=p host=127.0.0.1:8443 hostname=127.0.0.1 port=8443 pathname=/p search=?q hash=#f errors=IPv4-too-few-parts,IPv4-non-decimal-part,invalid-credentials\n"
	if code != 0 || out != want {
		t.Errorf("exit %d\n got %q\nwant %q", code, out, want)
	}
}
