package tool

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// Coerce returns input with the strings a model wrote for number, integer
// and boolean fields turned into those types ("offset": "10" becomes 10,
// "replace_all": "true" becomes true), as Claude Code's tools accept them.
// Only a field whose schema allows exactly one of those types and not a
// string is changed, and only when the whole string spells a value of
// that type, so Coerce changes nothing valid input means. It walks nested
// objects and arrays of objects (MultiEdit's edits). Input it cannot read,
// or with nothing to change, comes back as it is; so does everything when
// the schema does not compile (Validate reports that).
func (s *Schemas) Coerce(schema, input json.RawMessage) json.RawMessage {
	c := s.get(schema)
	if c.err != nil || !bytes.Contains(input, []byte(`"`)) {
		return input
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return input
	}
	nv, changed := coerceValue(c.rs.Schema(), v)
	if !changed {
		return input
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nv); err != nil {
		return input
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// coerceValue converts v where schema s asks for a scalar and v is a
// string spelling one, recursing through object properties and array
// items. It reports whether anything changed.
func coerceValue(s *jsonschema.Schema, v any) (any, bool) {
	if s == nil {
		return v, false
	}
	switch x := v.(type) {
	case string:
		return coerceString(scalarType(s), x)
	case map[string]any:
		changed := false
		for k, fv := range x {
			if nv, ok := coerceValue(s.Properties[k], fv); ok {
				x[k], changed = nv, true
			}
		}
		return x, changed
	case []any:
		changed := false
		for i, iv := range x {
			if nv, ok := coerceValue(s.Items, iv); ok {
				x[i], changed = nv, true
			}
		}
		return x, changed
	}
	return v, false
}

// scalarType returns "integer", "number" or "boolean" when that is the one
// non-null type s allows, and "" otherwise (strings allowed, several
// types, no type).
func scalarType(s *jsonschema.Schema) string {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	found := ""
	for _, t := range types {
		switch t {
		case "null":
		case "integer", "number", "boolean":
			if found != "" {
				return ""
			}
			found = t
		default:
			return ""
		}
	}
	return found
}

func coerceString(typ, s string) (any, bool) {
	switch typ {
	case "boolean":
		switch s {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case "integer":
		if _, err := strconv.ParseInt(s, 10, 64); err == nil && json.Valid([]byte(s)) {
			return json.Number(s), true
		}
	case "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && json.Valid([]byte(s)) {
			return json.Number(s), true
		}
	}
	return s, false
}
