module github.com/urikit/urikit/compare

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/fredbi/uri v1.1.1
	github.com/leodido/go-urn v1.5.0
	github.com/urikit/urikit v0.0.0
	mvdan.cc/xurls/v2 v2.6.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mtibben/confusables v0.0.0-20210201002637-9d1b0723b659 // indirect
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	github.com/nlnwa/whatwg-url v0.6.2
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
)

replace github.com/urikit/urikit => ../
