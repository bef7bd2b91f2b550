package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An isolated sub-agent's system prompt gives the git facts of its own
// worktree (its branch, its clean status), not those of the user's
// checkout, which is on main with an uncommitted change.
func TestIsolatedSubagentPromptDescribesItsWorktree(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("look at git"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "look in isolation", "TASK-GIT: say where you are", "", map[string]any{"isolation": "worktree"})}},
		llmtest.Turn{Match: isSubagent("TASK-GIT"), Blocks: []llmtest.Block{llmtest.Text("In my worktree.")}},
		llmtest.Turn{Match: isMain("In my worktree"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	sb.Write(t, "a.txt", "changed by the user\n") // the user's checkout is dirty
	r := sb.Run(t, "", "-p", "look at git", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	main := requestsMatching(srv, isMain("look at git"))[0].SystemText()
	if !strings.Contains(main, "Current branch: main") || !strings.Contains(main, "M a.txt") {
		t.Fatalf("the main prompt lacks the user's git facts:\n%s", main)
	}
	sub := requestsMatching(srv, isSubagent("TASK-GIT"))[0].SystemText()
	if strings.Contains(sub, "Current branch: main") || strings.Contains(sub, "M a.txt") {
		t.Errorf("the isolated sub-agent was told of the user's checkout:\n%s", sub)
	}
	if !strings.Contains(sub, "Current branch: worktree-agent-") || !strings.Contains(sub, "(clean)") {
		t.Errorf("the isolated sub-agent's prompt does not describe its worktree:\n%s", sub)
	}
	// Its transcript records the worktree's branch too.
	subs, _ := filepath.Glob(filepath.Join(sb.ConfigDir, "projects", "*", "*", "subagents", "agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("sub-agent transcripts: %v", subs)
	}
	data, err := os.ReadFile(subs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"gitBranch":"worktree-agent-`) || strings.Contains(string(data), `"gitBranch":"main"`) {
		t.Errorf("the sub-agent's transcript does not record its worktree's branch:\n%s", data)
	}
}

// "disableAutoMode": true, as users write it, refuses auto mode like the
// documented "disable": --permission-mode auto fails and names the file.
func TestDisableAutoModeTrueRefusesAutoMode(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	file := filepath.Join(sb.Home, ".claude", "settings.json")
	writeAutoFile(t, file, `{"disableAutoMode": true}`)
	r := sb.Run(t, "", "-p", "hi", "--permission-mode", "auto")
	if r.Code == 0 || !strings.Contains(r.Stderr, "auto mode is disabled by disableAutoMode in "+file) {
		t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
	}
}

// A print run in plan mode tells the model it is in plan mode from the
// first request, in words that fit a run without ExitPlanMode.
func TestPrintInPlanModeTellsTheModel(t *testing.T) {
	srv := server(t, llmtest.Reply("Here is the plan."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "add a flag", "--permission-mode", "plan")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	got := srv.Requests()[0].LastUserText()
	if !strings.Contains(got, "Plan mode is on") || !strings.Contains(got, "give that plan in your answer") || strings.Contains(got, "ExitPlanMode") {
		t.Errorf("the first request's last user message:\n%s", got)
	}
}
