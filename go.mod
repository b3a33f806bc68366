module github.com/urikit/urikit

go 1.26.0

require (
	github.com/fredbi/uri v1.1.1
	github.com/leodido/go-urn v1.5.0
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
)
