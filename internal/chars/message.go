package chars

import "strconv"

// ErrorMessage builds the message of a parse error, shared by the
// ParseError types of packages uri and urn: the reason, then (when
// showByte is true and offset is inside input) the offending byte, quoted
// as 'c' when printable ASCII and written as byte 0xHH otherwise, then
// " at offset N in " and the component's name. For example
// `invalid character '{' at offset 9 in path`.
func ErrorMessage(reason, input string, offset int, showByte bool, component string) string {
	msg := reason
	if showByte && offset >= 0 && offset < len(input) {
		c := input[offset]
		if c >= 0x20 && c < 0x7f {
			msg += " '" + string(rune(c)) + "'"
		} else {
			msg += " byte 0x" + string(UpperHex[c>>4]) + string(UpperHex[c&15])
		}
	}
	return msg + " at offset " + strconv.Itoa(offset) + " in " + component
}
