// Package resolver is a URN resolution service: it stores what is known
// about URNs (their locations, a description, their synonyms) and
// answers the resolution services of RFC 2483 section 4 over HTTP, as RFC
// 2169 encodes them. Command urnresolver (resolver/cmd/urnresolver, in this module) runs it.
//
//	st, err := resolver.OpenStore(ctx, "urnresolver.db") // or "postgres://..."
//	if err != nil {
//		return err
//	}
//	srv, err := resolver.New(resolver.Config{Store: st})
//	http.ListenAndServe("127.0.0.1:8080", srv)
//
// # Requests
//
// RFC 2169 section 2: "GET /uri-res/<service>?<URN>", where the service is
// N2L, N2Ls, N2R, N2Rs, N2C, N2Cs, N2N, N2Ns, N=N, L2N or L2Ns, or one of
// the 2012 draft's names (section 9.2.2, from RFC 2483): I2L, I2Ls, I2R,
// I2Rs, I2C, I2Cs, I2N, I2Ns, I=I. The path form "GET /<URN>" takes the
// service from the URN: a 2012-draft directive ("?s=I2Ls", section
// 2.3.1), an RFC 8141 r-component read as directives ("?+s=I2Ls"), or the
// namespace's default (Config.DefaultServices; N2L). An unknown service
// designator falls back to the default, as section 2.3.1 requires.
//
// Answers: N2L redirects to the first location, 303 See Other (302 Found
// to HTTP/1.0 clients, RFC 2169 section 3.1), with the URN's q-component
// merged into the location's query (RFC 8141 section 2.3.2); N2R redirects
// 302 Found, since this resolver keeps no resources; N2Ls, N2Ns and L2Ns
// answer text/uri-list (or text/html, text/plain, JSON by Accept); N2C the
// record as JSON (or text/plain); N2N and L2N one URN as text/plain;
// "GET /uri-res/I=I?URN1&URN2" answers text/plain "true" or "false": true
// when the URNs are lexically equivalent under RFC 8141 section 3 and the
// namespaces' rules, or a registered synonym links them. An unknown URN
// is 404, an invalid one 400 with an RFC 9457 problem+json body whose
// detail gives the parser's offset and reason. A deactivated URN is 410
// Gone, with the date and reason (N2C answers the record as it was), and
// N2L and N2R redirect to its successor when it names one. The f-component never
// reaches a resolver (RFC 8141 section 2.3.3).
//
// # Records
//
// A Record is stored under the URN's equivalence key with the namespace
// rules of package urn (KeyWith(urn.NamespaceRules)), so every lexically
// equivalent form of the URN finds it (RFC 2169 section 2). Each
// namespace is read in the dialect Config.Dialects gives it (RFC 8141 by
// default, or the 2015 or 2012 drafts, or RFC 2141). Records are written
// through the admin API (PUT, POST, DELETE under /admin/records, bulk
// POST /admin/import, deactivations under /admin/deactivations) with a
// bearer token limited to namespaces and NSS
// prefixes, which must cover every URN the write names (the record's and
// its synonyms'), or imported with Import; every write goes to the audit
// log in the same transaction. Invalid URNs, locations that are not
// absolute http or https URIs, and records over the Limits are refused
// whole. A record is never deleted: DELETE deactivates it (Deactivation),
// and only a reactivation by a token of its scope brings it back. A
// successor must have a record and its chain may not lead back
// (ErrNoSuccessor, ErrSuccessorCycle), decided one deactivation at a
// time even across servers; a deactivated URN is not offered as a
// synonym. JSON is read strictly (exact member names, no duplicates,
// UTF-8 without lone surrogates), and an import stores each record
// whole or not at all.
//
// # Harvesting, statistics and export
//
// /oai is an OAI-PMH 2.0 provider (Config.OAI): oai_dc records, a set
// per namespace and per registrar, change times as datestamps, resumption tokens that hold
// while writes go on, and deactivated URNs as deleted records
// (deletedRecord persistent). Harvest is its harvester: it stores another
// repository's records a page per transaction, from where the last
// complete harvest of the source ended. Resolutions are counted per
// namespace, registrar and UTC day (GET /admin/stats, /metrics); Export writes
// every record as JSON Lines that Import loads back as it was.
//
// # Storage
//
// OpenStore opens SQLite (modernc.org/sqlite, pure Go, WAL mode) for a
// file path and PostgreSQL (pgx) for a postgres:// URL, and migrates the
// schema. With PostgreSQL, several servers can share one database:
// migrations take an advisory lock. The N2L answer cache (Store.Cache)
// drops the keys each write changes: this process's at once, every other
// process's and server's by tailing the change log that each write
// appends to in its transaction (on PostgreSQL, LISTEN/NOTIFY makes that
// immediate). It answers only while its last catch-up with the log began
// at most CacheOptions.MaxStale (1 s) ago, so no answer from memory is
// older than that after the write that changed it was acknowledged,
// whatever fault stops a server hearing of writes.
//
// # Layers
//
// A request goes down one layer at a time and its answer comes back up:
// routes.go routes it (http.ServeMux patterns, method and path) to a
// handler of the HTTP layer (resolve.go, admin.go, page.go), which reads
// the request and renders what the layer below returns; the resolution
// layer (resolution.go) answers the resolution services and the records
// layer (records.go) the admin API's writes, both with values and domain
// errors (*FieldError, *ScopeError, *GoneError, ErrNotFound, ...), which
// only problem.go turns into problems and status codes; every SQL
// statement, for both databases, is in package resolver/internal/store.
// All calls into package urn are in urns.go.
package resolver
