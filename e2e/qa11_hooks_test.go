package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// worktreeHookScripts writes a WorktreeCreate hook that makes a plain
// folder (no git) named after the worktree under <sandbox>/copies, printing
// noise and a colour code before the path, and a WorktreeRemove hook that
// deletes the folder it is given; both keep their input in
// <sandbox>/create.json and <sandbox>/remove.json. It returns the user
// settings hooks object for them (withRemove false leaves the remove hook
// out).
func worktreeHookScripts(t *testing.T, sb *e2etest.Sandbox, withRemove bool) string {
	t.Helper()
	root := filepath.Dir(sb.Dir)
	create := filepath.Join(sb.Home, "wt-create.sh")
	writeFile(t, create, `#!/bin/bash
in=$(cat)
printf '%s' "$in" > "`+root+`/create.json"
name=$(printf '%s' "$in" | sed -n 's/.*"name":"\([^"]*\)".*/\1/p')
dir="`+root+`/copies/$name"
mkdir -p "$dir" && cp -R "$CLAUDE_PROJECT_DIR/." "$dir/"
echo "making the copy"
printf '\033[32m%s\033[0m\n' "$dir"
`)
	remove := filepath.Join(sb.Home, "wt-remove.sh")
	writeFile(t, remove, `#!/bin/bash
in=$(cat)
printf '%s' "$in" > "`+root+`/remove.json"
dir=$(printf '%s' "$in" | sed -n 's/.*"worktree_path":"\([^"]*\)".*/\1/p')
[ -d "$dir" ] && echo present >> "`+root+`/remove.json.seen"
rm -rf "$dir"
`)
	hooks := `"WorktreeCreate":[{"hooks":[{"type":"command","command":"bash ` + create + `"}]}]`
	if withRemove {
		hooks += `,"WorktreeRemove":[{"hooks":[{"type":"command","command":"bash ` + remove + `"}]}]`
	}
	return hooks
}

func readHookInput(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("hook input %q: %v", data, err)
	}
	return in
}

func TestWorktreeCreateHookMakesTheWorktreeFlagsFolderOutsideGitAndWorktreeRemoveCleansUp(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd && cat a.txt"})),
		llmtest.Reply("Looked."))
	sb := e2etest.NewSandbox(t, srv.URL)
	// No git repository: the hook stands for another version control.
	sb.Env = append(sb.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(sb.Dir))
	sb.Write(t, "a.txt", "original\n")
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{`+worktreeHookScripts(t, sb, true)+`}}`)
	r := sb.Run(t, "", "-w", "feat-x", "-p", "look", "--dangerously-skip-permissions")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Looked." {
		t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	root := filepath.Dir(sb.Dir)
	copyDir := filepath.Join(root, "copies", "feat-x")
	in := readHookInput(t, filepath.Join(root, "create.json"))
	if in["hook_event_name"] != "WorktreeCreate" || in["name"] != "feat-x" || in["cwd"] != sb.Dir {
		t.Errorf("WorktreeCreate input %v; want hook_event_name, name feat-x and cwd", in)
	}
	sh := srv.Requests()[1].ToolResults()[0].ResultText()
	if !strings.Contains(sh, copyDir) || !strings.Contains(sh, "original") {
		t.Errorf("the session's shell did not run in the folder the hook printed: %q", sh)
	}
	rm := readHookInput(t, filepath.Join(root, "remove.json"))
	if rm["hook_event_name"] != "WorktreeRemove" || rm["worktree_path"] != copyDir {
		t.Errorf("WorktreeRemove input %v; want worktree_path %s", rm, copyDir)
	}
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Errorf("the WorktreeRemove hook's cleanup did not happen: %v", err)
	}
}

func TestFailingWorktreeCreateHookStopsTheWorktreeSessionWithoutGit(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"),
		`{"hooks":{"WorktreeCreate":[{"hooks":[{"type":"command","command":"echo 'no VCS server' >&2; exit 1"}]}]}}`)
	r := sb.Run(t, "", "-w", "feat", "-p", "hi")
	if r.Code != 1 || !strings.Contains(r.Stderr, "WorktreeCreate hook failed") || !strings.Contains(r.Stderr, "no VCS server") {
		t.Fatalf("code %d, stderr %q; want exit 1 naming the hook's failure", r.Code, r.Stderr)
	}
	if len(srv.Requests()) != 0 {
		t.Error("the session went on after the hook failed")
	}
	if left, _ := filepath.Glob(filepath.Join(sb.Dir, ".claude", "worktrees", "*")); len(left) != 0 {
		t.Errorf("git made a worktree although the hook replaces it: %v", left)
	}
}

func TestWorktreeCreateHookThatPrintsNothingFailsTheWorktree(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"),
		`{"hooks":{"WorktreeCreate":[{"hooks":[{"type":"command","command":"cat >/dev/null"}]}]}}`)
	r := sb.Run(t, "", "-w", "feat", "-p", "hi")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no output") {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
}

func TestIsolatedSubagentWorksInTheFolderAWorktreeCreateHookMakes(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("change it aside"), Blocks: []llmtest.Block{
			agentCall("toolu_iso", "edit in isolation", "TASK-HOOKWT: change a.txt", "", map[string]any{"isolation": "worktree"})}},
		llmtest.Turn{Match: isSubagent("TASK-HOOKWT"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd && echo changed > a.txt"})}},
		llmtest.Turn{Match: answers("TASK-HOOKWT", "toolu_sh"), Blocks: []llmtest.Block{llmtest.Text("Changed a.txt.")}},
		llmtest.Turn{Match: isMain("Changed a.txt"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{`+worktreeHookScripts(t, sb, false)+`}}`)
	r := sb.Run(t, "", "-p", "change it aside", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	root := filepath.Dir(sb.Dir)
	in := readHookInput(t, filepath.Join(root, "create.json"))
	name, _ := in["name"].(string)
	if !strings.HasPrefix(name, "agent-") {
		t.Fatalf("WorktreeCreate input %v; want the agent's worktree name", in)
	}
	copyDir := filepath.Join(root, "copies", name)
	sh := requestsMatching(srv, answers("TASK-HOOKWT", "toolu_sh"))[0].ToolResults()[0].ResultText()
	if !strings.Contains(sh, copyDir) {
		t.Errorf("the sub-agent's shell ran in %q, not the hook's folder %s", sh, copyDir)
	}
	if data, _ := os.ReadFile(filepath.Join(sb.Dir, "a.txt")); string(data) != "original\n" {
		t.Errorf("the user's a.txt changed: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(copyDir, "a.txt")); string(data) != "changed\n" {
		t.Errorf("the hook's copy a.txt = %q", data)
	}
	// Without a WorktreeRemove hook the folder stays, and the parent is
	// told where.
	tur, text := agentResult(t, r.Stdout, "toolu_iso")
	if tur["worktreePath"] != copyDir || !strings.Contains(text, copyDir) {
		t.Errorf("tool_use_result %v, text %q; want the kept folder %s", tur, text, copyDir)
	}
	if left, _ := filepath.Glob(filepath.Join(sb.Dir, ".claude", "worktrees", "*")); len(left) != 0 {
		t.Errorf("git made a worktree although the hook replaces it: %v", left)
	}
}

func TestWorktreeRemoveHookHearsOfAnUnchangedGitWorktreeBeforeItGoes(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "pwd"})),
		llmtest.Reply("Looked."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "original\n")
	gitInit(t, sb.Dir)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"WorktreeRemove":[{"hooks":[{"type":"command","command":"cat > `+root+`/remove.json; test -f \"$(sed -n 's/.*\"worktree_path\":\"\\([^\"]*\\)\".*/\\1/p' `+root+`/remove.json)/a.txt\" && touch `+root+`/was-there"}]}]}}`)
	r := sb.Run(t, "", "-w", "look", "-p", "look", "--dangerously-skip-permissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	wt := filepath.Join(sb.Dir, ".claude", "worktrees", "look")
	rm := readHookInput(t, filepath.Join(root, "remove.json"))
	if rm["worktree_path"] != wt {
		t.Errorf("WorktreeRemove input %v; want worktree_path %s", rm, wt)
	}
	if _, err := os.Stat(filepath.Join(root, "was-there")); err != nil {
		t.Error("the WorktreeRemove hook ran after the worktree was gone; it runs before the removal")
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Errorf("the unchanged worktree was not removed: %v", err)
	}
}

func TestInitOnlyRunsSetupAndSessionStartHooksThenExitsWithoutAConversation(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"Setup":[{"matcher":"init","hooks":[{"type":"command","command":"cat > `+root+`/setup.json"}]},
		         {"matcher":"maintenance","hooks":[{"type":"command","command":"touch `+root+`/maintenance-ran"}]}],
		"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"cat > `+root+`/start.json"}]}]}}`)
	sb.Env = append(sb.Env, "ANTHROPIC_API_KEY=") // no key needed
	r := sb.Run(t, "", "--init-only")
	if r.Code != 0 || r.Stdout != "" {
		t.Fatalf("code %d, stdout %q, stderr %q; want a silent exit 0", r.Code, r.Stdout, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "setup.json"))
	if in["hook_event_name"] != "Setup" || in["trigger"] != "init" || in["cwd"] != sb.Dir {
		t.Errorf("Setup input %v; want trigger init", in)
	}
	if st := readHookInput(t, filepath.Join(root, "start.json")); st["source"] != "startup" {
		t.Errorf("SessionStart input %v", st)
	}
	if _, err := os.Stat(filepath.Join(root, "maintenance-ran")); err == nil {
		t.Error("a Setup hook for maintenance ran on --init-only")
	}
	if len(srv.Requests()) != 0 {
		t.Error("--init-only asked the model")
	}
}

func TestMaintenanceInPrintModeRunsSetupHooksWhoseContextAndEnvReachTheSession(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "echo \"cache=$CACHE_DIR\""})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	script := filepath.Join(sb.Home, "setup.sh")
	writeFile(t, script, `#!/bin/bash
cat > "`+root+`/setup.json"
echo 'export CACHE_DIR=/var/cache/proj' >> "$CLAUDE_ENV_FILE"
echo '{"hookSpecificOutput":{"hookEventName":"Setup","additionalContext":"Caches were pruned (SETUP-NOTE)."}}'
`)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"Setup":[{"matcher":"maintenance","hooks":[{"type":"command","command":"bash `+script+`"}]}]}}`)
	r := sb.Run(t, "", "-p", "--maintenance", "check the cache", "--dangerously-skip-permissions")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Done." {
		t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	if in := readHookInput(t, filepath.Join(root, "setup.json")); in["trigger"] != "maintenance" {
		t.Errorf("Setup input %v; want trigger maintenance", in)
	}
	if first := srv.Requests()[0]; !strings.Contains(string(first.Body), "SETUP-NOTE") {
		t.Error("the Setup hook's additionalContext did not reach the model")
	}
	if sh := srv.Requests()[1].ToolResults()[0].ResultText(); !strings.Contains(sh, "cache=/var/cache/proj") {
		t.Errorf("the Setup hook's CLAUDE_ENV_FILE did not reach Bash: %q", sh)
	}
}

func TestSetupHooksDoNotRunOnAnOrdinaryStart(t *testing.T) {
	srv := server(t, llmtest.Reply("Hi."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"Setup":[{"hooks":[{"type":"command","command":"touch `+root+`/setup-ran"}]}]}}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "setup-ran")); err == nil {
		t.Error("a Setup hook ran without --init, --init-only or --maintenance")
	}
	if strings.Contains(r.Stderr, "does not fire") {
		t.Errorf("Setup hooks are still warned about: %q", r.Stderr)
	}
}

func transcriptText(t *testing.T, sb *e2etest.Sandbox) string {
	t.Helper()
	var all strings.Builder
	for _, p := range sb.Transcripts(t) {
		data, _ := os.ReadFile(p)
		all.Write(data)
	}
	return all.String()
}

func TestSessionStartHookSessionTitleNamesTheSessionForResume(t *testing.T) {
	srv := server(t, llmtest.Reply("First."), llmtest.Reply("Second."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"SessionStart":[{"hooks":[{"type":"command",
		"command":"cat >> `+root+`/start.jsonl; echo >> `+root+`/start.jsonl; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"sessionTitle\":\"nightly-audit\"}}'"}]}]}}`)
	if r := sb.Run(t, "", "-p", "one"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(transcriptText(t, sb), `"customTitle":"nightly-audit"`) {
		t.Fatal("the hook's sessionTitle was not recorded as the session's title")
	}
	// The title finds the session, and the next SessionStart hook is told it.
	r := sb.Run(t, "", "-p", "--resume", "nightly-audit", "two")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Second." {
		t.Fatalf("resume by the hook's title: code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(root, "start.jsonl"))))), "\n")
	var second map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &second); err != nil {
		t.Fatal(err)
	}
	if second["source"] != "resume" || second["session_title"] != "nightly-audit" {
		t.Errorf("SessionStart input on resume %v; want session_title nightly-audit", second)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestUserPromptSubmitHookSessionTitleNamesTheSession(t *testing.T) {
	srv := server(t, llmtest.Reply("Ok."))
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command",
		"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"sessionTitle\":\"fix the login bug\"}}'"}]}]}}`)
	if r := sb.Run(t, "", "-p", "the login form fails"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(transcriptText(t, sb), `"customTitle":"fix the login bug"`) {
		t.Error("the UserPromptSubmit hook's sessionTitle was not recorded")
	}
}

func TestUserPromptSubmitInputCarriesSourceAndSessionTitle(t *testing.T) {
	srv := server(t, llmtest.Reply("Ok."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"cat > `+root+`/prompt.json"}]}]}}`)
	if r := sb.Run(t, "", "-p", "--name", "triage", "look at the logs"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "prompt.json"))
	if in["prompt"] != "look at the logs" || in["source"] != "user" || in["session_title"] != "triage" {
		t.Errorf("UserPromptSubmit input %v; want prompt, source user and session_title triage", in)
	}
}

func TestSessionStartInputNamesTheMainAgent(t *testing.T) {
	srv := server(t, llmtest.Reply("Ok."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	sb.Write(t, ".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews code\n---\nYou review code.\n")
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"cat > `+root+`/start.json"}]}]}}`)
	if r := sb.Run(t, "", "-p", "--agent", "reviewer", "--name", "review run", "look"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "start.json"))
	if in["agent_type"] != "reviewer" || in["session_title"] != "review run" {
		t.Errorf("SessionStart input %v; want agent_type reviewer and session_title from --name", in)
	}
}

func TestSessionStartInitialUserMessageIsThePrintRunsFirstTurn(t *testing.T) {
	hook := `{"hooks":{"SessionStart":[{"hooks":[{"type":"command",
		"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"initialUserMessage\":\"Run the INITIAL-CHECK first.\"}}'"}]}]}}`
	t.Run("without a prompt", func(t *testing.T) {
		srv := server(t, llmtest.Reply("Checked."))
		sb := e2etest.NewSandbox(t, srv.URL)
		writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), hook)
		r := sb.Run(t, "", "-p")
		if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Checked." {
			t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
		}
		if reqs := srv.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].LastUserText(), "INITIAL-CHECK") {
			t.Errorf("the initialUserMessage was not the turn's prompt")
		}
	})
	t.Run("with a prompt", func(t *testing.T) {
		srv := server(t, llmtest.Reply("Checked."), llmtest.Reply("Answered."))
		sb := e2etest.NewSandbox(t, srv.URL)
		writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), hook)
		r := sb.Run(t, "", "-p", "then the USER-PROMPT")
		if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Answered." {
			t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || !strings.Contains(reqs[0].LastUserText(), "INITIAL-CHECK") || !strings.Contains(reqs[1].LastUserText(), "USER-PROMPT") {
			t.Errorf("want the hook's message, then the prompt, as two turns (%d requests)", len(reqs))
		}
	})
	t.Run("no prompt and no hook is still a usage error", func(t *testing.T) {
		srv := server(t)
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", "-p")
		if r.Code != 2 || !strings.Contains(r.Stderr, "no prompt") {
			t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
		}
	})
}

func TestFileChangedHookRunsWhenTheModelWritesAWatchedFileAndItsEnvReachesBash(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Bash", map[string]any{"command": "echo '{}' > package.json"})),
		llmtest.Calls(llmtest.ToolUse("toolu_r", "Bash", map[string]any{"command": "echo \"val=$DIRENV_VAL\""})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	script := filepath.Join(sb.Home, "deps.sh")
	writeFile(t, script, `#!/bin/bash
cat > "`+root+`/changed.json"
echo 'export DIRENV_VAL=loaded' >> "$CLAUDE_ENV_FILE"
`)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"FileChanged":[
		{"matcher":".npmrc|package.json","hooks":[{"type":"command","command":"bash `+script+`"}]},
		{"matcher":"package.js","hooks":[{"type":"command","command":"touch `+root+`/prefix-ran"}]}]}}`)
	r := sb.Run(t, "", "-p", "set up the package", "--dangerously-skip-permissions")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Done." {
		t.Fatalf("code %d, stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "changed.json"))
	if in["hook_event_name"] != "FileChanged" || in["file_path"] != filepath.Join(sb.Dir, "package.json") || in["event"] != "add" {
		t.Errorf("FileChanged input %v; want file_path of package.json and event add", in)
	}
	if sh := srv.Requests()[2].ToolResults()[0].ResultText(); !strings.Contains(sh, "val=loaded") {
		t.Errorf("the FileChanged hook's CLAUDE_ENV_FILE did not reach the next Bash command: %q", sh)
	}
	if _, err := os.Stat(filepath.Join(root, "prefix-ran")); err == nil {
		t.Error(`a FileChanged hook with matcher "package.js" ran for package.json (matchers are literal file names)`)
	}
}

func TestSessionStartWatchPathsAddFilesForFileChangedHooks(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Bash", map[string]any{"command": "echo 'a,b' >> data/rows.csv"})),
		llmtest.Reply("Appended."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "data/rows.csv", "h1,h2\n")
	root := filepath.Dir(sb.Dir)
	rows := filepath.Join(sb.Dir, "data", "rows.csv")
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"SessionStart":[{"hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"watchPaths\":[\"`+rows+`\"]}}'"}]}],
		"FileChanged":[{"hooks":[{"type":"command","command":"cat > `+root+`/changed.json"}]}]}}`)
	r := sb.Run(t, "", "-p", "append a row", "--dangerously-skip-permissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "changed.json"))
	if in["file_path"] != rows || in["event"] != "change" {
		t.Errorf("FileChanged input %v; want the watched path and event change", in)
	}
}

func TestSDKSessionRunsSessionStartBeforeItsFirstTurnAndSessionEndAtExit(t *testing.T) {
	srv := server(t, llmtest.Reply("One."), llmtest.Reply("Two."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"SessionStart":[{"hooks":[{"type":"command","command":"cat >> `+root+`/start.jsonl; echo >> `+root+`/start.jsonl; echo 'The SDK-START-NOTE applies.'"}]}],
		"SessionEnd":[{"hooks":[{"type":"command","command":"cat > `+root+`/end.json"}]}]}}`)
	p := startSDK(t, sb)
	p.send(sdkUserLine("first"))
	p.next("result")
	p.send(sdkUserLine("second"))
	p.next("result")
	p.finish()
	data, err := os.ReadFile(filepath.Join(root, "start.jsonl"))
	if err != nil {
		t.Fatal("SessionStart hooks did not run in an SDK session")
	}
	if n := strings.Count(strings.TrimSpace(string(data)), "\n") + 1; n != 1 || !strings.Contains(string(data), `"source":"startup"`) {
		t.Errorf("SessionStart ran %d times with %s; want once, source startup", n, data)
	}
	if !strings.Contains(string(srv.Requests()[0].Body), "SDK-START-NOTE") {
		t.Error("the SessionStart hook's context did not reach the first request")
	}
	if end := readHookInput(t, filepath.Join(root, "end.json")); end["reason"] != "other" {
		t.Errorf("SessionEnd input %v", end)
	}
}

func TestPreCompactHookExit2BlocksTheCompaction(t *testing.T) {
	for _, c := range []struct{ name, hook string }{
		{"exit 2", `echo 'a release is being cut; compact later' >&2; exit 2`},
		{"decision block", `echo '{\"decision\":\"block\",\"reason\":\"a release is being cut; compact later\"}'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("first answer"))
			sb := e2etest.NewSandbox(t, srv.URL)
			sb.Write(t, ".claude/settings.json", `{"hooks":{"PreCompact":[{"matcher":"manual","hooks":[{"type":"command","command":"`+c.hook+`"}]}]}}`)
			if r := sb.Run(t, "", "-p", "one"); r.Code != 0 {
				t.Fatalf("code %d err %q", r.Code, r.Stderr)
			}
			r := sb.Run(t, "", "-p", "/compact", "-c")
			if !strings.Contains(r.Stdout+r.Stderr, "a release is being cut; compact later") {
				t.Errorf("the hook's reason is not shown: stdout %q stderr %q", r.Stdout, r.Stderr)
			}
			for _, q := range srv.Requests() {
				if strings.Contains(q.LastUserText(), summaryMarker) {
					t.Fatal("the conversation was summarised although the PreCompact hook blocked it")
				}
			}
		})
	}
}

func TestPreToolUseDeferInPrintModeStopsBeforeTheCallRuns(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_d", "Bash", map[string]any{"command": "touch deployed"})),
		llmtest.Reply("should not be asked"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
		"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"defer\",\"permissionDecisionReason\":\"needs a human\"}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "deploy", "--dangerously-skip-permissions")
	if _, err := os.Stat(filepath.Join(sb.Dir, "deployed")); err == nil {
		t.Fatal("the deferred call ran")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the session should stop at the deferred call", n)
	}
	if !strings.Contains(r.Stderr, "deferred the Bash call: needs a human") {
		t.Errorf("stderr %q does not say the call was deferred", r.Stderr)
	}
}

func TestPreToolUseDeferIsIgnoredForASubagentsCalls(t *testing.T) {
	// A sub-agent's calls are not the print-mode session's own: defer does
	// not apply there, so the call runs, as in an interactive session.
	srv := server(t,
		llmtest.Turn{Match: isMain("go"), Blocks: []llmtest.Block{agentCall("toolu_a", "run it", "TASK-DEFER: touch", "", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-DEFER"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_d", "Bash", map[string]any{"command": "touch ran"})}},
		llmtest.Turn{Match: answers("TASK-DEFER", "toolu_d"), Blocks: []llmtest.Block{llmtest.Text("Touched.")}},
		llmtest.Turn{Match: isMain("Touched"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
		"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"defer\"}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--dangerously-skip-permissions", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "ran")); err != nil {
		t.Error("the sub-agent's call did not run although defer does not apply there")
	}
	if !strings.Contains(r.Stderr, `permissionDecision "defer"`) {
		t.Errorf("no warning that defer was ignored: %q", r.Stderr)
	}
}

func TestInstructionsLoadedFiresForNestedMemoryAndPathRulesAReadLoads(t *testing.T) {
	// The model reads files of the sandbox, whose paths are known once it
	// exists: the server is made after it.
	sb := e2etest.NewSandbox(t, "")
	root := filepath.Dir(sb.Dir)
	sub := sb.Write(t, "sub/notes.txt", "notes\n")
	sb.Write(t, "sub/CLAUDE.md", "Sub-folder rules.\n")
	goFile := sb.Write(t, "main.go", "package main\n")
	sb.Write(t, ".claude/rules/go.md", "---\npaths:\n  - \"**/*.go\"\n---\nGo rules.\n")
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": sub})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Read", map[string]any{"file_path": goFile})),
		llmtest.Reply("Read both."))
	sb.BaseURL = srv.URL
	sb.Env = append(sb.Env, "ANTHROPIC_BASE_URL="+srv.URL)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"InstructionsLoaded":[{"hooks":[{"type":"command","command":"cat >> `+root+`/loaded.jsonl; echo >> `+root+`/loaded.jsonl"}]}]}}`)
	if r := sb.Run(t, "", "-p", "read them", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(root, "loaded.jsonl"))
	if err != nil {
		t.Fatal("InstructionsLoaded hooks did not run")
	}
	var nested, glob map[string]any
	for _, line := range strings.Split(string(data), "\n") {
		var in map[string]any
		if json.Unmarshal([]byte(line), &in) != nil {
			continue
		}
		switch in["load_reason"] {
		case "nested_traversal":
			nested = in
		case "path_glob_match":
			glob = in
		}
	}
	if nested == nil || nested["file_path"] != filepath.Join(sb.Dir, "sub", "CLAUDE.md") || nested["trigger_file_path"] != sub {
		t.Errorf("nested_traversal input %v; want sub/CLAUDE.md triggered by %s", nested, sub)
	}
	if glob == nil || glob["file_path"] != filepath.Join(sb.Dir, ".claude", "rules", "go.md") || glob["trigger_file_path"] != goFile {
		t.Errorf("path_glob_match input %v; want the go rule triggered by %s", glob, goFile)
	}
}

func TestPostToolUseInputCarriesDurationMs(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "sleep 0.05; echo ok"})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > `+root+`/post.json"}]}]}}`)
	if r := sb.Run(t, "", "-p", "wait", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "post.json"))
	if d, ok := in["duration_ms"].(float64); !ok || d <= 0 {
		t.Errorf("PostToolUse input %v; want a positive duration_ms", in)
	}
}

func TestHooksCommandListsEventsInLifecycleOrder(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"Stop":[{"hooks":[{"type":"command","command":"true"}]}],
		"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}],
		"SessionStart":[{"hooks":[{"type":"command","command":"true"}]}],
		"WorktreeCreate":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	r := sb.Run(t, "", "-p", "/hooks")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	order := []string{"SessionStart\n", "PreToolUse\n", "Stop\n", "WorktreeCreate\n"}
	last := -1
	for _, ev := range order {
		i := strings.Index(r.Stdout, ev)
		if i < 0 || i < last {
			t.Fatalf("/hooks output does not list %v in this order:\n%s", order, r.Stdout)
		}
		last = i
	}
}

func TestStopHookInputListsRunningBackgroundTasks(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "sleep 3", "run_in_background": true, "description": "wait a while"})),
		llmtest.Reply("Started."),
		llmtest.Reply("Finished."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"cat >> `+root+`/stop.jsonl; echo >> `+root+`/stop.jsonl"}]}]}}`)
	if r := sb.Run(t, "", "-p", "start it", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(root, "stop.jsonl"))
	if err != nil {
		t.Fatal("the Stop hook did not run")
	}
	var first struct {
		BackgroundTasks []map[string]any `json:"background_tasks"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &first); err != nil {
		t.Fatal(err)
	}
	if len(first.BackgroundTasks) != 1 {
		t.Fatalf("first Stop input background_tasks %v; want the running command", first.BackgroundTasks)
	}
	bt := first.BackgroundTasks[0]
	if bt["type"] != "local_bash" || bt["status"] != "running" || bt["command"] != "sleep 3" || bt["description"] != "wait a while" || bt["id"] == "" {
		t.Errorf("background task %v", bt)
	}
}

func TestSDKSessionWithMaintenanceRunsSetupHooksBeforeItsFirstTurn(t *testing.T) {
	srv := server(t, llmtest.Reply("One."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{
		"Setup":[{"matcher":"maintenance","hooks":[{"type":"command","command":"cat > `+root+`/setup.json"}]}]}}`)
	p := startSDK(t, sb, "--maintenance")
	p.send(sdkUserLine("first"))
	p.next("result")
	p.finish()
	if in := readHookInput(t, filepath.Join(root, "setup.json")); in["trigger"] != "maintenance" {
		t.Errorf("Setup input %v", in)
	}
}

func TestToolHookInputCarriesTheEffortLevel(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "true"})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > `+root+`/pre.json"}]}]}}`)
	if r := sb.Run(t, "", "-p", "go", "--effort", "high", "--model", "claude-opus-4-5", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "pre.json"))
	if e, _ := in["effort"].(map[string]any); e == nil || e["level"] != "high" {
		t.Errorf("PreToolUse input %v; want effort {level: high}", in)
	}
}

func TestFileChangedHookHearsAWatchedFileRemoved(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_rm", "Bash", map[string]any{"command": "rm package-lock.json"})),
		llmtest.Reply("Removed."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "package-lock.json", "{}\n")
	root := filepath.Dir(sb.Dir)
	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"hooks":{"FileChanged":[
		{"matcher":"package-lock.json","hooks":[{"type":"command","command":"cat > `+root+`/changed.json"}]}]}}`)
	if r := sb.Run(t, "", "-p", "drop the lock file", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	in := readHookInput(t, filepath.Join(root, "changed.json"))
	if in["file_path"] != filepath.Join(sb.Dir, "package-lock.json") || in["event"] != "unlink" {
		t.Errorf("FileChanged input %v; want event unlink", in)
	}
}
