package resolver

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// OAIConfig configures the OAI-PMH 2.0 provider at /oai (harvest.go).
type OAIConfig struct {
	// RepositoryName is Identify's repositoryName; default "URN resolver".
	RepositoryName string
	// AdminEmail are Identify's adminEmail addresses; default
	// "admin@example.org", which an operator should replace.
	AdminEmail []string
	// BaseURL is the provider's base URL; default "http://" and the
	// request's Host and "/oai".
	BaseURL string
	// PageSize is the number of records (or headers) per page of a
	// list; default 200.
	PageSize int
}

type oaiConfig struct {
	name     string
	emails   []string
	baseURL  string
	pageSize int
}

func (c OAIConfig) withDefaults() oaiConfig {
	o := oaiConfig{name: c.RepositoryName, emails: c.AdminEmail, baseURL: c.BaseURL, pageSize: c.PageSize}
	if o.name == "" {
		o.name = "URN resolver"
	}
	if len(o.emails) == 0 {
		o.emails = []string{"admin@example.org"}
	}
	if o.pageSize <= 0 {
		o.pageSize = 200
	}
	return o
}

// maxOAIBody bounds the body of a POST to /oai: a few arguments.
const maxOAIBody = 64 << 10

// serveOAI answers /oai: the OAI-PMH request in the query of a GET or
// in an application/x-www-form-urlencoded POST body (section 3.1.1),
// as an XML document; the protocol's errors are in the document (200),
// and a store failure is 503 (section 3.1.3 lets a harvester retry).
func (s *Server) serveOAI(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.RawQuery
	if r.Method == http.MethodPost {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/x-www-form-urlencoded" {
			writeProblem(w, newProblem(probMediaType, http.StatusUnsupportedMediaType,
				fmt.Sprintf("an OAI-PMH POST body is application/x-www-form-urlencoded, not %q", truncate(r.Header.Get("Content-Type"), 80))))
			return
		}
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOAIBody))
		if err != nil {
			writeProblem(w, newProblem(probTooLarge, http.StatusRequestEntityTooLarge, fmt.Sprintf("an OAI-PMH request body is at most %d bytes", maxOAIBody)))
			return
		}
		if raw != "" {
			// Arguments in both places would be read twice.
			s.writeOAI(w, r, time.Now(), oaiRequest{}, []oaiError{{errBadArgument, "a POST carries its arguments in the body only, not in the URL"}}, nil)
			return
		}
		raw = string(b)
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		s.writeOAI(w, r, time.Now(), oaiRequest{}, []oaiError{{errBadArgument, "the arguments are not application/x-www-form-urlencoded: " + err.Error()}}, nil)
		return
	}
	req, errs := parseOAI(q)
	if errs != nil {
		s.writeOAI(w, r, time.Now(), oaiRequest{}, errs, nil)
		return
	}
	ctx := r.Context()
	now := time.Now()
	var body bytes.Buffer
	switch req.Verb {
	case "Identify":
		earliest, ok, err := s.store.db.Earliest(ctx)
		if err != nil {
			s.storeFailed(w, r, "oai", err)
			return
		}
		if !ok {
			earliest = now
		}
		fmt.Fprintf(&body, "<Identify><repositoryName>%s</repositoryName><baseURL>%s</baseURL><protocolVersion>2.0</protocolVersion>",
			xmlText(s.oai.name), xmlText(s.baseURL(r)))
		for _, e := range s.oai.emails {
			fmt.Fprintf(&body, "<adminEmail>%s</adminEmail>", xmlText(e))
		}
		fmt.Fprintf(&body, "<earliestDatestamp>%s</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>",
			datestamp(earliest))
	case "ListMetadataFormats":
		errs, err := s.oaiFormats(ctx, req)
		if err != nil {
			s.storeFailed(w, r, "oai", err)
			return
		}
		if errs != nil {
			s.writeOAI(w, r, now, req, errs, nil)
			return
		}
		fmt.Fprintf(&body, "<ListMetadataFormats><metadataFormat><metadataPrefix>%s</metadataPrefix><schema>%s</schema><metadataNamespace>%s</metadataNamespace></metadataFormat></ListMetadataFormats>",
			oaiDCPrefix, oaiDCSchema, oaiDCNamespace)
	case "ListSets":
		if req.Args.Has("resumptionToken") {
			s.writeOAI(w, r, now, req, []oaiError{{errBadToken, "ListSets answers in one response: this repository issues no token for it"}}, nil)
			return
		}
		sets, err := s.oaiSets(ctx)
		if err != nil {
			s.storeFailed(w, r, "oai", err)
			return
		}
		if len(sets) == 0 {
			s.writeOAI(w, r, now, req, []oaiError{{errNoSetHierarchy, "the repository holds no record, so it has no set"}}, nil)
			return
		}
		body.WriteString("<ListSets>")
		for _, set := range sets {
			fmt.Fprintf(&body, "<set><setSpec>%s</setSpec><setName>%s</setName></set>", xmlText(set.Spec), xmlText(set.Name))
		}
		body.WriteString("</ListSets>")
	case "GetRecord":
		h, errs, err := s.oaiRecord(ctx, req)
		if err != nil {
			s.storeFailed(w, r, "oai", err)
			return
		}
		if errs != nil {
			s.writeOAI(w, r, now, req, errs, nil)
			return
		}
		body.WriteString("<GetRecord>")
		writeOAIRecord(&body, h)
		body.WriteString("</GetRecord>")
	case "ListIdentifiers", "ListRecords":
		list, errs, err := s.oaiListRecords(ctx, req)
		if err != nil {
			s.storeFailed(w, r, "oai", err)
			return
		}
		if !list.Horizon.IsZero() {
			// A harvester starts its next incremental harvest from
			// this responseDate: every change up to it is in this list
			// (harvest.go).
			now = list.Horizon
		}
		if errs != nil {
			s.writeOAI(w, r, now, req, errs, nil)
			return
		}
		fmt.Fprintf(&body, "<%s>", req.Verb)
		for _, h := range list.Records {
			if req.Verb == "ListIdentifiers" {
				writeOAIHeader(&body, h)
			} else {
				writeOAIRecord(&body, h)
			}
		}
		if list.Token != "" || list.Cursor > 0 {
			// The last page of a list of several has an empty token
			// (section 3.5.1).
			fmt.Fprintf(&body, `<resumptionToken cursor="%d">%s</resumptionToken>`, list.Cursor, list.Token)
		}
		fmt.Fprintf(&body, "</%s>", req.Verb)
	}
	s.writeOAI(w, r, now, req, nil, body.Bytes())
}

// baseURL is the provider's base URL, the content of the request
// element and Identify's baseURL.
func (s *Server) baseURL(r *http.Request) string {
	if s.oai.baseURL != "" {
		return s.oai.baseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/oai"
}

// writeOAI writes the response document: its responseDate (at, to the
// second, floored), the request element (with the arguments when the
// request had no badVerb or badArgument error, section 3.2), and the
// errors or the verb's element.
func (s *Server) writeOAI(w http.ResponseWriter, r *http.Request, at time.Time, req oaiRequest, errs []oaiError, verbBody []byte) {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">`)
	fmt.Fprintf(&b, "<responseDate>%s</responseDate><request", datestamp(at))
	for _, e := range errs {
		if e.Code == errBadVerb || e.Code == errBadArgument {
			req = oaiRequest{}
		}
	}
	if req.Verb != "" {
		fmt.Fprintf(&b, ` verb="%s"`, req.Verb)
		names := make([]string, 0, len(req.Args))
		for k := range req.Args {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, ` %s="%s"`, k, xmlText(req.Args.Get(k)))
		}
	}
	fmt.Fprintf(&b, ">%s</request>", xmlText(s.baseURL(r)))
	for _, e := range errs {
		fmt.Fprintf(&b, `<error code="%s">%s</error>`, e.Code, xmlText(e.Text))
	}
	b.Write(verbBody)
	b.WriteString("</OAI-PMH>\n")
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}

// writeOAIHeader writes a record's header: identifier, datestamp,
// sets, and status="deleted" for a deactivated record.
func writeOAIHeader(b *bytes.Buffer, h oaiItem) {
	if h.Deactivated != nil {
		b.WriteString(`<header status="deleted">`)
	} else {
		b.WriteString("<header>")
	}
	fmt.Fprintf(b, "<identifier>%s</identifier><datestamp>%s</datestamp>", xmlText(h.URN), datestamp(h.Changed))
	for _, spec := range h.Sets {
		fmt.Fprintf(b, "<setSpec>%s</setSpec>", xmlText(spec))
	}
	b.WriteString("</header>")
}

// writeOAIRecord writes a record: its header and, unless it is deleted,
// its metadata in oai_dc: the title, the URN and its locations as
// identifiers, and the date it was registered.
func writeOAIRecord(b *bytes.Buffer, h oaiItem) {
	b.WriteString("<record>")
	writeOAIHeader(b, h)
	if h.Deactivated == nil {
		b.WriteString(`<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">`)
		if t := titleOf(h.Metadata); t != "" {
			fmt.Fprintf(b, "<dc:title>%s</dc:title>", xmlText(t))
		}
		fmt.Fprintf(b, "<dc:identifier>%s</dc:identifier>", xmlText(h.URN))
		for _, u := range h.URLs {
			fmt.Fprintf(b, "<dc:identifier>%s</dc:identifier>", xmlText(u))
		}
		fmt.Fprintf(b, "<dc:date>%s</dc:date></oai_dc:dc></metadata>", h.Created.UTC().Format("2006-01-02"))
	}
	b.WriteString("</record>")
}

// xmlText escapes s for XML character data and attribute values; a
// character XML 1.0 does not allow (a control character a title may
// hold) becomes U+FFFD.
func xmlText(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
