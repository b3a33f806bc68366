// Package vectors holds the test vectors of the specifications that the
// tests of several packages run (the library's and the command's), so
// that no table is copied between packages. Each row cites its source.
package vectors

// Resolution is one resolution example: a reference and its result
// against the table's base.
type Resolution struct {
	Ref, Want string
}

// RFC3986Base is the base URI of RFC 3986 section 5.4 and of the 1998
// draft's Appendix C.
const RFC3986Base = "http://a/b/c/d;p?q"

// RFC3986Examples are the examples of RFC 3986 section 5.4 against
// RFC3986Base.
var RFC3986Examples = []Resolution{
	{"g:h", "g:h"},                        // RFC 3986 5.4.1
	{"g", "http://a/b/c/g"},               // RFC 3986 5.4.1
	{"./g", "http://a/b/c/g"},             // RFC 3986 5.4.1
	{"g/", "http://a/b/c/g/"},             // RFC 3986 5.4.1
	{"/g", "http://a/g"},                  // RFC 3986 5.4.1
	{"//g", "http://g"},                   // RFC 3986 5.4.1
	{"?y", "http://a/b/c/d;p?y"},          // RFC 3986 5.4.1
	{"g?y", "http://a/b/c/g?y"},           // RFC 3986 5.4.1
	{"#s", "http://a/b/c/d;p?q#s"},        // RFC 3986 5.4.1
	{"g#s", "http://a/b/c/g#s"},           // RFC 3986 5.4.1
	{"g?y#s", "http://a/b/c/g?y#s"},       // RFC 3986 5.4.1
	{";x", "http://a/b/c/;x"},             // RFC 3986 5.4.1
	{"g;x", "http://a/b/c/g;x"},           // RFC 3986 5.4.1
	{"g;x?y#s", "http://a/b/c/g;x?y#s"},   // RFC 3986 5.4.1
	{"", "http://a/b/c/d;p?q"},            // RFC 3986 5.4.1
	{".", "http://a/b/c/"},                // RFC 3986 5.4.1
	{"./", "http://a/b/c/"},               // RFC 3986 5.4.1
	{"..", "http://a/b/"},                 // RFC 3986 5.4.1
	{"../", "http://a/b/"},                // RFC 3986 5.4.1
	{"../g", "http://a/b/g"},              // RFC 3986 5.4.1
	{"../..", "http://a/"},                // RFC 3986 5.4.1
	{"../../", "http://a/"},               // RFC 3986 5.4.1
	{"../../g", "http://a/g"},             // RFC 3986 5.4.1
	{"../../../g", "http://a/g"},          // RFC 3986 5.4.2
	{"../../../../g", "http://a/g"},       // RFC 3986 5.4.2
	{"/./g", "http://a/g"},                // RFC 3986 5.4.2
	{"/../g", "http://a/g"},               // RFC 3986 5.4.2
	{"g.", "http://a/b/c/g."},             // RFC 3986 5.4.2
	{".g", "http://a/b/c/.g"},             // RFC 3986 5.4.2
	{"g..", "http://a/b/c/g.."},           // RFC 3986 5.4.2
	{"..g", "http://a/b/c/..g"},           // RFC 3986 5.4.2
	{"./../g", "http://a/b/g"},            // RFC 3986 5.4.2
	{"./g/.", "http://a/b/c/g/"},          // RFC 3986 5.4.2
	{"g/./h", "http://a/b/c/g/h"},         // RFC 3986 5.4.2
	{"g/../h", "http://a/b/c/h"},          // RFC 3986 5.4.2
	{"g;x=1/./y", "http://a/b/c/g;x=1/y"}, // RFC 3986 5.4.2
	{"g;x=1/../y", "http://a/b/c/y"},      // RFC 3986 5.4.2
	{"g?y/./x", "http://a/b/c/g?y/./x"},   // RFC 3986 5.4.2
	{"g?y/../x", "http://a/b/c/g?y/../x"}, // RFC 3986 5.4.2
	{"g#s/./x", "http://a/b/c/g#s/./x"},   // RFC 3986 5.4.2
	{"g#s/../x", "http://a/b/c/g#s/../x"}, // RFC 3986 5.4.2
	{"http:g", "http:g"},                  // RFC 3986 5.4.2 (strict parser)
}

// Draft1998AppendixC is Appendix C of the 1998 draft
// (uri-generic-syntax-draft-1998.txt), C.1 then C.2. "(current
// document)" is the base without its fragment, plus the reference's
// fragment (section 4.2 and step 2 of section 5.2).
var Draft1998AppendixC = []Resolution{
	{"g:h", "g:h"},                        // 1998 draft C.1
	{"g", "http://a/b/c/g"},               // 1998 draft C.1
	{"./g", "http://a/b/c/g"},             // 1998 draft C.1
	{"g/", "http://a/b/c/g/"},             // 1998 draft C.1
	{"/g", "http://a/g"},                  // 1998 draft C.1
	{"//g", "http://g"},                   // 1998 draft C.1
	{"?y", "http://a/b/c/?y"},             // 1998 draft C.1
	{"g?y", "http://a/b/c/g?y"},           // 1998 draft C.1
	{"#s", "http://a/b/c/d;p?q#s"},        // 1998 draft C.1 ((current document)#s)
	{"g#s", "http://a/b/c/g#s"},           // 1998 draft C.1
	{"g?y#s", "http://a/b/c/g?y#s"},       // 1998 draft C.1
	{";x", "http://a/b/c/;x"},             // 1998 draft C.1
	{"g;x", "http://a/b/c/g;x"},           // 1998 draft C.1
	{"g;x?y#s", "http://a/b/c/g;x?y#s"},   // 1998 draft C.1
	{".", "http://a/b/c/"},                // 1998 draft C.1
	{"./", "http://a/b/c/"},               // 1998 draft C.1
	{"..", "http://a/b/"},                 // 1998 draft C.1
	{"../", "http://a/b/"},                // 1998 draft C.1
	{"../g", "http://a/b/g"},              // 1998 draft C.1
	{"../..", "http://a/"},                // 1998 draft C.1
	{"../../", "http://a/"},               // 1998 draft C.1
	{"../../g", "http://a/g"},             // 1998 draft C.1
	{"", "http://a/b/c/d;p?q"},            // 1998 draft C.2 (current document)
	{"../../../g", "http://a/../g"},       // 1998 draft C.2
	{"../../../../g", "http://a/../../g"}, // 1998 draft C.2
	{"/./g", "http://a/./g"},              // 1998 draft C.2
	{"/../g", "http://a/../g"},            // 1998 draft C.2
	{"g.", "http://a/b/c/g."},             // 1998 draft C.2
	{".g", "http://a/b/c/.g"},             // 1998 draft C.2
	{"g..", "http://a/b/c/g.."},           // 1998 draft C.2
	{"..g", "http://a/b/c/..g"},           // 1998 draft C.2
	{"./../g", "http://a/b/g"},            // 1998 draft C.2
	{"./g/.", "http://a/b/c/g/"},          // 1998 draft C.2
	{"g/./h", "http://a/b/c/g/h"},         // 1998 draft C.2
	{"g/../h", "http://a/b/c/h"},          // 1998 draft C.2
	{"g;x=1/./y", "http://a/b/c/g;x=1/y"}, // 1998 draft C.2
	{"g;x=1/../y", "http://a/b/c/y"},      // 1998 draft C.2
	{"g?y/./x", "http://a/b/c/g?y/./x"},   // 1998 draft C.2
	{"g?y/../x", "http://a/b/c/g?y/../x"}, // 1998 draft C.2
	{"g#s/./x", "http://a/b/c/g#s/./x"},   // 1998 draft C.2
	{"g#s/../x", "http://a/b/c/g#s/../x"}, // 1998 draft C.2
	{"http:g", "http:g"},                  // 1998 draft C.2
	{"http:", "http:"},                    // 1998 draft C.2
}
