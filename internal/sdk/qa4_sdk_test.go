package sdk

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/streamjson"
)

// AwaitInitialize gives the initialize request when it is the first
// message (answers to reins's requests and keep-alives before it aside),
// and nil when something else comes first or the input ends.
func TestQA4AwaitInitializeReadsOnlyALeadingInitialize(t *testing.T) {
	cases := []struct {
		name, input string
		want        string // the mcpServers it carries; "" for nil
	}{
		{"initialize first", `{"type":"keep_alive"}` + "\n" +
			`{"type":"control_request","request_id":"i","request":{"subtype":"initialize","mcpServers":{"a":{"command":"x"}}}}` + "\n", `{"a":{"command":"x"}}`},
		{"user first", `{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}` + "\n" +
			`{"type":"control_request","request_id":"i","request":{"subtype":"initialize","mcpServers":{}}}` + "\n", ""},
		{"bad line first", "{not json\n", ""},
		{"no input", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			models := llm.NewModels(func(string) string { return "" })
			sess := engine.New(engine.Config{Provider: anthropic.New(anthropic.Config{BaseURL: "http://127.0.0.1:1", APIKey: "x"}), Models: models})
			srv := New(Config{In: strings.NewReader(tc.input), Out: streamjson.NewWriter(io.Discard, streamjson.Options{}), Models: models,
				Session: func() *engine.Session { return sess }})
			srv.Start()
			req := srv.AwaitInitialize(context.Background())
			got := ""
			if req != nil {
				got = string(req.MCPServers)
			}
			if got != tc.want {
				t.Errorf("AwaitInitialize gave mcpServers %q, want %q", got, tc.want)
			}
		})
	}
}

// shouldQuery is read as a boolean: false holds the message, true or
// absent runs it, anything else is an error that names the field.
func TestQA4ShouldQueryIsDecoded(t *testing.T) {
	line := func(v string) []byte {
		return []byte(`{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null` + v + `}`)
	}
	for _, tc := range []struct {
		extra string
		hold  bool
	}{{"", false}, {`,"shouldQuery":true`, false}, {`,"shouldQuery":false`, true}, {`,"shouldQuery":null`, false}} {
		m, err := Decode(line(tc.extra), 1)
		if err != nil || m.User == nil || m.User.Hold != tc.hold {
			t.Errorf("%s: %+v, %v; want Hold %v", tc.extra, m, err, tc.hold)
		}
	}
	if _, err := Decode(line(`,"shouldQuery":"no"`), 1); err == nil || !strings.Contains(err.Error(), "shouldQuery") {
		t.Errorf("shouldQuery \"no\": error %v", err)
	}
}

// A schema whose type names no JSON Schema type is refused, saying where;
// the schema library let it through and the API would have refused every
// request. A property that is itself named "type" is still fine.
func TestQA4SchemaWithAnUnknownTypeIsRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"objekt"}`, `schema.type: "objekt" is not a JSON Schema type`},
		{`{"type":"object","properties":{"n":{"type":["number","nul"]}}}`, `schema.properties.n.type: "nul" is not a JSON Schema type`},
		{`{"type":"object","properties":{"type":{"type":"string","enum":["a"]}},"required":["type"]}`, ""},
		{`{"type":"array","items":{"type":"string","default":{"type":"anything"}}}`, ""},
	} {
		err := ParseSchema(json.RawMessage(tc.schema))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.schema, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.schema, err, tc.want)
		}
	}
}
