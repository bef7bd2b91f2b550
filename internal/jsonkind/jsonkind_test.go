package jsonkind

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestFieldProblemNamesTheJSONAFieldNeeds(t *testing.T) {
	var v struct {
		Name    string            `json:"name"`
		On      *bool             `json:"on"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		Timeout int               `json:"timeout"`
	}
	for in, want := range map[string]string{
		`{"name": 5}`:       "x.name must be a string, not a JSON number",
		`{"on": "yes"}`:     "x.on must be true or false, not a JSON string",
		`{"args": "a b"}`:   "x.args must be an array of strings, not a JSON string",
		`{"env": []}`:       "x.env must be an object, not a JSON array",
		`{"timeout": "1s"}`: "x.timeout must be a number, not a JSON string",
	} {
		err := json.Unmarshal([]byte(in), &v)
		if got, ok := FieldProblem(err, "x."); !ok || got != want {
			t.Errorf("%s: got %q (%v), want %q", in, got, ok, want)
		}
	}
	if got, ok := FieldProblem(errors.New("json: unexpected end of JSON input"), ""); ok || got != "unexpected end of JSON input" {
		t.Errorf("other error: got %q (%v)", got, ok)
	}
}
