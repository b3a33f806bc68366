package urn

import (
	"encoding/csv"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// registryExtras lists the NIDs the Go table may hold beyond the IANA
// registry copy, each with the reason. There are none.
var registryExtras = map[string]string{}

// TestRegistryMatchesIANA checks the transcribed table against the copy
// of the IANA URN Namespaces registry (updated 2026-05-28) committed in
// testdata/conformance/registries (CC0): every registered NID is in the
// table with the right kind, the table has no other NID except those in
// registryExtras, and the references and templates agree with the 2021
// CSV export for the NIDs it lists.
func TestRegistryMatchesIANA(t *testing.T) {
	var reg struct {
		RegistryUpdated    string   `json:"registryUpdated"`
		FormalNamespaces   []string `json:"formalNamespaces"`
		InformalNamespaces []string `json:"informalNamespaces"`
	}
	testshared.ReadJSON(t, &reg, "conformance", "registries", "urn-namespaces.2026-05-28.json")
	if reg.RegistryUpdated != "2026-05-28" {
		t.Errorf("registry copy updated %s; the table transcribes 2026-05-28", reg.RegistryUpdated)
	}
	want := map[string]bool{} // NID -> informal
	for _, nid := range reg.FormalNamespaces {
		want[strings.ToLower(nid)] = false
	}
	for _, nid := range reg.InformalNamespaces {
		want[strings.ToLower(nid)] = true
	}
	if len(want) != len(reg.FormalNamespaces)+len(reg.InformalNamespaces) || len(want) == 0 {
		t.Fatalf("registry copy has duplicate or no NIDs")
	}
	for nid, informal := range want {
		ns, ok := Lookup(nid)
		switch {
		case !ok:
			t.Errorf("registered NID %q is missing from the table", nid)
		case ns.Informal != informal:
			t.Errorf("%q: Informal = %v, want %v", nid, ns.Informal, informal)
		}
		if c := ClassifyNID(nid).Class; c.Valid() && (c == NIDInformal) != informal {
			t.Errorf("%q: ClassifyNID = %v", nid, c)
		}
	}
	for _, ns := range Namespaces() {
		if _, ok := want[ns.NID]; !ok && registryExtras[ns.NID] == "" {
			t.Errorf("table has %q, which the registry does not list", ns.NID)
		}
	}

	f, err := os.Open(testshared.Path(t, "conformance", "registries", "urn-namespaces.2021.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	bracket := regexp.MustCompile(`\[([^\]]*)\]`)
	rfc := regexp.MustCompile(`^RFC(\d+)$`)
	cell := func(s string) string {
		var parts []string
		for _, m := range bracket.FindAllStringSubmatch(s, -1) {
			parts = append(parts, rfc.ReplaceAllString(m[1], "RFC $1"))
		}
		return strings.Join(parts, ", ")
	}
	for _, row := range rows[1:] { // URN Namespace,Template,Reference
		ns, ok := Lookup(row[0])
		if !ok {
			t.Errorf("2021 NID %q is missing from the table", row[0])
			continue
		}
		if got, want := ns.Reference, cell(row[2]); got != want {
			t.Errorf("%q: Reference = %q, want %q", row[0], got, want)
		}
		if got, want := ns.Template, cell(row[1]); got != want {
			t.Errorf("%q: Template = %q, want %q", row[0], got, want)
		}
	}
}

// The table itself, without the shared copy: sizes and a few rows as the
// IANA registry (updated 2026-05-28) lists them.
func TestRegistryTable(t *testing.T) {
	formal, informal := 0, 0
	for _, ns := range Namespaces() {
		if ns.Informal {
			informal++
		} else {
			formal++
		}
		if c := ClassifyNID(ns.NID).Class; !c.Valid() {
			t.Errorf("registered NID %q classified %v", ns.NID, c)
		}
	}
	if formal != 96 || informal != 8 { // IANA registry, updated 2026-05-28
		t.Errorf("table has %d formal and %d informal NIDs, want 96 and 8", formal, informal)
	}
	tests := []struct{ nid, ref, template string }{
		{"isbn", "International ISBN Agency", "isbn-template"}, // IANA registry (RFC 8254 transition)
		{"oid", "RFC 3061", ""},
		{"dvb", "RFC 5328, RFC 7354", ""},
		{"ucode", "RFC 6588, RFC Errata 3188, RFC Errata 3189", ""},
		{"doi", "", ""}, // registered after the 2021 export
	}
	for _, tt := range tests {
		ns, ok := Lookup(strings.ToUpper(tt.nid))
		if !ok || ns.Reference != tt.ref || ns.Template != tt.template {
			t.Errorf("Lookup(%q) = %+v, %v; want reference %q, template %q", tt.nid, ns, ok, tt.ref, tt.template)
		}
	}
	if ns, ok := Lookup("urn-8"); !ok || !ns.Informal {
		t.Errorf("Lookup(urn-8) = %+v, %v", ns, ok)
	}
}

// TestImplementedAreRegistered: every namespace whose rules the package
// implements is in the IANA table (the registry is built without init
// functions, so nothing else checks it at start-up).
func TestImplementedAreRegistered(t *testing.T) {
	for nid, r := range implemented {
		ns, ok := Lookup(nid)
		if !ok || ns.Informal || !ns.Implemented() || ns.Rules != r.source {
			t.Errorf("implemented %q: Lookup = %+v, %v", nid, ns, ok)
		}
	}
}
