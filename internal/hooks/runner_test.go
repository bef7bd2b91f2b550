package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"reins/internal/settings"
)

// script writes an executable bash script and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/usr/bin/env bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func runnerFor(t *testing.T, dir string, ev Event, matcher string, cmds ...string) *Runner {
	t.Helper()
	var specs []settings.HookSpec
	for _, c := range cmds {
		specs = append(specs, settings.HookSpec{Type: "command", Command: c})
	}
	return New(Config{
		ProjectDir: dir,
		Hooks:      map[string][]settings.HookMatcher{string(ev): {{Matcher: matcher, Hooks: specs}}},
	})
}

// inputFor builds a realistic input for each event.
func inputFor(ev Event) Input {
	in := Input{Event: ev, SessionID: "sess-1", TranscriptPath: "/tmp/t.jsonl", Cwd: "/work", PermissionMode: "default"}
	switch ev {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest:
		in.ToolName, in.ToolInput, in.ToolUseID = "Bash", json.RawMessage(`{"command":"ls"}`), "toolu_1"
		in.ToolResponse = map[string]any{"stdout": "a\n"}
		in.Error = "exit 1"
	case UserPromptSubmit:
		in.Prompt = "fix the bug"
	case Notification:
		in.Message, in.NotificationType = "needs you", "permission_prompt"
	case Stop, SubagentStop:
		in.StopHookActive = true
		in.AgentType = "explorer"
	case SubagentStart:
		in.AgentID, in.AgentType = "a1", "explorer"
	case PreCompact:
		in.Trigger = "auto"
	case SessionStart:
		in.Source = "startup"
	case SessionEnd:
		in.Reason = "other"
	}
	return in
}

// TestEveryEventRunsRealScripts runs a script for every event that records
// its stdin and environment, and checks the input and each exit path.
func TestEveryEventRunsRealScripts(t *testing.T) {
	for _, ev := range Events {
		t.Run(string(ev), func(t *testing.T) {
			dir := t.TempDir()
			rec := script(t, dir, "record.sh", `cat > "$CLAUDE_PROJECT_DIR/in.json"; printf '%s|%s' "$CLAUDE_PROJECT_DIR" "$REINS_PROJECT_DIR" > "$CLAUDE_PROJECT_DIR/env.txt"; pwd > "$CLAUDE_PROJECT_DIR/pwd.txt"`)
			r := runnerFor(t, dir, ev, "", rec)
			res := r.Run(context.Background(), inputFor(ev))
			if len(res.Outputs) != 1 || res.Outputs[0].ExitCode != 0 {
				t.Fatalf("outputs = %+v", res.Outputs)
			}
			data, err := os.ReadFile(filepath.Join(dir, "in.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatalf("stdin was not JSON: %s", data)
			}
			if got["hook_event_name"] != string(ev) || got["session_id"] != "sess-1" || got["cwd"] != "/work" {
				t.Errorf("stdin = %s", data)
			}
			env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
			if string(env) != dir+"|"+dir {
				t.Errorf("CLAUDE_PROJECT_DIR|REINS_PROJECT_DIR = %q, want %q", env, dir+"|"+dir)
			}
			pwd, _ := os.ReadFile(filepath.Join(dir, "pwd.txt"))
			if strings.TrimSpace(string(pwd)) != dir {
				t.Errorf("hook ran in %q, want %q", pwd, dir)
			}

			paths := []struct {
				name, body string
				check      func(Result) bool
			}{
				{"exit 2 blocks", `echo "stop that" >&2; exit 2`, func(r Result) bool { return r.Block && r.Reason == "stop that" }},
				{"exit 1 is a user error", `echo "broken" >&2; exit 1`, func(r Result) bool {
					return !r.Block && len(r.Errors) == 1 && strings.Contains(r.Errors[0], "exit code 1: broken")
				}},
				{"JSON continue false", `echo '{"continue": false, "stopReason": "halt", "systemMessage": "note"}'`, func(r Result) bool {
					return r.Stop && r.StopReason == "halt" && len(r.SystemMessages) == 1
				}},
				{"JSON additionalContext", `echo '{"hookSpecificOutput": {"hookEventName": "` + string(ev) + `", "additionalContext": "ctx"}}'`, func(r Result) bool {
					return len(r.AdditionalContext) == 1 && r.AdditionalContext[0] == "ctx"
				}},
				{"plain stdout", `echo plain words`, func(r Result) bool {
					want := ev == UserPromptSubmit || ev == SessionStart || ev == PreCompact
					return (len(r.AdditionalContext) == 1) == want
				}},
			}
			for _, p := range paths {
				s := script(t, dir, "p.sh", p.body)
				res := runnerFor(t, dir, ev, "", s).Run(context.Background(), inputFor(ev))
				if !p.check(res) {
					t.Errorf("%s: result %+v", p.name, res)
				}
			}
		})
	}
}

func TestToolEventJSONPaths(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		ev   Event
		body string
		want func(Result) bool
	}{
		{PreToolUse, `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not here"}}'`,
			func(r Result) bool { return r.Decision == DecisionDeny && r.DecisionReason == "not here" }},
		{PreToolUse, `echo '{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls -1"}}}'`,
			func(r Result) bool {
				return r.Decision == DecisionAllow && string(r.UpdatedInput) == `{"command": "ls -1"}`
			}},
		{PreToolUse, `echo '{"hookSpecificOutput": {"permissionDecision": "ask"}}'`,
			func(r Result) bool { return r.Decision == DecisionAsk }},
		{PreToolUse, `echo '{"decision": "block", "reason": "legacy"}'`,
			func(r Result) bool { return r.Decision == DecisionDeny && r.DecisionReason == "legacy" }},
		{PermissionRequest, `echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}'`,
			func(r Result) bool { return r.Permission != nil && r.Permission.Behavior == "allow" }},
		{PostToolUse, `echo '{"decision": "block", "reason": "lint failed"}'`,
			func(r Result) bool { return r.Block && r.Reason == "lint failed" }},
		{Stop, `echo '{"decision": "block", "reason": "keep going"}'`,
			func(r Result) bool { return r.Block && r.Reason == "keep going" }},
		{UserPromptSubmit, `echo '{"decision": "block", "reason": "no"}'`,
			func(r Result) bool { return r.Block && r.Reason == "no" }},
	}
	for i, tt := range tests {
		s := script(t, dir, fmt.Sprintf("h%d.sh", i), tt.body)
		res := runnerFor(t, dir, tt.ev, "", s).Run(context.Background(), inputFor(tt.ev))
		if !tt.want(res) {
			t.Errorf("%s %q: result %+v", tt.ev, tt.body, res)
		}
	}
}

func TestMatcherSelectsHooks(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "h.sh", `echo ran >> "$CLAUDE_PROJECT_DIR/log"`)
	r := New(Config{ProjectDir: dir, Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {
			{Matcher: "Edit|Write", Hooks: []settings.HookSpec{{Type: "command", Command: s + " edit"}}},
			{Matcher: "Bash", Hooks: []settings.HookSpec{{Type: "command", Command: s + " bash"}}},
			{Matcher: "*", Hooks: []settings.HookSpec{{Type: "command", Command: s + " all"}}},
		},
		"Stop": {{Matcher: "ignored", Hooks: []settings.HookSpec{{Type: "command", Command: s + " stop"}}}},
	}})
	names := func(in Input) []string {
		var out []string
		for _, h := range r.Matching(&in) {
			out = append(out, strings.TrimPrefix(h.Name, s+" "))
		}
		return out
	}
	if got := names(Input{Event: PreToolUse, ToolName: "Write"}); strings.Join(got, ",") != "edit,all" {
		t.Errorf("Write matched %v", got)
	}
	if got := names(Input{Event: PreToolUse, ToolName: "Bash"}); strings.Join(got, ",") != "bash,all" {
		t.Errorf("Bash matched %v", got)
	}
	if got := names(Input{Event: Stop}); strings.Join(got, ",") != "stop" {
		t.Errorf("Stop ignores matchers, got %v", got)
	}
	if !r.Has(Stop) || r.Has(SessionEnd) {
		t.Error("Has is wrong")
	}
}

func TestWithAddsHooksWithoutChangingTheOriginal(t *testing.T) {
	r := New(Config{ProjectDir: t.TempDir(), Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {{Matcher: "Bash", Hooks: []settings.HookSpec{{Type: "command", Command: "from-settings"}}}},
	}})
	r.Add(Hook{Event: PreToolUse, Matcher: "Bash", Handler: callbackHandler{}, Name: "sdk-callback"})
	n := r.With(map[string][]settings.HookMatcher{
		"PreToolUse":   {{Matcher: "Bash", Hooks: []settings.HookSpec{{Type: "command", Command: "from-agent"}}}},
		"SubagentStop": {{Hooks: []settings.HookSpec{{Type: "command", Command: "agent-stop"}}}},
	})
	names := func(r *Runner, in Input) string {
		var out []string
		for _, h := range r.Matching(&in) {
			out = append(out, h.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names(n, Input{Event: PreToolUse, ToolName: "Bash"}); got != "from-settings,sdk-callback,from-agent" {
		t.Errorf("the new runner matched %q", got)
	}
	if got := names(r, Input{Event: PreToolUse, ToolName: "Bash"}); got != "from-settings,sdk-callback" {
		t.Errorf("the original runner changed: %q", got)
	}
	if !n.Has(SubagentStop) || r.Has(SubagentStop) {
		t.Error("SubagentStop hooks went to the wrong runner")
	}
}

type callbackHandler struct{}

func (callbackHandler) Run(context.Context, []byte) Output { return Output{} }

func TestMatchersForTaskSelectAgentCalls(t *testing.T) {
	r := New(Config{ProjectDir: t.TempDir(), Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {
			{Matcher: "Task", Hooks: []settings.HookSpec{{Type: "command", Command: "task-exact"}}},
			{Matcher: "Bash|Task", Hooks: []settings.HookSpec{{Type: "command", Command: "task-list"}}},
			{Matcher: "Ta.*", Hooks: []settings.HookSpec{{Type: "command", Command: "task-regexp"}}},
			{Matcher: "Agent", Hooks: []settings.HookSpec{{Type: "command", Command: "agent"}}},
		},
		"SubagentStart": {{Matcher: "Task", Hooks: []settings.HookSpec{{Type: "command", Command: "agent-type-task"}}}},
	}})
	names := func(in Input) string {
		var out []string
		for _, h := range r.Matching(&in) {
			out = append(out, h.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names(Input{Event: PreToolUse, ToolName: "Agent"}); got != "task-exact,task-list,task-regexp,agent" {
		t.Errorf("Agent call matched %q", got)
	}
	if got := names(Input{Event: PreToolUse, ToolName: "Bash"}); got != "task-list" {
		t.Errorf("Bash call matched %q", got)
	}
	// Only tool names are mapped: an agent type is matched as written.
	if got := names(Input{Event: SubagentStart, AgentType: "general-purpose", ToolName: "Agent"}); got != "" {
		t.Errorf("SubagentStart matched %q", got)
	}
}

func TestIdenticalCommandsRunOnceAndHooksRunInParallel(t *testing.T) {
	dir := t.TempDir()
	// Each hook marks that it started, then waits for the other two to
	// have started too: run one after another, the first would wait in
	// vain and fail (exit 3) instead of succeeding.
	s := script(t, dir, "slow.sh", `cd "$CLAUDE_PROJECT_DIR"; echo x >> "count.$1"; touch "started.$1"
for i in $(seq 600); do
  if [ -e started.a ] && [ -e started.b ] && [ -e started.c ]; then exit 0; fi
  sleep 0.05
done
exit 3`)
	r := runnerFor(t, dir, PreToolUse, "", s+" a", s+" b", s+" c", s+" a")
	res := r.Run(context.Background(), inputFor(PreToolUse))
	if len(res.Outputs) != 3 {
		t.Errorf("%d hooks ran, want 3 (the duplicate once)", len(res.Outputs))
	}
	for _, n := range []string{"a", "b", "c"} {
		data, _ := os.ReadFile(filepath.Join(dir, "count."+n))
		if strings.Count(string(data), "x") != 1 {
			t.Errorf("hook %s ran %d times", n, strings.Count(string(data), "x"))
		}
	}
	if len(res.Errors) != 0 {
		t.Errorf("hooks did not all run at once: %v", res.Errors)
	}
}

func TestTimeoutKillsHookAndItsChildren(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	s := script(t, dir, "hang.sh", `sleep 30 & echo $! > "`+pidFile+`"; wait`)
	// The timeout leaves the script time to start its child even on a
	// loaded machine; a hook that ran its 30 s out would end without the
	// timeout error checked below.
	r := New(Config{ProjectDir: dir, Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {{Hooks: []settings.HookSpec{{Type: "command", Command: s, Timeout: 2}}}}}})
	res := r.Run(context.Background(), inputFor(PreToolUse))
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "timed out") || res.Block {
		t.Errorf("result %+v, want one timeout error and no block", res)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("child %d of the timed-out hook is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCancelStopsHooks(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "hang.sh", `sleep 30`)
	r := runnerFor(t, dir, Stop, "", s)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	res := r.Run(ctx, inputFor(Stop))
	if time.Since(start) > 5*time.Second {
		t.Fatalf("cancelled hook took %v", time.Since(start))
	}
	if res.Block || len(res.Errors) != 1 {
		t.Errorf("result %+v, want one error", res)
	}
}

func TestDisabledRunnerRunsNothing(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "h.sh", `touch "$CLAUDE_PROJECT_DIR/ran"`)
	r := New(Config{ProjectDir: dir, Disabled: true, Hooks: map[string][]settings.HookMatcher{
		"Stop": {{Hooks: []settings.HookSpec{{Type: "command", Command: s}}}}}})
	res := r.Run(context.Background(), inputFor(Stop))
	if len(res.Outputs) != 0 || r.Has(Stop) {
		t.Errorf("disabled runner ran %v", res.Outputs)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the hook ran")
	}
}

// callback is a Handler like the SDK front end's.
type callback struct {
	mu    sync.Mutex
	got   []byte
	reply string
}

func (c *callback) Run(_ context.Context, input []byte) Output {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = input
	return Output{Stdout: c.reply}
}

func TestCallbackHooksShareAggregation(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "h.sh", `echo '{"hookSpecificOutput": {"permissionDecision": "allow"}}'`)
	r := runnerFor(t, dir, PreToolUse, "Bash", s)
	cb := &callback{reply: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "sdk says no"}}`}
	r.Add(Hook{Event: PreToolUse, Matcher: "Bash", Handler: cb, Key: "callback:hook_0", Name: "hook_0"})
	var mu sync.Mutex
	var progress []string
	r.cfg.Notify = func(p Progress) {
		mu.Lock()
		progress = append(progress, fmt.Sprintf("%s:%v", p.Name, p.Done))
		mu.Unlock()
	}
	res := r.Run(context.Background(), inputFor(PreToolUse))
	if res.Decision != DecisionDeny || res.DecisionReason != "sdk says no" {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(string(cb.got), `"tool_name":"Bash"`) {
		t.Errorf("callback got %s", cb.got)
	}
	if len(progress) != 4 {
		t.Errorf("progress = %v, want a start and an end for both hooks", progress)
	}
}

func TestLargeInputToHookThatIgnoresStdin(t *testing.T) {
	dir := t.TempDir()
	r := runnerFor(t, dir, PostToolUse, "", "exit 0")
	in := inputFor(PostToolUse)
	in.ToolResponse = strings.Repeat("x", 4<<20)
	res := r.Run(context.Background(), in)
	if len(res.Errors) != 0 || res.Outputs[0].ExitCode != 0 {
		t.Errorf("result %+v", res.Errors)
	}
}
