package resolver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// The admin API's registrar paths (registrars.go says what registrars
// are); routes.go routes to them:
//
//	POST /admin/registrars                       add a registrar {"code","prefix","modes"}
//	GET  /admin/registrars                       every registrar (public)
//	GET  /admin/registrars/CODE                  one registrar (public)
//	POST /admin/registrars/CODE/urns             mint: a record without urn gets the next URN
//	                                             (201, Location, the record with its urn); one
//	                                             with a urn registers it (reserved, or the
//	                                             registrar's own choice)
//	POST /admin/registrars/CODE/reservations?count=N[&expires=RFC3339]
//	                                             reserve N URNs (201, their list)
//
// Adding a registrar needs a token of no registrar that covers its whole
// prefix; minting and reserving need a token of the registrar
// (urnresolver token create --registrar CODE).

// registrarMembers are the member names of a new registrar's body.
var registrarMembers = map[string]bool{"code": true, "prefix": true, "modes": true}

// adminAddRegistrar answers POST /admin/registrars.
func (s *Server) adminAddRegistrar(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r, "a registrar")
	if !ok {
		return
	}
	if je := checkJSON(body, registrarMembers); je != nil {
		writeProblem(w, je.fieldError().problem())
		return
	}
	var in struct {
		Code   string   `json:"code"`
		Prefix string   `json:"prefix"`
		Modes  []string `json:"modes"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeProblem(w, (&FieldError{Reason: `not a registrar {"code", "prefix", "modes"}: ` + jsonReason(err)}).problem())
		return
	}
	reg, err := s.rec.addRegistrar(r.Context(), wr, in.Code, in.Prefix, in.Modes)
	if err != nil {
		s.adminError(w, r, "registrar", err)
		return
	}
	s.log.Info("registrar added", "code", reg.Code, "prefix", reg.Prefix, "modes", strings.Join(reg.Modes, ","), "actor", "token:"+wr.tok.ID, "client", wr.client)
	w.Header().Set("Location", "/admin/registrars/"+reg.Code)
	writeJSON(w, http.StatusCreated, reg)
}

// adminRegistrars answers GET /admin/registrars.
func (s *Server) adminRegistrars(w http.ResponseWriter, r *http.Request) {
	regs, err := s.store.Registrars(r.Context())
	if err != nil {
		s.adminError(w, r, "registrar", err)
		return
	}
	if regs == nil {
		regs = []Registrar{}
	}
	writeJSON(w, http.StatusOK, regs)
}

// adminRegistrar answers GET /admin/registrars/CODE.
func (s *Server) adminRegistrar(w http.ResponseWriter, r *http.Request) {
	reg, err := s.store.Registrar(r.Context(), registrarCode(r))
	if err != nil {
		s.adminError(w, r, "registrar", err)
		return
	}
	writeJSON(w, http.StatusOK, reg)
}

// adminMint answers POST /admin/registrars/CODE/urns: 201 with the
// record as stored, its URN in the body and in Location.
func (s *Server) adminMint(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	code := registrarCode(r)
	rec, ok := s.readRecord(w, r)
	if !ok {
		return
	}
	var stored store.Record
	var err error
	action := "minted"
	if rec.URN == "" {
		stored, err = s.rec.mint(r.Context(), wr, code, rec)
	} else {
		// A URN of the registrar's: reserved for it, or its own choice.
		action = "registered"
		if err = asRegistrar(wr, code); err == nil {
			stored, err = s.rec.create(r.Context(), wr, rec)
		}
	}
	if err != nil {
		s.adminError(w, r, "mint", err)
		return
	}
	s.log.Info("URN "+action, "urn", stored.URN, "registrar", code, "actor", "token:"+wr.tok.ID, "client", wr.client)
	w.Header().Set("Location", "/admin/records/"+stored.URN)
	s.writeStored(w, http.StatusCreated, stored)
}

// reservationAnswer is the body of a reservation's answer.
type reservationAnswer struct {
	Registrar string    `json:"registrar"`
	URNs      []string  `json:"urns"`
	Expires   time.Time `json:"expires,omitzero"`
}

// adminReserve answers POST /admin/registrars/CODE/reservations.
func (s *Server) adminReserve(w http.ResponseWriter, r *http.Request) {
	wr, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	code := registrarCode(r)
	q := r.URL.Query()
	count, err := strconv.Atoi(q.Get("count"))
	if err != nil {
		p := newProblem(probBadRequest, http.StatusBadRequest, "count is the number of URNs to reserve, 1 to "+strconv.Itoa(maxReservation)+": ?count=N")
		p.Field = "count"
		writeProblem(w, p)
		return
	}
	var expires time.Time
	if v := q.Get("expires"); v != "" {
		if expires, err = time.Parse(time.RFC3339, v); err != nil {
			p := newProblem(probBadRequest, http.StatusBadRequest, "expires is an RFC 3339 time, as in 2030-01-01T00:00:00Z")
			p.Field = "expires"
			writeProblem(w, p)
			return
		}
	}
	res, err := s.rec.reserve(r.Context(), wr, code, count, expires)
	if err != nil {
		s.adminError(w, r, "reserve", err)
		return
	}
	s.wrote()
	ans := reservationAnswer{Registrar: code, URNs: make([]string, len(res)), Expires: expires.UTC()}
	for i, v := range res {
		ans.URNs[i] = v.URN
	}
	s.log.Info("URNs reserved", "registrar", code, "count", len(res), "expires", expires, "actor", "token:"+wr.tok.ID, "client", wr.client)
	writeJSON(w, http.StatusCreated, ans)
}

// registrarCode returns the code of a path under /admin/registrars/, as
// the client sent it: the routing matched the raw path (routes.go), so
// the mux's path values are not set on the request.
func registrarCode(r *http.Request) string {
	path, _, _ := splitTarget(r)
	code, _, _ := strings.Cut(strings.TrimPrefix(path, "/admin/registrars/"), "/")
	return code
}
