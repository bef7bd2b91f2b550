package engine_test

import (
	"context"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// SetSystem (another output style chosen) changes the system prompt of
// the next request; the conversation is kept.
func TestSetSystemReachesTheNextRequest(t *testing.T) {
	h := newHarness(t, engine.Config{System: []llm.SystemBlock{{Text: "test system"}}}, nil,
		llmtest.Reply("one"), llmtest.Reply("two"))
	h.run(t, context.Background(), "first")
	h.sess.SetSystem([]llm.SystemBlock{{Text: "new prompt: talk like a pirate", Cache: true}})
	h.run(t, context.Background(), "second")
	rs := h.srv.Requests()
	if len(rs) != 2 {
		t.Fatalf("%d requests", len(rs))
	}
	if !strings.Contains(rs[0].SystemText(), "test system") || !strings.Contains(rs[1].SystemText(), "talk like a pirate") {
		t.Fatalf("system prompts: %q then %q", rs[0].SystemText(), rs[1].SystemText())
	}
	if got := rs[1].LastUserText(); strings.TrimSpace(got) != "second" || len(rs[1].Messages) < 3 {
		t.Fatalf("the conversation after the prompt changed: %d messages, last %q", len(rs[1].Messages), got)
	}
}
