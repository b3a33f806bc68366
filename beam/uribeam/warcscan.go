package uribeam

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The WARC scanner frames the records of a WARC file (ISO 28500:2017,
// WARC 1.1 section 4) by their Content-Length, checks every record's
// end, and resynchronises after a damaged one. gowarc's reader cannot
// do this last part: it reads the file forward through a buffer it
// does not give back, so a record whose Content-Length is too long has
// consumed the next record before the damage shows (its end marker
// check only warns), and it looks for the next record by the five
// bytes "WARC/" anywhere or a gzip magic. The scanner holds a record's
// bytes until its end is checked, and searches them again when it is
// not; gowarc then parses each record it frames (see warc.go).

const (
	// maxHeader bounds a record header: without the blank line that ends
	// it within this many bytes, the record is damaged.
	maxHeader = 1 << 20
	// headSize: of a block over the cap, the first bytes the scanner
	// keeps, to tell the record's type by its HTTP header.
	headSize = 64 << 10
	// searchChunk is how much a resynchronising search holds at a time.
	searchChunk = 1 << 20
)

var (
	versionPrefix = []byte("WARC/1.")
	crlfcrlf      = []byte("\r\n\r\n")
	// A gzip member starts with ID1 ID2 and CM 8, deflate (RFC 1952
	// section 2.3.1).
	gzipMember = []byte{0x1f, 0x8b, 0x08}
)

// isVersion reports whether b starts with a record's version line,
// "WARC/1.1" CRLF (WARC 1.1 section 4) or "WARC/1.0" CRLF (ISO
// 28500:2009).
func isVersion(b []byte) bool {
	return len(b) >= 10 && bytes.HasPrefix(b, versionPrefix) && (b[7] == '0' || b[7] == '1') && b[8] == '\r' && b[9] == '\n'
}

// A rawRecord is a record of a WARC file as the scanner framed it, or a
// damaged stretch of the file.
type rawRecord struct {
	// offset is that of the record in the file; in a gzipped file, that
	// of the gzip member that holds it.
	offset int64
	header []byte // the version line through the blank line
	length int64  // the Content-Length
	block  []byte // the block, or nil when it is over the cap:
	head   []byte // then its first bytes
	// damage, when not empty, says why the stretch of the file from
	// offset to the next record read is no record.
	damage string
}

// A warcScanner reads the records of a WARC file, plain or gzipped (any
// number of records per gzip member, one as crawlers write them, WARC
// 1.1 Annex D.2). Its record and header slices are valid until the next
// call of next.
type warcScanner struct {
	file     *window // the file as stored
	rec      *window // the records: file itself, or the content of a gzip member
	gz       *gzip.Reader
	gzipped  bool
	inMember bool
	member   int64 // the offset of the gzip member read
	max      int64 // the largest block held
	dead     bool  // the file could not be read on
}

// newWARCScanner reads a WARC file from r; max bounds the block of a
// record that is held (larger ones are read through, their first bytes
// kept). The file is gzipped when it starts with a gzip member, whatever
// its name.
func newWARCScanner(r io.Reader, max int64) *warcScanner {
	s := &warcScanner{file: newWindow(r), max: max}
	s.gzipped = bytes.HasPrefix(s.file.peek(3), gzipMember)
	s.rec = s.file
	if s.gzipped {
		s.rec = newWindow(nil)
		// The compressed bytes of a member are held for a search after
		// it fails, as far as a record held goes.
		s.file.hold = int(min(max+maxHeader+headSize, 1<<40))
	}
	return s
}

// next returns the next record or damaged stretch, or io.EOF at the end
// of the file.
func (s *warcScanner) next() (rawRecord, error) {
	for {
		if s.gzipped && !s.inMember {
			if len(s.file.peek(1)) == 0 {
				if s.file.err == io.EOF || s.dead {
					return rawRecord{}, io.EOF
				}
				s.dead = true
				return rawRecord{offset: s.file.off(), damage: "reading the file: " + s.file.err.Error()}, nil
			}
			s.member = s.file.off()
			s.file.mark()
			if err := s.openMember(); err != nil {
				d := rawRecord{offset: s.member, damage: "not a gzip member: " + err.Error()}
				s.findMember(s.member + 1)
				d.damage += s.resumed()
				return d, nil
			}
		}
		if r, ok := s.frame(); ok {
			return r, nil
		}
		if !s.gzipped {
			return rawRecord{}, io.EOF
		}
		s.inMember = false
	}
}

// openMember starts reading the gzip member at the file's position.
func (s *warcScanner) openMember() error {
	if s.gz == nil {
		s.gz = new(gzip.Reader)
	}
	if err := s.gz.Reset(s.file); err != nil {
		return err
	}
	s.gz.Multistream(false)
	s.rec.reset(s.gz, 0)
	s.inMember = true
	return nil
}

// offset returns the file offset of the record at o in s.rec.
func (s *warcScanner) offset(o int64) int64 {
	if s.gzipped {
		return s.member
	}
	return o
}

// failed returns the error that stopped the reading of the records
// before their end, or nil.
func (s *warcScanner) failed() error {
	if s.rec.err == nil || s.rec.err == io.EOF {
		return nil
	}
	if s.gzipped && !errors.Is(s.file.err, s.rec.err) {
		return fmt.Errorf("gzip member: %w", s.rec.err)
	}
	return s.rec.err
}

// frame reads the record at the position of s.rec; false at its end.
func (s *warcScanner) frame() (rawRecord, bool) {
	w := s.rec
	start := w.off()
	w.mark()
	p := w.peek(10)
	if s.dead || len(p) == 0 && s.failed() == nil {
		return rawRecord{}, false
	}
	if !isVersion(p) {
		return s.damaged(start, s.why(fmt.Sprintf("no WARC record header (found %q)", p))), true
	}
	hend := w.index(start, crlfcrlf, start+maxHeader)
	if hend < 0 {
		return s.damaged(start, s.why("a WARC record header without the blank line that ends it within 1 MiB")), true
	}
	hend += int64(len(crlfcrlf))
	length, err := contentLength(w.peekAt(start, int(hend-start)))
	if err != nil {
		return s.damaged(start, err.Error()), true
	}
	end := hend + length
	if length <= s.max {
		tail := w.peekAt(end, 4+10)
		if why := s.boundary(hend, length, tail); why != "" {
			return s.damaged(start, why), true
		}
		r := rawRecord{offset: s.offset(start), length: length}
		r.header = w.peekAt(start, int(hend-start))
		r.block = w.peekAt(hend, int(length))
		w.seek(end + 4)
		return r, true
	}
	// Too large to hold: its first bytes tell its type, the rest is
	// read through; when its end is wrong, the stretch it claimed cannot
	// be searched again.
	r := rawRecord{offset: s.offset(start), length: length}
	r.header = bytes.Clone(w.peekAt(start, int(hend-start)))
	r.head = bytes.Clone(w.peekAt(hend, int(min(length, headSize))))
	w.seek(hend)
	if n := w.skip(length); n < length {
		return s.damagedHere(r.offset, s.truncated(length, n)), true
	}
	if why := s.boundary(hend, length, w.peek(4+10)); why != "" {
		return s.damagedHere(r.offset, why+"; the block, over the cap, was not searched for the next record"), true
	}
	w.seek(end + 4)
	return r, true
}

// why returns the failure that stopped the reading, if one did, else
// msg.
func (s *warcScanner) why(msg string) string {
	if err := s.failed(); err != nil {
		return err.Error()
	}
	return msg
}

// boundary checks the end of the block of length bytes from block:
// CRLF CRLF, then the end of the file or member or the next record's
// version line (WARC 1.1 section 4: warc-record = header CRLF block
// CRLF CRLF). tail holds the bytes after the block. It returns why not,
// or "".
func (s *warcScanner) boundary(block, length int64, tail []byte) string {
	w := s.rec
	if avail := w.base + int64(len(w.buf)); avail < block+length {
		return s.truncated(length, avail-block)
	}
	ok := bytes.HasPrefix(tail, crlfcrlf)
	if ok && len(tail) == 4 && s.failed() == nil {
		return "" // the end of the file or member
	}
	if ok && isVersion(tail[4:]) {
		return ""
	}
	if err := s.failed(); err != nil && len(tail) < 4+10 {
		return err.Error()
	}
	if !ok && bytes.HasPrefix(crlfcrlf, tail) {
		return fmt.Sprintf("truncated: the file ends after the block of %d bytes, before the CRLF CRLF that ends the record", length)
	}
	if !ok {
		return fmt.Sprintf("Content-Length %d does not end the record: its block is followed by %q, not CRLF CRLF (WARC 1.1 section 4)", length, tail)
	}
	return fmt.Sprintf("Content-Length %d does not end the record: CRLF CRLF after its block is followed by %q, not the next record's version line", length, tail[4:])
}

// truncated says that a block of length bytes ended after n.
func (s *warcScanner) truncated(length, n int64) string {
	if err := s.failed(); err != nil {
		return err.Error()
	}
	where := "the file"
	if s.gzipped {
		where = "the gzip member"
	}
	return fmt.Sprintf("truncated: Content-Length %d, but %s ends %d bytes into the block", length, where, n)
}

// damaged returns the damaged stretch from start (in s.rec), and moves
// to the next record: the next version line after start in the member
// or file, else the next gzip member that starts a record.
func (s *warcScanner) damaged(start int64, why string) rawRecord {
	if s.failed() == nil && s.findRecord(start+1) {
		return rawRecord{offset: s.offset(start), damage: why + s.resumed()}
	}
	if err := s.failed(); err != nil && !strings.Contains(why, err.Error()) {
		// The search for the next record ran into it: a gzip member
		// that decoded to garbage before it failed.
		why += "; " + err.Error()
	}
	return s.damagedHere(s.offset(start), why)
}

// damagedHere returns a damaged stretch at offset, and moves to the next
// record from the position on.
func (s *warcScanner) damagedHere(offset int64, why string) rawRecord {
	d := rawRecord{offset: offset, damage: why}
	switch {
	case s.failed() != nil && s.gzipped:
		s.findMember(s.member + 1)
	case s.failed() != nil:
		s.dead = true
	case s.findRecord(s.rec.off()):
		d.damage += s.resumed()
		return d
	case s.gzipped:
		// The member ended without another record in it: the next
		// member follows.
		s.inMember = false
	}
	d.damage += s.resumed()
	return d
}

// resumed says where reading goes on, for a damaged stretch.
func (s *warcScanner) resumed() string {
	switch {
	case s.inMember && s.gzipped:
		return "; reading resumed inside the same gzip member"
	case s.gzipped && len(s.file.peek(1)) > 0:
		return "; reading resumed at offset " + strconv.FormatInt(s.file.off(), 10)
	case !s.gzipped && !s.dead && len(s.rec.peek(1)) > 0:
		return "; reading resumed at offset " + strconv.FormatInt(s.rec.off(), 10)
	}
	return "; no record after it"
}

// findRecord moves s.rec to the first version line at or after from; it
// reports whether there is one before the end of the member or file.
func (s *warcScanner) findRecord(from int64) bool {
	w := s.rec
	for {
		w.seek(from)
		w.mark()
		b := w.peekAt(from, searchChunk)
		if j := bytes.Index(b, versionPrefix); j >= 0 {
			at := from + int64(j)
			if isVersion(w.peekAt(at, 10)) {
				w.seek(at)
				return true
			}
			from = at + 1
			continue
		}
		if len(b) < searchChunk {
			w.seek(from + int64(len(b)))
			w.mark()
			return false
		}
		from += searchChunk - int64(len(versionPrefix)) + 1
	}
}

// findMember moves the file to the first gzip member at or after from
// (or as far back as the file is held) whose content starts with a
// version line; the next call of next reads it.
func (s *warcScanner) findMember(from int64) {
	w := s.file
	s.inMember = false
	for {
		from = max(from, w.base+int64(w.keep))
		w.seek(from)
		w.mark()
		b := w.peekAt(from, searchChunk)
		j := bytes.Index(b, gzipMember)
		if j < 0 {
			if len(b) < searchChunk {
				w.seek(from + int64(len(b)))
				w.mark()
				return
			}
			from += searchChunk - int64(len(gzipMember)) + 1
			continue
		}
		at := from + int64(j)
		w.seek(at)
		var first [10]byte
		if s.gz.Reset(w) == nil {
			s.gz.Multistream(false)
			if _, err := io.ReadFull(s.gz, first[:]); err == nil && isVersion(first[:]) && at >= w.base+int64(w.keep) {
				w.seek(at)
				return
			}
		}
		from = at + 1
	}
}

// contentLength returns the Content-Length of a record header: the one
// field of that name (WARC 1.1 section 5.3, mandatory: "Content-Length"
// ":" 1*DIGIT; section 5.1: a field is not repeated). A header that holds
// a second version line is that of a record cut short, followed by
// another.
func contentLength(header []byte) (int64, error) {
	if i := bytes.Index(header[1:], versionPrefix); i >= 0 && isVersion(header[1+i:]) {
		return 0, fmt.Errorf("a WARC record header cut short: another record's version line %d bytes into it", 1+i)
	}
	var value string
	found := false
	for line := range strings.SplitSeq(string(header), "\r\n") {
		name, v, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(name, "Content-Length") {
			continue
		}
		if found {
			return 0, errors.New("a WARC record header with two Content-Length fields (WARC 1.1 section 5.1)")
		}
		found, value = true, strings.Trim(v, " \t")
	}
	if !found {
		return 0, errors.New("a WARC record header without Content-Length (mandatory, WARC 1.1 section 5.3)")
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < 0 || strings.TrimLeft(value, "0123456789") != "" {
		return 0, fmt.Errorf("a WARC record header whose Content-Length %q is not 1*DIGIT (WARC 1.1 section 5.3)", value)
	}
	return n, nil
}
