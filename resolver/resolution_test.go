package resolver

import (
	"context"
	"strings"
	"testing"
)

// Issue 23.7: "a resolution function computes an answer value (location
// list, metadata, synonyms, equivalence, not-found, invalid) in one read
// transaction; handlers only negotiate and render it". The answers, for
// every service and every state a URN can be in, on both stores.
func TestResolveAnswers(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Config{})
		tok := e.token("example")
		e.mustPut(tok, "urn:example:a", Record{URLs: []string{"https://a.example/1", "https://a.example/2"}, Synonyms: []string{"urn:example:s"}})
		e.mustPut(tok, "urn:example:bare", Record{})
		e.mustPut(tok, "urn:example:g", Record{URLs: []string{"https://a.example/g"}})
		h := map[string]string{"Authorization": "Bearer " + tok}
		if r := e.do("DELETE", "/admin/records/urn:example:g", h, `{"reason":"r","successor":"urn:example:a"}`); r.code != 204 {
			t.Fatalf("deactivate: %d %s", r.code, r.body)
		}
		ctx := context.Background()
		for _, c := range []struct {
			svc     Service
			operand string
			kind    answerKind
			missing missing
			list    string // the list joined by " ", or the successor operand for gone
		}{
			{N2L, "urn:example:a", answerLocations, 0, "https://a.example/1"},
			{N2L, "urn:example:a?=x", answerLocations, 0, "https://a.example/1?x"},
			{N2R, "urn:example:a", answerLocations, 0, "https://a.example/1"},
			{N2Ls, "urn:example:a", answerLocations, 0, "https://a.example/1 https://a.example/2"},
			{N2Rs, "urn:example:a", answerLocations, 0, "https://a.example/1 https://a.example/2"},
			{N2C, "urn:example:a", answerMetadata, 0, ""},
			{N2Ns, "urn:example:a", answerSynonyms, 0, "urn:example:s"},
			{N2Ns, "urn:example:s", answerSynonyms, 0, "urn:example:a"}, // no record, a synonym others register
			{N2N, "urn:example:s", answerSynonyms, 0, "urn:example:a"},
			{N2L, "urn:example:none", answerNotFound, missRecord, ""},
			{N2Ls, "urn:example:none", answerNotFound, missRecord, ""},
			{N2C, "urn:example:none", answerNotFound, missRecord, ""},
			{N2Ns, "urn:example:none", answerNotFound, missRecord, ""},
			{N2L, "urn:example:bare", answerNotFound, missLocation, ""},
			{N2Rs, "urn:example:bare", answerNotFound, missLocation, ""},
			{N2Ls, "urn:example:bare", answerLocations, 0, ""},
			{N2N, "urn:example:bare", answerNotFound, missSynonym, ""},
			{N2Ns, "urn:example:bare", answerSynonyms, 0, ""},
			{N2L, "urn:example:g", answerGone, 0, "urn:example:a"},
			{N2L, "urn:example:g?=x", answerGone, 0, "urn:example:a?=x"},
			{N2Ls, "urn:example:g", answerGone, 0, "urn:example:a"},
			{N2C, "urn:example:g", answerGone, 0, "urn:example:a"},
			{N2Ns, "urn:example:g", answerGone, 0, "urn:example:a"},
			{NeqN, "urn:example:a&URN:EXAMPLE:a", answerEquivalence, 0, ""},
			{NeqN, "urn:example:a&urn:example:s", answerEquivalence, 0, ""},
			{L2Ns, "https://a.example/2", answerURNs, 0, "urn:example:a"},
			{L2N, "https://a.example/g", answerNotFound, missURN, ""},
			{N2L, "urn:x:a", answerInvalid, 0, ""},
			{N2L, "", answerInvalid, 0, ""},
			{L2N, "not a url", answerInvalid, 0, ""},
			{NeqN, "urn:example:a", answerInvalid, 0, ""},
		} {
			a, err := e.srv.resolve(ctx, c.svc, c.operand)
			if err != nil {
				t.Fatalf("%s?%s: %v", c.svc, c.operand, err)
			}
			list := strings.Join(a.list, " ")
			if a.kind == answerGone {
				list = a.next
			}
			if a.kind != c.kind || a.missing != c.missing || list != c.list || a.svc != c.svc {
				t.Errorf("%s?%s: kind %d missing %d list %q svc %s, want %d %d %q", c.svc, c.operand, a.kind, a.missing, list, a.svc, c.kind, c.missing, c.list)
			}
			if c.kind == answerInvalid && a.err == nil {
				t.Errorf("%s?%s: invalid without a problem", c.svc, c.operand)
			}
			if c.kind == answerEquivalence && !a.equal {
				t.Errorf("%s?%s: not equal", c.svc, c.operand)
			}
		}
		a, _ := e.srv.resolve(ctx, NeqN, "urn:example:a&urn:example:b")
		if a.kind != answerEquivalence || a.equal {
			t.Errorf("I=I of two unrelated URNs: %+v", a)
		}
	})
}
