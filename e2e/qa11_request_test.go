package e2e

import (
	"encoding/json"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// thinkingOf is a request's thinking field ("" when it has none) and
// max_tokens.
func thinkingOf(t *testing.T, r *llmtest.Request) (string, int) {
	t.Helper()
	var body struct {
		Thinking  json.RawMessage `json:"thinking"`
		MaxTokens int             `json:"max_tokens"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	return string(body.Thinking), body.MaxTokens
}

// Claude Opus 4.7 and later answer 400 to a thinking budget and to
// "disabled"; reins sent both to its default model (claude-opus-5-5)
// for --max-thinking-tokens, MAX_THINKING_TOKENS and --thinking disabled.
// Now a budget asks for adaptive thinking, as Claude Code does, and
// "disabled" leaves the field out; max_tokens is not raised by a budget
// that is not sent.
func TestThinkingOnAnAdaptiveOnlyModelIsAdaptiveOrAbsent(t *testing.T) {
	srv := server(t, llmtest.Reply("a"), llmtest.Reply("b"), llmtest.Reply("c"), llmtest.Reply("d"))
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, args := range [][]string{
		{"-p", "hi", "--max-thinking-tokens", "4000"},
		{"-p", "hi", "--model", "claude-opus-4-7", "--max-thinking-tokens", "2000"},
		{"-p", "hi", "--thinking", "disabled"},
		{"-p", "hi"},
	} {
		if r := sb.Run(t, "", args...); r.Code != 0 {
			t.Fatalf("%v: code %d err %q", args, r.Code, r.Stderr)
		}
	}
	reqs := srv.Requests()
	_, plain := thinkingOf(t, reqs[3])
	for i, want := range []string{`{"type":"adaptive"}`, `{"type":"adaptive"}`, ""} {
		got, maxTokens := thinkingOf(t, reqs[i])
		if got != want {
			t.Errorf("request %d: thinking %s, want %s", i+1, got, want)
		}
		if maxTokens != plain {
			t.Errorf("request %d: max_tokens %d, want the plain cap %d", i+1, maxTokens, plain)
		}
	}
}
