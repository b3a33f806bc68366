// Package compare holds the tests and benchmarks that compare package
// whatwg of urikit with other implementations of the URL Standard. It
// is a module of its own so that urikit's module never requires them.
// It also drives headless Chromium (chromedp) against the uri command:
// "uri links" and "uri base" (links_browser_test.go), and their
// --browser mode, which must give a.href and document.baseURI on pages
// of urltestdata.json and hostile hrefs, but for the listed places
// where Chromium departs from the URL Standard
// (links_whatwg_browser_test.go). node_test.go compares hosts with
// "xn--" labels and form bodies of invalid UTF-8 with Node's URL and
// URLSearchParams (ada), when node is on PATH.
package compare
