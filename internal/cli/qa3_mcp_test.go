package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
	"reins/internal/mcp"
)

// everythingServer returns a server entry for server-everything from the
// repository's .ci peers; missing peers fail under CI and skip otherwise.
func everythingServer(t *testing.T) map[string]any {
	t.Helper()
	node, err := exec.LookPath("node")
	script, _ := filepath.Abs(filepath.Join("..", "..", ".ci", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if _, serr := os.Stat(script); err != nil || serr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node or server-everything is missing; run ./scripts/test.sh")
		}
		t.Skip("node or server-everything is missing; run ./scripts/test.sh")
	}
	return map[string]any{"command": node, "args": []string{script}}
}

// A .mcp.json server waiting for approval is approved in the terminal UI
// with /mcp enable NAME: it connects, and the approval is saved in
// .claude/settings.local.json (keeping what the file held) so later
// sessions start it too. The approval message names the command.
func TestQA3MCPEnableApprovesAProjectServer(t *testing.T) {
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
	os.WriteFile(local, []byte(`{"permissions":{"allow":["Bash(ls)"]},"disabledMcpjsonServers":["team","other"]}`), 0o644)

	trusted := true
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: os.Getenv}
	ctx := context.Background()
	a, err := newAppFor(ctx, env, &Options{OutputFormat: "text"}, frontTUI, appHooks{Trusted: &trusted,
		Notify: func(string, string) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	st := a.mcpm().Status()
	if len(st) != 1 || st[0].State != mcp.StateDisabled {
		t.Fatalf("before: %+v", st)
	}
	out, err := a.viewMCP(ctx, "enable team")
	if err != nil || !strings.Contains(out, "Enabled team") {
		t.Fatalf("/mcp enable team = %q, %v", out, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	a.mcpm().Wait(wctx)
	if st := a.mcpm().Status(); st[0].State != mcp.StateConnected {
		t.Errorf("after /mcp enable: %s %s", st[0].State, st[0].Err)
	}
	var saved struct {
		Permissions json.RawMessage `json:"permissions"`
		Enabled     []string        `json:"enabledMcpjsonServers"`
		Disabled    []string        `json:"disabledMcpjsonServers"`
	}
	data, _ := os.ReadFile(local)
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatalf("%s: %v\n%s", local, err, data)
	}
	if !slices.Equal(saved.Enabled, []string{"team"}) || !slices.Equal(saved.Disabled, []string{"other"}) || !strings.Contains(string(saved.Permissions), "Bash(ls)") {
		t.Errorf("settings.local.json after approval:\n%s", data)
	}
	again, err := mcp.Load(mcp.LoadOptions{Cwd: work, Approval: mcpApproval(map[string]json.RawMessage{
		"enabledMcpjsonServers": mustJSON(saved.Enabled), "disabledMcpjsonServers": mustJSON(saved.Disabled)})})
	if s, _ := again.Get("team"); err != nil || s.Disabled != "" {
		t.Errorf("a later session does not start team: %q %v", s.Disabled, err)
	}
	if out, _ := a.viewMCP(ctx, "disable team"); !strings.Contains(out, "Disabled team") || a.mcpm().Status()[0].State != mcp.StateDisabled {
		t.Errorf("/mcp disable team = %q, state %s", out, a.mcpm().Status()[0].State)
	}
}

// The terminal UI says at start which .mcp.json servers wait for approval
// and how to approve them.
func TestQA3MCPPendingApprovalIsAnnounced(t *testing.T) {
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	work := sandbox(t, srv)
	os.WriteFile(filepath.Join(work, ".mcp.json"), []byte(`{"mcpServers":{"team":{"command":"/nonexistent/team-server"}}}`), 0o644)
	var mu sync.Mutex
	var notices []string
	trusted := true
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: os.Getenv}
	a, err := newAppFor(context.Background(), env, &Options{OutputFormat: "text"}, frontTUI, appHooks{Trusted: &trusted,
		Notify: func(_, text string) {
			mu.Lock()
			defer mu.Unlock()
			notices = append(notices, text)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, "team") && strings.Contains(n, "/mcp enable") }) {
		t.Errorf("notices %q do not announce the pending server", notices)
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// Claude Code's --mcp-config takes several files or JSON strings after
// one flag; the second used to become the start of the prompt.
func TestQA3MCPNormaliseArgsTakesSeveralConfigFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"a.json", "b.json"} {
		os.WriteFile(filepath.Join(dir, f), []byte(`{"mcpServers":{}}`), 0o644)
	}
	obj := `{"mcpServers":{"x":{"command":"y"}}}`
	cases := []struct{ in, want string }{
		{`--mcp-config|a.json|b.json|-p|hi`, `--mcp-config|a.json|--mcp-config=b.json|-p|hi`},
		{`--mcp-config|a.json|` + obj + `|summarise b.json`, `--mcp-config|a.json|--mcp-config=` + obj + `|summarise b.json`},
		{`--mcp-config|a.json|missing.json`, `--mcp-config|a.json|missing.json`},
		{`--mcp-config|a.json|fix the bug`, `--mcp-config|a.json|fix the bug`},
		{`-p|hi|--mcp-config|a.json`, `-p|hi|--mcp-config|a.json`},
	}
	for _, tc := range cases {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
