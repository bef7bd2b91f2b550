package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// agentResult finds the tool_use_result of the Agent call id in
// stream-json output.
func agentResult(t *testing.T, stdout, id string) (map[string]any, string) {
	t.Helper()
	for _, l := range decodeLines(t, stdout) {
		if l["type"] != "user" || l["parent_tool_use_id"] != nil {
			continue
		}
		blocks, _ := l["message"].(map[string]any)["content"].([]any)
		for _, b := range blocks {
			blk, _ := b.(map[string]any)
			if blk["tool_use_id"] != id {
				continue
			}
			text := ""
			switch c := blk["content"].(type) {
			case string:
				text = c
			case []any:
				for _, x := range c {
					if m, ok := x.(map[string]any); ok {
						text += m["text"].(string)
					}
				}
			}
			tur, _ := l["tool_use_result"].(map[string]any)
			return tur, text
		}
	}
	t.Fatalf("no result for %s in %s", id, stdout)
	return nil, ""
}

func TestIsolatedSubagentKeepsItsChangesInAWorktree(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("change it aside"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "edit in isolation", "TASK-ISO: change a.txt", "", map[string]any{"isolation": "worktree"})}},
		llmtest.Turn{Match: isSubagent("TASK-ISO"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "echo changed > a.txt && echo new > new.txt && pwd"})}},
		llmtest.Turn{Match: answers("TASK-ISO", "toolu_sh"), Blocks: []llmtest.Block{llmtest.Text("Changed a.txt, added new.txt.")}},
		llmtest.Turn{Match: isMain("Changed a.txt"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-p", "change it aside", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	tur, text := agentResult(t, r.Stdout, "toolu_iso")
	path, _ := tur["worktreePath"].(string)
	branch, _ := tur["worktreeBranch"].(string)
	if !strings.HasPrefix(path, filepath.Join(sb.Dir, ".claude", "worktrees")+string(filepath.Separator)) || !strings.HasPrefix(branch, "worktree-") {
		t.Fatalf("tool_use_result %v", tur)
	}
	if !strings.Contains(text, path) || !strings.Contains(text, branch) {
		t.Errorf("the report does not name the worktree: %q", text)
	}
	// The sub-agent's shell ran in the worktree.
	sh := requestsMatching(srv, answers("TASK-ISO", "toolu_sh"))[0].ToolResults()[0].ResultText()
	if !strings.Contains(sh, path) {
		t.Errorf("the sub-agent's shell ran in %q, not the worktree", sh)
	}
	// Its changes are in the worktree, on its branch ...
	if data, _ := os.ReadFile(filepath.Join(path, "a.txt")); string(data) != "changed\n" {
		t.Errorf("worktree a.txt = %q", data)
	}
	if _, err := os.Stat(filepath.Join(path, "new.txt")); err != nil {
		t.Errorf("worktree new.txt: %v", err)
	}
	if got := gitOut(t, path, "branch", "--show-current"); got != branch {
		t.Errorf("worktree on branch %q, want %q", got, branch)
	}
	// ... and the user's checkout is untouched.
	if data, _ := os.ReadFile(filepath.Join(sb.Dir, "a.txt")); string(data) != "original\n" {
		t.Errorf("the user's a.txt changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt reached the user's checkout: %v", err)
	}
	if st := gitOut(t, sb.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("the user's git status: %q", st)
	}
	if got := gitOut(t, sb.Dir, "branch", "--show-current"); got != "main" {
		t.Errorf("the user's branch is now %q", got)
	}
}

func TestUnchangedWorktreeIsRemovedAndDefinitionsCanAskForIsolation(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("look aside"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "look in isolation", "TASK-LOOK: read only", "isolated", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-LOOK"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd && cat a.txt"})}},
		llmtest.Turn{Match: answers("TASK-LOOK", "toolu_sh"), Blocks: []llmtest.Block{llmtest.Text("Nothing to change.")}},
		llmtest.Turn{Match: isMain("Nothing to change"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	sb.Write(t, ".claude/agents/isolated.md", "---\nname: isolated\ndescription: Works on a copy\nisolation: worktree\n---\nYou work on a copy.\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-p", "look aside", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sh := requestsMatching(srv, answers("TASK-LOOK", "toolu_sh"))[0].ToolResults()[0].ResultText()
	if !strings.Contains(sh, filepath.Join(".claude", "worktrees", "agent-")) || !strings.Contains(sh, "original") {
		t.Errorf("the sub-agent did not run in a worktree: %q", sh)
	}
	tur, text := agentResult(t, r.Stdout, "toolu_iso")
	if tur["worktreePath"] != nil || strings.Contains(text, "worktree") {
		t.Errorf("an unchanged worktree was reported: %v %q", tur, text)
	}
	left, _ := filepath.Glob(filepath.Join(sb.Dir, ".claude", "worktrees", "*"))
	if len(left) != 0 {
		t.Errorf("worktrees left: %v", left)
	}
	if b := gitOut(t, sb.Dir, "branch", "--list", "worktree-*"); b != "" {
		t.Errorf("branches left: %q", b)
	}
	if wl := gitOut(t, sb.Dir, "worktree", "list"); strings.Count(wl, "\n") != 0 {
		t.Errorf("git worktree list: %q", wl)
	}
}

func TestWorktreeIsolationOutsideGitIsAnErrorResult(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("change it aside"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "edit in isolation", "TASK-ISO: change a.txt", "", map[string]any{"isolation": "worktree"})}},
		llmtest.Turn{Match: isMain("git repository"), Blocks: []llmtest.Block{llmtest.Text("Cannot isolate here.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(sb.Dir))
	r := sb.Run(t, "", "-p", "change it aside", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := requestsMatching(srv, isMain("git repository"))
	if len(res) != 1 {
		t.Fatalf("the parent did not get the error: %d requests", len(res))
	}
	tr := res[0].ToolResults()[0]
	if !tr.IsError || !strings.Contains(tr.ResultText(), `isolation "worktree" needs a git repository`) || !strings.Contains(tr.ResultText(), sb.Dir) {
		t.Errorf("result %+v %q", tr, tr.ResultText())
	}
	if n := len(requestsMatching(srv, isSubagent("TASK-ISO"))); n != 0 {
		t.Errorf("the sub-agent ran anyway (%d requests)", n)
	}
}

func TestWorktreeFlagRunsTheSessionInANewWorktreeAndKeepsItsChanges(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd && git branch --show-current && echo new > f.txt"})),
		llmtest.Reply("Added f.txt."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-w", "feat", "-p", "add a file", "--dangerously-skip-permissions")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Added f.txt." {
		t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	wt := filepath.Join(sb.Dir, ".claude", "worktrees", "feat")
	sh := srv.Requests()[1].ToolResults()[0].ResultText()
	if !strings.Contains(sh, wt) || !strings.Contains(sh, "worktree-feat") {
		t.Errorf("the session's shell ran in %q", sh)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "f.txt")); string(data) != "new\n" {
		t.Errorf("worktree f.txt = %q", data)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "f.txt")); !os.IsNotExist(err) {
		t.Errorf("f.txt reached the user's checkout: %v", err)
	}
	if st := gitOut(t, sb.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("the user's git status: %q", st)
	}
	if !strings.Contains(r.Stderr, "kept in the worktree "+wt+" (branch worktree-feat)") {
		t.Errorf("stderr does not say where the work is: %q", r.Stderr)
	}
	// The system prompt names the worktree as the working folder.
	if !strings.Contains(srv.Requests()[0].SystemText(), wt) {
		t.Error("the system prompt does not name the worktree")
	}
}

func TestWorktreeFlagRemovesAnUnchangedWorktree(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd"})),
		llmtest.Reply("Looked."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-p", "look around", "--worktree", "--dangerously-skip-permissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sh := srv.Requests()[1].ToolResults()[0].ResultText()
	if !strings.Contains(sh, filepath.Join(sb.Dir, ".claude", "worktrees", "session-")) {
		t.Errorf("the session's shell ran in %q, not a made-up worktree", sh)
	}
	left, _ := filepath.Glob(filepath.Join(sb.Dir, ".claude", "worktrees", "*"))
	if len(left) != 0 || gitOut(t, sb.Dir, "branch", "--list", "worktree-*") != "" || strings.Contains(r.Stderr, "kept") {
		t.Errorf("left: %v, branches %q, stderr %q", left, gitOut(t, sb.Dir, "branch", "--list", "worktree-*"), r.Stderr)
	}
}

func TestWorktreeFlagOutsideGitIsAnError(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(sb.Dir))
	r := sb.Run(t, "", "-p", "hi", "--worktree", "x")
	if r.Code != 1 || !strings.Contains(r.Stderr, "--worktree needs a git repository, and "+sb.Dir+" is not inside one") {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
}

func TestBackgroundIsolatedSubagentNamesItsWorktreeInTheNotification(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("work aside in the background"), Blocks: []llmtest.Block{
			agentCall("toolu_bg", "edit aside", "TASK-BGISO: change a.txt", "", map[string]any{"isolation": "worktree", "run_in_background": true})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			tr := r.ToolResults()
			return !strings.Contains(r.SystemText(), subagentMarker) && len(tr) == 1 && tr[0].ToolUseID == "toolu_bg"
		}, Blocks: []llmtest.Block{llmtest.Text("Started.")}},
		llmtest.Turn{Match: isSubagent("TASK-BGISO"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "echo changed > a.txt"})}},
		llmtest.Turn{Match: answers("TASK-BGISO", "toolu_sh"), Blocks: []llmtest.Block{llmtest.Text("Changed a.txt.")}},
		llmtest.Turn{Match: notifiedMain(filepath.Join(".claude", "worktrees", "agent-")), Blocks: []llmtest.Block{llmtest.Text("Review the branch.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	r := sb.Run(t, "", "-p", "work aside in the background", "--dangerously-skip-permissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "Review the branch.") {
		t.Fatalf("stdout %q", r.Stdout)
	}
	if data, _ := os.ReadFile(filepath.Join(sb.Dir, "a.txt")); string(data) != "original\n" {
		t.Errorf("the user's a.txt changed: %q", data)
	}
	kept, _ := filepath.Glob(filepath.Join(sb.Dir, ".claude", "worktrees", "agent-*", "a.txt"))
	if len(kept) != 1 {
		t.Fatalf("kept worktrees: %v", kept)
	}
	if data, _ := os.ReadFile(kept[0]); string(data) != "changed\n" {
		t.Errorf("worktree a.txt = %q", data)
	}
	note := requestsMatching(srv, notifiedMain("worktree-agent-"))
	if len(note) != 1 {
		t.Errorf("the notification does not name the branch")
	}
}
