package engine_test

import (
	"context"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm/llmtest"
)

// SetUserContext changes the context message at the front of the next
// request (the memory files changed during the session); the
// conversation after it stays as it was.
func TestSetUserContextReachesTheNextRequest(t *testing.T) {
	h := newHarness(t, engine.Config{UserContext: "<system-reminder>old memory</system-reminder>"}, nil,
		llmtest.Reply("one"), llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("two")}, ResetPrefix: true})
	h.run(t, context.Background(), "first")
	h.sess.SetUserContext("<system-reminder>new memory: use tabs</system-reminder>")
	h.run(t, context.Background(), "second")
	rs := h.srv.Requests()
	if len(rs) != 2 {
		t.Fatalf("%d requests", len(rs))
	}
	first := func(i int) string { return rs[i].Messages[0].Content[0].Text }
	if !strings.Contains(first(0), "old memory") || !strings.Contains(first(1), "new memory: use tabs") {
		t.Fatalf("context messages: %q then %q", first(0), first(1))
	}
	if c := rs[1].Messages[0].Content; len(c) < 2 || c[1].Text != "first" || rs[1].Messages[1].Content[0].Text != "one" {
		t.Fatalf("the conversation after the context changed: %+v", rs[1].Messages[:2])
	}
	if got := h.sess.Config().UserContext; !strings.Contains(got, "new memory") {
		t.Fatalf("Config().UserContext = %q", got)
	}
}
