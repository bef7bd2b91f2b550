package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/session"
)

// /rename NAME records the name in the session's transcript, where the
// /resume list and reins --resume NAME find it; it was an unknown command.
func TestRenameRecordsTheSessionsTitle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w := session.NewWriter(path)
	defer w.Close()
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) {
		o.Session = engine.New(engine.Config{Provider: o.Session.Config().Provider, Models: llm.NewModels(func(string) string { return "" }),
			Model: "claude-opus-4-5", Cwd: o.Cwd, SessionID: "s", Recorder: w})
	}})
	h.typeText("/rename auth refactor")
	h.key("enter")
	h.waitFor("Session renamed to: auth refactor")
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"type":"custom-title"`) || !strings.Contains(string(data), `"customTitle":"auth refactor"`) {
		t.Fatalf("transcript %q: want a custom-title line", data)
	}
}
