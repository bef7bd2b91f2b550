package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// /clear reads the memory files again: a CLAUDE.md changed during the
// session reaches the new conversation, as in Claude Code. The new
// conversation kept the memory read at start.
func TestQA8ClearReadsTheMemoryFilesAgain(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("first answer"), llmtest.Reply("after clear"))
	tt.sb.Write(t, "CLAUDE.md", "ORIGINAL-MEMORY\n")
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("first answer")
	tt.sb.Write(t, "CLAUDE.md", "CHANGED-MEMORY\n")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(2)
	first, _ := json.Marshal(rs[1].Messages[0])
	if !strings.Contains(string(first), "CHANGED-MEMORY") || strings.Contains(string(first), "ORIGINAL-MEMORY") {
		t.Fatalf("the request after /clear does not carry CLAUDE.md as it is now:\n%s", first)
	}
}

// /context shows the memory files as their own category; they were
// counted in the system prompt.
func TestQA8ContextShowsMemoryFilesApart(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, "CLAUDE.md", strings.Repeat("memory line of forty characters, here.\n", 400))
	tt.start()
	tt.ready()
	tt.prompt("/context")
	tt.waitUntil("a Memory files row of about 4k tokens", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "Memory files") && strings.Contains(l, "4.") && strings.Contains(l, "k") {
				return true
			}
		}
		return false
	})
}

// The plan the user approved is given back after a compaction that
// summarised the approval away, as Claude Code gives back its plan file;
// the compactor had a place for it that nothing filled.
func TestQA8ApprovedPlanSurvivesCompaction(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "1. PLAN-STEP-ONE rename the flag\n2. PLAN-STEP-TWO update the docs"})),
		llmtest.Reply("plan approved, starting"),
		llmtest.Reply("step one done"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>Work on a flag rename.</summary>")}, Side: true},
		llmtest.Reply("continuing"))
	tt.start("--permission-mode", "plan")
	tt.ready()
	tt.prompt("plan the change")
	tt.waitUntil("the plan's choices", func(string) bool { return strings.Contains(tt.visible(), "No, keep planning") })
	tt.keys("Enter")
	tt.waitFor("plan approved, starting")
	tt.prompt("do step one")
	tt.waitFor("step one done")
	tt.prompt("/compact")
	tt.waitFor("Conversation compacted")
	tt.prompt("go on")
	tt.waitFor("continuing")
	rs := tt.requests(5)
	last, _ := json.Marshal(rs[len(rs)-1].Messages)
	if !strings.Contains(string(last), "PLAN-STEP-TWO") {
		t.Fatalf("the request after the compaction lacks the approved plan:\n%s", last)
	}
}

// After /clear, a compaction of the new conversation does not bring back
// the plan approved in the one before.
func TestQA8ClearedPlanIsNotRestoredByALaterCompaction(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "1. OLD-PLAN-STEP rename the flag"})),
		llmtest.Reply("plan approved, starting"),
		llmtest.Reply("fresh start"),
		llmtest.Reply("more work"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>Unrelated work.</summary>")}, Side: true},
		llmtest.Reply("continuing"))
	tt.start("--permission-mode", "plan")
	tt.ready()
	tt.prompt("plan the change")
	tt.waitUntil("the plan's choices", func(string) bool { return strings.Contains(tt.visible(), "No, keep planning") })
	tt.keys("Enter")
	tt.waitFor("plan approved, starting")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("something else")
	tt.waitFor("fresh start")
	tt.prompt("and more")
	tt.waitFor("more work")
	tt.prompt("/compact")
	tt.waitFor("Conversation compacted")
	tt.prompt("go on")
	tt.waitFor("continuing")
	rs := tt.requests(6)
	last, _ := json.Marshal(rs[len(rs)-1].Messages)
	if strings.Contains(string(last), "OLD-PLAN-STEP") {
		t.Fatalf("the plan of the cleared conversation came back after the compaction:\n%s", last)
	}
}
