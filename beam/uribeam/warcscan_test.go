package uribeam

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	gowarc "github.com/nlnwa/gowarc/v3"
	"github.com/urikit/urikit/internal/testshared"
)

// testWARCRecord returns a WARC 1.1 record (section 4) with the block,
// whose Content-Length field says length (-1: the block's length).
func testWARCRecord(i int, block string, length int) []byte {
	if length < 0 {
		length = len(block)
	}
	return []byte("WARC/1.1\r\n" +
		"WARC-Type: resource\r\n" +
		fmt.Sprintf("WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", i) +
		"WARC-Date: 2026-11-25T12:00:00Z\r\n" +
		fmt.Sprintf("WARC-Target-URI: http://example.com/%d\r\n", i) +
		"Content-Type: text/plain\r\n" +
		"Content-Length: " + strconv.Itoa(length) + "\r\n\r\n" +
		block + "\r\n\r\n")
}

// gz returns b as one gzip member.
func gz(b []byte) []byte {
	var out bytes.Buffer
	z := gzip.NewWriter(&out)
	z.Write(b)
	z.Close()
	return out.Bytes()
}

// A scanned is what the scanner made of a stretch: a record's offset and
// block, or a damaged stretch's offset and reason.
type scanned struct {
	offset int64
	block  string // the block, or "!" and the start of the reason
}

func scanAll(t *testing.T, file []byte, max int64) []scanned {
	t.Helper()
	s := newWARCScanner(bytes.NewReader(file), max)
	var got []scanned
	for range 1000 {
		r, err := s.next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.damage != "":
			got = append(got, scanned{r.offset, "!" + r.damage})
		case r.block == nil:
			got = append(got, scanned{r.offset, "head:" + string(r.head)})
		default:
			got = append(got, scanned{r.offset, string(r.block)})
		}
	}
	t.Fatal("the scanner does not end")
	return nil
}

// build concatenates the parts (gzip members each when gzipped) and
// returns the file and each part's offset.
func build(parts [][]byte, gzipped bool) ([]byte, []int64) {
	var file []byte
	var offsets []int64
	for _, p := range parts {
		offsets = append(offsets, int64(len(file)))
		if gzipped {
			p = gz(p)
		}
		file = append(file, p...)
	}
	return file, offsets
}

func TestWARCScannerFraming(t *testing.T) {
	pages := []string{"one http://a.example/", "two\r\n\r\nWARC/1.0 inside a block", "three"}
	var good [][]byte
	for i, p := range pages {
		good = append(good, testWARCRecord(i, p, -1))
	}
	lie := func(i, length int) [][]byte {
		parts := append([][]byte(nil), good...)
		parts[i] = testWARCRecord(i, pages[i], length)
		return parts
	}
	type want struct {
		part  int    // the part whose offset it is
		block string // the block, or "!" and a part of the reason
	}
	tests := []struct {
		name  string
		parts [][]byte
		want  []want
	}{
		{"three good records", good, []want{{0, pages[0]}, {1, pages[1]}, {2, pages[2]}}},
		// Section 4: the block is followed by CRLF CRLF. Too long a
		// Content-Length swallows the next record's start: detected,
		// and the next record is read all the same.
		{"Content-Length too long", lie(1, len(pages[1])+20), []want{{0, pages[0]}, {1, "!Content-Length " + strconv.Itoa(len(pages[1])+20) + " does not end the record"}, {2, pages[2]}}},
		{"Content-Length too short", lie(1, len(pages[1])-3), []want{{0, pages[0]}, {1, "!Content-Length " + strconv.Itoa(len(pages[1])-3) + " does not end the record"}, {2, pages[2]}}},
		{"Content-Length past the end", lie(2, 100), []want{{0, pages[0]}, {1, pages[1]}, {2, "!truncated: Content-Length 100"}}},
		{"no Content-Length", [][]byte{good[0], bytes.Replace(good[1], []byte("Content-Length"), []byte("Content-Lenght"), 1), good[2]},
			[]want{{0, pages[0]}, {1, "!a WARC record header without Content-Length"}, {2, pages[2]}}},
		{"two Content-Length fields", [][]byte{good[0], bytes.Replace(good[1], []byte("Content-Type"), []byte("Content-Length: 3\r\nContent-Type"), 1), good[2]},
			[]want{{0, pages[0]}, {1, "!a WARC record header with two Content-Length"}, {2, pages[2]}}},
		{"garbage before the first record", [][]byte{[]byte("junk\r\n"), good[0], good[1]}, []want{{0, "!no WARC record header"}, {1, pages[0]}, {2, pages[1]}}},
		{"truncated in the middle of a record", [][]byte{good[0], good[1][:40], good[2]}, []want{{0, pages[0]}, {1, "!a WARC record header cut short: another record's version line 40 bytes into it"}, {2, pages[2]}}},
		{"no end of record at the end", [][]byte{good[0], good[1][:len(good[1])-4]}, []want{{0, pages[0]}, {1, "!truncated: the file ends after the block"}}},
	}
	// In a gzipped file, one record a member, the member ends first.
	inMember := map[string]string{
		"Content-Length too long":             "!truncated: Content-Length " + strconv.Itoa(len(pages[1])+20) + ", but the gzip member ends",
		"truncated in the middle of a record": "!a WARC record header without the blank line that ends it",
	}
	for _, tc := range tests {
		for _, gzipped := range []bool{false, true} {
			name := tc.name
			if gzipped {
				name += ", gzipped"
			}
			file, offsets := build(tc.parts, gzipped)
			got := scanAll(t, file, 1<<20)
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				w := tc.want[i]
				if why, ok := inMember[tc.name]; gzipped && ok && i == 1 {
					w.block = why
				}
				ok = got[i].offset == offsets[w.part] && (got[i].block == w.block ||
					strings.HasPrefix(w.block, "!") && strings.HasPrefix(got[i].block, w.block))
			}
			if !ok {
				t.Errorf("%s: got %v\nwant %v at offsets %v", name, got, tc.want, offsets)
			}
		}
	}
}

// TestWARCScannerGzipDamage: a gzip member that is cut short, altered or
// has a wrong checksum is a damaged stretch at its offset; the next
// member is read.
func TestWARCScannerGzipDamage(t *testing.T) {
	var members [][]byte
	for i := range 3 {
		members = append(members, gz(testWARCRecord(i, strings.Repeat("page "+strconv.Itoa(i)+" ", 50), -1)))
	}
	cut := append([][]byte(nil), members...)
	cut[1] = cut[1][:len(cut[1])/2]
	flipped := append([][]byte(nil), members...)
	flipped[1] = bytes.Clone(flipped[1])
	for i := 20; i < 30; i++ {
		flipped[1][i] ^= 0x55
	}
	crc := append([][]byte(nil), members...)
	crc[1] = bytes.Clone(crc[1])
	crc[1][len(crc[1])-6] ^= 1
	notGzip := append([][]byte(nil), members...)
	notGzip[1] = []byte("this is not a member")
	for _, tc := range []struct {
		name  string
		parts [][]byte
		why   string
	}{
		{"member cut short", cut, "gzip member: "},
		{"member altered", flipped, "gzip member: "},
		{"checksum", crc, "gzip member: gzip: invalid checksum"},
		{"not a member", notGzip, "not a gzip member: gzip: invalid header"},
	} {
		var file []byte
		var offsets []int64
		for _, m := range tc.parts {
			offsets = append(offsets, int64(len(file)))
			file = append(file, m...)
		}
		got := scanAll(t, file, 1<<20)
		if len(got) != 3 || got[0].offset != 0 || got[2].offset != offsets[2] || got[1].offset != offsets[1] ||
			!strings.HasPrefix(got[1].block, "!"+tc.why) || strings.HasPrefix(got[2].block, "!") {
			t.Errorf("%s: got %v, want a record, a damaged stretch at %d (%s), a record at %d", tc.name, got, offsets[1], tc.why, offsets[2])
		}
	}
}

// TestWARCScannerOneMember: a gzipped file of one member holding every
// record (allowed: Annex D only recommends one record a member) is read
// record by record, and a damaged record in it is skipped to the next.
func TestWARCScannerOneMember(t *testing.T) {
	var plain []byte
	for i := range 3 {
		length := -1
		if i == 1 {
			length = 3 // short
		}
		plain = append(plain, testWARCRecord(i, "page "+strconv.Itoa(i), length)...)
	}
	got := scanAll(t, gz(plain), 1<<20)
	if len(got) != 3 || got[0].block != "page 0" || !strings.HasPrefix(got[1].block, "!Content-Length 3 does not end") ||
		!strings.Contains(got[1].block, "inside the same gzip member") || got[2].block != "page 2" || got[2].offset != 0 {
		t.Errorf("got %v", got)
	}
}

// TestWARCScannerCap: a block over the cap is not held: its first bytes
// are kept, and its end is still checked.
func TestWARCScannerCap(t *testing.T) {
	big := strings.Repeat("x", 5000)
	for _, gzipped := range []bool{false, true} {
		file, offsets := build([][]byte{testWARCRecord(0, "small", -1), testWARCRecord(1, big, -1), testWARCRecord(2, "after", -1)}, gzipped)
		got := scanAll(t, file, 1000)
		want := []scanned{{0, "small"}, {offsets[1], "head:" + big}, {offsets[2], "after"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("gzipped %v: got %v, want %v", gzipped, got, want)
		}
		file, offsets = build([][]byte{testWARCRecord(0, "small", -1), testWARCRecord(1, big, len(big)+1), testWARCRecord(2, "after", -1)}, gzipped)
		got = scanAll(t, file, 1000)
		if len(got) < 2 || !strings.Contains(got[1].block, "not searched") || got[1].offset != offsets[1] {
			t.Errorf("gzipped %v, a lying Content-Length over the cap: got %v", gzipped, got)
		}
	}
}

// TestWARCScannerAgreesWithGowarc: on undamaged files, the scanner finds
// the records gowarc finds, at the same offsets, with the same blocks.
func TestWARCScannerAgreesWithGowarc(t *testing.T) {
	var parts [][]byte
	for i := range 20 {
		parts = append(parts, testWARCRecord(i, strings.Repeat("block "+strconv.Itoa(i)+"\r\n", i), -1))
	}
	for _, gzipped := range []bool{false, true} {
		file, _ := build(parts, gzipped)
		r, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(file), 0)
		if err != nil {
			t.Fatal(err)
		}
		var want []scanned
		for rec, err := range r.Records() {
			if err != nil {
				t.Fatal(err)
			}
			b, _ := rec.WarcRecord.Block().RawBytes()
			block, _ := io.ReadAll(b)
			want = append(want, scanned{rec.Offset, string(block)})
			rec.Close()
		}
		r.Close()
		if got := scanAll(t, file, 1<<20); fmt.Sprint(got) != fmt.Sprint(want) || len(want) != 20 {
			t.Errorf("gzipped %v: got %v\nwant %v", gzipped, got, want)
		}
	}
}

// TestWARCScannerLinear: resynchronising costs time linear in the file,
// whatever the damage: every record claims a Content-Length far past
// its end (each search then starts again at the next record's header),
// or the file holds no record header at all.
func TestWARCScannerLinear(t *testing.T) {
	lying := func(n int) []byte {
		var b []byte
		for i := 0; len(b) < n; i++ {
			b = append(b, testWARCRecord(i, "x", 1<<19)...)
		}
		return b
	}
	junk := func(n int) []byte { return bytes.Repeat([]byte("WARC/1.2\r\n"), n/10) }
	for name, gen := range map[string]func(int) []byte{"lying lengths": lying, "no header": junk} {
		testshared.CheckLinearN(t, name, 64<<10, gen, func(b []byte) {
			s := newWARCScanner(bytes.NewReader(b), 1<<20)
			for {
				if _, err := s.next(); err != nil {
					return
				}
			}
		})
	}
}

func (s scanned) String() string {
	if len(s.block) > 120 {
		s.block = s.block[:120] + "..."
	}
	return fmt.Sprintf("%d:%q", s.offset, s.block)
}
