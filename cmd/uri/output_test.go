package main

import "github.com/urikit/urikit/internal/jsonstr"

// render is a result that writes itself, in either form: the tests put
// a bug in the writing of a result with it (panic_test.go).
type render func(w *writer)

func (r render) writeJSON(w *writer)  { r(w) }
func (r render) writePlain(w *writer) { r(w) }

// appendJSONString appends s to b as a JSON string, as every JSON
// string of the command is written (jsonstr.Append): TestJSONString
// compares it with encoding/json.
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s) }
