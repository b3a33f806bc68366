package surt

import (
	"bytes"
	"slices"

	"github.com/urikit/urikit/internal/jsonstr"
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
// leaving out the empty ones when dropEmpty.
func (st *state) joinParams(dropEmpty bool) {
	p := &st.p
	p.buf = jsonstr.Grow(p.buf, p.query.len()+1)
	start := len(p.buf)
	first := true
	for _, pr := range st.params {
		if dropEmpty && pr.i == pr.j {
			continue
		}
		if !first {
			p.buf = append(p.buf, '&')
		}
		first = false
		p.buf = append(p.buf, p.buf[pr.i:pr.j]...)
	}
	p.query.i, p.query.j = int32(start), int32(len(p.buf))
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
	st.splitParams()
	b := st.p.buf
	cmp := func(x, y param) int {
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
	if slices.IsSortedFunc(st.params, cmp) {
		return
	}
	slices.SortStableFunc(st.params, cmp)
	st.joinParams(false)
}

// sortQueryBytes sorts the parameters as byte strings (urlcanon's
// alpha_reorder_query: sorted(query.split(b'&'))).
func (st *state) sortQueryBytes() {
	if st.p.query.len() == 0 {
		return
	}
	st.splitParams()
	b := st.p.buf
	cmp := func(x, y param) int { return bytes.Compare(b[x.i:x.j], b[y.i:y.j]) }
	if slices.IsSortedFunc(st.params, cmp) {
		return
	}
	slices.SortStableFunc(st.params, cmp)
	st.joinParams(false)
}

// recodeQueryTokens decodes each key and value of the query repeatedly
// and escapes it again with queryTokenSet, so that "&" and "=" that were
// escaped stay escaped (urlcanon's less_dumb_pct_recode_query).
func (st *state) recodeQueryTokens() {
	p := &st.p
	if !needsTokenRecode(p.get(p.query)) {
		return
	}
	st.splitParams()
	start := len(p.buf)
	for k, pr := range st.params {
		if k > 0 {
			p.buf = append(p.buf, '&')
		}
		p.buf = appendToken(p.buf, p.buf[pr.i:pr.eq])
		if pr.eq < pr.j {
			p.buf = append(p.buf, '=')
			p.buf = appendToken(p.buf, p.buf[pr.eq+1:pr.j])
		}
	}
	p.query.i, p.query.j = int32(start), int32(len(p.buf))
}

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
// queryTokenSet. The decoding goes to the end of dst first, then is
// escaped in place from a copy-free second pass.
func appendToken(dst, tok []byte) []byte {
	mid := len(dst)
	dst = appendUnescapeAll(dst, tok)
	n := len(dst)
	// Escape dst[mid:n] onto the end, then move it back over the decoded
	// bytes.
	dst = appendEscape(dst, dst[mid:n], queryTokenSet)
	m := copy(dst[mid:], dst[n:])
	return dst[:mid+m]
}

// stripURLCanonQuerySessions removes the session parameters of urlcanon's
// QUERY_SESSIONID_RE, (&|^)(?:ID)(&|$): urlcanonQuerySession and the pair
// cfid=N&cftoken=T. The expression consumes the "&" after a match, so
// that urlcanon keeps a session parameter right after a removed one
// ("sid=X&sid=Y" keeps "sid=Y", which a second canonicalization then
// removes); here every one goes, which makes the result a fixed point.
// The pairs are found with a stack, as in stripIAQuerySessions.
func (st *state) stripURLCanonQuerySessions() {
	if st.p.query.len() == 0 {
		return
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
		st.joinParams(true)
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
