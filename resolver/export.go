package resolver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// An export (issue 30) is JSON Lines: a header line, one line per record
// in key order with everything stored for it, and an end line with the
// number of records, so that a truncated export is known as one:
//
//	{"format":"urnresolver-export","version":1}
//	{"urn":"urn:nbn:no-1","urls":["https://..."],"metadata":{"title":"Bok"},"synonyms":["urn:isbn:..."],"created":"2026-01-02T15:04:05.123456Z","updated":"...","deactivated":{"at":"...","reason":"withdrawn","successor":"urn:nbn:no-2"}}
//	{"end":"urnresolver-export","records":1}
//
// Import reads it back (ImportOptions.Exports) into the URNs that have no
// record, with its times and deactivations as they were: an export of
// the database it fills is the same file, byte for byte.

const (
	exportHeader = `{"format":"urnresolver-export","version":1}`
	exportEnd    = "urnresolver-export"
)

// exportLine is a record as an export writes it.
type exportLine struct {
	URN         string          `json:"urn"`
	URLs        []string        `json:"urls"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Synonyms    []string        `json:"synonyms,omitempty"`
	Created     string          `json:"created"`
	Updated     string          `json:"updated"`
	Deactivated *exportGone     `json:"deactivated,omitempty"`
}

type exportGone struct {
	At        string `json:"at"`
	Reason    string `json:"reason,omitempty"`
	Successor string `json:"successor,omitempty"`
}

type exportTrailer struct {
	End     string `json:"end"`
	Records int    `json:"records"`
}

var exportMembers = map[string]bool{"urn": true, "urls": true, "metadata": true, "synonyms": true,
	"created": true, "updated": true, "deactivated": true}

// exportTime is the form of an export's times: UTC, to the microsecond,
// as the store keeps them.
const exportTime = "2006-01-02T15:04:05.000000Z"

// Export writes every record of s to w as JSON Lines (the header, the
// records in key order, the end line), read in one snapshot, and
// returns the number of records.
func Export(ctx context.Context, s *Store, w io.Writer) (int, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	bw.WriteString(exportHeader + "\n")
	n := 0
	err := s.db.Export(ctx, func(e store.Exported) error {
		l := exportLine{URN: e.URN, URLs: e.URLs, Synonyms: e.Synonyms,
			Created: e.Created.UTC().Format(exportTime), Updated: e.Updated.UTC().Format(exportTime)}
		if l.URLs == nil {
			l.URLs = []string{}
		}
		if e.Metadata != "{}" && e.Metadata != "" {
			l.Metadata = json.RawMessage(e.Metadata)
		}
		if d := e.Deactivated; d != nil {
			l.Deactivated = &exportGone{At: d.At.UTC().Format(exportTime), Reason: d.Reason, Successor: d.Successor}
		}
		n++
		return enc.Encode(l)
	})
	if err != nil {
		return n, err
	}
	enc.Encode(exportTrailer{End: exportEnd, Records: n})
	return n, bw.Flush()
}

// isExport reports whether the input br starts with an export's header.
func isExport(br *bufio.Reader) bool {
	b, _ := br.Peek(len(exportHeader) + 8)
	return bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n\ufeff"), []byte(exportHeader))
}

// importExport loads an export: each record into a URN that has no
// record, as it was; a record whose URN has one is refused, and so is a
// deactivated record whose chain of successors does not hold in the
// database it goes to (refused whole, as the admin API's deactivation
// would be). An export without its end line, or whose end line counts
// other records than it holds, is truncated: nothing is stored.
func importExport(ctx context.Context, s *Store, v *validator, r io.Reader, o ImportOptions) (ImportResult, error) {
	h := sha256.New()
	br := bufio.NewReaderSize(&lineLimitReader{r: io.TeeReader(r, h), max: v.limits.LineBytes}, 64<<10)
	tx, err := s.db.BeginImport(ctx, o.Audit.At)
	if err != nil {
		return ImportResult{}, &importFatal{err}
	}
	defer tx.Rollback()
	var (
		res     = ImportResult{Refused: []LineError{}, RefusedRecords: []RecordRefusal{}}
		pending []store.Loaded
		lines   []int // of pending
		loaded  []store.Loaded
		loadedL []int
		seen    = map[string]int{} // key -> line
		records int
		trailer *exportTrailer
	)
	refuse := func(line int, urn, reason string) {
		res.Refused = append(res.Refused, LineError{Line: line, Reason: reason})
		if urn != "" {
			res.RefusedRecords = append(res.RefusedRecords, RecordRefusal{URN: urn, Line: line, Reason: reason})
		}
	}
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		keys := make([]string, len(pending))
		for i, l := range pending {
			keys[i] = l.Key
		}
		exist, err := tx.Existing(ctx, keys)
		if err != nil {
			return &importFatal{err}
		}
		var batch []store.Loaded
		for i, l := range pending {
			if exist[l.Key] {
				refuse(lines[i], l.URN, "urn: a record is stored under this URN; an export loads into URNs that have none")
				continue
			}
			batch = append(batch, l)
			loaded, loadedL = append(loaded, l), append(loadedL, lines[i])
		}
		if err := tx.Load(ctx, batch); err != nil {
			return &importFatal{err}
		}
		pending, lines = pending[:0], lines[:0]
		return nil
	}
	line := 0
	for {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 {
			line++
			b = bytes.TrimSpace(b)
			switch {
			case len(b) == 0:
			case trailer != nil:
				return ImportResult{}, fmt.Errorf("line %d: a line after the export's end line", line)
			case line == 1:
				if string(bytes.TrimPrefix(b, []byte("\ufeff"))) != exportHeader {
					return ImportResult{}, fmt.Errorf("line 1: not an export header %s", exportHeader)
				}
			case bytes.HasPrefix(b, []byte(`{"end"`)):
				var t exportTrailer
				d := json.NewDecoder(bytes.NewReader(b))
				d.DisallowUnknownFields()
				if err := d.Decode(&t); err != nil || t.End != exportEnd {
					return ImportResult{}, fmt.Errorf("line %d: not the export's end line", line)
				}
				trailer = &t
			default:
				records++
				l, urn, reason := v.exported(b)
				if reason != "" {
					refuse(line, urn, reason)
					break
				}
				if first, dup := seen[l.Key]; dup {
					refuse(line, l.URN, fmt.Sprintf("urn: %s is in the export twice (line %d)", l.URN, first))
					break
				}
				seen[l.Key] = line
				pending, lines = append(pending, l), append(lines, line)
				if len(pending) >= flushSize {
					if err := flush(); err != nil {
						return ImportResult{}, err
					}
				}
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return ImportResult{}, rerr
		}
	}
	switch {
	case line == 0:
		return ImportResult{}, errors.New("empty file: not an export")
	case trailer == nil:
		return ImportResult{}, fmt.Errorf("the export is truncated: no end line after line %d", line)
	case trailer.Records != records:
		return ImportResult{}, fmt.Errorf("the export's end line counts %d records, it holds %d: it is damaged", trailer.Records, records)
	}
	if err := flush(); err != nil {
		return ImportResult{}, err
	}
	// Successors are checked once every record is in: a chain may run
	// through records later in the export. A refused record may break
	// the chain of another, so again until none is refused.
	for again := true; again; {
		again = false
		kept, keptL := loaded[:0], loadedL[:0]
		for i, l := range loaded {
			if err := tx.CheckSuccessor(ctx, l); err != nil {
				var se *store.SuccessorError
				if !errors.As(err, &se) {
					return ImportResult{}, &importFatal{err}
				}
				if err := tx.Unload(ctx, l.Key); err != nil {
					return ImportResult{}, &importFatal{err}
				}
				refuse(loadedL[i], l.URN, "deactivated.successor: "+err.Error())
				again = true
				continue
			}
			kept, keptL = append(kept, l), append(keptL, loadedL[i])
		}
		loaded, loadedL = kept, keptL
	}
	sort.SliceStable(res.Refused, func(i, j int) bool { return res.Refused[i].Line < res.Refused[j].Line })
	sort.SliceStable(res.RefusedRecords, func(i, j int) bool { return res.RefusedRecords[i].Line < res.RefusedRecords[j].Line })
	res.Lines, res.Records, res.SHA256 = len(loaded), len(loaded), hashHex(h)
	a := o.Audit
	a.Action = "import"
	if a.URN == "" {
		a.URN = o.Source
	}
	detail, _ := json.Marshal(map[string]any{"source": o.Source, "export": true, "records": res.Records,
		"refused": len(res.Refused), "sha256": res.SHA256})
	a.Detail = string(detail)
	keys := make([]string, len(loaded))
	for i, l := range loaded {
		keys[i] = l.Key
	}
	if err := tx.Commit(ctx, a, keys); err != nil {
		return ImportResult{}, &importFatal{err}
	}
	s.invalidate(false, keys...)
	return res, nil
}

// exported reads one record line of an export: the record to load, or
// the URN it names (when it could be read) and why it is refused.
func (v *validator) exported(b []byte) (store.Loaded, string, string) {
	if je := checkJSON(b, exportMembers); je != nil {
		return store.Loaded{}, "", je.fieldError().Error()
	}
	var l exportLine
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&l); err != nil {
		return store.Loaded{}, "", "not an export record: " + jsonReason(err)
	}
	e, fe := v.check(Record{URN: l.URN, URLs: l.URLs, Metadata: l.Metadata, Synonyms: l.Synonyms})
	if fe != nil {
		return store.Loaded{}, "", fe.Error()
	}
	out := store.Loaded{Entry: e.Entry}
	var err error
	if out.Created, err = time.Parse(time.RFC3339Nano, l.Created); err != nil {
		return store.Loaded{}, e.URN, "created: " + strconv.Quote(truncate(l.Created, 40)) + " is not an RFC 3339 time"
	}
	if out.Updated, err = time.Parse(time.RFC3339Nano, l.Updated); err != nil {
		return store.Loaded{}, e.URN, "updated: " + strconv.Quote(truncate(l.Updated, 40)) + " is not an RFC 3339 time"
	}
	if g := l.Deactivated; g != nil {
		at, err := time.Parse(time.RFC3339Nano, g.At)
		if err != nil {
			return store.Loaded{}, e.URN, "deactivated.at: " + strconv.Quote(truncate(g.At, 40)) + " is not an RFC 3339 time"
		}
		if len(g.Reason) > maxReason {
			return store.Loaded{}, e.URN, fmt.Sprintf("deactivated.reason: longer than %d bytes", maxReason)
		}
		succ, fe := v.successor(g.Successor, e.name)
		if fe != nil {
			return store.Loaded{}, e.URN, "deactivated." + fe.Error()
		}
		out.Deactivated = &store.Deactivation{At: at.UTC(), Reason: g.Reason}
		if g.Successor != "" {
			out.Deactivated.Successor, out.SuccessorKey = succ.Canonical(), succ.Key()
		}
	}
	return out, "", ""
}
