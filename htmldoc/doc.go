// Package htmldoc reads the base URI and the links of an HTML document,
// streaming, on golang.org/x/net/html's tokenizer.
//
// The base URI follows the layers of the 1998 draft's section 5.1 and
// its Appendix D, with the HTML standard's reading of the base element:
//
//  1. the href of the first base element that has one, anywhere in the
//     document ("signals that the parser should use the BASE element's
//     HREF attribute as the base URI"); a relative href is resolved
//     against the next layer out. That element decides: when its href
//     is empty, unparsable (a space in its host is, as in the URL
//     Standard) or a data: or javascript: URL, the base is the next
//     layer out, never a later base element (the HTML standard's
//     "frozen base URL" is then the "fallback base URL");
//  2. the Content-Base header of the encapsulating entity;
//  3. its Content-Location header, resolved against the retrieval URI;
//  4. the URI the document was retrieved from.
//
// A base element counts only where the HTML standard's tree builder puts
// it in the Document: not in a template's contents, and not in SVG or
// MathML foreign content (where <base> makes a foreign element), outside
// their HTML integration points (foreignObject, mi, ...). The tokens are
// followed for this without building the tree (see scope.go).
//
// The links are the href of a, area and link, the src of img, script and
// iframe, and the action of form, in document order: attribute values
// entity-decoded (by the tokenizer), then read as a browser reads them:
// the HTML standard hands a URL attribute to the URL Standard's parser,
// which removes leading and trailing C0 controls and spaces and every
// ASCII tab and newline inside ("/\t/evil.example/" is
// "//evil.example/"); IRIs mapped to URIs (RFC 3987 3.1, package iri),
// resolved against the base (RFC 3986 5.2). A base element's href is
// read the same way. A javascript:, vbscript: or data: link is marked
// Active. A link that cannot be resolved (no URI reference even after
// repair, or a host a browser refuses) is handed out with its Err.
//
// Since the first base element may come after links, and its href is
// the base of them all, LinksWith holds the links it meets before it, in
// bounded memory: at most Options.MaxHeld (DefaultMaxHeld) links and
// 1 MiB of their text. Past that, an input that can seek (a file) is
// searched on for the base element and then read again from its start,
// so the answer is always whole; an input read once (a pipe) has its
// links handed out resolved against the outer layers, and a base element
// that comes after them is reported as a LateBaseError. Options.Idle
// lets a caller hand out what is held while a stream is idle. Memory is
// otherwise that of the tokenizer: the longest token.
//
// BrowserBase and BrowserLinks read the document as a browser does
// instead: the base is the HTML standard's document base URL (the first
// base element's href parsed by the URL Standard against the document's
// URL, else that URL; no headers), and each link is parsed by the URL
// Standard's parser (package whatwg) with it, in Link.URL: what a.href
// returns. Holding and its bounds are the same.
package htmldoc
