package urn

import (
	"strings"
	"testing"
)

// publishedDNB are URNs of urn:nbn:de as the DNB's resolver
// (nbn-resolving.org) registered them, with where each was found; the
// DNB validates the check digit before it registers a URN, so each one
// ends with the digit its algorithm gives.
var publishedDNB = []struct{ urn, source string }{
	{"urn:nbn:de:gbv:089-3321752945", "the DNB's worked example, persistent-identifier.de/english/316-check-digit-algorithm.php"},
	{"urn:nbn:de:101-2012121200", "the DNB's URN policy, linked from kadowa/omp-dnb-urn-plugin README.md"},
	{"urn:nbn:de:0183-mbi0003721", "bohnelang/URN-Pruefziffer URN-Calculation.php (CC0), a Heidelberg journal article"},
	{"urn:nbn:de:0074-1000-9", "CEUR Workshop Proceedings, ceur-ws.org/Vol-1000"},
	{"urn:nbn:de:0074-1001-3", "CEUR Workshop Proceedings, ceur-ws.org/Vol-1001"},
	{"urn:nbn:de:0074-1002-6", "CEUR Workshop Proceedings, ceur-ws.org/Vol-1002"},
	{"urn:nbn:de:0074-1003-0", "CEUR Workshop Proceedings, ceur-ws.org/Vol-1003"},
	{"urn:nbn:de:bsz:14-qucosa-215714", "a TU Dresden dissertation (2015) linked as https://nbn-resolving.org/urn:nbn:de:bsz:14-qucosa-215714 from a public repository"},
	{"urn:nbn:de:bsz:14-qucosa2-1055309", "a TU Dresden PhD thesis linked from a public repository's README"},
	{"urn:nbn:de:gbv:8-mods-2020-00246-7", "a Kiel dissertation linked from the README of SimpleWaves1D"},
	{"urn:nbn:de:hbz:386-kluedo-38558", "a TU Kaiserslautern dissertation cited in a public repository's source header"},
	{"urn:nbn:de:bsz:25-opus-52730", "a Freiburg publication linked from a public repository's test table"},
	{"urn:nbn:de:hbz:1044-opus-60219", "a Hochschule Bonn-Rhein-Sieg publication cited in a public repository's BibTeX"},
	{"urn:nbn:de:gbv:27-20060809-115700-4", "a Jena dissertation (2006) linked from a public repository"},
	{"urn:nbn:de:bsz:mh39-90261", "an IDS Mannheim paper linked from a public repository's README"},
}

// TestDNBCheckDigitPublished checks the algorithm on published URNs:
// each one passes ValidateNamespace, CheckDigit of it without its last
// character gives that character, and every other last digit is refused
// with the one the algorithm wants.
func TestDNBCheckDigitPublished(t *testing.T) {
	for _, p := range publishedDNB {
		u := MustParse(p.urn)
		if err := u.ValidateNamespace(); err != nil {
			t.Errorf("%s (%s): %v", p.urn, p.source, err)
		}
		head, last := p.urn[:len(p.urn)-1], p.urn[len(p.urn)-1]
		d, ok, err := CheckDigit(head)
		if err != nil || !ok || d != last {
			t.Errorf("CheckDigit(%q) = %q, %v, %v; want %q (%s)", head, d, ok, err, last, p.source)
		}
		// Case does not change the digit: the table is case-insensitive.
		if err := MustParse(strings.ToUpper(p.urn)).ValidateNamespace(); err != nil {
			t.Errorf("%s in upper case: %v", p.urn, err)
		}
		for c := byte('0'); c <= '9'; c++ {
			if c == last {
				continue
			}
			err := MustParse(head + string(c)).ValidateNamespace()
			if err == nil || !strings.Contains(err.Error(), "check digit is "+string(c)+", want "+string(last)) {
				t.Errorf("%s with check digit %c: %v, want the digit refused", p.urn, c, err)
			}
		}
	}
}

// TestDNBCheckDigitWorkedExample follows the DNB's worked example step
// by step: the digit sequence and the product sum it prints.
func TestDNBCheckDigitWorkedExample(t *testing.T) {
	const in = "urn:nbn:de:gbv:089-332175294"
	var seq strings.Builder
	for i := 0; i < len(in); i++ {
		v := dnbValue[in[i]]
		if v == 0 {
			t.Fatalf("%q has no value", in[i])
		}
		seq.WriteString(itoa(int(v)))
	}
	if got := seq.String(); got != "1112131713141317151617221434171941394432863415" {
		t.Errorf("sequence %s", got)
	}
	sum := 0
	for i, c := range seq.String() {
		sum += (i + 1) * int(c-'0')
	}
	if sum != 4027 {
		t.Errorf("product sum %d, want 4027", sum)
	}
	if d, bad := dnbCheckDigit(in); d != '5' || bad >= 0 {
		t.Errorf("check digit %q (bad %d), want '5'", d, bad)
	}
}

func TestDNBCheckDigitRefusals(t *testing.T) {
	tests := []struct{ in, want string }{
		{"urn:nbn:de:101:1-a", `ends with its check digit, not "a"`},
		{"urn:nbn:de:a-b~c1", `character "~" at offset 6`},
		{"urn:nbn:de:a-b%41c1", `character "%" at offset 6`},
		{"urn:nbn:de-1", "check digit is 1, want"},
		{"urn:nbn:DE:bvb:19-146640", "check digit is 0, want 2"},
	}
	for _, tt := range tests {
		err := MustParse(tt.in).ValidateNamespace()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ValidateNamespace(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// Other countries' NBNs have no check digit of the DNB's.
	for _, s := range []string{"urn:nbn:ch:bel-9039", "urn:nbn:se:uu:diva-3475", "urn:nbn:dk-x", "urn:nbn:fi-fe19981001"} {
		if err := MustParse(s).ValidateNamespace(); err != nil {
			t.Errorf("ValidateNamespace(%q) = %v", s, err)
		}
	}
}

func TestCheckDigit(t *testing.T) {
	tests := []struct {
		in    string
		digit byte
		ok    bool
		err   bool
	}{
		{"urn:nbn:de:gbv:089-332175294", '5', true, false},
		{"URN:NBN:DE:GBV:089-332175294", '5', true, false},
		{"urn:nbn:de:0001-0001", '6', true, false},
		{"urn:nbn:de:0123-456789abcdefghijklmnopqrstuvwxyz", '2', true, false},
		{"urn:nbn:de:bvb:12-bsb00103137-", '3', true, false},
		{"urn:nbn:de:a-b%20", 0, true, true},
		{"urn:nbn:ch:bel-903", 0, false, false},
		{"urn:nbn:dex-1", 0, false, false},
		{"urn:isbn:0-395-36341-", 0, false, false},
		{"nbn:de:a-1", 0, false, false},
		{"urn:nbn:de", 0, false, false},
	}
	for _, tt := range tests {
		d, ok, err := CheckDigit(tt.in)
		if d != tt.digit || ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("CheckDigit(%q) = %q, %v, %v; want %q, %v, error %v", tt.in, d, ok, err, tt.digit, tt.ok, tt.err)
		}
	}
}

// TestCheckDigitCompletes: CheckDigit's digit makes every prefix a URN
// that ValidateNamespace accepts, and no other digit does.
func TestCheckDigitCompletes(t *testing.T) {
	for n := 0; n < 2000; n++ {
		head := "urn:nbn:de:0001:aba-" + itoa(n%100) + "x" + itoa(n/100)
		d, ok, err := CheckDigit(head)
		if !ok || err != nil {
			t.Fatalf("CheckDigit(%q): %v %v", head, ok, err)
		}
		for c := byte('0'); c <= '9'; c++ {
			if err := MustParse(head + string(c)).ValidateNamespace(); (err == nil) != (c == d) {
				t.Fatalf("%s%c: %v (check digit %c)", head, c, err, d)
			}
		}
	}
}

// TestDNBCheckDigitKeepsEquivalence: a wrong check digit makes a URN
// invalid, not a different URN: its key under NamespaceRules still
// follows RFC 8458's equivalence (the prefix in lowercase), so a record
// stored before the check existed is still found by every form.
func TestDNBCheckDigitKeepsEquivalence(t *testing.T) {
	for _, s := range []string{"urn:nbn:DE:101:1-1", "urn:nbn:DE:gbv:089-3321752945"} {
		u := MustParse(s)
		if got, want := u.KeyWith(NamespaceRules), "urn:nbn:de:"+s[len("urn:nbn:DE:"):]; got != want {
			t.Errorf("KeyWith(%q) = %q, want %q", s, got, want)
		}
	}
}
