package resolver

import (
	"strconv"
	"strings"
)

// negotiate picks the offer the Accept header prefers (RFC 9110 section
// 12.5.1): the highest quality value, then the most specific range that
// matched. Offers are media types without parameters, best default
// first. An absent or empty header, or one that accepts none of the
// offers, gets the first offer: RFC 9110 lets a server disregard Accept
// rather than answer 406, and a resolver's clients are better served by
// the format the RFC 2169 service defines.
func negotiate(accept string, offers ...string) string {
	if accept == "" {
		return offers[0]
	}
	best, bestQ, bestSpec := offers[0], -1.0, -1
	for _, o := range offers {
		q, spec := quality(accept, o)
		if q > bestQ || (q == bestQ && spec > bestSpec) {
			best, bestQ, bestSpec = o, q, spec
		}
	}
	if bestQ <= 0 {
		return offers[0]
	}
	return best
}

// quality returns the q-value the header gives to media type offer, and
// how specific the matching range was (2 type/subtype, 1 type/*, 0 */*),
// or 0, -1 when no range matches.
func quality(accept, offer string) (q float64, spec int) {
	otype, osub, _ := strings.Cut(offer, "/")
	spec = -1
	for len(accept) > 0 {
		var part string
		part, accept, _ = strings.Cut(accept, ",")
		mr, params, _ := strings.Cut(part, ";")
		mr = strings.ToLower(strings.TrimSpace(mr))
		t, sub, ok := strings.Cut(mr, "/")
		if !ok {
			continue
		}
		s := -1
		switch {
		case t == otype && sub == osub:
			s = 2
		case t == otype && sub == "*":
			s = 1
		case t == "*" && sub == "*":
			s = 0
		}
		if s < spec || s < 0 {
			continue
		}
		qv := 1.0
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					qv = f
				}
			}
		}
		if s > spec {
			spec, q = s, qv
		}
	}
	if spec < 0 {
		return 0, -1
	}
	return q, spec
}
