// Package scheme holds what individual URI schemes add to the generic
// syntax: the complete registry of scheme rules (Registry), and typed
// views of the classic schemes of the 1993 and 1994 URL drafts.
//
// Where a scheme's rules live: the rules that decide equivalence
// (default ports, an empty http path meaning "/", URN case rules) are
// in package uri (uri.DefaultRegistry), so that uri.Equal applies them;
// the URN syntax is in package urn (urn.Scheme); this package adds the
// validation and the views, and assembles them all in Registry, which
// is what the uri command uses.
//
//	r := scheme.Registry()
//	err := r.Check(uri.MustParse("urn:a:b")) // a URN with a 1-letter NID
//
// # Views of the classic schemes
//
// The 1993 and 1994 URL drafts (the seeds of RFC 1738) are mostly about
// schemes: what an ftp, gopher, news or telnet URL names, its defaults,
// and what a client does with it. Each has a view here, one file per
// scheme, read from a parsed uri.URI: ParseHTTP (http, https), ParseFTP,
// ParseGopher (gopher and gopher+), ParseMailto, ParseNews (news, snews),
// ParseNNTP, ParseTelnet (telnet, rlogin, tn3270), ParseWAIS,
// ParseProspero, ParseFile, ParseMessageID (mid, cid), and StripPrefix
// for the drafts' "URL:" prefix. ViewOf picks the view by scheme and
// returns a View, which every view satisfies (a "urn:" URI gives a URN);
// Check returns only the error. A URL a view cannot read gives a
// *uri.ParseError with the offset and the component at fault.
//
// A view prints as its URL with the password replaced by "xxxxx"
// (Redacted, String and every fmt verb), never as its fields. The views
// of the schemes that connect to a host are Endpoints, with one port
// convention: Port is the URL's or -1, DefaultPort the scheme's,
// ConnectPort where a client connects.
//
// Views give decoded values, the defaults of each scheme (ports, the
// anonymous FTP login, the gopher item type "1"), Warnings, codes with a
// Message (a port other than the default, a password, percent-encoded
// CR, LF or NUL where a client would decode them, a URN's reserved
// NID), and for the schemes with a protocol a Plan:
// the bytes a client sends (gopher), its commands (ftp, nntp) or its
// request line and Host header (http). A plan never decodes a %0D, %0A
// or %00 into a protocol line, host included: it returns a
// *RefusedError instead (RFC 1738 section 6, the gopher-to-SMTP
// attack). The one exception, the data block of a filled-in Gopher+
// +ASK form, is planned only with PlanOptions.AskData and to port 70.
// A port above 65535 is an error of the view (ErrPortRange), and the
// zone identifier of an IPv6 literal never leaves the client (RFC 6874
// section 4). Every view encodes to JSON as the "scheme_data" of `uri
// parse --json`.
package scheme
