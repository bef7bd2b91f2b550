package engine_test

import (
	"context"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

func hasBeta(r *llmtest.Request, beta string) bool {
	for _, b := range strings.Split(r.Header.Get("anthropic-beta"), ",") {
		if b == beta {
			return true
		}
	}
	return false
}

func TestEffortChangeAppliesFromTheNextRequestAndKeepsThePrefix(t *testing.T) {
	h := newHarness(t, engine.Config{Model: "claude-opus-5-5", Effort: "high"}, nil,
		llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three"))
	h.run(t, context.Background(), "first")
	h.sess.SetEffort("xhigh")
	h.run(t, context.Background(), "second")
	h.sess.SetEffort("")
	h.run(t, context.Background(), "third")
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []string{"high", "xhigh", "medium"} { // "" is the model's default
		if got := effortOf(reqs[i]); got != want {
			t.Errorf("request %d: effort %q, want %q", i+1, got, want)
		}
		if !hasBeta(reqs[i], llm.EffortBeta) {
			t.Errorf("request %d: anthropic-beta %q lacks %s", i+1, reqs[i].Header.Get("anthropic-beta"), llm.EffortBeta)
		}
	}
	// The cached prefix (system and tools) and the beta header stay the
	// same across the change.
	for i := 1; i < len(reqs); i++ {
		a, b := reqs[i-1].Body, reqs[i].Body
		cut := strings.Index(string(a), `"messages":`)
		if cut < 0 || string(a[:cut]) != string(b[:cut]) || reqs[i-1].Header.Get("anthropic-beta") != reqs[i].Header.Get("anthropic-beta") {
			t.Errorf("request %d changed the prefix or the betas", i+1)
		}
	}
}

func TestEffortIsNotSentToModelsThatRefuseIt(t *testing.T) {
	h := newHarness(t, engine.Config{Model: "claude-sonnet-4-5", Effort: "high"}, nil, llmtest.Reply("ok"))
	h.run(t, context.Background(), "hi")
	r := h.srv.Requests()[0]
	if strings.Contains(string(r.Body), "output_config") || hasBeta(r, llm.EffortBeta) {
		t.Errorf("sonnet 4.5 got effort: beta %q, body %s", r.Header.Get("anthropic-beta"), r.Body)
	}
}

func TestThinkingDisplayGoesWithThinkingOnly(t *testing.T) {
	h := newHarness(t, engine.Config{Model: "claude-opus-5-5", Thinking: &llm.Thinking{Type: "adaptive"}, ThinkingDisplay: "summarized"}, nil, llmtest.Reply("ok"))
	h.run(t, context.Background(), "hi")
	if got := string(h.srv.Requests()[0].Thinking); got != `{"type":"adaptive","display":"summarized"}` {
		t.Errorf("thinking %s", got)
	}
	h = newHarness(t, engine.Config{Thinking: &llm.Thinking{Type: "disabled"}, ThinkingDisplay: "omitted"}, nil, llmtest.Reply("ok"))
	h.run(t, context.Background(), "hi")
	if got := string(h.srv.Requests()[0].Thinking); got != `{"type":"disabled"}` {
		t.Errorf("thinking off: %s", got)
	}
}

func TestUltrathinkRaisesTheEffortForItsTurnOnly(t *testing.T) {
	h := newHarness(t, engine.Config{Model: "claude-opus-5-5"}, nil, llmtest.Reply("one"), llmtest.Reply("two"))
	for _, prompt := range []string{"ultrathink: why is this slow?", "and now?"} {
		for range h.sess.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock(prompt)}, MinEffort: engine.PromptEffort(prompt)}) {
		}
	}
	reqs := h.srv.Requests()
	if a, b := effortOf(reqs[0]), effortOf(reqs[1]); a != "high" || b != "medium" {
		t.Errorf("efforts %q then %q, want high for the ultrathink turn, then the default medium", a, b)
	}
	for prompt, want := range map[string]string{"Ultrathink about it": "high", "ultrathinking": "", "think hard": ""} {
		if got := engine.PromptEffort(prompt); got != want {
			t.Errorf("PromptEffort(%q) = %q, want %q", prompt, got, want)
		}
	}
}

// effortOf is the output_config.effort of a captured request ("" for
// none).
func effortOf(r *llmtest.Request) string {
	level, _ := r.Effort()
	return level
}

// set_max_thinking_tokens after --thinking disabled changed nothing: the
// thinking type won over any budget. A budget now replaces it; 0 keeps
// the type.
func TestSetMaxThinkingTokensReplacesAThinkingType(t *testing.T) {
	h := newHarness(t, engine.Config{Thinking: &llm.Thinking{Type: "disabled"}}, nil, llmtest.Reply("one"), llmtest.Reply("two"))
	h.sess.SetMaxThinkingTokens(0)
	h.run(t, context.Background(), "hi")
	h.sess.SetMaxThinkingTokens(2000)
	h.run(t, context.Background(), "again")
	reqs := h.srv.Requests()
	if got := string(reqs[0].Thinking); got != `{"type":"disabled"}` {
		t.Errorf("after 0: thinking %s, want the type kept", got)
	}
	if got := string(reqs[1].Thinking); got != `{"type":"enabled","budget_tokens":2000}` {
		t.Errorf("after 2000: thinking %s, want that budget", got)
	}
}
