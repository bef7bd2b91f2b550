package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// `-w feature/x -p hello` names the worktree feature/x: a name it cannot
// take is refused with the rule, not sent to the model as the start of
// the prompt while the session runs in a worktree with a made-up name.
func TestWorktreeFlagWithANameItCannotTakeIsAnError(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	for name, args := range map[string][]string{
		"feature/x": {"-w", "feature/x", "-p", "hello"},
		"../up":     {"-p", "hello", "--worktree", "../up"},
	} {
		r := sb.Run(t, "", args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, `reins: --worktree: worktree name "`+name+`": `) {
			t.Errorf("%v: code %d, stderr %q; want a usage error about the name %q", args, r.Code, r.Stderr, name)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
	if out := gitOut(t, sb.Dir, "worktree", "list"); strings.Contains(out, "\n") {
		t.Errorf("worktrees were made:\n%s", out)
	}
}

// Answers about .mcp.json servers in .reins/settings.local.json (read
// like its .claude/ twin, and winning over it) are forgotten too: before,
// reset-project-choices said nothing was recorded and the servers stayed
// approved.
func TestMCPResetProjectChoicesClearsTheReinsTwinToo(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	twin := filepath.Join(sb.Dir, ".reins", "settings.local.json")
	writeJSON(t, twin, map[string]any{"enableAllProjectMcpServers": true, "model": "sonnet"})
	r := sb.Run(t, "", "mcp", "reset-project-choices")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Removed enableAllProjectMcpServers from .reins/settings.local.json: this project's .mcp.json servers wait for approval again.") {
		t.Errorf("code %d, output:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(twin)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "enableAllProjectMcpServers") || !strings.Contains(string(data), `"model": "sonnet"`) {
		t.Errorf("%s after the reset:\n%s", twin, data)
	}
}
