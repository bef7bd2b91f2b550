package anthropic

import (
	"context"
	"strings"
	"testing"

	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// Budget thinking goes with the interleaved-thinking beta, as Claude
// Code sends it: without it Claude 4.5 models think only before a turn's
// first tool call. Adaptive thinking, and no thinking, do without it.
func TestBudgetThinkingSendsTheInterleavedThinkingBeta(t *testing.T) {
	for _, c := range []struct {
		name     string
		thinking *llm.Thinking
		want     bool
	}{
		{"budget", &llm.Thinking{Type: "enabled", BudgetTokens: 2000}, true},
		{"adaptive", &llm.Thinking{Type: "adaptive"}, false},
		{"disabled", &llm.Thinking{Type: "disabled"}, false},
		{"none", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, err := llmtest.Start(llmtest.Reply("ok"))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			cl := New(Config{BaseURL: srv.URL, APIKey: "k", Betas: []string{"b1"}})
			st, err := cl.Stream(context.Background(), &llm.Request{Model: "claude-sonnet-4-5", MaxTokens: 4000,
				Thinking: c.thinking, Messages: []*llm.Message{llm.NewUserText("hi")}})
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := st.Next(); err != nil {
					break
				}
			}
			st.Close()
			h := srv.Requests()[0].Header.Get("anthropic-beta")
			if got := strings.Contains(h, InterleavedThinkingBeta); got != c.want || !strings.HasPrefix(h, "b1") {
				t.Errorf("anthropic-beta %q: interleaved %v, want %v (after the configured b1)", h, got, c.want)
			}
		})
	}
}
