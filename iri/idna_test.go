package iri

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urikit/urikit/uri"
	"golang.org/x/net/idna"
)

// idnaRow is one test case of Unicode's IdnaTestV2.txt: the source,
// the toUnicode column and its status, the toAsciiN column and its
// status (an empty column already replaced by the one it defaults to).
type idnaRow struct {
	src, uni, uniStatus, ascii, asciiStatus string
}

// idnaRows reads testdata/unicode/IdnaTestV2-13.0.0.txt (version
// 13.0.0, from the copy in kjd/idna's tests; Unicode License), leaving
// out the cases with a lone surrogate, which no Go string holds.
func idnaRows(t *testing.T) []idnaRow {
	f, err := os.Open(filepath.Join("..", "testdata", "unicode", "IdnaTestV2-13.0.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	esc := regexp.MustCompile(`\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}`)
	unescape := func(s string) (string, bool) {
		ok := true
		s = esc.ReplaceAllStringFunc(s, func(m string) string {
			h := strings.Trim(m[2:], "{}")
			n, _ := strconv.ParseUint(h, 16, 32)
			if 0xD800 <= n && n <= 0xDFFF {
				ok = false
			}
			return string(rune(n))
		})
		return s, ok
	}
	var rows []idnaRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, ";")
		for i := range cols {
			cols[i] = strings.TrimSpace(cols[i])
		}
		src, ok1 := unescape(cols[0])
		uni, ok2 := unescape(cols[1])
		if !ok1 || !ok2 {
			continue
		}
		if uni == "" {
			uni = src
		}
		ascii, _ := unescape(cols[3])
		if ascii == "" {
			ascii = uni
		}
		status := cols[4]
		if status == "" {
			status = cols[2]
		}
		rows = append(rows, idnaRow{src, uni, cols[2], ascii, status})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// failed reports whether a status column names an error.
func failed(status string) bool { return status != "" && status != "[]" }

// TestIdnaTestV2 runs the toAsciiN column of Unicode's UTS #46
// conformance file against the profile ToURI uses for hosts, x/net/idna's
// Lookup (nontransitional). The file's status codes that Lookup does
// not check by design are the known differences, counted by code; any
// other difference fails.
func TestIdnaTestV2(t *testing.T) {
	// Lookup checks neither DNS lengths (A4_1, A4_2: VerifyDnsLength
	// is false for lookup) nor the hyphen rules of V2/V3 in every
	// position the file does, and it maps or rejects some inputs at
	// an earlier step than the file records.
	known := map[string]string{
		"A4_1": "DNS length of the name (VerifyDnsLength=false in a lookup)",
		"A4_2": "DNS length of a label (VerifyDnsLength=false in a lookup)",
		"V2":   "hyphens in positions 3 and 4 (CheckHyphens)",
		"V3":   "a leading or trailing hyphen (CheckHyphens)",
		"X4_2": "an empty label (the root label of a trailing dot is allowed in lookups)",
		"P4":   "a label that is not valid Punycode, or decodes to ASCII",
		"V7":   "a label that is not valid Punycode, or decodes to ASCII (Unicode 15.1+ name of P4)",
		"U1":   "STD3 ASCII rules (UseSTD3ASCIIRules differs between the file and the profile)",
		"V6":   "a disallowed code point (the Unicode version of x/net/idna, 17.0.0, is not the file's 13.0.0)",
		"P1":   "a disallowed code point (the Unicode version of x/net/idna, 17.0.0, is not the file's 13.0.0)",
		"V1":   "a label not in NFC (the Unicode version differs)",
		"V5":   "a label beginning with a combining mark (checked after mapping, by Unicode version)",
		"B1":   "a Bidi rule of RFC 5893 (BidiRule)", "B2": "a Bidi rule of RFC 5893", "B3": "a Bidi rule of RFC 5893",
		"B4": "a Bidi rule of RFC 5893", "B5": "a Bidi rule of RFC 5893", "B6": "a Bidi rule of RFC 5893",
		"C1": "CONTEXTJ (ZWNJ/ZWJ) rules", "C2": "CONTEXTJ (ZWNJ/ZWJ) rules",
	}
	same, diffs, cases := 0, map[string]int{}, 0
	for _, row := range idnaRows(t) {
		src, ascii, status := row.src, row.ascii, row.asciiStatus
		cases++
		got, err := toASCII(src)
		wantErr := status != "" && status != "[]"
		if !wantErr && err == nil && got == ascii || wantErr && err != nil {
			same++
			continue
		}
		// A difference: it must be explained by a status code the
		// profile does not check, or by the Unicode version.
		codes := strings.Fields(strings.Trim(status, "[]"))
		explained := ""
		for _, c := range codes {
			if why, ok := known[c]; ok {
				explained = c + ": " + why
				break
			}
		}
		if explained == "" && !wantErr {
			explained = "a mapping that changed between Unicode 13.0.0 and 17.0.0"
		}
		if explained == "" {
			t.Errorf("%q: Lookup.ToASCII = %q, %v; file says %q %s", src, got, err, ascii, status)
			continue
		}
		diffs[explained]++
	}
	t.Logf("%d of %d cases as the file; differences:", same, cases)
	for why, n := range diffs {
		t.Logf("  %4d  %s", n, why)
	}
	if same < cases*3/4 {
		t.Errorf("only %d of %d cases agree", same, cases)
	}
}

// TestIdnaTestV2Display runs the toUnicode column of the same file
// through ToIRI: for every case whose toAsciiN succeeds, the URI
// "http://" + toAsciiN + "/" is displayed, label by label, with the
// file's toUnicode label, or keeps the A-label for a reason listed
// here, counted; any other result fails. The display always maps back
// to the same URI.
func TestIdnaTestV2Display(t *testing.T) {
	shown, ascii, cases := 0, 0, 0
	kept := map[string]int{}
	for _, row := range idnaRows(t) {
		if failed(row.asciiStatus) || !isASCII(row.ascii) {
			continue
		}
		in := "http://" + row.ascii + "/"
		if _, err := uri.Parse(in); err != nil {
			continue // a host the URI grammar refuses
		}
		cases++
		got, err := ToIRI(in)
		if err != nil {
			t.Errorf("ToIRI(%q): %v", in, err)
			continue
		}
		if back, err := ToURI(got); err != nil || !displayEquivalent(in, back.String()) {
			t.Errorf("ToURI(ToIRI(%q)) = ToURI(%q) = %q, %v", in, got, back, err)
			continue
		}
		gl := strings.Split(strings.TrimSuffix(strings.TrimPrefix(got, "http://"), "/"), ".")
		al, ul := strings.Split(row.ascii, "."), strings.Split(row.uni, ".")
		if len(gl) != len(al) || len(ul) != len(al) {
			t.Errorf("ToIRI(%q) = %q: labels do not match the file's %q", in, got, row.uni)
			continue
		}
		for i := range al {
			switch {
			case !isACE(al[i]):
				if gl[i] != al[i] {
					t.Errorf("ToIRI(%q) = %q changes the ASCII label %q", in, got, al[i])
				}
				ascii++
			case gl[i] == ul[i] && !failed(row.uniStatus):
				shown++
			case gl[i] == al[i]:
				kept[keptReason(row, i)]++
			default:
				t.Errorf("ToIRI(%q) shows %q; the file's toUnicode is %q %s", in, gl[i], ul[i], row.uniStatus)
			}
		}
	}
	t.Logf("%d cases: %d A-labels shown as the file's toUnicode, %d ASCII labels; A-labels kept:", cases, shown, ascii)
	for why, n := range kept {
		t.Logf("  %4d  %s", n, why)
	}
	if n := kept["unexplained"]; n > 0 {
		t.Errorf("%d A-labels kept without a reason", n)
	}
	if shown < cases/3 {
		t.Errorf("only %d A-labels of %d cases shown in Unicode", shown, cases)
	}
}

// keptReason says why ToIRI keeps the A-label i of the file's case row.
func keptReason(row idnaRow, i int) string {
	al, ul := strings.Split(row.ascii, "."), strings.Split(row.uni, ".")
	if failed(row.uniStatus) {
		return "the file's toUnicode fails (a Bidi or CONTEXTJ rule over the whole name, or a label it refuses)"
	}
	if !safeLabel(ul[i]) {
		return "a label that must stay encoded: a hidden or look-alike character, a script not recommended, or a script mix (UTS #39)"
	}
	if u, err := idna.Lookup.ToUnicode(al[i]); err != nil || u != ul[i] {
		return "x/net/idna's ToUnicode differs from the file's (Unicode 17.0.0 against 13.0.0)"
	}
	if _, err := idna.Lookup.ToASCII(row.uni); err != nil {
		return "the Unicode host does not map back through ToASCII (a rule over the whole name)"
	}
	return "unexplained"
}
