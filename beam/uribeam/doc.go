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
// WriteDedupe writes Dedupe's classes into text shards in bounded
// memory on every runner: the keys go through temporary files, in hash
// parts merged one at a time, rather than through the runner's shuffle
// (Prism holds a shuffle in memory, about 5 KB a class).
//
// No input is lost: every transform also returns a PCollection of
// DeadLetter, one per input it could not use, with the reason and the
// byte offset that "uri normalize --json" gives, or for a file or WARC
// record the file and the offset of the record. The readers (ReadLines,
// Extract, Links) also return the counts of what they read, and
// CountLines and WriteCounts count the rest into a counts file (Counts),
// where every record read is out, dead or skipped by kind.
//
// Every reader decompresses a file that starts with a gzip member
// (RFC 1952), every member of it, whatever its name. Extract and Links
// read files: plain text and HTML files, and WARC files (ISO 28500:2017,
// WARC 1.1; ".warc" and ".warc.gz", one gzip member per record as
// crawlers write them, or any number). In a WARC file, each response or
// resource record whose HTTP (or record) Content-Type is HTML is a
// document for Links, retrieved from its WARC-Target-URI, with the HTTP
// response's Content-Base and Content-Location as the outer layers of
// its base (the 1998 draft's section 5.1); every other text/* record is
// text for Extract. Request, metadata, revisit and other records, and
// records of other media types, are not documents: they are skipped,
// counted by kind.
//
// CDXJ indexes WARC files for replay (pywb, Wayback): one line a
// capture, "SURT TIMESTAMP {json}", as webrecorder's cdxj-indexer
// writes it (cdxj.go lists the fields; cdxjpost.go the folding of POST
// bodies into keys), and WriteSortedShards writes such lines sorted
// byte-wise in shards of consecutive ranges. Sites counts the
// registrable domains of hosts (package surt).
//
// WARC files are framed by a scanner of this package (warcscan.go):
// each record by its Content-Length, its end checked (CRLF CRLF, then
// the next record or the end of the file or gzip member), so that a
// lying Content-Length is a dead letter and the records after it are
// still read; after a damaged record or gzip member it resumes at the
// next record header or gzip member that starts a record. gowarc's
// reader cannot do this (it reads forward through a buffer it does not
// give back, so a Content-Length too long has consumed the next record
// when the damage shows). Each record's header is then parsed with
// github.com/nlnwa/gowarc/v3, chosen over github.com/internetarchive/gowarc
// because it is a WARC library and nothing else, with four small
// dependencies; the Internet Archive's module is the archiving HTTP
// client of its crawler (DNS, TLS fingerprinting, SOCKS proxies, a
// deduplication cache). A record's block, and its payload once decoded
// (chunked, gzip, deflate), are held up to ReadOptions.MaxRecord bytes;
// a larger document is a dead letter.
package uribeam
