// Package surt makes the keys that web archives and crawlers file URLs
// under: a URL canonicalized by a named profile, then written host first
// as a SURT ("Sort-friendly URI Reordering Transform"), so that the
// captures of a site, a host and its subdomains sort together. It also
// gives the registrable domain of a host, by which crawls group hosts.
//
//	k, err := surt.Key("http://www.archive.org/goo/?b=2&a=1")
//	// k == "org,archive)/goo?a=1&b=2", the urlkey of pywb and Wayback
//	o := surt.Options{Profile: surt.Aggressive, Form: surt.SSURT, KeepWWW: true}
//	buf, err = o.AppendKey(buf[:0], line) // streaming: no allocation per line
//	site, ok := surt.Site("a.b.github.io") // "b.github.io"
//
// One package holds the profiles and the keys because a key is defined
// as the two together: archives pin a profile so that a URL finds its
// captures years later, and the key forms are the SURT transforms of
// Wayback, Heritrix and urlcanon. The name is the one those tools use.
// The canonicalizers are usable alone (Canonicalize); the registrable
// domain shares the host rules and is the third key a crawl files by.
//
// # The mental model
//
//	what you have                    call                                  result
//	a capture's URL, for a CDX line  Key(s)                                "org,archive)/goo?a=1&b=2" (surt.surt(s))
//	a stream of URLs                 Options{...}.AppendKey(buf, s)        the key appended, no allocation
//	a URL to compare or dedupe       Canonicalize(s, profile)              "http://archive.org/goo?a=1&b=2"
//	a crawler's scope rule           Options{Form: Heritrix}.Key(s)        "http://(org,archive,)/goo?a=1&b=2"
//	a sortable key to read back      Options{Form: SSURT}.Key(s)           "org,archive,//http:/goo?a=1&b=2"
//	an SSURT key                     ParseSSURT(k)                         the canonical URL again
//	a host, to group by site         Site(h), SiteICANN(h)                 "example.co.uk", and ICANN's section alone
//	a host's public suffix           PublicSuffix(h), PublicSuffixICANN(h) "co.uk", true
//
// # Profiles
//
// Each profile is documented rule by rule, with its source, where it is
// implemented: IA (ia.go: internetarchive/surt's DefaultIAURLCanonicalizer,
// webarchive-commons' AggressiveIAURLCanonicalizer), Google (google.go:
// Safe Browsing v4 "URLs and Hashing"), SemanticPrecise and Aggressive
// (urlcanon.go: iipc/urlcanon), WHATWG (the URL Standard, package whatwg),
// RFC3986 (package uri's Normalize) and None. The lax profiles read any
// string the way the archive tools read crawl logs (split.go) and never
// fail but on a port that is not a number; WHATWG fails where the URL
// Standard does, RFC3986 and None on what is not an RFC 3986 URI.
//
// Options hold the switches archives ask for: KeepWWW (pywb issue 943:
// keep www and www2 apart), WWWTwoLabels (internetarchive/surt issue 28:
// www1355544.com must not become "com"), KeepTrailingSlash (ipwb issue
// 104), TrailingComma (surt's trailing_comma).
//
// # Promises
//
// Every canonical form is a fixed point: canonicalized again it is
// itself, and it has the key of the URL it came from, in every form. The
// SSURT key reads back (ParseSSURT) into the canonical form. No input
// makes the package panic, and the time is linear in the input. The fuzz
// target FuzzKey attacks these promises under every profile.
//
// # Where this package differs from its anchors
//
// The IA profile gives pywb's key (internetarchive/surt) on 48,008 of the
// 48,010 URLs of a real crawl corpus (BENCHMARKS.md); the two others have
// an escaped "?" in the path. The anchors' tests are transcribed in
// vectors_test.go and urlcanon_test.go, with each difference and its
// reason. The differences on purpose:
//
//	rule                                   anchors                                here, and why
//	"%3F", "%2F", "%40" decoded in a path  surt and urlcanon write them raw:      escaped again ("%3F" in a path, "/", "?", "@", ":"
//	or host                                "/a%3Fb" has the key "/a?b", which     in a host or userinfo), so that the canonical form
//	                                       reads back as a query                  reads back into the same components
//	a session id of a query                the last one of each kind, also from   every parameter that is one; the pair cfid/cftoken
//	                                       inside a parameter ("xjsessionid=")    also where the sort makes it adjacent (fixed point)
//	"(id)/" ASP.NET ids in a path          the last one                           every one before ".aspx" (fixed point)
//	"www.www.example.com"                  surt and urlcanon strip one label      every leading www label, as webarchive-commons
//	"/a//" with no host, a final slash     one slash dropped                      every final slash dropped, down to "/" (fixed point)
//	a host emptied by the rules            "http:///path" (reads back as host     the first path segment is the host, as the
//	("http://.../a", "http://%2e/a")       "path")                                canonical form reads back
//	no host, a "/" after "//" ("./",       surt writes the URL "http:/"; urlcanon "http:///", which reads back so; the key is
//	"http:///", "http://./")               reads the host "." as 0.0.0.0         surt's "http:/" ("." is a name: URL Standard)
//	"http:////u@h" (not two slashes)       surt takes "u@h" whole as the host     the authority is read as after "//" (URL Standard)
//	dns:host                               Wayback keys it as "host,)"            passed through as surt and pywb do (issue 28)
//	warcinfo:X                             surt lowercases X                      passed through as Wayback does
//	the Heritrix form                      surt's with_scheme has no comma        always the comma, and the userinfo, as Heritrix;
//	                                                                              urlcanon's surt() drops the userinfo
//	leading/trailing C0 controls           surt strips ASCII spaces only          every C0 control and space (URL Standard, Java)
//	scheme case                            webarchive-commons' Basic keeps it     lowercased (RFC 3986 3.1)
//	IPv4 "10.0.258", hex                   webarchive-commons refuses both; surt  Google: every inet_aton form, as Safe Browsing asks;
//	                                       reads the first, not hex               IA: surt's reading
//	urlcanon's scheme                      [a-zA-Z][^:]* ("Bücher.ch:8080")       RFC 3986's scheme characters
//	urlcanon, "//host/path"                the host is lost (re-parse bug)        http://host/path, as Safe Browsing and surt
//	urlcanon, an empty IPv4 part           0 ("%2e" is 0.0.0.0)                   no address (URL Standard), a name
//	urlcanon, "::ffff:1.2.3.4"             "::ffff:102:304" (Python's ipaddress)  "::ffff:1.2.3.4" (RFC 5952 5, net/netip)
//	urlcanon's WHATWG                      an older URL Standard; keeps failures  the current one (package whatwg); fails where it does
//
// # Registrable domains
//
// Site and PublicSuffix use the Public Suffix List compiled into
// golang.org/x/net/publicsuffix (its version is in that package), whose
// ICANN and private sections SiteICANN and PublicSuffixICANN tell apart.
// The list's own test file (tests/test_psl.txt) passes in full.
package surt
