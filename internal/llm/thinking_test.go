package llm

import (
	"encoding/json"
	"testing"
)

func TestThinkingForSendsTheFormTheModelTakes(t *testing.T) {
	models := NewModels(func(string) string { return "" })
	adaptive := &Thinking{Type: "adaptive"}
	disabled := &Thinking{Type: "disabled"}
	for _, c := range []struct {
		name    string
		model   string
		set     *Thinking
		budget  int
		want    string // JSON of the thinking field, "" for none
		wantMax int
	}{
		{"budget on an adaptive-only model becomes adaptive", "claude-opus-5-5", nil, 4000, `{"type":"adaptive"}`, 8000},
		{"budget on opus 4.7 becomes adaptive", "claude-opus-4-7", nil, 4000, `{"type":"adaptive"}`, 8000},
		{"budget on a bedrock opus 4.7 id becomes adaptive", "us.anthropic.claude-opus-4-7-v1", nil, 4000, `{"type":"adaptive"}`, 8000},
		{"budget on sonnet 4.6 is sent as adaptive", "claude-sonnet-4-6", nil, 4000, `{"type":"adaptive"}`, 8000},
		{"budget on sonnet 4.5 stays a budget", "claude-sonnet-4-5", nil, 4000, `{"type":"enabled","budget_tokens":4000}`, 12000},
		{"a small budget is raised to the minimum", "claude-sonnet-4-5", nil, 10, `{"type":"enabled","budget_tokens":1024}`, 9024},
		{"disabled is left out on an adaptive-only model", "claude-opus-5-5", disabled, 0, "", 8000},
		{"disabled stays on sonnet 4.5", "claude-sonnet-4-5", disabled, 4000, `{"type":"disabled"}`, 8000},
		{"disabled stays on opus 4.6", "claude-opus-4-6", disabled, 0, `{"type":"disabled"}`, 8000},
		{"adaptive on sonnet 4.5 becomes a budget", "claude-sonnet-4-5", adaptive, 0, `{"type":"enabled","budget_tokens":8000}`, 16000},
		{"adaptive on haiku 4.5 stays within its output limit", "claude-haiku-4-5", adaptive, 0, `{"type":"enabled","budget_tokens":60000}`, 64000},
		{"enabled on an adaptive-only model becomes adaptive", "claude-opus-5-5", &Thinking{Type: "enabled", BudgetTokens: 2000, Display: "summarized"}, 0, `{"type":"adaptive","display":"summarized"}`, 8000},
		{"adaptive on opus 5.5 stays adaptive", "claude-opus-5-5[1m]", adaptive, 0, `{"type":"adaptive"}`, 8000},
		{"nothing asked sends nothing", "claude-opus-5-5", nil, 0, "", 8000},
	} {
		t.Run(c.name, func(t *testing.T) {
			info := models.Info(c.model)
			maxTokens := 8000
			if c.model == "claude-haiku-4-5" {
				maxTokens = 60000
			}
			th, mt := info.ThinkingFor(c.set, c.budget, maxTokens)
			got := ""
			if th != nil {
				b, _ := json.Marshal(th)
				got = string(b)
			}
			if got != c.want || mt != c.wantMax {
				t.Errorf("thinking %s, max_tokens %d; want %s, %d", got, mt, c.want, c.wantMax)
			}
		})
	}
}

// Claude Code 2.1.328 knows claude-sonnet-5-5 and claude-haiku-5-5: a 1M
// window, 128,000 output tokens, effort levels (default medium) and list
// prices it bills at $2/$10 and $0.10/$0.50 per million. reins gave them
// a 200,000-token window, no effort and no price.
func TestClaude55SonnetAndHaikuHaveTheirFacts(t *testing.T) {
	m := NewModels(func(string) string { return "" })
	for _, c := range []struct {
		id      string
		in, out float64
	}{{"claude-sonnet-5-5", 2, 10}, {"claude-haiku-5-5", 0.1, 0.5}} {
		info := m.Info(c.id)
		if info.ContextWindow != 1_000_000 || info.MaxOutput != 128_000 || info.InputPrice != c.in || info.OutputPrice != c.out {
			t.Errorf("%s: %+v", c.id, info)
		}
		if got := info.EffortFor(""); got != "medium" {
			t.Errorf("%s: default effort %q, want medium", c.id, got)
		}
		if got := info.EffortFor("max"); got != "max" {
			t.Errorf("%s: effort max runs as %q", c.id, got)
		}
		if info.ThinkingMode() != ThinkingAdaptiveOnly {
			t.Errorf("%s: thinking mode %d, want adaptive only", c.id, info.ThinkingMode())
		}
	}
}
