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
	once sync.Once // compiles; the first user waits, the others wait for it
	rs   *jsonschema.Resolved
	err  error
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
	if s.m == nil {
		s.m = map[string]*compiled{}
	}
	key := string(schema)
	c := s.m[key]
	if c == nil {
		c = &compiled{}
		s.m[key] = c
	}
	s.mu.Unlock()
	// Outside the lock: schemas compile side by side, and a call waits only
	// for the schema it needs.
	c.once.Do(func() {
		var sc jsonschema.Schema
		if err := json.Unmarshal(schema, &sc); err != nil {
			c.err = err
			return
		}
		// The $schema keyword names a draft URL; resolving needs no network.
		c.rs, c.err = sc.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: false})
	})
	return c
}

// Warm compiles schemas ahead of their first use. Compiling one takes
// a good part of a millisecond (most of it decoding into the schema
// type), so a session warms the tools it expects to see while its first
// request is out, instead of on each tool's first call.
func (s *Schemas) Warm(schemas ...json.RawMessage) {
	for _, sc := range schemas {
		s.get(sc)
	}
}

// cleanSchemaError shortens the validator's message to what a model can
// act on.
func cleanSchemaError(msg string) string {
	msg = strings.TrimPrefix(msg, "validating root: ")
	msg = strings.ReplaceAll(msg, "validating /properties/", "field ")
	return msg
}

// WithoutProperty returns an object schema with the named property left
// out of its properties (a tool offering less under some setting, such
// as run_in_background when background tasks are off). A schema that does
// not decode is returned unchanged.
func WithoutProperty(schema json.RawMessage, name string) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		return schema
	}
	if props, ok := m["properties"].(map[string]any); ok {
		delete(props, name)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return schema
	}
	return b
}
