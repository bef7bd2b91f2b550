package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// A message queued while the model works comes back into the input with
// Up, and what is sent after editing it reaches the model once: Up used
// to recall the same text from the history while the first copy stayed
// queued, so Enter sent it twice.
func TestQA7UpEditsAQueuedMessageAndItIsSentOnce(t *testing.T) {
	tt := newTerm(t)
	gate := filepath.Join(t.TempDir(), "gate")
	notes := filepath.Join(tt.sb.Dir, "notes.txt")
	tt.sb.Write(t, "notes.txt", "remember the tests\n")
	tt.sb.Write(t, ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command",
		"command":"while [ ! -f `+gate+` ]; do sleep 0.1; done"}]}]}}`)
	tt.srv.Add(
		llmtest.Calls(llmtest.ToolUse("r1", "Read", map[string]any{"file_path": notes})),
		llmtest.Reply("got the edited note"),
	)
	tt.start()
	tt.ready()
	tt.prompt("read my notes")
	tt.waitFor("Read(", "esc to interrupt") // held by the hook until the gate opens
	tt.prompt("fist draft")
	tt.waitFor("> fist draft  (queued)", "Press up to edit queued messages")
	tt.keys("Up")
	tt.waitUntil("the queued message back in the input", func(s string) bool {
		return !strings.Contains(s, "(queued)") && strings.Contains(s, "fist draft")
	})
	for range len("fist draft") {
		tt.keys("BSpace")
	}
	tt.prompt("first draft")
	tt.waitFor("> first draft  (queued)")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("got the edited note")
	h := messageTexts(tt.requests(2)[1])
	if strings.Contains(h, "fist draft") || strings.Count(h, "user: first draft") != 1 {
		t.Fatalf("want only the edited message, sent once, with the read's result:\n%s", h)
	}
}
