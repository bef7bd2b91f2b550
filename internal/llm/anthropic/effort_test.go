package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
)

func TestEncodeSendsEffortInOutputConfig(t *testing.T) {
	base := func() *llm.Request {
		return &llm.Request{Model: "claude-opus-5-5", MaxTokens: 10, Messages: []*llm.Message{llm.NewUserText("hi")}}
	}
	for _, tc := range []struct {
		name  string
		edit  func(*llm.Request)
		want  string // output_config as encoded, "" for none
		extra string // another top-level field that must stay
	}{
		{"none", func(*llm.Request) {}, "", ""},
		{"effort", func(r *llm.Request) { r.Effort = "high" }, `{"effort":"high"}`, ""},
		{"merged with the extra body's output_config", func(r *llm.Request) {
			r.Effort = "low"
			r.Extra = map[string]json.RawMessage{"output_config": json.RawMessage(`{"format":{"type":"json_schema"}}`), "metadata": json.RawMessage(`{"user_id":"u"}`)}
		}, `{"effort":"low","format":{"type":"json_schema"}}`, `"metadata":{"user_id":"u"}`},
		{"the extra body's own effort wins", func(r *llm.Request) {
			r.Effort = "low"
			r.Extra = map[string]json.RawMessage{"output_config": json.RawMessage(`{"effort":"max"}`)}
		}, `{"effort":"max"}`, ""},
		{"extra output_config alone passes through", func(r *llm.Request) {
			r.Extra = map[string]json.RawMessage{"output_config": json.RawMessage(`{"format":1}`)}
		}, `{"format":1}`, ""},
	} {
		r := base()
		tc.edit(r)
		body, err := EncodeRequest(r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s: body is not JSON: %v\n%s", tc.name, err, body)
		}
		if got := string(m["output_config"]); got != tc.want {
			t.Errorf("%s: output_config = %s, want %s", tc.name, got, tc.want)
		}
		if tc.extra != "" && !strings.Contains(string(body), tc.extra) {
			t.Errorf("%s: %s lost from %s", tc.name, tc.extra, body)
		}
	}
}

func TestEncodeRefusesANonObjectOutputConfigWithEffort(t *testing.T) {
	r := &llm.Request{Model: "m", MaxTokens: 1, Messages: []*llm.Message{llm.NewUserText("hi")}, Effort: "low",
		Extra: map[string]json.RawMessage{"output_config": json.RawMessage(`[1]`)}}
	if _, err := EncodeRequest(r); err == nil || !strings.Contains(err.Error(), "output_config") {
		t.Fatalf("err = %v, want one naming output_config", err)
	}
}

func TestEncodeSendsThinkingDisplay(t *testing.T) {
	r := &llm.Request{Model: "m", MaxTokens: 1, Messages: []*llm.Message{llm.NewUserText("hi")},
		Thinking: &llm.Thinking{Type: "adaptive", Display: "omitted"}}
	body, err := EncodeRequest(r)
	if err != nil || !strings.Contains(string(body), `"thinking":{"type":"adaptive","display":"omitted"}`) {
		t.Fatalf("body %s, err %v", body, err)
	}
}
