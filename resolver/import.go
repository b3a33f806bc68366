package resolver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"strconv"
	"strings"
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
	Refused []LineError `json:"refused"` // lines not stored, in input order
	SHA256  string      `json:"sha256"`  // of the input, as read
}

// ImportOptions configures an import.
type ImportOptions struct {
	Dialects Dialects
	Limits   Limits
	Schemes  []string // allowed location schemes; default http, https
	// Allow, when set, is asked about every URN before it is written;
	// an error refuses the line with its message (the admin API checks
	// the token's scopes with it).
	Allow func(Name) error
	// Audit is the audit entry written with the import; Action, URN
	// (the source's name, if empty) and Detail are filled in.
	Audit  AuditEntry
	Source string
}

// errFatal marks an import error that stores nothing.
type importFatal struct{ err error }

func (e *importFatal) Error() string { return e.err.Error() }
func (e *importFatal) Unwrap() error { return e.err }

// ErrLineTooLong is returned (wrapped) when a line of an import is over
// Limits.LineBytes; nothing is stored.
var ErrLineTooLong = errors.New("line too long")

// Import reads records from r and stores them in one transaction. Lines
// that are not valid records are refused and reported, and every other
// line is stored: the transaction commits them all at once, so that
// after a crash either the whole import is visible or none of it.
//
// A URN that comes back in the same import (the rows of a CSV file, or a
// repeated JSON line) adds its locations and synonyms after the earlier
// ones and its metadata members over theirs; a URN stored before the
// import is replaced by what the import holds for it.
//
// The error is non-nil only when nothing was stored: the input could
// not be read, a line was over the size limit, or the database failed.
func Import(ctx context.Context, s *Store, r io.Reader, f Format, o ImportOptions) (ImportResult, error) {
	v := &validator{dialects: o.Dialects, limits: o.Limits.withDefaults(), schemes: o.Schemes}
	if len(v.schemes) == 0 {
		v.schemes = defaultSchemes
	}
	h := sha256.New()
	lr := &lineLimitReader{r: io.TeeReader(r, h), max: v.limits.LineBytes}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return ImportResult{}, err
	}
	defer tx.Rollback()
	im := &importer{ctx: ctx, s: s, tx: tx, v: v, allow: o.Allow, idx: map[string]int{}, seen: map[string]struct{}{},
		now: o.Audit.At.UnixMicro()}
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
	if err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{Lines: im.lines, Records: len(im.seen), Refused: im.refused, SHA256: hashHex(h)}
	if res.Refused == nil {
		res.Refused = []LineError{}
	}
	a := o.Audit
	a.Action = "import"
	if a.URN == "" {
		a.URN = o.Source
	}
	detail, _ := json.Marshal(map[string]any{"source": o.Source, "lines": res.Lines, "records": res.Records,
		"refused": len(res.Refused), "sha256": res.SHA256})
	a.Detail = string(detail)
	if err := s.audit(ctx, tx, a); err != nil {
		return ImportResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return ImportResult{}, err
	}
	return res, nil
}

func hashHex(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

var defaultSchemes = []string{"http", "https"}

// flushSize is the number of records written per batch of statements.
const flushSize = 1000

type importer struct {
	ctx     context.Context
	s       *Store
	tx      *sql.Tx
	v       *validator
	allow   func(Name) error
	pending []entry
	idx     map[string]int      // key -> index in pending
	seen    map[string]struct{} // keys written by this import
	now     int64
	lines   int
	refused []LineError
}

func (im *importer) refuse(line int, reason string) {
	im.refused = append(im.refused, LineError{Line: line, Reason: reason})
}

// add validates one record and queues it.
func (im *importer) add(line int, r Record) error {
	e, fe := im.v.check(r)
	if fe != nil {
		im.refuse(line, fe.Error())
		return nil
	}
	if im.allow != nil {
		if err := im.allow(e.name); err != nil {
			im.refuse(line, err.Error())
			return nil
		}
	}
	if i, ok := im.idx[e.key]; ok {
		m := mergeEntries(im.pending[i], e)
		if reason := im.overLimits(m); reason != "" {
			im.refuse(line, reason)
			return nil
		}
		im.pending[i] = m
		im.lines++
		return nil
	}
	if _, ok := im.seen[e.key]; ok {
		// Written by an earlier batch of this import: merge with it.
		if err := im.flush(); err != nil {
			return err
		}
		old, found, err := im.s.readEntry(im.ctx, im.tx, e.key)
		if err != nil {
			return &importFatal{err}
		}
		if found {
			e = mergeEntries(old, e)
		}
		if reason := im.overLimits(e); reason != "" {
			im.refuse(line, reason)
			return nil
		}
		if err := im.s.writeEntries(im.ctx, im.tx, []entry{e}, im.now); err != nil {
			return &importFatal{err}
		}
		im.lines++
		return nil
	}
	im.idx[e.key] = len(im.pending)
	im.pending = append(im.pending, e)
	im.seen[e.key] = struct{}{}
	im.lines++
	if len(im.pending) >= flushSize {
		return im.flush()
	}
	return nil
}

func (im *importer) overLimits(e entry) string {
	switch {
	case len(e.urls) > im.v.limits.URLs:
		return fmt.Sprintf("urls: more than %d locations for %s in this import", im.v.limits.URLs, e.urn)
	case len(e.synonyms) > im.v.limits.Synonyms:
		return fmt.Sprintf("synonyms: more than %d synonyms for %s in this import", im.v.limits.Synonyms, e.urn)
	case len(e.metadata) > im.v.limits.MetadataBytes:
		return fmt.Sprintf("metadata: more than %d bytes for %s in this import", im.v.limits.MetadataBytes, e.urn)
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
	if err := im.s.writeEntries(im.ctx, im.tx, im.pending, im.now); err != nil {
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
	for i, h := range header {
		cols[i] = strings.TrimSpace(h)
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
		if u := strings.TrimSpace(row[1]); u != "" {
			rec.URLs = []string{u}
		}
		if len(row) > 2 {
			m := map[string]string{}
			for i := 2; i < len(row) && i < len(cols); i++ {
				if row[i] != "" && cols[i] != "" {
					m[cols[i]] = row[i]
				}
			}
			if len(row) > len(cols) {
				im.refuse(line, fmt.Sprintf("%d columns, the header has %d", len(row), len(cols)))
				continue
			}
			if len(m) > 0 {
				rec.Metadata, _ = json.Marshal(m)
			}
		}
		if err := im.add(line, rec); err != nil {
			return err
		}
	}
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
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rec Record
	if err := dec.Decode(&rec); err != nil {
		im.refuse(line, "not a record: "+jsonReason(err))
		return nil
	}
	if dec.More() {
		im.refuse(line, "not a record: more than one JSON value on the line")
		return nil
	}
	return im.add(line, rec)
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
