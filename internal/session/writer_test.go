package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm"
)

// BenchmarkAppendToolResults records the user line that answers three
// Read calls of about 20 KB each, the common heavy line of a session.
func BenchmarkAppendToolResults(b *testing.B) {
	text := strings.Repeat("\tif err := f(\"<x>\"); err != nil {\n\t\treturn err\n\t}\n", 400)
	msg := &llm.Message{Role: llm.RoleUser}
	for _, id := range []string{"toolu_1", "toolu_2", "toolu_3"} {
		msg.Content = append(msg.Content, llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, false))
	}
	parent := "p"
	e := &Entry{Type: TypeUser, UUID: "u", ParentUUID: &parent, SessionID: "s", Cwd: "/w", Message: msg,
		ToolUseResult: map[string]any{"type": "text", "file": map[string]any{"content": text}}}
	w := NewWriter(filepath.Join(b.TempDir(), "t.jsonl"))
	defer w.Close()
	b.SetBytes(int64(4 * len(text)))
	for b.Loop() {
		msg.Invalidate() // a fresh message each time, as in a session
		if err := w.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPrepareMakesTheFolderNotTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
	w := NewWriter(path)
	w.Prepare()
	if err := w.Close(); err != nil { // waits for the folder
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		t.Fatalf("folder after Prepare: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Prepare made the transcript file: %v", err)
	}
	w = NewWriter(path)
	w.Prepare()
	if err := w.Append(&Entry{Type: TypeSummary, Summary: "s"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"summary":"s"`) {
		t.Errorf("transcript = %q", data)
	}
}
