package urn

// The "example" namespace: RFC 6963 (BCP 183), "A Uniform Resource Name
// (URN) Namespace for Examples". Any NSS is allowed and no URN in it is
// ever assigned; there are no extra equivalences. It is listed as
// implemented so that tools say it is known.
//
// Example (RFC 6963 section 2): urn:example:foo.
var exampleRules = rules{"RFC 6963", func(string) error { return nil }, nil}
