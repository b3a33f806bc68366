package resolver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Format is the format of a bulk import.
type Format uint8

// The import formats.
const (
	FormatUnknown Format = iota
	// FormatCSV is RFC 4180 CSV with a header whose first two columns
	// are "urn,url": one location per row, several rows per URN in the
	// order of their locations. Further columns are metadata members,
	// named by the header; empty cells are left out.
	FormatCSV
	// FormatJSONL is JSON Lines: one Record object per line,
	// {"urn", "urls", "metadata", "synonyms"}; blank lines are skipped.
	FormatJSONL
)

// FormatOfFile returns the format a file name's extension names: ".csv",
// or ".jsonl" (also ".ndjson").
func FormatOfFile(name string) Format {
	name = strings.ToLower(name)
	switch {
	case strings.HasSuffix(name, ".csv"):
		return FormatCSV
	case strings.HasSuffix(name, ".jsonl"), strings.HasSuffix(name, ".ndjson"):
		return FormatJSONL
	}
	return FormatUnknown
}

// FormatOfMediaType returns the format a Content-Type names: "text/csv",
// or "application/jsonl" (also "application/x-ndjson").
func FormatOfMediaType(ct string) Format {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return FormatUnknown
	}
	switch mt {
	case "text/csv":
		return FormatCSV
	case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines":
		return FormatJSONL
	}
	return FormatUnknown
}

// LineError is a refused line of an import: its 1-based line number in
// the input (the header of a CSV file is line 1) and why.
type LineError struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// String returns "LINE: reason", the form the import command prints.
func (e LineError) String() string { return strconv.Itoa(e.Line) + ": " + e.Reason }

// ImportResult says what an import stored and refused.
type ImportResult struct {
	Lines   int         `json:"lines"`   // lines stored
	Records int         `json:"records"` // distinct URNs written
	Refused []LineError `json:"refused"` // lines not stored for what they hold, in input order
	// RefusedRecords are the records refused whole: when one line of a
	// record (all the lines of one URN in the input) is refused, none of
	// them is stored, and what was stored for the URN before stays.
	RefusedRecords []RecordRefusal `json:"refused_records"`
	SHA256         string          `json:"sha256"` // of the input, as read
}

// RecordRefusal is a record an import refused whole.
type RecordRefusal struct {
	URN     string `json:"urn"`     // as the first refused line wrote it, canonical
	Line    int    `json:"line"`    // the first line refused for it
	Reason  string `json:"reason"`  // why that line was refused
	Dropped int    `json:"dropped"` // valid lines of the record before it, not stored
}

// String returns "URN: refused whole (line N: reason)", the form the
// import command prints.
func (r RecordRefusal) String() string {
	s := fmt.Sprintf("%s: record refused whole (line %d: %s)", r.URN, r.Line, r.Reason)
	if r.Dropped > 0 {
		s += fmt.Sprintf("; %d valid line(s) of it not stored", r.Dropped)
	}
	return s
}

// ImportOptions configures an import.
type ImportOptions struct {
	Dialects Dialects
	Limits   Limits
	Schemes  []string // allowed location schemes; default http, https
	// Allow, when set, is asked about every URN a record names before
	// it is written (the record's URN as field "urn", each synonym as
	// "synonyms[i]"); an error refuses the record with its message (the
	// admin API checks the token's scopes with it).
	Allow func(field string, n Name) error
	// Audit is the audit entry written with the import; Action, URN
	// (the source's name, if empty) and Detail are filled in.
	Audit  AuditEntry
	Source string
	// Exports reads a file Export wrote (JSON Lines that start with its
	// header) as an export: its records go, as they were, into the URNs
	// that have none (export.go). The admin API's import does not.
	Exports bool

	// claims: the import is a token's (the admin API's), so a new record
	// under a registrar's prefix needs that registrar's token (by) and
	// its mode registrar; an import by the command (urnresolver import)
	// is the operator's, and writes anywhere.
	claims bool
	by     string
}

// importFatal marks an import error of the database, not of the input;
// like every import error, it stores nothing.
type importFatal struct{ err error }

func (e *importFatal) Error() string { return e.err.Error() }
func (e *importFatal) Unwrap() error { return e.err }

// ErrLineTooLong is returned (wrapped) when a line of an import is over
// Limits.LineBytes; nothing is stored.
var ErrLineTooLong = errors.New("line too long")

// Import reads records from r and stores them in one transaction. Lines
// that are not valid records are refused and reported, and so is the
// rest of their record (every line of the same URN, before or after):
// a record is stored whole or not at all, and one that is refused keeps
// what was stored for it before. Every other line is stored: the
// transaction commits them all at once, so that after a crash either the
// whole import is visible or none of it.
//
// A URN that comes back in the same import (the rows of a CSV file, or a
// repeated JSON line) adds its locations and synonyms after the earlier
// ones and its metadata members over theirs; a URN stored before the
// import is replaced by what the import holds for it.
//
// The error is non-nil only when nothing was stored: the input could
// not be read, a line was over the size limit, or the database failed.
func Import(ctx context.Context, s *Store, r io.Reader, f Format, o ImportOptions) (ImportResult, error) {
	v := &validator{dialects: o.Dialects, limits: o.Limits.withDefaults(), schemes: lowerSchemes(o.Schemes)}
	if f == FormatJSONL && o.Exports {
		br := bufio.NewReader(r)
		if isExport(br) {
			return importExport(ctx, s, v, br, o)
		}
		r = br
	}
	return importRecords(ctx, s, v, r, f, o)
}

// importRecords is Import with a validator: the admin API's import
// (records.go) checks with the server's.
func importRecords(ctx context.Context, s *Store, v *validator, r io.Reader, f Format, o ImportOptions) (ImportResult, error) {
	h := sha256.New()
	lr := &lineLimitReader{r: io.TeeReader(r, h), max: v.limits.LineBytes}
	tx, err := s.db.BeginImport(ctx, o.Audit.At)
	if err != nil {
		return ImportResult{}, &importFatal{err}
	}
	defer tx.Rollback()
	im := &importer{ctx: ctx, tx: tx, v: v, allow: o.Allow, idx: map[string]int{}, seen: map[string]int{},
		refusedKeys: map[string]int{}, claims: o.claims, by: o.by}
	switch f {
	case FormatCSV:
		err = im.readCSV(lr)
	case FormatJSONL:
		err = im.readJSONL(lr)
	default:
		err = errors.New("unknown import format (want .csv or .jsonl)")
	}
	if err == nil {
		err = im.flush()
	}
	for _, key := range im.revert {
		if err != nil {
			break
		}
		if err = tx.Restore(ctx, key); err != nil {
			err = &importFatal{err}
		}
	}
	if err != nil {
		return ImportResult{}, err
	}
	// Refusals found at a flush (deactivated URNs) come after the lines
	// read since.
	sort.SliceStable(im.refused, func(i, j int) bool { return im.refused[i].Line < im.refused[j].Line })
	res := ImportResult{Lines: im.lines, Records: len(im.seen), Refused: im.refused, RefusedRecords: im.refusedRecs, SHA256: hashHex(h)}
	if res.Refused == nil {
		res.Refused = []LineError{}
	}
	if res.RefusedRecords == nil {
		res.RefusedRecords = []RecordRefusal{}
	}
	a := o.Audit
	a.Action = "import"
	if a.URN == "" {
		a.URN = o.Source
	}
	detail, _ := json.Marshal(map[string]any{"source": o.Source, "lines": res.Lines, "records": res.Records,
		"refused": len(res.Refused), "refused_records": len(res.RefusedRecords), "sha256": res.SHA256})
	a.Detail = string(detail)
	keys := append(make([]string, 0, len(im.seen)+len(im.revert)), im.revert...)
	for k := range im.seen {
		keys = append(keys, k)
	}
	if err := tx.Commit(ctx, a, keys); err != nil {
		return ImportResult{}, &importFatal{err}
	}
	s.invalidate(false, keys...)
	return res, nil
}

func hashHex(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

var defaultSchemes = []string{"http", "https"}

// flushSize is the number of records written per batch of statements.
const flushSize = 1000

type importer struct {
	ctx     context.Context
	tx      *store.ImportTx
	v       *validator
	allow   func(string, Name) error
	pending []entry
	idx     map[string]int // key -> index in pending
	seen    map[string]int // keys written by this import -> lines stored for them
	lines   int
	refused []LineError

	refusedKeys map[string]int // key -> index in refusedRecs
	refusedRecs []RecordRefusal
	revert      []string // keys written by a flushed batch, then refused

	claims bool   // check the registrars' rules (ImportOptions.claims)
	by     string // the registrar of the importing token
}

func (im *importer) refuse(line int, reason string) {
	im.refused = append(im.refused, LineError{Line: line, Reason: reason})
}

// refuseRecord refuses line and the whole record of key: lines of it
// still pending are dropped, and one already written in the transaction
// is restored to its state before the import when the import ends.
func (im *importer) refuseRecord(line int, key, urn, reason string) {
	im.refuse(line, reason)
	if _, ok := im.refusedKeys[key]; ok {
		return
	}
	rr := RecordRefusal{URN: urn, Line: line, Reason: reason}
	if n, ok := im.seen[key]; ok {
		rr.Dropped = n
		im.lines -= n
		delete(im.seen, key)
		if i, ok := im.idx[key]; ok {
			im.pending[i].dropped = true
			delete(im.idx, key)
		} else {
			im.revert = append(im.revert, key)
		}
	}
	im.refusedKeys[key] = len(im.refusedRecs)
	im.refusedRecs = append(im.refusedRecs, rr)
}

// add validates one record and queues it. fe, when not nil, is why the
// line was refused before it could be checked (r then holds what could
// be read of it: its URN, to refuse the rest of the record).
func (im *importer) add(line int, r Record, fe *FieldError) error {
	var e entry
	if fe == nil {
		e, fe = im.v.check(r)
	}
	if fe != nil {
		if n, fe2 := im.v.parseAssigned("urn", r.URN); fe2 == nil {
			im.refuseRecord(line, n.Key(), n.Canonical(), fe.Error())
		} else {
			im.refuse(line, fe.Error())
		}
		return nil
	}
	if i, ok := im.refusedKeys[e.Key]; ok {
		im.refuse(line, fmt.Sprintf("not stored: the record of %s is refused whole (line %d)", e.URN, im.refusedRecs[i].Line))
		return nil
	}
	if im.allow != nil {
		fields, names := e.namedURNs()
		for i, n := range names {
			if err := im.allow(fields[i], n); err != nil {
				im.refuseRecord(line, e.Key, e.URN, err.Error())
				return nil
			}
		}
	}
	if i, ok := im.idx[e.Key]; ok {
		m := mergeEntries(im.pending[i], e)
		if reason := im.overLimits(m); reason != "" {
			im.refuseRecord(line, e.Key, e.URN, reason)
			return nil
		}
		im.pending[i] = m
		im.seen[e.Key]++
		im.lines++
		return nil
	}
	if _, ok := im.seen[e.Key]; ok {
		// Written by an earlier batch of this import: merge with it.
		if err := im.flush(); err != nil {
			return err
		}
		old, _, found, err := im.tx.Entry(im.ctx, e.Key)
		if err != nil {
			return &importFatal{err}
		}
		if found {
			e = mergeEntries(entry{Entry: old}, e)
		}
		if reason := im.overLimits(e); reason != "" {
			im.refuseRecord(line, e.Key, e.URN, reason)
			return nil
		}
		if err := im.tx.Write(im.ctx, []store.Entry{e.Entry}); err != nil {
			return &importFatal{err}
		}
		im.seen[e.Key]++
		im.lines++
		return nil
	}
	e.line = line
	im.idx[e.Key] = len(im.pending)
	im.pending = append(im.pending, e)
	im.seen[e.Key] = 1
	im.lines++
	if len(im.pending) >= flushSize {
		return im.flush()
	}
	return nil
}

func (im *importer) overLimits(e entry) string {
	switch {
	case len(e.URLs) > im.v.limits.URLs:
		return fmt.Sprintf("urls: more than %d locations for %s in this import", im.v.limits.URLs, e.URN)
	case len(e.Synonyms) > im.v.limits.Synonyms:
		return fmt.Sprintf("synonyms: more than %d synonyms for %s in this import", im.v.limits.Synonyms, e.URN)
	case len(e.Metadata) > im.v.limits.MetadataBytes:
		return fmt.Sprintf("metadata: more than %d bytes for %s in this import", im.v.limits.MetadataBytes, e.URN)
	}
	return ""
}

func (im *importer) flush() error {
	if len(im.pending) == 0 {
		return nil
	}
	if err := im.ctx.Err(); err != nil {
		return err
	}
	// A deactivated URN is not rewritten (issue 23): its records are
	// refused whole, as a write through the admin API is.
	keys := make([]string, 0, len(im.pending))
	for _, e := range im.pending {
		if !e.dropped {
			keys = append(keys, e.Key)
		}
	}
	gone, err := im.tx.Deactivated(im.ctx, keys)
	if err != nil {
		return &importFatal{err}
	}
	for _, e := range im.pending {
		g := gone[e.Key]
		if g == nil || e.dropped {
			continue
		}
		lines := im.seen[e.Key]
		im.refuseRecord(e.line, e.Key, e.URN, "urn: "+g.Error()+"; a deactivated URN is not rewritten (reactivate it first)")
		im.refusedRecs[im.refusedKeys[e.Key]].Dropped = lines - 1
	}
	if err := im.claim(); err != nil {
		return &importFatal{err}
	}
	batch := make([]store.Entry, 0, len(im.pending))
	for _, e := range im.pending {
		if !e.dropped {
			batch = append(batch, e.Entry)
		}
	}
	if err := im.tx.Write(im.ctx, batch); err != nil {
		return &importFatal{err}
	}
	im.pending = im.pending[:0]
	clear(im.idx)
	return nil
}

// readCSV reads the CSV format: header "urn,url[,metadata columns]".
func (im *importer) readCSV(r io.Reader) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty CSV file: want a header starting urn,url")
		}
		return csvFatal(err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	if len(header) < 2 || !strings.EqualFold(strings.TrimSpace(header[0]), "urn") || !strings.EqualFold(strings.TrimSpace(header[1]), "url") {
		return errors.New("line 1: the CSV header must start with the columns urn,url")
	}
	cols := make([]string, len(header))
	first := map[string]int{}
	for i, h := range header {
		if !utf8.ValidString(h) {
			return fmt.Errorf("line 1: column %d of the header: %s", i+1, invalidUTF8(h))
		}
		cols[i] = strings.TrimSpace(h)
		name := cols[i]
		if i < 2 || strings.EqualFold(name, "urn") || strings.EqualFold(name, "url") {
			// urn and url are matched without case: a metadata
			// column "URL" would read as a second url column.
			name = strings.ToLower(name)
		}
		if name == "" {
			continue
		}
		if j, ok := first[name]; ok {
			return fmt.Errorf("line 1: column %d of the header repeats %q (column %d): one of their values would be lost", i+1, cols[i], j+1)
		}
		first[name] = i
	}
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && !errors.Is(err, ErrLineTooLong) {
				im.refuse(pe.StartLine, "malformed CSV: "+pe.Err.Error())
				continue
			}
			return csvFatal(err)
		}
		line, _ := cr.FieldPos(0)
		if len(row) < 2 {
			im.refuse(line, "want at least the two columns urn,url")
			continue
		}
		rec := Record{URN: strings.TrimSpace(row[0])}
		var fe *FieldError
		for i, f := range row {
			if !utf8.ValidString(f) {
				name := "urn"
				if i < len(cols) && i > 0 {
					name = cols[i]
				}
				fe = &FieldError{Field: fmt.Sprintf("column %d (%s)", i+1, name), Reason: invalidUTF8(f)}
				if i == 0 {
					rec.URN = ""
				}
				break
			}
		}
		if fe == nil && len(row) > len(cols) {
			fe = &FieldError{Reason: fmt.Sprintf("%d columns, the header has %d", len(row), len(cols))}
		}
		if u := strings.TrimSpace(row[1]); u != "" {
			rec.URLs = []string{u}
		}
		if fe == nil && len(row) > 2 {
			m := map[string]string{}
			for i := 2; i < len(row); i++ {
				if row[i] != "" && cols[i] != "" {
					m[cols[i]] = row[i]
				}
			}
			if len(m) > 0 {
				rec.Metadata, _ = json.Marshal(m)
			}
		}
		if err := im.add(line, rec, fe); err != nil {
			return err
		}
	}
}

// invalidUTF8 says where s stops being UTF-8.
func invalidUTF8(s string) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Sprintf("invalid UTF-8 (byte 0x%02X at offset %d)", s[i], i)
		}
		i += size
	}
	return "invalid UTF-8"
}

func csvFatal(err error) error {
	if errors.Is(err, ErrLineTooLong) {
		return err
	}
	return fmt.Errorf("read CSV: %w", err)
}

// readJSONL reads one Record per line.
func (im *importer) readJSONL(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	line := 0
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(buf) > 0 {
			line++
			if err := im.jsonLine(line, buf); err != nil {
				return err
			}
		}
		buf = buf[:0]
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (im *importer) jsonLine(line int, b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	rec, fe := decodeRecord(b)
	if fe != nil && fe.Field == "" && rec.URN == "" {
		fe.Reason = "not a record: " + fe.Reason
	}
	return im.add(line, rec, fe)
}

// jsonReason words a JSON decoding error without Go type names.
func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s: wrong JSON type (%s)", te.Field, te.Value)
		}
		return fmt.Sprintf("want a JSON object, not %s", te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineLimitReader fails with ErrLineTooLong when a line is longer than
// max bytes, so that no single line can make the import hold an
// unbounded amount of memory.
type lineLimitReader struct {
	r    io.Reader
	max  int
	cur  int
	line int
}

func (l *lineLimitReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.line++
			l.cur = 0
			continue
		}
		l.cur++
		if l.cur > l.max {
			return i, fmt.Errorf("line %d: %w (more than %d bytes)", l.line+1, ErrLineTooLong, l.max)
		}
	}
	return n, err
}
