package uribeam

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime/multipart"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/internal/utf8dec"
)

// The body of a POST or PUT request, folded into the key of its
// response as cdxj-indexer does (postquery.py, with -p/--post-append,
// and pywb, which indexes so when it adds WARCs to a collection and
// computes the same key for a POST it replays): the request's method
// and body become a query appended to the URL, so that two POSTs to one
// URL with different bodies are two captures. The rules, learnt from
// cdxj-indexer 1.4.6:
//
//   - the query is "__wb_method=" METHOD, then "&" and the body's query
//     when it has one, appended after "?" (or "&" when the URL has a
//     query);
//   - the body is the request's payload without its transfer and
//     content codings, its first Content-Length bytes (8192 without the
//     field; none when the field is not a number);
//   - application/x-www-form-urlencoded: the body itself, its "+" and
//     %XX decoded (Python's unquote_plus, UTF-8 with U+FFFD for an
//     invalid sequence); binary when the body is not UTF-8;
//   - multipart/*: name=value for every part, each form-encoded
//     (urlencode); binary without a boundary;
//   - application/json: the scalars of the JSON value (or of each of its
//     lines), name=value under the name of the member that holds them,
//     a repeated name numbered "name.2_", "name.3_"; nothing when it is
//     not JSON;
//   - text/plain: as JSON, binary when it is not;
//   - anything else: binary, "__wb_post_data=" and the body in base64;
//   - the query is cut at 4096 characters.
//
// The key is then the SURT of that URL, whose canonicalizer lowercases
// the query and sorts its pairs.

// maxQuery is cdxj-indexer's MAX_QUERY_LENGTH, in characters.
const maxQuery = 4096

// A postQuery is the query of a request body: the text, and whether
// there is one (cdxj-indexer writes "requestBody": null when not).
type postQuery struct {
	text string
	ok   bool
}

// bodyQuery returns the query of a request body of the method (as the
// request line has it), with its Content-Type and Content-Length field
// values (hasLength false when the request has none).
func bodyQuery(method, ctype, length string, hasLength bool, body []byte) postQuery {
	if method != "POST" && method != "PUT" {
		return postQuery{ok: true}
	}
	n := 8192
	if hasLength {
		var ok bool
		if n, ok = pyInt(length); !ok {
			return postQuery{}
		}
	}
	body = body[:max(0, min(n, len(body)))]
	var q string
	switch {
	case strings.HasPrefix(ctype, "application/x-www-form-urlencoded"):
		if utf8.Valid(body) {
			q = unquotePlus(string(body))
		} else {
			q = binaryQuery(body)
		}
	case strings.HasPrefix(ctype, "multipart/"):
		q = multipartQuery(ctype, body)
	case strings.HasPrefix(ctype, "application/json"):
		q, _ = jsonQuery(body)
	case strings.HasPrefix(ctype, "text/plain"):
		var ok bool
		if q, ok = jsonQuery(body); !ok {
			q = binaryQuery(body)
		}
	default:
		// application/x-amf included: cdxj-indexer decodes Flash
		// remoting (AMF) with PyAMF; here it is binary (BENCHMARKS.md,
		// the differences of uripipe cdxj).
		q = binaryQuery(body)
	}
	return postQuery{text: truncateRunes(q, maxQuery), ok: true}
}

// appendMethodQuery returns the URL with the method and the query of
// its body appended, as cdxj-indexer keys a POST or PUT.
func appendMethodQuery(url, method string, q postQuery) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	s := url + sep + "__wb_method=" + method
	if q.text != "" {
		s += "&" + q.text
	}
	return s
}

// pyInt reads a Content-Length as Python's int() does: blanks around, a
// sign, digits with single underscores between them.
func pyInt(s string) (int, bool) {
	s = strings.Trim(s, pyWhitespace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return math.MaxInt, !neg
		}
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// binaryQuery is a body that is not text: "__wb_post_data=" and its
// base64 (RFC 4648 section 4, padded).
func binaryQuery(body []byte) string {
	return "__wb_post_data=" + base64.StdEncoding.EncodeToString(body)
}

// truncateRunes cuts s after n characters.
func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// unquotePlus decodes s as Python's urllib.parse.unquote_plus: "+" is a
// space, and each run of %XX triplets (with the ASCII between them) is
// decoded as UTF-8, an invalid sequence becoming U+FFFD (the maximal
// subparts, as utf8dec does); a "%" not followed by two hex digits
// stays itself.
func unquotePlus(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	var out strings.Builder
	var run []byte // decoded bytes of the current ASCII run
	flush := func() {
		if utf8.Valid(run) {
			out.Write(run)
		} else {
			out.WriteString(utf8dec.String(string(run)))
		}
		run = run[:0]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			flush()
			out.WriteByte(c)
		case c == '+':
			run = append(run, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			run = append(run, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			run = append(run, c)
		}
	}
	flush()
	return out.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// quotePlus appends s form-encoded as Python's quote_plus: letters,
// digits and "_.-~" as they are, a space as "+", every other byte of
// its UTF-8 as %XX in upper case.
func quotePlus(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' || c == '~':
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

// urlencode joins the pairs as Python's urlencode does.
func urlencode(pairs []field) string {
	var b []byte
	for i, p := range pairs {
		if i > 0 {
			b = append(b, '&')
		}
		b = quotePlus(b, p.name)
		b = append(b, '=')
		b = quotePlus(b, p.value)
	}
	return string(b)
}

// The limits of the multipart package that cdxj-indexer parses with
// (defnull/multipart's MultipartParser defaults): past them it raises,
// and cdxj-indexer stops on the file.
const (
	maxParts       = 128
	maxPartHeaders = 8
)

// multipartQuery returns the query of a multipart body: the boundary is
// what follows the first "boundary=" of the Content-Type, as
// cdxj-indexer takes it; the pairs are each part's name and content. A
// body without a boundary, or that is not multipart, or over the
// limits above (cdxj-indexer stops on the file then), is binary.
func multipartQuery(ctype string, body []byte) string {
	_, boundary, ok := strings.Cut(ctype, "boundary=")
	if !ok {
		return binaryQuery(body)
	}
	r := multipart.NewReader(bytes.NewReader(body), boundary)
	var pairs []field
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil || len(pairs) == maxParts || len(p.Header) > maxPartHeaders {
			return binaryQuery(body)
		}
		v, err := io.ReadAll(p)
		if err != nil || !utf8.Valid(v) {
			return binaryQuery(body)
		}
		pairs = append(pairs, field{p.FormName(), string(v)})
	}
	return urlencode(pairs)
}

// jsonQuery returns the query of a JSON body as cdxj-indexer's
// json_parse makes it: every scalar of the value under the name of the
// object member that holds it (an array passes its name on to its
// elements; a scalar with no name, at the top or in a top-level array,
// is dropped), as Python writes it (str(): True, False, None, an
// integer's digits, a float's shortest repr); a name seen before gets
// ".N_" (N from 2). When the body is not one JSON value and holds a LF,
// each line must be one. It reports false when the body is not JSON.
//
// The body must be UTF-8 (an optional BOM); Python's json also reads
// UTF-16 and UTF-32, and NaN and Infinity, which are not JSON (RFC 8259
// section 6): those bodies are "not JSON" here.
func jsonQuery(body []byte) (string, bool) {
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	if !utf8.Valid(body) {
		return "", false
	}
	j := jsonFlat{seen: map[string]int{}}
	if v, err := decodeJSON(body); err == nil {
		j.walk(v, "")
		return urlencode(j.pairs), true
	}
	if bytes.IndexByte(body, '\n') < 0 {
		return "", false
	}
	for line := range bytes.SplitSeq(body, []byte("\n")) {
		v, err := decodeJSON(line)
		if err != nil {
			return "", false
		}
		j.walk(v, "")
	}
	return urlencode(j.pairs), true
}

// A jsonMember is a member of a decoded object, in the order of the
// text: Python's dict keeps a name at its first place, with its last
// value.
type jsonMember struct {
	name  string
	value any
}

// maxJSONDepth is the deepest nesting of arrays and objects read:
// Python's json raises RecursionError near its default recursion limit
// of 1000 frames, and cdxj-indexer then takes the body as not JSON.
// From its command line (cdxj-indexer 1.4.6, CPython 3.11), 981 levels
// are read and 982 are not.
const maxJSONDepth = 981

// decodeJSON decodes one JSON value (RFC 8259) and nothing after it but
// whitespace: objects as []jsonMember, arrays as []any, numbers as
// json.Number.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := decodeValue(d, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("JSON: extra data")
	}
	return v, nil
}

func decodeValue(d *json.Decoder, depth int) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	if (t == json.Delim('{') || t == json.Delim('[')) && depth == maxJSONDepth {
		return nil, errors.New("JSON: nested too deep")
	}
	switch t {
	case json.Delim('{'):
		var m []jsonMember
		var at map[string]int // past a few members
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			name := k.(string)
			if i := memberAt(m, at, name); i >= 0 {
				m[i].value = v
				continue
			}
			if len(m) == 8 {
				at = make(map[string]int)
				for i, e := range m {
					at[e.name] = i
				}
			}
			if at != nil {
				at[name] = len(m)
			}
			m = append(m, jsonMember{name, v})
		}
		_, err := d.Token()
		return m, err
	case json.Delim('['):
		a := []any{}
		for d.More() {
			v, err := decodeValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := d.Token()
		return a, err
	}
	return t, nil
}

// memberAt returns the place of name in m, looked up in at when there
// is one, or -1.
func memberAt(m []jsonMember, at map[string]int, name string) int {
	if at != nil {
		if i, ok := at[name]; ok {
			return i
		}
		return -1
	}
	for i := range m {
		if m[i].name == name {
			return i
		}
	}
	return -1
}

// jsonFlat collects the pairs of a JSON body.
type jsonFlat struct {
	pairs []field
	at    map[string]int // the place of a name in pairs
	seen  map[string]int
}

func (j *jsonFlat) walk(v any, name string) {
	switch v := v.(type) {
	case []jsonMember:
		for _, m := range v {
			j.walk(m.value, m.name)
		}
	case []any:
		for _, e := range v {
			j.walk(e, name)
		}
	default:
		if name != "" {
			j.add(name, pyStr(v))
		}
	}
}

// add adds a pair under name, or under "name.N_" when name was added
// before (json_parse's get_key). Python's dict keeps the first place of
// a name set again: a generated "a.2_" that a later member also names
// takes the later value at its first place.
func (j *jsonFlat) add(name, value string) {
	if j.at == nil {
		j.at = map[string]int{}
	}
	key := name
	if _, ok := j.at[name]; ok {
		n := j.seen[name]
		if n == 0 {
			n = 1
		}
		n++
		j.seen[name] = n
		key = name + "." + strconv.Itoa(n) + "_"
	}
	if i, ok := j.at[key]; ok {
		j.pairs[i].value = value
		return
	}
	j.at[key] = len(j.pairs)
	j.pairs = append(j.pairs, field{key, value})
}

// pyStr writes a JSON scalar as Python's str() writes what json.loads
// made of it.
func pyStr(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		if v {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			// An int: its digits, without a "-" on zero.
			if strings.TrimLeft(s, "-0") == "" {
				return "0"
			}
			return s
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return s
		}
		return pyFloat(f)
	}
	return ""
}

// pyFloat writes f as Python's repr(float): the shortest digits that
// read back, in positional notation from 1e-4 to below 1e16 (with ".0"
// for an integer), else as d.ddde±XX; "inf", "-inf".
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "e" + sign + appendPaddedString(exp, 2)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func appendPaddedString(v, width int) string { return string(appendPadded(nil, v, width)) }
