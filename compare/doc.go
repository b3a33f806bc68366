// Package compare holds the tests and benchmarks that compare package
// whatwg of urikit with other implementations of the URL Standard. It
// is a module of its own so that urikit's module never requires them.
package compare
