package cli

import (
	"encoding/json"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
)

// planText gives the plan of the last ExitPlanMode call that ran (not one
// refused), remembers it once a compaction has summarised the call away,
// and forgets it for a new conversation.
func TestPlanTextIsTheLastApprovedPlanAndOutlivesCompaction(t *testing.T) {
	exit := func(id, plan string) *llm.Message {
		in, _ := json.Marshal(map[string]string{"plan": plan})
		return &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: id, Name: "ExitPlanMode", Input: in}}}
	}
	result := func(id string, isErr bool) *llm.Message {
		return &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock("x")}, isErr)}}
	}
	items := func(msgs ...*llm.Message) []engine.HistoryItem {
		var out []engine.HistoryItem
		for _, m := range msgs {
			out = append(out, engine.HistoryItem{Message: m})
		}
		return out
	}
	s := engine.New(engine.Config{Provider: anthropic.New(anthropic.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"}),
		Models: llm.NewModels(nil)})
	a := &app{sess: s}
	s.SetHistory(items(llm.NewUserText("plan it"), exit("p1", "FIRST PLAN"), result("p1", false),
		exit("p2", "REFUSED PLAN"), result("p2", true)))
	if got := a.planText(); got != "FIRST PLAN" {
		t.Fatalf("planText = %q, want the approved plan, not the refused one", got)
	}
	s.SetHistory(items(llm.NewUserText("summary of the work")))
	if got := a.planText(); got != "FIRST PLAN" {
		t.Errorf("after a compaction planText = %q, want the plan remembered", got)
	}
	a.newConversation()
	if got := a.planText(); got != "" {
		t.Errorf("after /clear planText = %q, want none", got)
	}
}
