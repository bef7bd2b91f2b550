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

// An asyncRewake hook runs in the background, and when it exits 2 what it
// printed wakes the model: in a stream-json session that is idle, a new
// turn starts with the hook's report.
func TestAsyncRewakeHookExit2WakesTheModel(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo edited"})),
		llmtest.Reply("edited the file"),
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return strings.Contains(r.LastUserText(), "3 tests failed in pkg/foo")
		}, Blocks: []llmtest.Block{llmtest.Text("fixing the 3 failing tests")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	// The hook waits for the test's go-ahead, so the first turn is over
	// (reins idle) when it reports.
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "asyncRewake": true, "command": "while [ ! -f \"$CLAUDE_PROJECT_DIR/go-ahead\" ]; do sleep 0.05; done; echo '3 tests failed in pkg/foo' >&2; exit 2"}]}]}}`)
	p := startSDK(t, sb)
	p.send(sdkUserLine("edit the file"))
	if res := p.next("result"); res["result"] != "edited the file" {
		t.Fatalf("first result %v", res["result"])
	}
	if err := os.WriteFile(filepath.Join(sb.Dir, "go-ahead"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := p.next("result"); res["result"] != "fixing the 3 failing tests" {
		t.Fatalf("the hook's report did not wake the model: result %v", res["result"])
	}
	p.finish()
}

// A Bash cd fires CwdChanged hooks with the folders before and after, and
// what they export through CLAUDE_ENV_FILE reaches the next Bash command
// (the direnv use of the event); before, the event never fired.
func TestCwdChangedHookSeesTheFoldersAndItsEnvReachesBash(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "mkdir -p sub && cd sub"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "echo \"v=$QA10_DIRENV\""})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"CwdChanged": [{"hooks": [
		{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/cwd-input.json\"; echo 'export QA10_DIRENV=loaded' >> \"$CLAUDE_ENV_FILE\""}]}]}}`)
	r := sb.Run(t, "", "-p", "go into sub")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "cwd-input.json"))
	if err != nil {
		t.Fatalf("the CwdChanged hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("hook input %q: %v", data, err)
	}
	root, _ := filepath.EvalSymlinks(sb.Dir)
	old, _ := in["old_cwd"].(string)
	now, _ := in["new_cwd"].(string)
	if in["hook_event_name"] != "CwdChanged" || !sameDir(old, root) || !sameDir(now, filepath.Join(root, "sub")) {
		t.Errorf("hook input %s, want old_cwd %s and new_cwd %s/sub", data, root, root)
	}
	if res, _ := autoToolResult(srv, "toolu_2"); !strings.Contains(res, "v=loaded") {
		t.Errorf("second command printed %q, want the variable the hook exported", res)
	}
}

// sameDir reports whether a and b name the same folder once links are
// resolved.
func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// UserPromptExpansion hooks see a custom command that expands into a
// prompt (matched on its name): exit 2 refuses it before anything reaches
// the model, and plain stdout goes with the prompt as context.
func TestUserPromptExpansionHookBlocksOrAddsContext(t *testing.T) {
	srv := server(t, llmtest.Turn{Match: func(r *llmtest.Request) bool {
		return strings.Contains(r.LastUserText(), "review checklist v2")
	}, Blocks: []llmtest.Block{llmtest.Text("reviewed")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/deploy.md", "Deploy $ARGUMENTS now.\n")
	sb.Write(t, ".claude/commands/review.md", "Review the diff of $ARGUMENTS.\n")
	sb.Write(t, ".claude/settings.json", `{"hooks": {"UserPromptExpansion": [
		{"matcher": "deploy", "hooks": [{"type": "command", "command": "echo 'deploys are frozen this week' >&2; exit 2"}]},
		{"matcher": "review", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/expansion.json\"; echo 'review checklist v2'"}]}]}}`)

	r := sb.Run(t, "", "-p", "/deploy prod", "--output-format", "json")
	if !strings.Contains(r.Stdout, "deploys are frozen this week") {
		t.Errorf("blocked command printed %q (stderr %q), want the hook's reason", r.Stdout, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d model requests for a blocked command", n)
	}

	r = sb.Run(t, "", "-p", "/review main")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "reviewed" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "expansion.json"))
	if err != nil {
		t.Fatalf("the review hook did not run: %v", err)
	}
	var in map[string]any
	_ = json.Unmarshal(data, &in)
	if in["hook_event_name"] != "UserPromptExpansion" || in["expansion_type"] != "slash_command" || in["command_name"] != "review" ||
		in["command_args"] != "main" || in["prompt"] != "/review main" {
		t.Errorf("hook input %s", data)
	}
}

// InstructionsLoaded hooks run at start for each memory file: the
// project's CLAUDE.md ("session_start") and a file it imports
// ("include", with the importing file).
func TestInstructionsLoadedHookRunsForEachMemoryFile(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "CLAUDE.md", "Project rules.\n@docs/extra.md\n")
	sb.Write(t, "docs/extra.md", "Extra rules.\n")
	sb.Write(t, ".claude/settings.json", `{"hooks": {"InstructionsLoaded": [{"hooks": [
		{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/loaded.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/loaded.jsonl\""}]}]}}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "loaded.jsonl"))
	if err != nil {
		t.Fatalf("the InstructionsLoaded hook did not run: %v", err)
	}
	got := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		p, _ := in["file_path"].(string)
		got[filepath.Base(p)] = in
	}
	main, extra := got["CLAUDE.md"], got["extra.md"]
	if main == nil || main["load_reason"] != "session_start" || main["memory_type"] != "Project" || main["hook_event_name"] != "InstructionsLoaded" {
		t.Errorf("CLAUDE.md input %v", main)
	}
	if parent, _ := extra["parent_file_path"].(string); extra == nil || extra["load_reason"] != "include" || filepath.Base(parent) != "CLAUDE.md" {
		t.Errorf("extra.md input %v", extra)
	}
}

// A PreToolUse matcher written as a comma list ("Edit, Bash") selects
// those tools: the hook denies the Bash call.
func TestPreToolUseMatcherWithCommasSelectsTheListedTools(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Edit, Bash", "hooks": [
		{"type": "command", "command": "echo 'no shell in this repo' >&2; exit 2"}]}]}}`)
	r := sb.Run(t, "", "-p", "make a file")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err == nil {
		t.Error("the call the hook denies ran")
	}
	if res, _ := autoToolResult(srv, "toolu_1"); !strings.Contains(res, "no shell in this repo") {
		t.Errorf("tool result %q, want the hook's reason", res)
	}
}

// A hook that says continue false ends the run, and in text output its
// stopReason reaches the user on stderr; the run used to end with empty
// output and no word on why.
func TestContinueFalseStopReasonIsShownInTextOutput(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo hi"})),
		llmtest.Reply("not reached"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "echo '{\"continue\": false, \"stopReason\": \"Build failed, fix it first\"}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "build it")
	if r.Code != 0 || strings.Contains(r.Stdout, "not reached") {
		t.Fatalf("code %d out %q err %q, want the run stopped after the hook", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "Build failed, fix it first") {
		t.Errorf("stderr %q, want the hook's stopReason", r.Stderr)
	}
	if n := srv.Remaining(); n != 1 {
		t.Errorf("%d scripted turns left, want the reply after the tool call unused", n)
	}
}

// PostToolBatch hooks run once a batch of calls all have results, with
// every call and the result the model sees: their context reaches the
// next request, and a block stops the turn before it.
func TestPostToolBatchHookSeesTheBatchAndCanStopTheLoop(t *testing.T) {
	srv := server(t,
		llmtest.Calls(
			llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo one"}),
			llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "echo two"})),
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), "batch checked: 2 calls") },
			Blocks: []llmtest.Block{llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "echo three"})}},
		llmtest.Reply("not reached"))
	sb := e2etest.NewSandbox(t, srv.URL)
	// The first batch gets context; the second is blocked.
	sb.Write(t, "hook.sh", `#!/bin/sh
cat >> "$CLAUDE_PROJECT_DIR/batches.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/batches.jsonl"
if [ -f "$CLAUDE_PROJECT_DIR/seen" ]; then echo '{"decision": "block", "reason": "batch budget used up"}'; exit 0; fi
touch "$CLAUDE_PROJECT_DIR/seen"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": "batch checked: 2 calls"}}'
`)
	if err := os.Chmod(filepath.Join(sb.Dir, "hook.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolBatch": [{"hooks": [
		{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hook.sh"}]}]}}`)
	r := sb.Run(t, "", "-p", "run both")
	if r.Code != 0 || strings.Contains(r.Stdout, "not reached") {
		t.Fatalf("code %d out %q err %q, want the turn stopped by the second batch's hook", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "batch budget used up") {
		t.Errorf("stderr %q, want the block's reason", r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "batches.jsonl"))
	if err != nil {
		t.Fatalf("the PostToolBatch hook did not run: %v", err)
	}
	var first struct {
		Event string `json:"hook_event_name"`
		Calls []struct {
			Name     string          `json:"tool_name"`
			ID       string          `json:"tool_use_id"`
			Input    json.RawMessage `json:"tool_input"`
			Response string          `json:"tool_response"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &first); err != nil {
		t.Fatalf("hook input %q: %v", data, err)
	}
	if first.Event != "PostToolBatch" || len(first.Calls) != 2 || first.Calls[0].ID != "toolu_1" || first.Calls[1].ID != "toolu_2" ||
		first.Calls[0].Name != "Bash" || !strings.Contains(first.Calls[1].Response, "two") || !strings.Contains(string(first.Calls[0].Input), "echo one") {
		t.Errorf("first batch input %s", data)
	}
}

// SessionStart hooks tell a resumed session ("resume") from a fork of one
// (--fork-session: "fork"), as Claude Code's source does.
func TestSessionStartSourceIsForkForAForkedSession(t *testing.T) {
	srv := server(t, llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [
		{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/starts.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/starts.jsonl\""}]}]}}`)
	r := sb.Run(t, "", "-p", "hello", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || res.SessionID == "" {
		t.Fatalf("result %q: %v", r.Stdout, err)
	}
	for _, args := range [][]string{{"--resume", res.SessionID}, {"--resume", res.SessionID, "--fork-session"}} {
		if r := sb.Run(t, "", append([]string{"-p", "again"}, args...)...); r.Code != 0 {
			t.Fatalf("%v: code %d: %s", args, r.Code, r.Stderr)
		}
	}
	data, _ := os.ReadFile(filepath.Join(sb.Dir, "starts.jsonl"))
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in struct {
			Source string `json:"source"`
		}
		_ = json.Unmarshal([]byte(line), &in)
		got = append(got, in.Source)
	}
	if strings.Join(got, " ") != "startup resume fork" {
		t.Errorf("SessionStart sources %q, want startup resume fork", got)
	}
}

// A hook's input cwd follows the Bash tool's cd, as Claude Code's does;
// CLAUDE_PROJECT_DIR stays the project's.
func TestHookInputCwdFollowsBashCd(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "mkdir -p sub && cd sub"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "pwd"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/pre.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/pre.jsonl\""}]}]}}`)
	if r := sb.Run(t, "", "-p", "go into sub"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "pre.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var cwds []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in struct {
			Cwd string `json:"cwd"`
		}
		_ = json.Unmarshal([]byte(line), &in)
		cwds = append(cwds, in.Cwd)
	}
	if len(cwds) != 2 || !sameDir(cwds[0], sb.Dir) || !sameDir(cwds[1], filepath.Join(sb.Dir, "sub")) {
		t.Errorf("hook cwds %q, want the project and then its sub folder", cwds)
	}
}

// A SessionStart hook that exits 2 cannot block, and its stderr is shown
// to the user (as Claude Code shows it); it was dropped without a word.
func TestSessionStartExit2StderrIsShownToTheUser(t *testing.T) {
	srv := server(t, llmtest.Reply("hello"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [
		{"type": "command", "command": "echo 'the dependency cache is stale' >&2; exit 2"}]}]}}`)
	r := sb.Run(t, "", "-p", "hi", "--verbose")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "hello" {
		t.Fatalf("code %d out %q err %q, want the session to go on", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "SessionStart hook: the dependency cache is stale") {
		t.Errorf("stderr %q, want the hook's stderr", r.Stderr)
	}
}
