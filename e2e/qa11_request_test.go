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

// The compaction summary request carried no output_config.effort and no
// effort beta, so the summary ran at the API's default level instead of
// the one the user chose, with a different anthropic-beta header than
// the conversation's requests. It now carries both, like Claude Code's.
func TestCompactionRequestCarriesTheChosenEffort(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("<summary>what happened</summary>"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "first question", "--effort", "high"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "/compact", "-c", "--effort", "high", "--max-thinking-tokens", "3000"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the question and the summary", len(reqs))
	}
	sum := reqs[1]
	if level, beta := sum.Effort(); level != "high" || !beta {
		t.Errorf("summary request: effort %q, beta %v; want high with the beta (anthropic-beta %q)", level, beta, sum.Header.Get("anthropic-beta"))
	}
	if th, _ := thinkingOf(t, sum); th != `{"type":"adaptive"}` {
		t.Errorf("summary request thinking %s, want adaptive", th)
	}
	if a, b := reqs[0].Header.Get("anthropic-beta"), sum.Header.Get("anthropic-beta"); a != b {
		t.Errorf("anthropic-beta differs: conversation %q, summary %q", a, b)
	}
}

// A sub-agent's requests were sent without thinking when the
// conversation's had it (--max-thinking-tokens, --thinking), so the
// delegated work ran without the reasoning the user asked for; Claude
// Code's sub-agents think as the conversation does.
func TestSubagentRequestsThinkLikeTheConversation(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Agent", map[string]any{"description": "look", "prompt": "list the files", "subagent_type": "general-purpose"})),
		llmtest.Reply("the files"),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "delegate", "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "3000"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if th, _ := thinkingOf(t, r); th != `{"type":"enabled","budget_tokens":3000}` {
			t.Errorf("request %d (%s): thinking %s, want the conversation's budget", i+1, r.LastUserText()[:min(30, len(r.LastUserText()))], th)
		}
	}
}
