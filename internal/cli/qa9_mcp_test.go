package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/mcp"
)

// An MCP server that connects after the system prompt was built (here
// enabled with /mcp enable in the terminal UI; also one still starting
// when the UI opened) has its instructions given to the model in a
// reminder, once. Before, only the servers connected when the session
// started had their instructions reach the model.
func TestQA9LateMCPServerInstructionsReachTheModel(t *testing.T) {
	scripted := everythingServer(t)
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	work := sandbox(t, srv)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"team": scripted}})
	if err := os.WriteFile(filepath.Join(work, ".mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(work, ".claude", "settings.local.json")
	os.MkdirAll(filepath.Dir(local), 0o755)
	os.WriteFile(local, []byte(`{"disabledMcpjsonServers":["team"]}`), 0o644)

	trusted := true
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: os.Getenv}
	ctx := context.Background()
	a, err := newAppFor(ctx, env, &Options{OutputFormat: "text"}, frontTUI, appHooks{Trusted: &trusted, Notify: func(string, string) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	if _, err := a.viewMCP(ctx, "enable team"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	a.mcpm().Wait(wctx)
	st := a.mcpm().Status()
	if st[0].State != mcp.StateConnected || strings.TrimSpace(st[0].Instructions) == "" {
		t.Fatalf("team: %s %q, instructions %q", st[0].State, st[0].Err, st[0].Instructions)
	}
	const head = "Instructions from the MCP server team:\n"
	find := func(history []*llm.Message) string {
		for _, r := range a.toolSet(ctx).Reminders(ctx, history) {
			if strings.Contains(r, head) {
				return r
			}
		}
		return ""
	}
	note := find(nil)
	if !strings.Contains(note, head+st[0].Instructions) {
		t.Fatalf("no reminder gives team's instructions; got %q", note)
	}
	history := []*llm.Message{llm.NewUserText("hi"), llm.NewUserText(note)}
	if again := find(history); again != "" {
		t.Errorf("the instructions were given again: %q", again)
	}
	// A system prompt built now (another output style) holds them, and
	// no reminder repeats them.
	a.systemPrompt(ctx)
	if again := find(nil); again != "" {
		t.Errorf("instructions in the system prompt are given again: %q", again)
	}
}
