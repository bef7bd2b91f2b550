package cli

import (
	"encoding/json"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
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
	a := &app{}
	h := items(llm.NewUserText("plan it"), exit("p1", "FIRST PLAN"), result("p1", false),
		exit("p2", "REFUSED PLAN"), result("p2", true))
	if got := a.planText(h); got != "FIRST PLAN" {
		t.Fatalf("planText = %q, want the approved plan, not the refused one", got)
	}
	if got := a.planText(items(llm.NewUserText("summary of the work"))); got != "FIRST PLAN" {
		t.Errorf("after a compaction planText = %q, want the plan remembered", got)
	}
	a.newConversation()
	if got := a.planText(items(llm.NewUserText("a new conversation"))); got != "" {
		t.Errorf("after /clear planText = %q, want none", got)
	}
}
