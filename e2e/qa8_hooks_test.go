package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// hookRequest is what an http hook's server received.
type hookRequest struct {
	Method, ContentType string
	Header              http.Header
	Body                map[string]any
}

// hookServer is a local http hook endpoint that answers every request
// with status and body, and keeps what it received.
func hookServer(t *testing.T, status int, body string) (*httptest.Server, func() []hookRequest) {
	t.Helper()
	var mu sync.Mutex
	var got []hookRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hr := hookRequest{Method: r.Method, ContentType: r.Header.Get("Content-Type"), Header: r.Header.Clone()}
		_ = json.Unmarshal(b, &hr.Body)
		mu.Lock()
		got = append(got, hr)
		mu.Unlock()
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []hookRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]hookRequest(nil), got...)
	}
}

func TestHTTPHookPostsInputWithAllowedEnvHeadersAndItsAnswerDeniesTheCall(t *testing.T) {
	hook, received := hookServer(t, http.StatusOK,
		`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no shell today (policy server)"}}`)
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "HOOK_TOKEN=tok-123", "OTHER_SECRET=do-not-send")
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "http", "url": "`+hook.URL+`/pre", "timeout": 10,
		 "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "[${OTHER_SECRET}]"},
		 "allowedEnvVars": ["HOOK_TOKEN"]}]}]}}`)

	r := sb.Run(t, "", "-p", "make a file", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err == nil {
		t.Error("the call the http hook denied ran")
	}
	if res, _ := autoToolResult(srv, "toolu_1"); !strings.Contains(res, "no shell today (policy server)") {
		t.Errorf("tool result = %q, want the http hook's reason", res)
	}
	got := received()
	if len(got) != 1 {
		t.Fatalf("the hook server got %d requests, want 1", len(got))
	}
	h := got[0]
	if h.Method != http.MethodPost || h.ContentType != "application/json" {
		t.Errorf("request: %s with Content-Type %q, want a POST of JSON", h.Method, h.ContentType)
	}
	if h.Body["hook_event_name"] != "PreToolUse" || h.Body["tool_name"] != "Bash" || h.Body["tool_use_id"] != "toolu_1" {
		t.Errorf("body = %v, want the PreToolUse input of the Bash call", h.Body)
	}
	if a := h.Header.Get("Authorization"); a != "Bearer tok-123" {
		t.Errorf("Authorization = %q, want the allowed variable filled in", a)
	}
	if o := h.Header.Get("X-Other"); o != "[]" {
		t.Errorf("X-Other = %q, want the variable allowedEnvVars does not list left empty", o)
	}
}

func TestHTTPHookFailingStatusIsANonBlockingError(t *testing.T) {
	hook, received := hookServer(t, http.StatusInternalServerError, "database down")
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [
		{"type": "http", "url": "`+hook.URL+`"}]}]}}`)

	r := sb.Run(t, "", "-p", "make a file", "--verbose", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err != nil {
		t.Errorf("the call did not run: %v", err)
	}
	if len(received()) != 1 {
		t.Errorf("the hook server got %d requests, want 1", len(received()))
	}
	if !strings.Contains(r.Stderr, "500 Internal Server Error") || !strings.Contains(r.Stderr, "database down") {
		t.Errorf("stderr = %q, want the failing status and body as a warning", r.Stderr)
	}
	if res, isErr := autoToolResult(srv, "toolu_1"); isErr || strings.Contains(res, "database down") {
		t.Errorf("tool result = %q (error %v): a failing http hook must not reach the model", res, isErr)
	}
}

// promptVerdict is a prompt hook's scripted side call: it answers only a
// request that carries the hook's prompt text.
func promptVerdict(match, answer string) llmtest.Turn {
	return llmtest.Turn{Side: true, MatchText: match, Blocks: []llmtest.Block{llmtest.Text(answer)}}
}

func TestPromptHookOnStopMakesTheModelContinueWithItsReason(t *testing.T) {
	srv := server(t,
		llmtest.Reply("all done"),
		promptVerdict("Were the tests run?", "```json\n{\"ok\": false, \"reason\": \"run the tests before stopping\"}\n```"),
		llmtest.Reply("ran them, done"),
		promptVerdict("Were the tests run?", `{"ok": true}`))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [
		{"type": "prompt", "prompt": "Were the tests run? Context: $ARGUMENTS"}]}]}}`)

	r := sb.Run(t, "", "-p", "fix the bug", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || res.Result != "ran them, done" {
		t.Fatalf("result = %q (%v), want the answer after the prompt hook sent the model on", res.Result, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (turn, verdict, turn, verdict)", len(reqs))
	}
	side := reqs[1]
	if !strings.Contains(side.Model, "haiku") {
		t.Errorf("the prompt hook asked %q, want the fast model", side.Model)
	}
	text := side.LastUserText()
	if strings.Contains(text, "$ARGUMENTS") || !strings.Contains(text, `"hook_event_name":"Stop"`) || !strings.Contains(text, `"stop_hook_active":false`) {
		t.Errorf("the prompt hook's question = %q, want $ARGUMENTS replaced by the Stop input", text)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "run the tests before stopping") {
		t.Errorf("the model was sent on with %q, want the prompt hook's reason", got)
	}
	if !strings.Contains(reqs[3].LastUserText(), `"stop_hook_active":true`) {
		t.Errorf("the second Stop input = %q, want stop_hook_active true", reqs[3].LastUserText())
	}
}

func TestPromptHookOnPreToolUseDeniesTheCall(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		promptVerdict("Is this command safe", `{"ok": false, "reason": "touching files is not allowed here"}`),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "prompt", "prompt": "Is this command safe to run?"}]}]}}`)

	r := sb.Run(t, "", "-p", "make a file", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err == nil {
		t.Error("the call the prompt hook denied ran")
	}
	if res, _ := autoToolResult(srv, "toolu_1"); !strings.Contains(res, "touching files is not allowed here") {
		t.Errorf("tool result = %q, want the prompt hook's reason", res)
	}
	// Without $ARGUMENTS the input follows the prompt.
	if q := srv.Requests()[1].LastUserText(); !strings.Contains(q, `"tool_name":"Bash"`) {
		t.Errorf("the prompt hook's question = %q, want the PreToolUse input after the prompt", q)
	}
}

func TestHookOfUnknownTypeIsWarnedAboutWithItsFileAndPlace(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	path := sb.Write(t, ".claude/settings.json", `{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
		{"type": "command", "command": "true"},
		{"type": "webhook", "url": "http://127.0.0.1:1/x"}]}],
		"SessionStart": [{"hooks": [{"type": "prompt", "prompt": "Is it morning?"}]}]}}`)

	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		path + ":1:",
		`hooks.PostToolUse[0].hooks[1]: a PostToolUse hook has type "webhook", which reins does not know (it runs "command", "http", "mcp_tool", "prompt" and "agent" hooks); that hook is skipped`,
		`hooks.SessionStart[0].hooks[0]: SessionStart hooks cannot be of type "prompt"`,
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr = %q, want it to contain %q", r.Stderr, want)
		}
	}
}

func TestAsyncCommandHookDoesNotHoldUpTheTurnAndFinishesBeforeExit(t *testing.T) {
	// The async hook waits for a file that the model's next call makes: a
	// hook that blocked its call would wait for it until its timeout.
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo one"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "touch go"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "hook.sh", `input=$(cat)
case "$input" in *'"echo one"'*) ;; *) exit 0 ;; esac
while [ ! -f go ]; do sleep 0.05; done
echo finished > hook-finished
`)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "bash hook.sh", "async": true, "timeout": 10}]}]}}`)

	r := sb.Run(t, "", "-p", "go", "--output-format", "json", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "timed out") {
		t.Errorf("stderr = %q: the async hook held up its call", r.Stderr)
	}
	if b, err := os.ReadFile(filepath.Join(sb.Dir, "hook-finished")); err != nil || strings.TrimSpace(string(b)) != "finished" {
		t.Errorf("the async hook did not finish before reins exited: %v", err)
	}
}

// Settings env changed over the SDK (apply_flag_settings) reaches the
// hooks that run after the change, as it reaches Bash; before, hooks kept
// the environment the session started with.
func TestSDKApplyFlagSettingsEnvReachesLaterHooks(t *testing.T) {
	srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"env": {"QA8_FILE": "from-file"},
		"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "printf '%s|%s\\n' \"$QA8_FLAG\" \"$QA8_FILE\" >> hook-saw.txt"}]}]}}`)
	p := startSDK(t, sb)
	p.send(sdkUserLine("one"))
	p.next("result")
	p.send(`{"type":"control_request","request_id":"r1","request":{"subtype":"apply_flag_settings","settings":{"env":{"QA8_FLAG":"flag-value","QA8_FILE":"changed"}}}}`)
	if resp := p.next("control_response")["response"].(map[string]any); resp["subtype"] != "success" {
		t.Fatalf("apply_flag_settings: %v", resp)
	}
	p.send(sdkUserLine("two"))
	p.next("result")
	p.finish()
	got, err := os.ReadFile(filepath.Join(sb.Dir, "hook-saw.txt"))
	if err != nil || string(got) != "|from-file\nflag-value|changed\n" {
		t.Errorf("the hooks saw %q (%v), want the settings env of the time of each prompt", got, err)
	}
}

// PostCompact hooks run after a compaction with its trigger (their
// matcher) and the summary it made.
func TestPostCompactHookSeesTriggerAndSummary(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{
  "models": {"claude-sonnet-4-5": {"contextWindow": 60000, "maxOutputTokens": 8000}},
  "hooks": {
    "PostCompact": [
      {"matcher": "auto", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/postcompact.json\""}]},
      {"matcher": "manual", "hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR/wrong-trigger\""}]}
    ]
  }
}`)
	f := sb.Write(t, "notes.txt", "notes\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": f})},
			Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>The user asked about notes.txt.</summary>")}, Side: true},
		llmtest.Reply("Continuing after the summary."))
	r := sb.Run(t, "", "-p", "what is in notes.txt?", "--model", "sonnet")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Continuing after the summary." {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "postcompact.json"))
	if err != nil {
		t.Fatalf("the PostCompact hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("PostCompact input %q: %v", data, err)
	}
	if in["hook_event_name"] != "PostCompact" || in["trigger"] != "auto" ||
		!strings.Contains(fmt.Sprint(in["compact_summary"]), "The user asked about notes.txt.") {
		t.Errorf("PostCompact input = %s, want trigger auto and the summary", data)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "wrong-trigger")); err == nil {
		t.Error("the PostCompact hook for manual compactions ran after an automatic one")
	}
}

// A PostToolUse hook's updatedToolOutput replaces what the model gets
// from any tool (here in the Bash tool's shape, as Claude Code's
// reference shows it); updatedMCPToolOutput does for MCP tools only.
func TestPostToolUseHookReplacesToolOutput(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo password=hunter2"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "echo mcp-only"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "redact.sh", `input=$(cat)
case "$input" in
  *hunter2*) echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "password=[redacted]", "stderr": "", "interrupted": false, "isImage": false}}}' ;;
  *) echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": "not for Bash"}}' ;;
esac
`)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "bash redact.sh"}]}]}}`)
	r := sb.Run(t, "", "-p", "show it", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if res, _ := autoToolResult(srv, "toolu_1"); res != "password=[redacted]" {
		t.Errorf("tool result = %q, want the hook's replacement", res)
	}
	if res, _ := autoToolResult(srv, "toolu_2"); !strings.Contains(res, "mcp-only") || strings.Contains(res, "not for Bash") {
		t.Errorf("tool result = %q, want the Bash output (updatedMCPToolOutput is for MCP tools)", res)
	}
}

func TestPostToolUseHookReplacesMCPToolOutput(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, dumpTurn("dump", 50), llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PostToolUse": [{"matcher": "mcp__.*", "hooks": [{"type": "command",
		"command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"updatedMCPToolOutput\": [{\"type\": \"text\", \"text\": \"summarised by the hook\"}]}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "dump", "--mcp-config", cfg, "--allowedTools", "mcp__gap")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[1].ToolResults()[0].ResultText(); got != "summarised by the hook" {
		t.Errorf("tool result = %q, want the hook's replacement", got)
	}
}

// --include-hook-events lines name hooks as Claude Code does: the event
// and what the matcher matched ("PreToolUse:Bash", "SessionStart:startup"),
// or the event alone for events without a matcher; the same command run
// for two events is paired by its own hook_id.
func TestHookEventLinesNameTheEventAndMatchValue(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "echo ran"})),
		llmtest.Reply("fin"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {
		"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose", "--include-hook-events")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	started := map[string]string{}
	var names []string
	for _, l := range decodeLines(t, r.Stdout) {
		id, _ := l["hook_id"].(string)
		name, _ := l["hook_name"].(string)
		switch l["subtype"] {
		case "hook_started":
			started[id] = name
			names = append(names, name)
		case "hook_response":
			if started[id] != name || l["outcome"] != "success" {
				t.Errorf("hook_response %v does not match its hook_started (%q)", l, started[id])
			}
			delete(started, id)
		}
	}
	if got := strings.Join(names, ","); got != "SessionStart:startup,PreToolUse:Bash,Stop" {
		t.Errorf("hook names %q, want SessionStart:startup,PreToolUse:Bash,Stop", got)
	}
	if len(started) != 0 {
		t.Errorf("hooks started without a response: %v", started)
	}
}

// A hook's "if" condition (one permission rule) narrows it to the calls
// that match: "Bash(git *)" runs for a command with a git subcommand, not
// for others; on an event that is not about a tool call, a hook with "if"
// never runs.
func TestHookIfConditionNarrowsToMatchingCalls(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo not-git"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "echo first && git --version"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "if": "Bash(git *)",
			"command": "cat >> \"$CLAUDE_PROJECT_DIR/if-saw.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/if-saw.jsonl\""}]}],
		"UserPromptSubmit": [{"hooks": [{"type": "command", "if": "Bash(git *)", "command": "touch \"$CLAUDE_PROJECT_DIR/prompt-hook-ran\""}]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "if-saw.jsonl"))
	if err != nil {
		t.Fatalf("the hook never ran: %v", err)
	}
	if strings.Contains(string(data), "toolu_1") || !strings.Contains(string(data), "toolu_2") {
		t.Errorf("the hook saw %s; want only the call with a git subcommand", data)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "prompt-hook-ran")); err == nil {
		t.Error(`a UserPromptSubmit hook with "if" ran`)
	}
}

// A skill's frontmatter hooks are registered when the skill is invoked and
// run for the rest of the session; a hook with once: true is removed
// after its first successful run.
func TestSkillFrontmatterHooksRunAfterTheSkillIsInvoked(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_0", "Bash", map[string]string{"command": "echo before"})),
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Skill", map[string]string{"skill": "fmt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "echo a"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "echo b"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/fmt/SKILL.md", `---
name: fmt
description: Formats the code
hooks:
  PostToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "echo every >> \"$CLAUDE_PROJECT_DIR/skill-hook.log\""
        - type: command
          command: "echo once >> \"$CLAUDE_PROJECT_DIR/skill-once.log\""
          once: true
---
Format the code.
`)
	r := sb.Run(t, "", "-p", "format", "--allowedTools", "Bash,Skill")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	every, err := os.ReadFile(filepath.Join(sb.Dir, "skill-hook.log"))
	if err != nil || string(every) != "every\nevery\n" {
		t.Errorf("skill hook log %q (%v), want two runs: the Bash calls after the skill, not the one before", every, err)
	}
	once, err := os.ReadFile(filepath.Join(sb.Dir, "skill-once.log"))
	if err != nil || string(once) != "once\n" {
		t.Errorf("once hook log %q (%v), want one run", once, err)
	}
}

// When the turn ends on an API error, StopFailure hooks run instead of
// Stop hooks, matched on the kind of error, with its details.
func TestStopFailureHookRunsOnAnAPIError(t *testing.T) {
	srv := server(t, llmtest.Turn{Fault: &llmtest.Fault{Status: 401, ErrorType: "authentication_error", Message: "invalid x-api-key"}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {
		"StopFailure": [
			{"matcher": "authentication_failed", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/failure.json\""}]},
			{"matcher": "rate_limit", "hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR/wrong-kind\""}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR/stop-ran\""}]}]}}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code == 0 {
		t.Fatalf("the run succeeded: %s", r.Stdout)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "failure.json"))
	if err != nil {
		t.Fatalf("the StopFailure hook did not run: %v (stderr %s)", err, r.Stderr)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil || in["hook_event_name"] != "StopFailure" || in["error"] != "authentication_failed" ||
		!strings.Contains(fmt.Sprint(in["error_details"]), "invalid x-api-key") {
		t.Errorf("StopFailure input = %s (%v)", data, err)
	}
	for _, f := range []string{"wrong-kind", "stop-ran"} {
		if _, err := os.Stat(filepath.Join(sb.Dir, f)); err == nil {
			t.Errorf("%s: a hook ran that should not have", f)
		}
	}
}

// A command hook with "args" runs in exec form: the executable with each
// argument exactly as written (no shell: quotes, $ and spaces pass
// through), path placeholders filled in.
func TestCommandHookExecFormPassesArgumentsVerbatim(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	script := sb.Write(t, "rec.sh", "#!/bin/sh\nprintf '%s|%s|%s' \"$#\" \"$1\" \"$2\" > \"$CLAUDE_PROJECT_DIR/args.txt\"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, ".claude/settings.json", `{"hooks": {"UserPromptSubmit": [{"hooks": [
		{"type": "command", "command": "${CLAUDE_PROJECT_DIR}/rec.sh", "args": ["it's $HOME; ok", "${CLAUDE_PROJECT_DIR}/x y"]},
		{"type": "command", "command": "printf", "args": ["exec-form-context"]}]}]}}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	got, err := os.ReadFile(filepath.Join(sb.Dir, "args.txt"))
	if want := "2|it's $HOME; ok|" + sb.Dir + "/x y"; err != nil || string(got) != want {
		t.Errorf("the hook got %q (%v), want %q", got, err, want)
	}
	if !strings.Contains(srv.Requests()[0].LastUserText(), "exec-form-context") {
		t.Errorf("the printf hook's output did not reach the model: %q", srv.Requests()[0].LastUserText())
	}
}

// An mcp_tool hook calls a tool of a connected MCP server; its text is
// read as a command's stdout (on UserPromptSubmit, context for the
// model). A server that is not connected is a non-blocking error.
func TestMCPToolHookCallsAConnectedServersTool(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"UserPromptSubmit": [{"hooks": [
		{"type": "mcp_tool", "server": "gap", "tool": "dump", "input": {"chars": 7}},
		{"type": "mcp_tool", "server": "nowhere", "tool": "x"}]}]}}`)
	r := sb.Run(t, "", "-p", "hi", "--mcp-config", cfg, "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "<system-reminder>\n0123456\n</system-reminder>") {
		t.Errorf("prompt %q, want the tool's text as context", got)
	}
	if !strings.Contains(r.Stderr, `UserPromptSubmit hook "mcp_tool: nowhere/x" could not run`) || !strings.Contains(r.Stderr, `no connected MCP server "nowhere" has a tool "x"`) {
		t.Errorf("stderr %q, want the missing server named", r.Stderr)
	}
}

// allowedHttpHookUrls limits the URLs http hooks may post to (a hook to
// another is a non-blocking error and sends nothing), and
// httpHookAllowedEnvVars the variables any of them may put in headers.
func TestHTTPHookAllowlists(t *testing.T) {
	hook, received := hookServer(t, http.StatusOK, "")
	other, otherReceived := hookServer(t, http.StatusOK, "")
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "TOKEN_A=a-value", "TOKEN_B=b-value")
	sb.Write(t, ".claude/settings.json", `{
		"allowedHttpHookUrls": ["`+hook.URL+`/allowed/*"],
		"httpHookAllowedEnvVars": ["TOKEN_A"],
		"hooks": {"UserPromptSubmit": [{"hooks": [
			{"type": "http", "url": "`+hook.URL+`/allowed/1", "headers": {"X-A": "$TOKEN_A", "X-B": "$TOKEN_B"}, "allowedEnvVars": ["TOKEN_A", "TOKEN_B"]},
			{"type": "http", "url": "`+other.URL+`/elsewhere"}]}]}}`)
	r := sb.Run(t, "", "-p", "hi", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	got := received()
	if len(got) != 1 || got[0].Header.Get("X-A") != "a-value" || got[0].Header.Get("X-B") != "" {
		t.Errorf("allowed hook requests %+v, want one with X-A filled and X-B empty", got)
	}
	if n := len(otherReceived()); n != 0 {
		t.Errorf("the hook to a URL the allowlist leaves out posted %d times", n)
	}
	if !strings.Contains(r.Stderr, "is not one allowedHttpHookUrls lets http hooks post to") {
		t.Errorf("stderr %q, want the refused URL named", r.Stderr)
	}
}

// Hook inputs carry prompt_id, as Claude Code's do: the same for every
// hook of one prompt, and absent before the first prompt (SessionStart).
func TestHookInputsCarryThePromptID(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "true"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	logCmd := `{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR/inputs.jsonl\"; echo >> \"$CLAUDE_PROJECT_DIR/inputs.jsonl\""}`
	sb.Write(t, ".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [`+logCmd+`]}], "UserPromptSubmit": [{"hooks": [`+logCmd+`]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [`+logCmd+`]}], "Stop": [{"hooks": [`+logCmd+`]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "inputs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in map[string]any
		if json.Unmarshal([]byte(line), &in) != nil {
			continue
		}
		id, _ := in["prompt_id"].(string)
		ids[fmt.Sprint(in["hook_event_name"])] = id
	}
	if len(ids) != 4 || ids["SessionStart"] != "" || ids["UserPromptSubmit"] == "" ||
		ids["PreToolUse"] != ids["UserPromptSubmit"] || ids["Stop"] != ids["UserPromptSubmit"] {
		t.Errorf("prompt ids by event %v, want one id for the prompt's hooks and none for SessionStart", ids)
	}
}

// An agent hook gives its prompt, with the input in place of $ARGUMENTS,
// to a read-only sub-agent on the fast model; {"ok": false} from it
// keeps a Stop from ending the turn, and the model goes on with the
// reason.
func TestAgentHookOnStopRunsASubAgentThatCanSendTheModelOn(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("fix the bug"), Blocks: []llmtest.Block{llmtest.Text("all done")}},
		llmtest.Turn{Match: isSubagent("AGENT-CHECK"), Blocks: []llmtest.Block{llmtest.Text(`{"ok": false, "reason": "no test covers the fix"}`)}},
		llmtest.Turn{Match: isMain("no test covers the fix"), Blocks: []llmtest.Block{llmtest.Text("added a test")}},
		llmtest.Turn{Match: isSubagent("AGENT-CHECK"), Blocks: []llmtest.Block{llmtest.Text(`{"ok": true}`)}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [
		{"type": "agent", "prompt": "AGENT-CHECK: does a test cover the change? $ARGUMENTS"}]}]}}`)
	r := sb.Run(t, "", "-p", "fix the bug", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || res.Result != "added a test" {
		t.Fatalf("result %q (%v), want the answer after the agent hook sent the model on; stderr %s", res.Result, err, r.Stderr)
	}
	var sub *llmtest.Request
	for _, req := range srv.Requests() {
		if strings.Contains(req.SystemText(), subagentMarker) {
			sub = req
			break
		}
	}
	if sub == nil || !strings.Contains(sub.Model, "haiku") || !strings.Contains(sub.LastUserText(), `"hook_event_name":"Stop"`) {
		t.Errorf("the agent hook's sub-agent request: %+v", sub)
	}
}

// disableAllHooks turns off the hooks of skills and sub-agent definitions
// too, not only those of settings files and plugins.
func TestDisableAllHooksTurnsOffSkillAndAgentHooks(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("go"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Skill", map[string]string{"skill": "fmt"})}},
		llmtest.Turn{Match: isMain("Format the code"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_2", "Agent",
			map[string]any{"subagent_type": "checker", "description": "check", "prompt": "CHECK-TASK"})}},
		llmtest.Turn{Match: isSubagent("CHECK-TASK"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "echo sub"})}},
		llmtest.Turn{Match: answers("CHECK-TASK", "toolu_3"), Blocks: []llmtest.Block{llmtest.Text("checked")}},
		llmtest.Turn{Match: isMain("checked"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_4", "Bash", map[string]string{"command": "echo main"})}},
		llmtest.Turn{Match: isMain("main"), Blocks: []llmtest.Block{llmtest.Text("done")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	hook := `hooks:
  PostToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "echo ran >> \"$CLAUDE_PROJECT_DIR/%s\""
`
	sb.Write(t, ".claude/skills/fmt/SKILL.md", "---\nname: fmt\ndescription: Formats\n"+fmt.Sprintf(hook, "skill-hook.log")+"---\nFormat the code.\n")
	sb.Write(t, ".claude/agents/checker.md", "---\nname: checker\ndescription: Checks\ntools: Bash\n"+fmt.Sprintf(hook, "agent-hook.log")+"---\nYou check.\n")
	sb.Write(t, ".claude/settings.json", `{"disableAllHooks": true}`)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash,Skill,Agent")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d out %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, f := range []string{"skill-hook.log", "agent-hook.log"} {
		if _, err := os.Stat(filepath.Join(sb.Dir, f)); err == nil {
			t.Errorf("%s exists: a hook ran although disableAllHooks is set", f)
		}
	}
}

// A Stop hook's additionalContext sends the model on with it, as a block
// does; a Stop hook that always does so is followed at most 8 times in a
// row, then the turn ends with a warning instead of looping on.
func TestStopHookContextContinuesAndIsCapped(t *testing.T) {
	var turns []llmtest.Turn
	for i := 0; i < 9; i++ {
		turns = append(turns, llmtest.Reply(fmt.Sprintf("answer %d", i)))
	}
	srv := server(t, turns...)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command",
		"command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"Stop\", \"additionalContext\": \"run the linter too\"}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--output-format", "json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 9 {
		t.Fatalf("%d requests, want 9 (the answer and 8 continuations)", len(reqs))
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "run the linter too") {
		t.Errorf("the model was sent on with %q, want the hook's context", got)
	}
	if !strings.Contains(r.Stdout+r.Stderr, "Stop hooks sent the model on 8 times in a row") {
		t.Errorf("no warning about the cap in stdout %q / stderr %q", r.Stdout, r.Stderr)
	}
}
