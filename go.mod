module github.com/urikit/urikit

go 1.26.0

require (
	github.com/fredbi/uri v1.1.1
	github.com/leodido/go-urn v1.5.0
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
	mvdan.cc/xurls/v2 v2.6.0
)

require (
	github.com/google/pprof v0.0.0-20261016150608-1facf8f91b50 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
)
