package tui

import (
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
)

func effortSession(model, effort string) *engine.Session {
	// The provider is never called: /effort sends nothing.
	return engine.New(engine.Config{Provider: anthropic.New(anthropic.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"}),
		Models: llm.NewModels(func(string) string { return "" }), Model: model, Effort: effort})
}

func TestEffortCommandShowsAndSets(t *testing.T) {
	for _, tc := range []struct {
		model, effort, args, locked string
		want, after                 string // output fragment, the session's level afterwards
		isErr                       bool
	}{
		{"claude-opus-5-5", "", "", "", "Effort: medium, the model's default.", "", false},
		{"claude-opus-5-5", "high", "", "", "Effort: high.\nclaude-opus-5-5 takes: low, medium, high, xhigh, max.", "high", false},
		{"claude-opus-4-5", "max", "", "", "Effort: max, sent as high", "max", false},
		{"claude-sonnet-4-5", "high", "", "", "Effort: high, not sent: claude-sonnet-4-5 takes no effort level.", "high", false},
		{"claude-opus-5-5", "high", "low", "", "Effort set to low.", "low", false},
		{"claude-opus-5-5", "high", "AUTO", "", "Effort set to the model's default (medium).", "", false},
		{"claude-opus-4-5", "", "xhigh", "", "claude-opus-4-5 runs it as high", "xhigh", false},
		{"claude-opus-5-5", "high", "extreme", "", `effort level "extreme" is not one of low, medium, high, xhigh, max, or auto`, "high", true},
		{"claude-opus-5-5", "max", "low", "CLAUDE_CODE_EFFORT_LEVEL=max", "CLAUDE_CODE_EFFORT_LEVEL=max is set and wins over /effort", "max", true},
		{"claude-opus-5-5", "max", "", "CLAUDE_CODE_EFFORT_LEVEL=max", "Fixed by CLAUDE_CODE_EFFORT_LEVEL=max.", "max", false},
	} {
		s := effortSession(tc.model, tc.effort)
		out, err := EffortCommand(s, tc.locked, tc.args)
		got := out
		if err != nil {
			got = err.Error()
		}
		if (err != nil) != tc.isErr || !strings.Contains(got, tc.want) {
			t.Errorf("%s at %q, /effort %s: %q (err %v), want %q", tc.model, tc.effort, tc.args, got, err, tc.want)
		}
		if s.Effort() != tc.after {
			t.Errorf("%s /effort %s: level now %q, want %q", tc.model, tc.args, s.Effort(), tc.after)
		}
	}
}
