package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runURNTest(args []string, stdin string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"urn"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestURNCommand(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		out   string
	}{
		// Issue 22: the dialect's name compares without case, --json too.
		{"parse draft2012 json", []string{"parse", "--dialect", "DRAFT2012", "--json", "urn:foo:a?s=I2L"}, "", 0,
			`{"input":"urn:foo:a?s=I2L","nid":"foo","nss":"a","r":null,"q":"s=I2L","f":null,"nid_class":"formal","directives":[{"keyword":"s","value":"I2L","ignored":false}]}` + "\n"},
		{"parse json", []string{"parse", "--json", "urn:example:a123,z456?+abc?=xyz#789"}, "", 0,
			`{"input":"urn:example:a123,z456?+abc?=xyz#789","nid":"example","nss":"a123,z456","r":"abc","q":"xyz","f":"789","nid_class":"formal"}` + "\n"},
		{"parse json absent", []string{"parse", "--json", "URN:urn-7:x"}, "", 0,
			`{"input":"URN:urn-7:x","nid":"urn-7","nss":"x","r":null,"q":null,"f":null,"nid_class":"informal"}` + "\n"},
		{"parse draft2012 directives", []string{"parse", "--dialect", "draft2012", "--json", "URN:ISBN:0-395-36341-1?s=I2L&c=ToC", "urn:foo:a"}, "", 0,
			`{"input":"URN:ISBN:0-395-36341-1?s=I2L&c=ToC","nid":"ISBN","nss":"0-395-36341-1","r":null,"q":"s=I2L&c=ToC","f":null,"nid_class":"formal","directives":[{"keyword":"s","value":"I2L","ignored":false},{"keyword":"c","value":"ToC","ignored":false}]}` + "\n" +
				`{"input":"urn:foo:a","nid":"foo","nss":"a","r":null,"q":null,"f":null,"nid_class":"formal","directives":null}` + "\n"},
		{"parse draft2015", []string{"parse", "--dialect", "draft2015", "urn:example:a?q??r#f"}, "", 0,
			"nid=example nss=a r=r q=q f=f nid_class=formal\n"},
		{"parse errors continue", []string{"parse", "urn:a:b", "urn:ab:c"}, "", 1,
			"error: 5: namespace identifier shorter than 2 characters in NID\nnid=ab nss=c nid_class=country-code\n"},
		{"parse json error", []string{"parse", "--json", "urn:ab:/"}, "", 1,
			`{"input":"urn:ab:/","error":"invalid character '/' in NSS","offset":7}` + "\n"},
		{"parse stdin", []string{"parse"}, "urn:ab:c\r\n\nurn:cd:e\n", 1,
			"nid=ab nss=c nid_class=country-code\nerror: 0: unexpected end of input in scheme\nnid=cd nss=e nid_class=country-code\n"},
		{"parse rfc2141", []string{"parse", "--dialect", "rfc2141", "urn:a:b&c"}, "", 1,
			"error: 7: invalid character '&' in NSS\n"},
		// Issue 6: urn check prints only failures, like check; --warn adds
		// the warnings of valid inputs.
		{"check", []string{"check", "urn:example:a", "urn:x-foo:a", "urn:"}, "", 1,
			"urn:\terror: 4: unexpected end of input in NID\n"},
		{"check warn", []string{"check", "urn:example:a", "urn:x-foo:a", "--warn"}, "", 0,
			"urn:x-foo:a\twarning: reserved-nid: NID \"x-foo\" is experimental (2015 draft section 6.1 rule 6: \"X-\" was the experimental prefix of RFC 3406)\n"},
		{"check namespace", []string{"check", "--namespace-rules", "urn:isbn:0-395-36341-1", "urn:isbn:0-395-36341-2"}, "", 1,
			"urn:isbn:0-395-36341-2\terror: 9: urn:isbn: \"0-395-36341-2\": ISBN-10 check digit does not match (RFC 3187)\n"},
		{"check json", []string{"check", "--json", "--warn", "urn:ab:%00"}, "", 0,
			`{"input":"urn:ab:%00","warnings":["encoded-nul","reserved-nid"]}` + "\n"},
		{"check draft2012 NUL", []string{"check", "--dialect", "draft2012", "urn:abc:%00"}, "", 1,
			"urn:abc:%00\terror: 10: NUL octet in NSS\n"},
		{"normalize", []string{"normalize", "URN:EXAMPLE:a123%2cz456?=%aa#x"}, "", 0,
			"urn:example:a123%2Cz456?=%AA#x\n"},
		{"normalize json", []string{"normalize", "--json", "URN:Foo:a"}, "", 0,
			`{"input":"URN:Foo:a","result":"urn:foo:a"}` + "\n"},
		{"key", []string{"key", "URN:EXAMPLE:a123%2cz456?=xyz#789"}, "", 0, "urn:example:a123%2Cz456\n"},
		{"key namespace", []string{"key", "--namespace-rules", "URN:ISBN:0-395-36341-1"}, "", 0, "urn:isbn:0395363411\n"},
		{"key query keep", []string{"key", "--dialect", "draft2012", "--query", "keep", "urn:foo:a?x=y&c=ToC#f"}, "", 0,
			"urn:foo:a?c=ToC&x=y\n"},
		{"key json", []string{"key", "--json", "urn:Foo:a"}, "", 0, `{"input":"urn:Foo:a","result":"urn:foo:a"}` + "\n"},
		{"equal", []string{"equal", "urn:example:a123,z456", "URN:EXAMPLE:a123,z456#789"}, "", 0, "equal\n"},
		{"not equal", []string{"equal", "urn:example:a123,z456", "urn:example:A123,z456"}, "", 1, "not equal\n"},
		{"equal invalid", []string{"equal", "urn:example:a", "urn:a:b"}, "", 2, ""}, // the error goes to stderr, as for uri equal
		{"equal namespace", []string{"equal", "--namespace-rules", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"}, "", 0, "equal\n"},
		{"equal 5a", []string{"equal", "--dialect", "draft2012", "urn:foo:a123,456", "urn:foo:a123,456?x=y"}, "", 0, "equal\n"},
		{"equal 5b", []string{"equal", "--dialect", "draft2012", "--query", "keep", "urn:foo:a123,456", "urn:foo:a123,456?x=y"}, "", 1, "not equal\n"},
		{"equal json", []string{"equal", "--json", "urn:ab:c", "URN:AB:c"}, "", 0,
			`{"a":"urn:ab:c","b":"URN:AB:c","equal":true,"key_a":"urn:ab:c","key_b":"urn:ab:c"}` + "\n"},
		{"encode", []string{"encode", "--nid", "example", "а123,z456", "a/b?c"}, "", 0,
			"urn:example:%D0%B0123,z456\nurn:example:a%2Fb%3Fc\n"},
		{"encode json", []string{"encode", "--nid", "example", "--json", "a b"}, "", 0,
			`{"input":"a b","result":"urn:example:a%20b"}` + "\n"},
		{"encode empty", []string{"encode", "--nid", "example", ""}, "", 1, "error: unexpected end of input in NSS of \"urn:example:\"\n"},
		{"show", []string{"show", "urn:example:%D0%B0123,z456", "urn:example:Bj%C3%B8rnson"}, "", 0,
			"urn:example:а123,z456\twarning: U+0430 CYRILLIC SMALL LETTER A (Cyrillic) among Latin letters, once\nurn:example:Bjørnson\n"},
		{"show json", []string{"show", "--json", "urn:example:a%2Cb"}, "", 0,
			`{"input":"urn:example:a%2Cb","result":"urn:example:a%2Cb","scripts":["Latin"],"mixed_script":false,"warnings":[]}` + "\n"},
	}
	for _, tt := range tests {
		code, out, errOut := runURNTest(tt.args, tt.stdin)
		if code != tt.code || out != tt.out {
			t.Errorf("%s: uri urn %q\ngot  %d %q (stderr %q)\nwant %d %q", tt.name, tt.args, code, out, errOut, tt.code, tt.out)
		}
	}
}

func TestURNCommandUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"parse", "--dialect", "rfc3986", "urn:ab:c"},
		{"parse", "--bogus"},
		{"equal", "urn:ab:c"},
		{"equal", "urn:ab:c", "urn:ab:c", "urn:ab:c"},
		{"key", "--query", "sometimes", "urn:ab:c"},
		{"key", "--query", "keep", "urn:ab:c"}, // issue 7: only draft2012 has a query that counts
		{"equal", "--query", "keep", "urn:example:a?=b", "urn:example:a"},
		{"encode", "x"},
		{"encode", "--nid", "a", "x"},
	} {
		code, _, errOut := runURNTest(args, "")
		if code != 2 || errOut == "" {
			t.Errorf("uri urn %q: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
	if code, out, _ := runURNTest([]string{"help"}, ""); code != 0 || !strings.Contains(out, "urn equal") {
		t.Errorf("uri urn help: %d %q", code, out)
	}
}

// Every line of --json output is one JSON object.
func TestURNCommandJSONLines(t *testing.T) {
	_, out, _ := runURNTest([]string{"parse", "--json"}, "urn:ab:c\nnot a urn\nurn:example:a?+b\n")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines: %q", len(lines), out)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("%q: %v", l, err)
		}
		if _, ok := m["input"]; !ok {
			t.Errorf("%q has no input", l)
		}
	}
}
