package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
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

// In a --worktree session, an isolated sub-agent's worktree lies inside
// the session's, where the session's own git status does not see it.
// When the session ends with nothing changed in its own files, its
// worktree must still be kept: removing it deleted the sub-agent's
// uncommitted work.
func TestWorktreeSessionKeepsTheSubagentWorktreeInsideIt(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("change it aside"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "edit in isolation", "TASK-ISO: change a.txt", "", map[string]any{"isolation": "worktree"})}},
		llmtest.Turn{Match: isSubagent("TASK-ISO"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "echo changed > a.txt"})}},
		llmtest.Turn{Match: answers("TASK-ISO", "toolu_sh"), Blocks: []llmtest.Block{llmtest.Text("Changed a.txt.")}},
		llmtest.Turn{Match: isMain("Changed a.txt"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-w", "outer", "-p", "change it aside", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	tur, _ := agentResult(t, r.Stdout, "toolu_iso")
	path, _ := tur["worktreePath"].(string)
	outer := filepath.Join(sb.Dir, ".claude", "worktrees", "outer")
	if !strings.HasPrefix(path, outer+string(filepath.Separator)) {
		t.Fatalf("the sub-agent's worktree is %q, not inside the session's %s", path, outer)
	}
	if data, err := os.ReadFile(filepath.Join(path, "a.txt")); string(data) != "changed\n" {
		t.Errorf("the sub-agent's a.txt = %q, %v: its work is lost", data, err)
	}
	if !strings.Contains(r.Stderr, "kept in the worktree "+outer) {
		t.Errorf("stderr does not say the session's worktree was kept: %q", r.Stderr)
	}
}
