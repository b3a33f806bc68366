package surt

import (
	"bytes"
	"slices"

	"github.com/urikit/urikit/internal/chars"
)

// splitParams fills st.params with the "&"-separated parameters of the
// query, each with the end of its key (its first "=").
func (st *state) splitParams() {
	p := &st.p
	q := p.query
	// Sized at once: a long query grows it once, not by quarters.
	st.params = slices.Grow(st.params[:0], bytes.Count(p.buf[q.i:q.j], []byte{'&'})+1)
	for i := q.i; ; {
		j, eq := i, int32(-1)
		for j < q.j && p.buf[j] != '&' {
			if eq < 0 && p.buf[j] == '=' {
				eq = j
			}
			j++
		}
		if eq < 0 {
			eq = j
		}
		st.params = append(st.params, param{i, eq, j})
		if j >= q.j {
			return
		}
		i = j + 1
	}
}

// joinParams makes the query the parameters of st.params joined by "&",
// leaving out the empty ones when dropEmpty. Parameters in their order
// (some removed) are written over the query, whose bytes only move left;
// sorted ones are written after the buffer's end, as they are read in
// any order.
func (st *state) joinParams(dropEmpty, inOrder bool) {
	p := &st.p
	start := int(p.query.i)
	if !inOrder {
		start = len(p.buf)
		p.buf = slices.Grow(p.buf, p.query.len())[:start+p.query.len()]
	}
	w := start
	first := true
	for _, pr := range st.params {
		if dropEmpty && pr.i == pr.j {
			continue
		}
		if !first {
			p.buf[w] = '&'
			w++
		}
		first = false
		w += copy(p.buf[w:], p.buf[pr.i:pr.j])
	}
	if !inOrder {
		p.buf = p.buf[:w]
	}
	p.query.i, p.query.j = int32(start), int32(w)
}

// paramsSorted reports whether the parameters of q are in the order of
// cmp, comparing each with the next as they are read: the common case
// costs no list of parameters.
func paramsSorted(q []byte, cmp func(x, y param) int) bool {
	prev, i := nextParam(q, 0)
	for i <= len(q) {
		var pr param
		pr, i = nextParam(q, i)
		if cmp(prev, pr) > 0 {
			return false
		}
		prev = pr
	}
	return true
}

// emptiesFirst sorts q in place when its parameters but the empty ones
// are in the order of cmp, which puts an empty parameter first (both
// orders do): the empty ones go to the front ("a=1&" is "&a=1"), without
// a list of the parameters, and it reports true. The length stays: the
// other parameters are moved to the end, from the last, and the front is
// filled with the empty ones' "&".
func emptiesFirst(q []byte, cmp func(x, y param) int) bool {
	var prev param
	have := false
	for i := 0; i <= len(q); {
		var pr param
		pr, i = nextParam(q, i)
		if pr.i == pr.j {
			continue
		}
		if have && cmp(prev, pr) > 0 {
			return false
		}
		prev, have = pr, true
	}
	w := len(q)
	for j := len(q); j >= 0; {
		i := bytes.LastIndexByte(q[:j], '&') + 1
		if i < j {
			if w < len(q) {
				w--
				q[w] = '&'
			}
			w -= j - i
			copy(q[w:], q[i:j])
		}
		j = i - 1
	}
	for k := 0; k < w; k++ {
		q[k] = '&'
	}
	return true
}

// nextParam returns the parameter of q that starts at i, as offsets in
// q, and where the next one starts (len(q)+1 after the last).
func nextParam(q []byte, i int) (param, int) {
	j, eq := i, -1
	for j < len(q) && q[j] != '&' {
		if eq < 0 && q[j] == '=' {
			eq = j
		}
		j++
	}
	if eq < 0 {
		eq = j
	}
	return param{int32(i), int32(eq), int32(j)}, j + 1
}

// sortQueryIA sorts the parameters as webarchive-commons'
// IAURLCanonicalizer.alphaReorderQuery does: by key, then a parameter
// without "=" before one with it, then by value, comparing bytes
// ("b=1&a=1" is "a=1&b=1"; "a=1&" is "&a=1", the empty parameter first).
// A query of at most one byte is left as it is.
func (st *state) sortQueryIA() {
	if st.p.query.len() <= 1 {
		return
	}
	if q := st.p.get(st.p.query); paramsSorted(q, iaParamCmp(q)) || emptiesFirst(q, iaParamCmp(q)) {
		return
	}
	st.splitParams()
	slices.SortStableFunc(st.params, iaParamCmp(st.p.buf))
	st.joinParams(false, false)
}

// iaParamCmp is the order of sortQueryIA over parameters of b.
func iaParamCmp(b []byte) func(x, y param) int {
	return func(x, y param) int {
		if c := bytes.Compare(b[x.i:x.eq], b[y.i:y.eq]); c != 0 {
			return c
		}
		xv, yv := x.eq < x.j, y.eq < y.j
		switch {
		case !xv && !yv:
			return 0
		case !xv:
			return -1
		case !yv:
			return 1
		}
		return bytes.Compare(b[x.eq+1:x.j], b[y.eq+1:y.j])
	}
}

// sortQueryBytes sorts the parameters as byte strings (urlcanon's
// alpha_reorder_query: sorted(query.split(b'&'))).
func (st *state) sortQueryBytes() {
	if st.p.query.len() == 0 {
		return
	}
	if q := st.p.get(st.p.query); paramsSorted(q, bytesParamCmp(q)) || emptiesFirst(q, bytesParamCmp(q)) {
		return
	}
	st.splitParams()
	slices.SortStableFunc(st.params, bytesParamCmp(st.p.buf))
	st.joinParams(false, false)
}

// bytesParamCmp is the order of sortQueryBytes over parameters of b.
func bytesParamCmp(b []byte) func(x, y param) int {
	return func(x, y param) int { return bytes.Compare(b[x.i:x.j], b[y.i:y.j]) }
}

// recodeQueryTokens decodes each key and value of the query repeatedly
// and escapes it again with queryTokenSet, so that "&" and "=" that were
// escaped stay escaped (urlcanon's less_dumb_pct_recode_query). It is
// rewritten in place: a decoded byte came from an escape of three bytes
// or more and is escaped into three at most, so the query grows by two
// bytes for each raw byte to escape, no more.
func (st *state) recodeQueryTokens() {
	p := &st.p
	q := p.get(p.query)
	if !needsTokenRecode(q) {
		return
	}
	p.set(&p.query, 2*countEscape(q, tokenRoomSet), func(dst, src []byte) []byte {
		for i := 0; i <= len(src); {
			var pr param
			pr, i = nextParam(src, i)
			if pr.i > 0 {
				dst = append(dst, '&')
			}
			dst = appendToken(dst, src[pr.i:pr.eq])
			if pr.eq < pr.j {
				dst = append(dst, '=')
				dst = appendToken(dst, src[pr.eq+1:pr.j])
			}
		}
		return dst
	})
}

// tokenRoomSet is queryTokenSet without "&", which never is in a token:
// the raw bytes recodeQueryTokens may escape.
var tokenRoomSet = newSet("#%=")

// needsTokenRecode reports whether recodeQueryTokens would change q: it
// has an escape, a byte to escape, or a second "=" in a parameter (the
// value's "=" is escaped: "a=b=c" is "a=b%3Dc").
func needsTokenRecode(q []byte) bool {
	if hasEscape(q) || needsEscape(q, googleSet) {
		return true
	}
	eq := false
	for _, c := range q {
		switch c {
		case '&':
			eq = false
		case '=':
			if eq {
				return true
			}
			eq = true
		}
	}
	return false
}

// appendToken appends tok decoded repeatedly and escaped with
// queryTokenSet. The decoding is written first, then escaped where it
// is from its last byte back, so that tok may be the bytes dst is about
// to write over (recodeQueryTokens' rewrite in place).
func appendToken(dst, tok []byte) []byte {
	mid := len(dst)
	dst = appendUnescapeAll(dst, tok)
	n := countEscape(dst[mid:], queryTokenSet)
	if n == 0 {
		return dst
	}
	end := len(dst)
	dst = slices.Grow(dst, 2*n)[:end+2*n]
	w := len(dst)
	for r := end - 1; r >= mid; r-- {
		c := dst[r]
		if !queryTokenSet.has(c) {
			w--
			dst[w] = c
			continue
		}
		w -= 3
		dst[w], dst[w+1], dst[w+2] = '%', chars.UpperHex[c>>4], chars.UpperHex[c&15]
	}
	return dst
}

// stripURLCanonQuerySessions removes the session parameters of urlcanon's
// QUERY_SESSIONID_RE, (&|^)(?:ID)(&|$): urlcanonQuerySession and the pair
// cfid=N&cftoken=T. The expression consumes the "&" after a match, so
// that urlcanon keeps a session parameter right after a removed one
// ("sid=X&sid=Y" keeps "sid=Y", which a second canonicalization then
// removes); here every one goes, which makes the result a fixed point.
// The pairs are found with a stack, as in stripIAQuerySessions.
func (st *state) stripURLCanonQuerySessions() {
	q := st.p.get(st.p.query)
	if !anyParam(q, func(q []byte) bool { return urlcanonQuerySession(q) || foldEq(q, 0, "cfid=") }) {
		return // the common case, without a list of the parameters
	}
	st.splitParams()
	b := st.p.buf
	out := st.params[:0]
	changed := false
	for _, pr := range st.params {
		if urlcanonQuerySession(b[pr.i:pr.j]) {
			changed = true
			continue
		}
		out = append(out, pr)
		if m := len(out); m >= 2 && urlcanonCFID(b[out[m-2].i:out[m-2].j], b[out[m-1].i:out[m-1].j]) {
			out = out[:m-2]
			changed = true
		}
	}
	st.params = out
	if changed {
		st.joinParams(true, true)
	}
}

// dropEmptyParams removes empty parameters: leading, trailing and doubled
// "&" (urlcanon's remove_redundant_ampersands_from_query).
func (st *state) dropEmptyParams() {
	q := st.p.get(st.p.query)
	if len(q) == 0 || q[0] != '&' && q[len(q)-1] != '&' && !bytes.Contains(q, []byte("&&")) {
		return
	}
	// In place, as the bytes only move left: a long query is not copied
	// again, nor split into parameters.
	w := 0
	for i := 0; i <= len(q); {
		j := bytes.IndexByte(q[i:], '&')
		if j < 0 {
			j = len(q)
		} else {
			j += i
		}
		if j > i {
			if w > 0 {
				q[w] = '&' // w < i: before what is still to read
				w++
			}
			w += copy(q[w:], q[i:j])
		}
		i = j + 1
	}
	st.p.query.j = st.p.query.i + int32(w)
}
