package uribeam

import (
	"strconv"
	"testing"
)

// The method queries of cdxj-indexer's test/test_postappend.py (at
// 9ad2b9e1c54d, the test named with each): the URL a POST or PUT is
// keyed under, before its SURT. test_amf_parse is not here: AMF bodies
// are binary (see bodyQuery).
func TestMethodQueryVectors(t *testing.T) {
	const form = "foo=bar&dir=%2Fbaz"
	binary := "\x816l`L\xa04P\x0e\xe0r\x02\xb5\x89\x19\x00fP\xdb\x0e\xb0\x02,"
	n := strconv.Itoa
	for _, v := range []struct {
		test, method, ctype, length, body, url, want string
	}{
		{"test_post_extract_1", "POST", "application/x-www-form-urlencoded", n(len(form)), form, "http://example.com/", "http://example.com/?__wb_method=POST&foo=bar&dir=/baz"},
		{"test_post_extract_1", "POST", "application/x-www-form-urlencoded", n(len(form)), form, "http://example.com/?123=ABC", "http://example.com/?123=ABC&__wb_method=POST&foo=bar&dir=/baz"},
		{"test_post_extract_json", "POST", "application/json", "35", `{"a": "b", "c": {"a": 2}, "d": "e"}`, "http://example.com/", "http://example.com/?__wb_method=POST&a=b&a.2_=2&d=e"},
		{"test_post_extract_json_top_list", "POST", "application/json", "66", `[{"a": "b", "c": {"a": 2}}, {"d": "e"}, "ignored", false, null, 0]`, "http://example.com/", "http://example.com/?__wb_method=POST&a=b&a.2_=2&d=e"},
		{"test_post_extract_json_lines", "POST", "application/json", "36", "{\"a\": \"b\"}\n{\"c\": {\"a\": 2}, \"d\": \"e\"}", "http://example.com/", "http://example.com/?__wb_method=POST&a=b&a.2_=2&d=e"},
		{"test_put_extract_method", "PUT", "application/x-www-form-urlencoded", n(len(form)), form, "http://example.com/", "http://example.com/?__wb_method=PUT&foo=bar&dir=/baz"},
		{"test_post_extract_non_form_data_1", "POST", "application/octet-stream", n(len(form)), form, "http://example.com/", "http://example.com/?__wb_method=POST&__wb_post_data=Zm9vPWJhciZkaXI9JTJGYmF6"},
		{"test_post_extract_non_form_data_2", "POST", "text/plain", n(len(form)), form, "http://example.com/pathbar?id=123", "http://example.com/pathbar?id=123&__wb_method=POST&__wb_post_data=Zm9vPWJhciZkaXI9JTJGYmF6"},
		{"test_post_extract_length_invalid_ignore", "POST", "application/x-www-form-urlencoded", "0", form, "http://example.com/", "http://example.com/?__wb_method=POST"},
		{"test_post_extract_length_invalid_ignore", "POST", "application/x-www-form-urlencoded", "abc", form, "http://example.com/", "http://example.com/?__wb_method=POST"},
		{"test_post_extract_length_too_short", "POST", "application/x-www-form-urlencoded", n(len(form) - 4), form, "http://example.com/", "http://example.com/?__wb_method=POST&foo=bar&dir=%2"},
		{"test_post_extract_length_too_long", "POST", "application/x-www-form-urlencoded", n(len(form) + 4), form, "http://example.com/", "http://example.com/?__wb_method=POST&foo=bar&dir=/baz"},
		{"test_post_extract_malformed_form_data", "POST", "application/x-www-form-urlencoded", n(len(binary)), binary, "http://example.com/", "http://example.com/?__wb_method=POST&__wb_post_data=gTZsYEygNFAO4HICtYkZAGZQ2w6wAiw="},
		{"test_post_extract_no_boundary_in_multipart_form_mimetype", "POST", "multipart/form-data", n(len(form)), form, "http://example.com/", "http://example.com/?__wb_method=POST&__wb_post_data=Zm9vPWJhciZkaXI9JTJGYmF6"},
		{"test_options", "OPTIONS", "", "0", "", "http://example.com/", "http://example.com/?__wb_method=OPTIONS"},
		{"test_head", "HEAD", "", "0", "", "http://example.com/", "http://example.com/?__wb_method=HEAD"},
	} {
		q := bodyQuery(v.method, v.ctype, v.length, true, []byte(v.body))
		if got := appendMethodQuery(v.url, v.method, q); got != v.want {
			t.Errorf("%s: %q\nwant %q", v.test, got, v.want)
		}
	}
}

// TestBodyQuery: the rules of cdxj-indexer's postquery.py and of the
// Python functions it calls (unquote_plus, urlencode, json.loads, str),
// on the cases its tests leave out. The answers are those of
// cdxj-indexer 1.4.6 under CPython 3.11.
func TestBodyQuery(t *testing.T) {
	for _, v := range []struct {
		name, method, ctype, length string
		hasLength                   bool
		body, want                  string
		ok                          bool
	}{
		// Without Content-Length, the first 8192 bytes.
		{"no length", "POST", "application/x-www-form-urlencoded", "", false, "a=1", "a=1", true},
		// A lower-case method is folded as a method only.
		{"post in lower case", "post", "application/x-www-form-urlencoded", "3", true, "a=1", "", true},
		{"length with blanks and underscores", "POST", "application/x-www-form-urlencoded", " 1_0 ", true, "a=12345678901234", "a=12345678", true},
		{"negative length", "POST", "application/x-www-form-urlencoded", "-1", true, "a=1", "", true},
		// unquote_plus: "+" a space, an invalid sequence one U+FFFD per
		// maximal subpart, a lone "%" kept.
		{"unquote", "POST", "application/x-www-form-urlencoded", "30", true, "a+b=%E2%82%41%zz%C3%A9%", "a b=\uFFFDA%zzé%", true},
		// JSON: Python's str() of each scalar; a repeated member keeps its
		// first place and its last value; a name numbered as it repeats.
		{"json scalars", "POST", "application/json", "200", true, `{"t": true, "f": false, "n": null, "i": -0, "x": 1.0, "e": 1e16, "s": 0.00001, "big": 123456789012345678901234567890, "u": "é/ &"}`,
			"t=True&f=False&n=None&i=0&x=1.0&e=1e%2B16&s=1e-05&big=123456789012345678901234567890&u=%C3%A9%2F+%26", true},
		{"json repeated member", "POST", "application/json", "30", true, `{"a": 1, "b": 2, "a": 3}`, "a=3&b=2", true},
		{"json numbered names", "POST", "application/json", "60", true, `[{"a": 1}, {"a": 2}, {"a": 3}, {"a.2_": 4}]`, "a=1&a.2_=2&a.3_=3&a.2_.2_=4", true},
		{"json not json", "POST", "application/json", "5", true, `{"a":`, "", true},
		{"json lines with an empty line", "POST", "application/json", "20", true, "{\"a\": 1}\n{\"b\": 2}\n", "", true},
		{"text/plain json", "POST", "text/plain", "8", true, `{"a": 1}`, "a=1", true},
		// multipart: each part's name and content, form-encoded.
		{"multipart", "POST", "multipart/form-data; boundary=XX", "200", true,
			"--XX\r\nContent-Disposition: form-data; name=\"a b\"\r\n\r\nx/y z\r\n--XX\r\nContent-Disposition: form-data; name=\"c\"; filename=\"f\"\r\n\r\n^\r\n--XX--\r\n",
			"a+b=x%2Fy+z&c=%5E", true},
		{"multipart, only the final boundary", "POST", "multipart/form-data; boundary=XX", "200", true, "--XX--\r\n", "", true},
		// Where cdxj-indexer stops on the file (the multipart package
		// raises), the body is binary.
		{"multipart, empty", "POST", "multipart/form-data; boundary=XX", "200", true, "", "__wb_post_data=", true},
		{"multipart, quoted boundary", "POST", `multipart/form-data; boundary="XX"`, "200", true, "--XX\r\n\r\nx\r\n--XX--\r\n", "__wb_post_data=LS1YWA0KDQp4DQotLVhYLS0NCg==", true},
		// The query is cut at 4096 characters.
		{"cut", "POST", "application/octet-stream", "4000", true, string(make([]byte, 4000)), "__wb_post_data=" + string(repeat('A', 4096-15)), true},
	} {
		q := bodyQuery(v.method, v.ctype, v.length, v.hasLength, []byte(v.body))
		if q.text != v.want || q.ok != v.ok {
			t.Errorf("%s: %q %v, want %q %v", v.name, q.text, q.ok, v.want, v.ok)
		}
	}
}

func repeat(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}
