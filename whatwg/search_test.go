package whatwg

import "testing"

// TestFormDecodeUTF8: section 5.1, the application/x-www-form-urlencoded
// parser: "Let nameString and valueString be the result of running
// UTF-8 decode without BOM on the percent-decoding of name and value".
// The Encoding Standard's UTF-8 decoder (section 8.1.1) returns one
// error, one U+FFFD, for each byte that cannot start a sequence and for
// each sequence cut short, the bytes it took so far with it.
func TestFormDecodeUTF8(t *testing.T) {
	const r = "\uFFFD"
	for _, c := range []struct{ in, want string }{
		{"%FF%FF", r + r}, // issue 26: new URLSearchParams("a=%FF%FF")
		{"%F5%F8%FC%FE", r + r + r + r},
		{"%80%BF", r + r},               // continuation bytes alone
		{"%C0%80", r + r},               // overlong: 0xC0 starts nothing
		{"%C1%BF", r + r},               // overlong
		{"%E0%80%80", r + r + r},        // overlong: after 0xE0, 0xA0 to 0xBF
		{"%E0%A0", r},                   // cut short: one error
		{"%E0%A0%41", r + "A"},          // cut short by a byte restored to the input
		{"%ED%A0%80", r + r + r},        // a surrogate: after 0xED, 0x80 to 0x9F
		{"%ED%9F%BF", "\uD7FF"},         // the last code point before them
		{"%F0%80%80%80", r + r + r + r}, // overlong: after 0xF0, 0x90 to 0xBF
		{"%F0%9F%98", r},                // a four-byte sequence cut short
		{"%F0%9F%98%80", "😀"},           // complete
		{"%F4%90%80%80", r + r + r + r}, // past U+10FFFF: after 0xF4, 0x80 to 0x8F
		{"%F4%8F%BF%BF", "\U0010FFFF"},  // U+10FFFF itself
		{"%C3", r},                      // cut short by the end
		{"a%C3+b", "a" + r + " b"},      // '+' is a space, decoded after
		{"%E2%82%AC%E2%82", "€" + r},    // a good sequence, then one cut short
		{"%F1%80%80%E1%80%C2b%80c%80%BFd", "" + // Unicode Standard 3.9, the example
			r + r + r + "b" + r + "c" + r + r + "d"}, // of U+FFFD for maximal subparts
	} {
		sp := ParseSearchParams("a=" + c.in)
		if got, _ := sp.Get("a"); got != c.want {
			t.Errorf("a=%s: %+q; want %+q", c.in, got, c.want)
		}
		sp = ParseSearchParams(c.in + "=v")
		if len(sp) != 1 || sp[0].Name != c.want {
			t.Errorf("%s=v: name %+q; want %+q", c.in, sp, c.want)
		}
	}
}

// TestFormDecodeSort: URLSearchParams's sort() writes the pairs back
// into the URL's query (section 6.2, "update"): each U+FFFD is there,
// percent-encoded.
func TestFormDecodeSort(t *testing.T) {
	u := MustParse("http://h/?b=1&a=%FF%FF")
	v := u.SetSearchParams(u.SearchParams().Sort())
	if want := "http://h/?a=%EF%BF%BD%EF%BF%BD&b=1"; v.Href() != want {
		t.Errorf("sorted: %s; want %s", v.Href(), want)
	}
}
