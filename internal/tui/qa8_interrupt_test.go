package tui

import (
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
)

func TestResumedInterruptionShowsAsANoticeNotAPrompt(t *testing.T) {
	h := []engine.HistoryItem{
		{UUID: "u1", Message: llm.NewUserText("fix the build")},
		{UUID: "a1", Message: &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("Looking")}}},
		{UUID: "u2", Message: llm.NewUserText(engine.InterruptedText)},
		{UUID: "u3", Message: llm.NewUserText("try again")},
	}
	items := historyItems(h)
	var prompts []string
	notices := 0
	for _, it := range items {
		switch it.kind {
		case kUser:
			prompts = append(prompts, it.text)
		case kNotice:
			if it.text == interruptedNotice {
				notices++
			}
		}
	}
	if len(prompts) != 2 || prompts[0] != "fix the build" || prompts[1] != "try again" {
		t.Errorf("prompts shown: %q", prompts)
	}
	if notices != 1 {
		t.Errorf("interruption notices: %d, want 1", notices)
	}
	if got := firstPrompt([]engine.HistoryItem{{Message: llm.NewUserText(engine.InterruptedToolUseText)}, h[3]}); got != "try again" {
		t.Errorf("firstPrompt = %q", got)
	}
}
