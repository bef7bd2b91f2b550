package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// A terminal UI idle after a turn still holds its session: reins --resume
// of it elsewhere says it is open in another reins. After /clear the UI has
// let it go, and resuming it says nothing of the kind (the UI kept the old
// transcript open until it exited).
func TestQA8ClearLetsGoOfTheSessionLeft(t *testing.T) {
	side := llmtest.Reply("side answer")
	side.ResetPrefix = true
	later := llmtest.Reply("later answer")
	later.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), side, later)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● one")
	paths := tt.sb.Transcripts(t)
	if len(paths) != 1 {
		t.Fatalf("transcripts %v, want the session's", paths)
	}
	id := strings.TrimSuffix(filepath.Base(paths[0]), ".jsonl")

	r := tt.sb.Run(t, "", "-p", "side question", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume beside the UI: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("resuming the session the UI holds said nothing of it: %q", r.Stderr)
	}

	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	r = tt.sb.Run(t, "", "-p", "later question", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume after /clear: code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("after /clear the UI still holds the session it left: %q", r.Stderr)
	}
}
