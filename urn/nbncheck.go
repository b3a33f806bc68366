package urn

import (
	"strconv"
	"strings"

	"github.com/urikit/urikit/internal/chars"
)

// The check digit of urn:nbn:de. RFC 8458 section 7 leaves the syntax of
// an NBN string to the library that assigns it ("including, e.g., fixed
// length and checksum"); the Deutsche Nationalbibliothek, which assigns
// the "de" prefix, ends every URN of it with a check digit computed over
// the whole URN, "urn:nbn:de:" included, and validates it before it
// registers a URN. The algorithm, as the DNB publishes it ("Description
// of algorithm for calculation of URN check digit",
// http://www.persistent-identifier.de/english/316-check-digit-algorithm.php;
// in German "Beschreibung des Algorithmus zur Berechnung der
// URN-Prüfziffer", .../aktivitaeten/NBNPruefzifferAlgorithmus.php):
//
//  1. every character becomes the number of its concordance table
//     (dnbValue), case-insensitively, and the numbers are written one
//     after the other as a sequence of decimal digits;
//  2. each digit is multiplied by its position in the sequence, counting
//     from 1, and the products are summed;
//  3. the sum is divided by the last digit of the sequence; the last
//     digit of the integer quotient is the check digit.
//
// The DNB's worked example: urn:nbn:de:gbv:089-332175294 gives the
// sequence 1112131713141317151617221434171941394432863415, the sum 4027,
// the quotient 4027/5 = 805, and so the check digit 5. No value of the
// table ends in 0, so the divisor is never zero.

// dnbValue is the DNB's concordance table, by lowercase character; 0 for
// the characters it has no value for, which a URN of urn:nbn:de cannot
// hold.
var dnbValue = func() (t [256]uint8) {
	for i, v := range [10]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 41} {
		t['0'+i] = v
	}
	letters := [26]uint8{18, 14, 19, 15, 16, 21, 22, 23, 24, 25, 42, 26, 27, 13, 28, 29, 31, 12, 32, 33, 11, 34, 35, 36, 37, 38}
	for i, v := range letters {
		t['a'+i], t['A'+i] = v, v
	}
	t['+'], t[':'], t['_'], t['-'], t['.'], t['/'] = 49, 17, 43, 39, 47, 45
	return t
}()

// isDNB reports whether an NBN prefix is in the DNB's country code "de".
func isDNB(prefix string) bool {
	return len(prefix) >= 2 && chars.Lower(prefix[0]) == 'd' && chars.Lower(prefix[1]) == 'e'
}

// dnbCheckDigit computes the check digit of s, a URN of urn:nbn:de less
// its check digit: the index of the first character the table has no
// value for, or -1.
func dnbCheckDigit(s string) (digit byte, bad int) {
	sum, pos, last := 0, 0, 0
	add := func(d int) {
		pos++
		sum += pos * d
		last = d
	}
	for i := 0; i < len(s); i++ {
		v := int(dnbValue[s[i]])
		if v == 0 {
			return 0, i
		}
		if v >= 10 {
			add(v / 10)
		}
		add(v % 10)
	}
	if last == 0 {
		return 0, 0 // empty: no sequence to divide
	}
	return byte('0' + sum/last%10), -1
}

// dnbHead is what precedes the NSS in the string the check digit is
// computed over; the table is case-insensitive.
const dnbHead = "urn:nbn:"

// checkNBN checks what an NBN's library defines beyond RFC 8458's
// syntax, which nss has passed: the check digit of urn:nbn:de.
func checkNBN(nss string) error {
	if end := nbnPrefixEnd(nss); end >= 0 && isDNB(nss[:end]) {
		return checkDNB(nss)
	}
	return nil
}

// checkDNB checks the check digit that ends the NSS of a URN of
// urn:nbn:de.
func checkDNB(nss string) error {
	last := nss[len(nss)-1]
	if !chars.Is(last, chars.Digit) {
		return nsError("a URN of urn:nbn:de ends with its check digit, not " + quote(string(last)) +
			" (the DNB's URN check digit)")
	}
	want, bad := dnbCheckDigit(dnbHead + nss[:len(nss)-1])
	if bad >= 0 {
		return nsError("character " + quote(string(nss[bad-len(dnbHead)])) + " at offset " + strconv.Itoa(bad-len(dnbHead)) +
			" of the NSS has no value in the table of the DNB's URN check digit, so no URN of urn:nbn:de holds it")
	}
	if want != last {
		return nsError("check digit is " + string(last) + ", want " + string(want) +
			" (the DNB's URN check digit, computed over the whole URN)")
	}
	return nil
}

// CheckDigit returns the check digit that completes s, a URN whose
// namespace ends the NSS with a check digit computed over the whole URN,
// written without it: today urn:nbn:de, whose check digit the Deutsche
// Nationalbibliothek defines (RFC 8458 section 7 leaves an NBN's
// checksum to the library that assigns it). ok is false when the
// namespace of s defines no such check digit; err is a *NamespaceError
// when s holds a character the algorithm has no value for. A resolver
// that assigns URNs appends the digit (CheckDigit("urn:nbn:de:gbv:089-332175294")
// is '5'); ValidateNamespace refuses a URN whose digit is wrong.
func CheckDigit(s string) (digit byte, ok bool, err error) {
	if len(s) < 4 || !strings.EqualFold(s[:4], "urn:") {
		return 0, false, nil
	}
	nid, nss, found := strings.Cut(s[4:], ":")
	if !found || !strings.EqualFold(nid, "nbn") {
		return 0, false, nil
	}
	end := nbnPrefixEnd(nss)
	if end < 0 || !isDNB(nss[:end]) || (end > 2 && nss[2] != ':') {
		return 0, false, nil
	}
	d, bad := dnbCheckDigit(dnbHead + nss)
	if bad >= 0 {
		return 0, true, &NamespaceError{NID: nid, NSS: nss, Reference: nbnRules.source,
			Reason: "character " + quote(string(nss[bad-len(dnbHead)])) + " has no value in the table of the DNB's URN check digit"}
	}
	return d, true, nil
}
