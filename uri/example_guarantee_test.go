package uri_test

import (
	"fmt"

	"github.com/urikit/urikit/uri"
)

// The case the guarantee of Normalize leaves out (issue 7, defect 3): an
// encoded dot is a dot for normalization (RFC 3986 6.2.2.2 decodes it
// before 6.2.2.3) but an octet for resolution (5.2.4 works on the path
// as written).
func ExampleURI_Normalize_encodedDot() {
	base := uri.MustParse("http://a/b/c/d;p?q")
	t := uri.MustParse("http://a/b/%2e/../g")
	fmt.Println(t.Normalize())
	fmt.Println(base.Resolve(t))
	fmt.Println(uri.Equal(t, base.Resolve(t)))
	// Output:
	// http://a/g
	// http://a/b/g
	// false
}
