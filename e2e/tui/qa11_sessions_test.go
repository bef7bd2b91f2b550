package tui

import (
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// lastRequestWith waits for a request whose last user text holds text and
// returns the newest such.
func lastRequestWith(tt *term, n int, text string) *llmtest.Request {
	tt.t.Helper()
	var found *llmtest.Request
	for _, r := range tt.requests(n) {
		if strings.Contains(r.LastUserText(), text) {
			found = r
		}
	}
	if found == nil {
		tt.t.Fatalf("no request for %q", text)
	}
	return found
}

// /clear starts a conversation without the todo list and the files read
// of the one left (a compaction in the new one gave them back as its own),
// and /resume brings back the resumed conversation's own (a compaction
// after it restored neither).
func TestQA11ClearDropsTheTodoListAndFilesAndResumeBringsItsOwnBack(t *testing.T) {
	const marker = "about to be replaced by a summary"
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), marker) }
	turn := func(match string, b llmtest.Block) llmtest.Turn {
		return llmtest.Turn{Match: func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), match) },
			Blocks: []llmtest.Block{b}, ResetPrefix: true}
	}
	summary := llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>so far</summary>")}}
	todos := map[string]any{"todos": []map[string]any{
		{"content": "Port the PELICAN parser", "status": "in_progress", "activeForm": "Porting the PELICAN parser"}}}
	tt := newTerm(t)
	notes := tt.sb.Write(t, "notes.txt", "KIWI-NOTES: the parser lives in parse.go\n")
	tt.srv.Add(
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "plan the port") },
			Blocks: []llmtest.Block{llmtest.ToolUse("toolu_todo", "TodoWrite", todos), llmtest.ToolUse("toolu_read", "Read", map[string]any{"file_path": notes})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) == 2 }, Blocks: []llmtest.Block{llmtest.Text("planned it")}},
		turn("hello there", llmtest.Text("hi back")),
		summary,
		turn("go on fresh", llmtest.Text("fresh goes on")),
		summary,
		turn("go on resumed", llmtest.Text("resumed goes on")),
	)
	tt.start()
	tt.ready()
	tt.prompt("plan the port")
	tt.waitFor("planned it")

	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("hello there")
	tt.waitFor("hi back")
	tt.prompt("/compact")
	tt.waitFor("Conversation compacted")
	tt.prompt("go on fresh")
	tt.waitFor("fresh goes on")
	if h := messageTexts(lastRequestWith(tt, 5, "go on fresh")); strings.Contains(h, "PELICAN") || strings.Contains(h, "KIWI-NOTES") {
		t.Errorf("after /clear, a compaction gave back the todo list or the files of the conversation left:\n%s", h)
	}

	tt.prompt("/resume")
	tt.waitFor("Resume a conversation", "plan the port")
	tt.typeText("plan the port")
	tt.keys("Enter")
	tt.waitFor("Resumed: plan the port")
	tt.prompt("/compact")
	tt.waitFor("Conversation compacted")
	tt.prompt("go on resumed")
	tt.waitFor("resumed goes on")
	h := messageTexts(lastRequestWith(tt, 7, "go on resumed"))
	if !strings.Contains(h, "[in_progress] Port the PELICAN parser") {
		t.Errorf("after /resume, a compaction did not give back the resumed conversation's todo list:\n%s", h)
	}
	if !strings.Contains(h, "KIWI-NOTES") {
		t.Errorf("after /resume, a compaction did not give back the file the resumed conversation read:\n%s", h)
	}
}
