// Command uts39gen writes ../../uts39_table.go: the data of Unicode
// Technical Standard #39 (Unicode Security Mechanisms) that the display
// rules of package iri need, reduced to four sets of code points:
//
//   - allowedIdent: Identifier_Status=Allowed (UTS #39 section 3.1,
//     IdentifierStatus.txt), the characters a host label shown in
//     Unicode may hold;
//   - asciiLookalikes: allowed characters whose confusable prototype
//     (confusables.txt, section 4) is ASCII ("ı" is "i", "゠" is "="),
//     so that a label of them reads as an ASCII label;
//   - punctLookalikes: allowed characters whose prototype holds an ASCII
//     character other than a letter or digit ("ノ" is "/", Hebrew yod
//     is "'"): in a host label they must sit among their own script;
//   - latinLookalikes: allowed characters of a script other than Latin
//     (and not Common or Inherited) whose prototype is made of the
//     skeletons of allowed Latin, Common and Inherited characters
//     (Greek "β" is "ß"; Cyrillic "и", whose prototype "ᴎ" no allowed
//     Latin letter has, is not), from which, with asciiLookalikes (Cyrillic
//     "а", "р", "ӏ"), a whole-script confusable with Latin is made;
//   - delimLookalikes: characters whose prototype holds a space, a
//     delimiter or "." ("∕" is "/", "꞉" is ":", "ノ" is "/"): the
//     look-alikes of "space", "delims" and "unwise" of RFC 3987 6.1 b,
//     and of the characters that end or split a host.
//     Characters that NFKC changes, and controls and private use, are
//     left out: the display rules keep them encoded anyway.
//
// The prototypes are taken after NFD, as the skeleton of section 4 is;
// the scripts are those of the Go in use (package unicode). The input is
// Unicode's security data directory (IdentifierStatus.txt and
// confusables.txt). Run from the iri directory:
//
//	go run ./internal/uts39gen -dir /path/to/security/17.0.0 -version 17.0.0
//
// The Unicode data files are under the Unicode License v3 (permissive;
// https://www.unicode.org/license.txt). The table in the repository was
// made from version 17.0.0 (confusables.txt of 2025-07-22,
// IdentifierStatus.txt of 2025-08-01, as their headers say), read from
// the copies in github.com/texttics/texttics-site at commit
// 8d7f032dacd21fc8b3fc255c485ab2b4bc1ac105.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

var row = regexp.MustCompile(`^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*([0-9A-F ]+?|[A-Za-z_]+)\s*(?:;|#|$)`)

func main() {
	dir := flag.String("dir", "", "directory with IdentifierStatus.txt and confusables.txt")
	version := flag.String("version", "", "the Unicode version of the input")
	out := flag.String("out", "uts39_table.go", "output file")
	flag.Parse()
	if *dir == "" || *version == "" {
		log.Fatal("-dir and -version are required")
	}

	allowed := map[rune]bool{}
	read(filepath.Join(*dir, "IdentifierStatus.txt"), func(lo, hi rune, v string) {
		if v != "Allowed" {
			log.Fatalf("IdentifierStatus.txt: status %q", v)
		}
		for r := lo; r <= hi; r++ {
			allowed[r] = true
		}
	})
	proto := map[rune]string{}
	read(filepath.Join(*dir, "confusables.txt"), func(lo, hi rune, v string) {
		var b strings.Builder
		for _, h := range strings.Fields(v) {
			c, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				log.Fatalf("confusables.txt: %q", v)
			}
			b.WriteRune(rune(c))
		}
		proto[lo] = norm.NFD.String(b.String())
	})
	if len(allowed) == 0 || len(proto) == 0 {
		log.Fatal("no rows read")
	}

	// The skeletons (section 4) of the allowed characters of Latin,
	// Common and Inherited that are one code point: the pieces a Latin
	// identifier's skeleton is made of.
	skeleton := func(s string) string {
		var b strings.Builder
		for _, c := range norm.NFD.String(s) {
			if p, ok := proto[c]; ok {
				b.WriteString(p)
			} else {
				b.WriteRune(c)
			}
		}
		return norm.NFD.String(b.String())
	}
	latinPiece := map[rune]bool{}
	for r := range allowed {
		if latinLike(r) {
			if k := []rune(skeleton(string(r))); len(k) == 1 {
				latinPiece[k[0]] = true
			}
		}
	}

	var ascii, punct, latin, delim []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		p, ok := proto[r]
		if !ok {
			continue
		}
		if allowed[r] && all(p, isASCII) {
			ascii = append(ascii, r)
		}
		if allowed[r] && strings.IndexFunc(p, func(c rune) bool { return isASCII(c) && !isAlnum(c) }) >= 0 {
			punct = append(punct, r)
		}
		if allowed[r] && !unicode.In(r, unicode.Latin, unicode.Common, unicode.Inherited) && all(p, func(c rune) bool { return latinPiece[c] }) && !all(p, isASCII) {
			latin = append(latin, r)
		}
		if strings.ContainsAny(p, delims) &&
			unicode.IsGraphic(r) && !unicode.Is(unicode.Co, r) && norm.NFKC.IsNormalString(string(r)) {
			delim = append(delim, r)
		}
	}
	var all []rune
	for r := range allowed {
		all = append(all, r)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by internal/uts39gen from the UTS #39 data of Unicode %s; DO NOT EDIT.\n\n", *version)
	b.WriteString("package iri\n\nimport \"unicode\"\n\n")
	fmt.Fprintf(&b, "// uts39Version is the version of the UTS #39 data the tables below come from.\nconst uts39Version = %q\n\n", *version)
	write(&b, "allowedIdent", "the characters of Identifier_Status=Allowed (UTS #39 3.1)", all)
	write(&b, "asciiLookalikes", "the allowed characters whose prototype is ASCII", ascii)
	write(&b, "punctLookalikes", "the allowed characters whose prototype holds ASCII other than a letter or digit", punct)
	write(&b, "latinLookalikes", "the allowed non-Latin characters whose prototype is the skeleton of allowed Latin, Common or Inherited characters", latin)
	write(&b, "delimLookalikes", "the characters whose prototype holds a space, a delimiter or \".\"", delim)
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("allowed %d, ascii %d, punct %d, latin %d, delim %d code points", len(all), len(ascii), len(punct), len(latin), len(delim))
}

// delims are the ASCII characters whose look-alikes RFC 3987 6.1 b
// names ("space", "delims" and "unwise" of RFC 2396 2.4.3) with the
// gen-delims of RFC 3986 2.2 and ".", which end or split a host.
const delims = " \"#%./:<>?@[\\]^`{|}"

func isASCII(c rune) bool { return c < 0x80 }

func isAlnum(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func latinLike(c rune) bool { return unicode.In(c, unicode.Latin, unicode.Common, unicode.Inherited) }

func all(s string, f func(rune) bool) bool {
	for _, c := range s {
		if !f(c) {
			return false
		}
	}
	return s != ""
}

// read calls f for each data row of a UCD-style file: a code point or
// range, then its value.
func read(path string, f func(lo, hi rune, v string)) {
	file, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		lo, _ := strconv.ParseUint(m[1], 16, 32)
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.ParseUint(m[2], 16, 32)
		}
		f(rune(lo), rune(hi), strings.TrimSpace(m[3]))
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

// write writes the set rs as a unicode.RangeTable named name, each range
// with the stride that covers the most code points from its start.
func write(b *strings.Builder, name, doc string, rs []rune) {
	set := map[rune]bool{}
	for _, r := range rs {
		set[r] = true
	}
	rs = rs[:0]
	for r := range set {
		rs = append(rs, r)
	}
	slices.Sort(rs)
	type rng struct{ lo, hi, stride rune }
	var ranges []rng
	for i := 0; i < len(rs); {
		lo := rs[i]
		if i+1 == len(rs) {
			ranges = append(ranges, rng{lo, lo, 1})
			break
		}
		stride := rs[i+1] - lo
		if (rs[i+1] <= 0xFFFF) != (lo <= 0xFFFF) {
			ranges = append(ranges, rng{lo, lo, 1})
			i++
			continue
		}
		j := i + 1
		for j+1 < len(rs) && rs[j+1]-rs[j] == stride && (rs[j+1] <= 0xFFFF) == (lo <= 0xFFFF) {
			j++
		}
		if j == i+1 && stride != 1 {
			// Two points only: a singleton, so the next may start a run.
			ranges = append(ranges, rng{lo, lo, 1})
			i++
			continue
		}
		ranges = append(ranges, rng{lo, rs[j], stride})
		i = j + 1
	}
	fmt.Fprintf(b, "// %s: %s; %d code points.\nvar %s = &unicode.RangeTable{\n", name, doc, len(rs), name)
	var r16, r32 []string
	latinOffset := 0
	for _, r := range ranges {
		if r.hi <= 0xFFFF {
			r16 = append(r16, fmt.Sprintf("{0x%04X, 0x%04X, %d},", r.lo, r.hi, r.stride))
			if r.hi <= unicode.MaxLatin1 {
				latinOffset++
			}
			continue
		}
		r32 = append(r32, fmt.Sprintf("{0x%X, 0x%X, %d},", r.lo, r.hi, r.stride))
	}
	if len(r16) > 0 {
		fmt.Fprintf(b, "R16: []unicode.Range16{\n%s\n},\n", strings.Join(r16, "\n"))
	}
	if len(r32) > 0 {
		fmt.Fprintf(b, "R32: []unicode.Range32{\n%s\n},\n", strings.Join(r32, "\n"))
	}
	if latinOffset > 0 {
		fmt.Fprintf(b, "LatinOffset: %d,\n", latinOffset)
	}
	b.WriteString("}\n\n")
}
