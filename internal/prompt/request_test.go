package prompt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/gitinfo"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/prompt"
)

// TestRequestPrefixOnTheWire sends two turns through the engine and the
// Anthropic client with the assembled prompt and memory, then checks the
// first request's system blocks and memory message against a golden file
// (with their cache marks) and that the second turn's request repeats the
// first's system, tools and messages byte for byte.
func TestRequestPrefixOnTheWire(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "proj")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "CLAUDE.md"), []byte("Run `make test` before finishing."), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := prompt.LoadMemory(prompt.MemoryOptions{Cwd: cwd, Home: filepath.Join(root, "home"), ManagedDirs: []string{}, TopDir: root})
	system := prompt.Build(prompt.Options{Cwd: "/proj", Platform: "linux", OSVersion: "Linux 6.8.0",
		Date: "2026-11-29", Model: "claude-sonnet-4-5",
		Git: gitinfo.Snapshot{IsRepo: true, Branch: "main", MainBranch: "main"}})

	srv, err := llmtest.Start(llmtest.Reply("one"), llmtest.Reply("two"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := engine.New(engine.Config{
		Provider:    anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k", RetryBase: time.Millisecond}),
		Models:      llm.NewModels(func(string) string { return "" }),
		Model:       "claude-sonnet-4-5",
		System:      system,
		UserContext: mem.UserContext("2026-11-29"),
	})
	for _, p := range []string{"first", "second"} {
		for range s.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock(p)}}) {
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var body struct {
		System   []json.RawMessage `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	for _, part := range append(body.System, body.Messages[0]) {
		var v any
		json.Unmarshal(part, &v)
		enc.Encode(v)
	}
	got := strings.ReplaceAll(out.String(), root, "$ROOT")
	golden(t, "request-prefix.golden", got)

	// The second request starts with the first one's bytes.
	first, second := reqs[0], reqs[1]
	if !equalRaws(first.System, second.System) || !equalRaws(first.Tools, second.Tools) {
		t.Error("system or tools changed between turns")
	}
	for i := range first.Messages {
		if canon(first.Messages[i]) != canon(second.Messages[i]) {
			t.Errorf("message %d changed between turns", i)
		}
	}
	srv.AssertClean(t)
}

func equalRaws(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// canon encodes a message without cache marks (the last message of each
// request carries one).
func canon(m *llm.Message) string {
	c := &llm.Message{Role: m.Role, Content: append([]llm.ContentBlock(nil), m.Content...)}
	for i := range c.Content {
		c.Content[i].CacheControl = nil
	}
	b, _ := c.AppendAPI(nil, false, "")
	return string(b)
}
