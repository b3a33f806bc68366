module github.com/urikit/urikit

go 1.26.0

require (
	github.com/leodido/go-urn v1.5.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
