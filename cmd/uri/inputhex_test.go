package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// Issue 7, defect 9: in JSON an input that is not valid UTF-8 shows
// U+FFFD, so the line could not be matched back; such lines (and only
// they) carry "input_hex", the input's bytes in hexadecimal.
func TestInputHex(t *testing.T) {
	inputs := []string{"http://a/\xff", "http://a/b", "%zz\xc3", "urn:a\xff:b", "urn:example:a", "é"}
	for _, args := range [][]string{{"parse", "--json"}, {"check", "--json"}, {"urn", "parse", "--json"}, {"normalize", "--json"}} {
		var out, errb bytes.Buffer
		run(args, strings.NewReader(strings.Join(inputs, "\n")+"\n"), &out, &errb)
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		for _, line := range lines {
			var v struct {
				Input    string  `json:"input"`
				InputHex *string `json:"input_hex"`
			}
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%q: %v in %q", args, err, line)
			}
			var in string
			for _, x := range inputs {
				if strings.ToValidUTF8(x, "\ufffd") == v.Input {
					in = x
				}
			}
			switch valid := in == v.Input; {
			case in == "":
				t.Errorf("%q: line %q matches no input", args, line)
			case valid && v.InputHex != nil:
				t.Errorf("%q: input_hex on a valid UTF-8 input: %q", args, line)
			case !valid && (v.InputHex == nil || *v.InputHex != hex.EncodeToString([]byte(in))):
				t.Errorf("%q: line %q: want input_hex %x", args, line, in)
			}
		}
	}
}
