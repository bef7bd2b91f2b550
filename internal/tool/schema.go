package tool

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schemas compiles and caches tool input schemas. Safe for concurrent use;
// the zero value is ready.
type Schemas struct {
	mu sync.Mutex
	m  map[string]*compiled // by schema text
}

type compiled struct {
	rs  *jsonschema.Resolved
	err error
}

// Validate checks input against schema. The error names the field at fault.
func (s *Schemas) Validate(schema, input json.RawMessage) error {
	c := s.get(schema)
	if c.err != nil {
		return fmt.Errorf("tool schema is invalid: %w", c.err)
	}
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return fmt.Errorf("input is not valid JSON: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("input must be a JSON object")
	}
	if err := c.rs.Validate(v); err != nil {
		return fmt.Errorf("%s", cleanSchemaError(err.Error()))
	}
	return nil
}

func (s *Schemas) get(schema json.RawMessage) *compiled {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*compiled{}
	}
	key := string(schema)
	if c, ok := s.m[key]; ok {
		return c
	}
	c := &compiled{}
	var sc jsonschema.Schema
	if err := json.Unmarshal(schema, &sc); err != nil {
		c.err = err
	} else {
		// The $schema keyword names a draft URL; resolving needs no network.
		c.rs, c.err = sc.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: false})
	}
	s.m[key] = c
	return c
}

// cleanSchemaError shortens the validator's message to what a model can
// act on.
func cleanSchemaError(msg string) string {
	msg = strings.TrimPrefix(msg, "validating root: ")
	msg = strings.ReplaceAll(msg, "validating /properties/", "field ")
	return msg
}
