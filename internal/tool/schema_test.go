package tool

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// TestSchemasWarmThenValidateConcurrently: schemas warmed in the
// background and validated from several calls at once give the same
// answers as compiling on first use, an invalid schema included.
func TestSchemasWarmThenValidateConcurrently(t *testing.T) {
	good := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	bad := json.RawMessage(`{"type":"object","properties":{"n":{"type":7}}}`)
	var s Schemas
	var wg sync.WaitGroup
	wg.Go(func() { s.Warm(good, bad) })
	errs := make([][3]error, 8)
	for i := range errs {
		wg.Go(func() {
			errs[i] = [3]error{
				s.Validate(good, json.RawMessage(`{"n":3}`)),
				s.Validate(good, json.RawMessage(`{"n":"three"}`)),
				s.Validate(bad, json.RawMessage(`{"n":3}`)),
			}
		})
	}
	wg.Wait()
	for i, e := range errs {
		if e[0] != nil {
			t.Errorf("call %d: valid input refused: %v", i, e[0])
		}
		if e[1] == nil || !strings.Contains(e[1].Error(), "n") {
			t.Errorf("call %d: invalid input: %v, want an error naming field n", i, e[1])
		}
		if e[2] == nil || !strings.Contains(e[2].Error(), "tool schema is invalid") {
			t.Errorf("call %d: invalid schema: %v, want it reported", i, e[2])
		}
	}
}

func TestWithoutPropertyDropsOnlyThatProperty(t *testing.T) {
	in := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"run_in_background":{"type":"boolean"}},"required":["a"]}`)
	out := string(WithoutProperty(in, "run_in_background"))
	if strings.Contains(out, "run_in_background") || !strings.Contains(out, `"a":{"type":"string"}`) || !strings.Contains(out, `"required":["a"]`) {
		t.Errorf("WithoutProperty = %s", out)
	}
	if bad := json.RawMessage(`not json`); string(WithoutProperty(bad, "a")) != "not json" {
		t.Error("an undecodable schema was changed")
	}
}
