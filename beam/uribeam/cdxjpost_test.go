package uribeam

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
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
		// Nesting: 981 levels are JSON, 982 are not (Python's recursion
		// limit, from cdxj-indexer's command line).
		{"json 981 levels", "POST", "application/json", "10000", true, strings.Repeat("[", 980) + `{"a": 1}` + strings.Repeat("]", 980), "a=1", true},
		{"json 982 levels", "POST", "application/json", "10000", true, strings.Repeat("[", 981) + `{"a": 1}` + strings.Repeat("]", 981), "", true},
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

// TestCDXJLinear: the header fields, the query of a body and the index
// of a file cost time and memory linear in their size, whatever their
// shape: a header of continuation lines, a JSON body of repeated and
// deeply nested names, a body of percent-encoded bytes, a multipart
// body of empty parts, a chunked body of one-byte chunks.
func TestCDXJLinear(t *testing.T) {
	testshared.CheckLinearN(t, "header continuations", 32<<10, func(n int) []byte {
		return []byte("WARC/1.1\r\nA: x\r\n" + strings.Repeat(" y\r\n", n/5) + "\r\n")
	}, func(b []byte) { headerFields(b) })
	testshared.CheckLinearN(t, "json names", 32<<10, func(n int) []byte {
		return []byte("[" + strings.Repeat(`{"a": 1, "a.2_": 2},`, n/20) + "0]")
	}, func(b []byte) { jsonQuery(b) })
	testshared.CheckLinearN(t, "json nesting", 32<<10, func(n int) []byte {
		return []byte(strings.Repeat(`{"a": [1, `, n/20) + "1" + strings.Repeat("]}", n/20))
	}, func(b []byte) { jsonQuery(b) })
	testshared.CheckLinearN(t, "form", 32<<10, func(n int) []byte {
		return []byte(strings.Repeat("%E2%82+", n/7))
	}, func(b []byte) { bodyQuery("POST", "application/x-www-form-urlencoded", strconv.Itoa(len(b)), true, b) })
	testshared.CheckLinearN(t, "multipart", 32<<10, func(n int) []byte {
		return []byte(strings.Repeat("--B\r\n\r\n\r\n", n/11) + "--B--\r\n")
	}, func(b []byte) { bodyQuery("POST", "multipart/form-data; boundary=B", strconv.Itoa(len(b)), true, b) })
	testshared.CheckLinearN(t, "chunks", 32<<10, func(n int) []byte {
		return []byte(strings.Repeat("1\r\nx\r\n", n/6) + "0\r\n\r\n")
	}, func(b []byte) { dechunk(b) })
}

// TestSampleLinear: the sample of the lines that the shard boundaries
// come from costs O(log k) a line, even for lines that arrive in the
// order of decreasing hash, each one entering the sample; k grows with
// the input here (n/4), so that a cost in O(k) a line would show.
func TestSampleLinear(t *testing.T) {
	testshared.CheckLinearN(t, "bottom-k", 4<<10, func(n int) []string {
		lines := make([]string, n)
		for i := range lines {
			lines[i] = strconv.Itoa(i)
		}
		slices.SortFunc(lines, func(a, b string) int { return cmp.Compare(lineHash(b), lineHash(a)) })
		return lines
	}, func(lines []string) {
		b := bottomK{k: len(lines) / 4}
		for _, l := range lines {
			b.add(l)
		}
	})
}
