// Package uribeam offers urikit's operations as Apache Beam transforms,
// for URL and link jobs past one machine: the same pipeline runs in
// process on the Prism runner and on Flink, Spark or Google Cloud
// Dataflow by a flag (see the command uripipe).
//
// The transforms over lines (Parse, Normalize, Key, Dedupe, Hosts,
// URNKeys) read one input per element, exactly as the uri command reads
// one input per line: a final "\r" is dropped, the empty line is an
// input (the empty relative reference). Their answers are those of the
// uri command on the same lines (the tests compare them): Parse and
// Normalize check an input as "uri normalize" does (RFC 3986 Appendix A,
// then the rules of the input's scheme from scheme.Registry), Key is the
// registry's equivalence key (RFC 3986 6.2.2 and 6.2.3, a URN's key
// without its r-, q- and f-components, RFC 8141 section 3).
//
// No input is lost: every transform also returns a PCollection of
// DeadLetter, one per input it could not use, with the reason and the
// byte offset that "uri normalize --json" gives, or for a file or WARC
// record the file and the offset of the record.
//
// Extract and Links read files: plain text and HTML files, ".gz" files
// decompressed, and WARC files (ISO 28500:2017; ".warc" and ".warc.gz",
// one gzip member per record as crawlers write them). In a WARC file,
// each response or resource record whose HTTP (or record) Content-Type
// is HTML is a document for Links, retrieved from its WARC-Target-URI,
// with the HTTP response's Content-Base and Content-Location as the
// outer layers of its base (the 1998 draft's section 5.1); every other
// text/* record is text for Extract. Request, metadata and other
// records are not documents and are skipped.
//
// WARC files are read with github.com/nlnwa/gowarc/v3, chosen over
// github.com/internetarchive/gowarc because it is a WARC library and
// nothing else: a reader that gives each record's byte offset in the
// file (what a dead letter and a CDX index need), that scans forward to
// the next record after a damaged one instead of giving up, with error
// policies per kind of fault, and with four small dependencies; the
// Internet Archive's module is the archiving HTTP client of its crawler
// (DNS, TLS fingerprinting, SOCKS proxies, a deduplication cache), whose
// reader does not report record offsets.
package uribeam
