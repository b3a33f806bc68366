package urn

import (
	"strings"
	"testing"
)

// The namespace rules of issue 7, each row citing the sentence of the RFC
// it checks. ok: ValidateNamespace accepts the URN; same: the URN is
// equivalent to want under NamespaceRules (want "" when not checked).
func TestNamespaceRulesFromRFCs(t *testing.T) {
	tests := []struct {
		in    string
		ok    bool
		same  string // a URN it must equal with NamespaceRules
		other string // a URN it must differ from with NamespaceRules
		quote string // the sentence of the RFC the row checks
	}{
		// RFC 3044 section 5, "Rules for Lexical Equivalence".
		{"urn:issn:15601560", true, "urn:issn:1560-1560", "", `RFC 3044 5: "The hyphen between the 4th and the 5th digit can be omitted"`},
		{"urn:issn:0259000x", true, "urn:ISSN:0259-000X", "", `RFC 3044 5: "if "x" is found it must be translated in upper case"`},
		{"urn:issn:0259-000x", true, "URN:ISSN:0259000X", "", `RFC 3044 5: both rules together`},
		{"urn:ISSN:1046-8188", true, "urn:issn:10468188", "", `RFC 3044 3.1: "Example: urn:ISSN:1046-8188"`},
		{"urn:issn:1560-156", false, "", "", `RFC 3044 5: "NNNN-NNNC"`},
		{"urn:issn:156-01560", false, "", "", `RFC 3044 5: the hyphen stands between the 4th and the 5th digit`},
		{"urn:issn:15601561", false, "", "", `RFC 3044 2: "calculated on a modulus 11 basis"`},
		{"urn:issn:1560x560", false, "", "", `RFC 3044 5: "N is a Digit character"`},

		// RFC 8458 section 4.2: nbn-nss = prefix "-" nbn-string; prefix = iso-cc *( ":" subspc ).
		{"urn:nbn:SE:UU:diva-3475", true, "urn:nbn:se:uu:diva-3475", "", `RFC 8458 4.2: "The entire prefix is case insensitive."`},
		{"URN:NBN:fi-fe201003181510", true, "urn:nbn:FI-fe201003181510", "urn:nbn:fi-FE201003181510", `RFC 8458 4.2: "parsers therefore MUST treat these as case sensitive"`},
		{"urn:nbn:ch:bel-9039", true, "urn:nbn:CH:BEL-9039", "", `RFC 8458 4.3 example`},
		{"urn:nbn:hu-3006", true, "", "", `RFC 8458 4.3 example`},
		{"URN:NBN:fi-fe19981001", true, "", "", `RFC 8254 section 3 example`},
		{"urn:nbn:de:bvb:19-146642", true, "urn:nbn:DE:BVB:19-146642", "", `subspc = 1*(ALPHA / DIGIT)`},
		{"urn:nbn:se-a:B", true, "", "urn:nbn:se-a:b", `RFC 8458 4.3: sub-namespace codes "MUST NOT contain any colons or hyphens": the prefix ends at the first "-"`},
		{"urn:nbn:no-nb_digibok_2012032124032", true, "", "", `nbn-string = path-rootless`},
		{"urn:nbn:de:bvb:19", false, "", "", `RFC 8458 4.2: nbn-nss = prefix "-" nbn-string`},
		{"urn:nbn:de::bvb-1", false, "", "", `RFC 8458 4.2: subspc = 1*(ALPHA / DIGIT)`},
		{"urn:nbn:de:-1", false, "", "", `RFC 8458 4.2: subspc = 1*(ALPHA / DIGIT)`},
		{"urn:nbn:de:b.v-1", false, "", "", `RFC 8458 4.2: subspc = 1*(ALPHA / DIGIT)`},
		{"urn:nbn:fi-/fe1", false, "", "", `RFC 8458 4.2: nbn-string = path-rootless (RFC 3986 3.3: segment-nz first)`},
		{"urn:nbn:fi-", false, "", "", `RFC 8458 4.2: nbn-string = path-rootless, not empty`},
		{"urn:nbn:f1-2", false, "", "", `RFC 8458 4.2: iso-cc = 2ALPHA`},
		{"urn:nbn:fin-2", false, "", "", `RFC 8458 4.2: iso-cc = 2ALPHA, then ":" or "-"`},

		// RFC 4854 section 2: ShortName and SubName conform "to the URN
		// syntax requirements (see RFC 2141)".
		{"urn:xmpp:foo,bar", true, "", "", `RFC 2141 2.2: <other> includes ","`},
		{"urn:xmpp:a(b)+c=d@e;f$g!h*i'j", true, "", "", `RFC 2141 2.2: <other> ::= "(" | ")" | "+" | "," | "-" | "." | ":" | "=" | "@" | ";" | "$" | "_" | "!" | "*" | "'"`},
		{"urn:xmpp:jingle:apps:rtp:1", true, "", "", `RFC 4854 2: "sub-trees below the level of the ShortName or SubName"`},
		{"urn:xmpp:a%2Fb", true, "", "", `RFC 2141 2.3.2: "/" is reserved and encoded`},
		{"urn:xmpp:a~b", false, "", "", `RFC 2141 2.4: "~" is <excluded>`},
		{"urn:xmpp:a&b", false, "", "", `RFC 2141 2.4: "&" is <excluded>`},
		{"urn:xmpp:a%41", false, "", "", `RFC 2141 2.3.1: "a character MUST NOT be "%"-encoded if the character is not a reserved character"`},
		{"urn:xmpp:a%C3%A9", false, "", "", `RFC 4854 2: "a required US-ASCII string"`},
		{"urn:xmpp:a::b", false, "", "", `RFC 4854 2: "{ShortName}:{SubName}", none empty`},

		// RFC 5134 section 2: EPC-URN = "urn:epc:" sub-ns-name ":" sub-ns.
		{"urn:epc:id:sgtin:900100.0003456.1234567", true, "", "", `RFC 5134 2 example`},
		{"urn:epc:idpat:sgtin:6630964.195731.*", true, "", "", `EPC Tag Data Standard pattern`},
		{"urn:epc:future-ns:x", true, "", "", `RFC 5134 2: "a set of sub-namespaces that can be extended in the future"`},
		{"urn:epc:ID:sgtin:1.2.3", true, "", "urn:epc:id:sgtin:1.2.3", `RFC 5134 2: "The entire URN is case-sensitive."`},
		{"urn:epc:raw:96.x3A", true, "", "", `EPC Tag Data Standard: raw:<bits>.<value>`},
		{"urn:epc:-a:x", false, "", "", `RFC 5134 2: sub-ns-name = let-num [ 1*let-num-hyp ]`},
		{"urn:epc:a_b:x", false, "", "", `RFC 5134 2: let-num-hyp = upper / lower / number / "-"`},
		{"urn:epc:foo", false, "", "", `RFC 5134 2: sub-ns-name ":" sub-ns`},
		{"urn:epc:foo:", false, "", "", `RFC 5134 2: sub-ns = 1*<URN chars>`},
		{"urn:epc:foo:a~b", false, "", "", `RFC 2141 2.4: "~" is <excluded>`},
		{"urn:epc:id:sgtin", false, "", "", `known sub-namespace: scheme ":" body`},
		{"urn:epc:tag:sgtin_96:1", false, "", "", `known sub-namespace: the scheme is a sub-ns-name`},
		{"urn:epc:raw:x.1", false, "", "", `known sub-namespace raw: a length in bits`},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if err := u.ValidateNamespace(); (err == nil) != tt.ok {
			t.Errorf("ValidateNamespace(%q) = %v, want ok=%v (%s)", tt.in, err, tt.ok, tt.quote)
		} else if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("ValidateNamespace(%q): message on several lines: %q", tt.in, err)
		}
		if tt.same != "" {
			if v := MustParse(tt.same); !EqualWith(u, v, NamespaceRules) {
				t.Errorf("EqualWith(%q, %q, NamespaceRules) = false (keys %q, %q): %s", tt.in, tt.same, u.KeyWith(NamespaceRules), v.KeyWith(NamespaceRules), tt.quote)
			}
		}
		if tt.other != "" {
			if v := MustParse(tt.other); EqualWith(u, v, NamespaceRules) {
				t.Errorf("EqualWith(%q, %q, NamespaceRules) = true (key %q): %s", tt.in, tt.other, u.KeyWith(NamespaceRules), tt.quote)
			}
		}
	}
	// The key of an ISSN is the hyphenated, upper-case form RFC 3044
	// section 5 displays.
	if got := MustParse("urn:issn:0259000x").KeyWith(NamespaceRules); got != "urn:issn:0259-000X" {
		t.Errorf("key of urn:issn:0259000x = %q, want urn:issn:0259-000X", got)
	}
}
