package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"reins/internal/settings"
)

func specRunner(ev Event, specs ...settings.HookSpec) Config {
	return Config{Hooks: map[string][]settings.HookMatcher{string(ev): {{Hooks: specs}}}}
}

// An async hook's context and messages are not part of the result of the
// run that started it; they are kept for TakeAsync, once.
func TestAsyncHookOutputIsKeptForTheNextTurn(t *testing.T) {
	dir := t.TempDir()
	cfg := specRunner(PostToolUse, settings.HookSpec{Type: "command", Async: true,
		Command: `echo '{"systemMessage": "lint ran", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "2 lint warnings"}}'`})
	cfg.ProjectDir = dir
	r := New(cfg)
	res := r.Run(context.Background(), inputFor(PostToolUse))
	if len(res.AdditionalContext)+len(res.SystemMessages)+len(res.Outputs) != 0 {
		t.Errorf("the run's result %+v holds the async hook's output", res)
	}
	r.Close(time.Hour)
	got := r.TakeAsync()
	if len(got) != 1 || got[0].Event != PostToolUse || strings.Join(got[0].AdditionalContext, "") != "2 lint warnings" ||
		strings.Join(got[0].SystemMessages, "") != "lint ran" {
		t.Fatalf("TakeAsync = %+v, want the async hook's context and message", got)
	}
	if again := r.TakeAsync(); len(again) != 0 {
		t.Errorf("TakeAsync again = %+v, want nothing", again)
	}
}

// Environ is read at each run, so hooks follow environment changes made
// while the session runs.
func TestEnvironIsReadAtEachRun(t *testing.T) {
	dir := t.TempDir()
	val := "one"
	cfg := specRunner(UserPromptSubmit, settings.HookSpec{Type: "command", Command: `echo "v=$QA8_V p=$CLAUDE_PROJECT_DIR"`})
	cfg.ProjectDir = dir
	cfg.Environ = func() []string { return []string{"PATH=/usr/bin:/bin", "QA8_V=" + val} }
	r := New(cfg)
	for _, want := range []string{"one", "two"} {
		val = want
		res := r.Run(context.Background(), inputFor(UserPromptSubmit))
		if got := strings.Join(res.AdditionalContext, ""); got != "v="+want+" p="+dir {
			t.Errorf("hook printed %q, want v=%s p=%s", got, want, dir)
		}
	}
}

func TestHTTPHookTimeoutIsReportedAsATimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	cfg := specRunner(PreToolUse, settings.HookSpec{Type: "http", URL: srv.URL, Timeout: 0.2})
	res := New(cfg).Run(context.Background(), inputFor(PreToolUse))
	if res.Decision != DecisionNone || res.Block || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "timed out") {
		t.Errorf("result %+v, want one timeout error and no decision", res)
	}
}

func TestPromptHookVerdicts(t *testing.T) {
	for _, tt := range []struct {
		name, answer string
		err          error
		ev           Event
		check        func(Result) bool
	}{
		{"ok true does nothing", `{"ok": true}`, nil, PreToolUse,
			func(r Result) bool { return r.Decision == DecisionNone && !r.Block && len(r.Errors) == 0 }},
		{"ok false denies a tool call", `Verdict: {"ok": false, "reason": "not in src/"}`, nil, PreToolUse,
			func(r Result) bool { return r.Decision == DecisionDeny && r.DecisionReason == "not in src/" }},
		{"ok false blocks a prompt", `{"ok": false, "reason": "no secrets"}`, nil, UserPromptSubmit,
			func(r Result) bool { return r.Block && r.Reason == "no secrets" }},
		{"an answer without ok is an error", `{"allowed": true}`, nil, Stop,
			func(r Result) bool {
				return !r.Block && len(r.Errors) == 1 && strings.Contains(r.Errors[0], `not {"ok": true|false`)
			}},
		{"a failed call is an error", "", errors.New("overloaded"), Stop,
			func(r Result) bool {
				return !r.Block && len(r.Errors) == 1 && strings.Contains(r.Errors[0], "overloaded")
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var asked, model string
			cfg := specRunner(tt.ev, settings.HookSpec{Type: "prompt", Prompt: "Check $ARGUMENTS now", Model: "sonnet"})
			cfg.Ask = func(ctx context.Context, m, p string) (string, error) {
				asked, model = p, m
				return tt.answer, tt.err
			}
			res := New(cfg).Run(context.Background(), inputFor(tt.ev))
			if !tt.check(res) {
				t.Errorf("result %+v", res)
			}
			if model != "sonnet" || !strings.HasPrefix(asked, `Check {"`) || !strings.Contains(asked, `"hook_event_name":"`+string(tt.ev)+`"`) {
				t.Errorf("asked %s %q, want the hook's model and the input in place of $ARGUMENTS", model, asked)
			}
		})
	}
}

func TestPromptArgumentsPlaceholderAndEscapes(t *testing.T) {
	for _, tt := range []struct {
		prompt, want string
		placed       bool
	}{
		{"Check $ARGUMENTS.", "Check {}.", true},
		{"Costs \\$1.00, see $ARGUMENTS", "Costs $1.00, see {}", true},
		{"Literal \\$ARGUMENTS here", "Literal $ARGUMENTS here", false},
		{"No placeholder", "No placeholder", false},
	} {
		got, placed := fillArguments(tt.prompt, "{}")
		if got != tt.want || placed != tt.placed {
			t.Errorf("fillArguments(%q) = %q, %v; want %q, %v", tt.prompt, got, placed, tt.want, tt.placed)
		}
	}
}

// Hooks from settings without a timeout get Claude Code's defaults: 10
// minutes for command and http hooks, 30 seconds on UserPromptSubmit and
// for prompt hooks, 1.5 seconds on SessionEnd (which holds up exit, and
// never more than a minute); a timeout given wins.
func TestSettingsHookDefaultTimeouts(t *testing.T) {
	r := New(Config{Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {{Hooks: []settings.HookSpec{
			{Type: "command", Command: "a"},
			{Type: "http", URL: "http://127.0.0.1:1/h"},
			{Type: "prompt", Prompt: "ok?"},
			{Type: "command", Command: "b", Timeout: 5},
		}}},
		"UserPromptSubmit": {{Hooks: []settings.HookSpec{{Type: "command", Command: "c"}}}},
		"SessionEnd": {{Hooks: []settings.HookSpec{{Type: "command", Command: "d"}, {Type: "command", Command: "e", Timeout: 5},
			{Type: "command", Command: "f", Timeout: 300}}}},
	}})
	var got []string
	for _, ev := range []Event{PreToolUse, UserPromptSubmit, SessionEnd} {
		for _, h := range r.Matching(&Input{Event: ev, ToolName: "Bash", Reason: "other"}) {
			got = append(got, h.Name+"="+h.Timeout.String())
		}
	}
	want := "a=10m0s,http://127.0.0.1:1/h=10m0s,prompt: ok?=30s,b=5s,c=30s,d=1.5s,e=5s,f=1m0s"
	if strings.Join(got, ",") != want {
		t.Errorf("timeouts %s, want %s", strings.Join(got, ","), want)
	}
}

// mcp_tool hooks fill ${path} references in their input's strings from
// the hook input, at any depth.
func TestMCPToolHookFillsPathsFromTheHookInput(t *testing.T) {
	var got string
	cfg := specRunner(PreToolUse, settings.HookSpec{Type: "mcp_tool", Server: "s", Tool: "scan",
		Input: []byte(`{"file": "${tool_input.command}", "nested": ["id=${tool_use_id}", "${missing.path}"], "n": 3}`)})
	cfg.CallTool = func(ctx context.Context, server, tool string, input json.RawMessage) (string, bool, error) {
		got = server + " " + tool + " " + string(input)
		return `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "scan failed"}}`, false, nil
	}
	res := New(cfg).Run(context.Background(), inputFor(PreToolUse))
	if want := `s scan {"file":"ls","n":3,"nested":["id=toolu_1",""]}`; got != want {
		t.Errorf("called %s, want %s", got, want)
	}
	if res.Decision != DecisionDeny || res.DecisionReason != "scan failed" {
		t.Errorf("result %+v, want the tool's text read as hook JSON", res)
	}
	cfg.CallTool = func(ctx context.Context, server, tool string, input json.RawMessage) (string, bool, error) {
		return "scanner crashed", true, nil
	}
	res = New(cfg).Run(context.Background(), inputFor(PreToolUse))
	if res.Decision != DecisionNone || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "scanner crashed") {
		t.Errorf("result %+v, want an error result to be a non-blocking error", res)
	}
}

// Close stops the async hooks still running after its grace.
func TestCloseStopsAsyncHooksAfterItsGrace(t *testing.T) {
	dir := t.TempDir()
	cfg := specRunner(PostToolUse, settings.HookSpec{Type: "command", Async: true, Command: "sleep 600"})
	cfg.ProjectDir = dir
	r := New(cfg)
	r.Run(context.Background(), inputFor(PostToolUse))
	r.Close(0)
	got := r.TakeAsync()
	if len(got) != 1 || len(got[0].Errors) != 1 || !strings.Contains(got[0].Errors[0], "stopped") {
		t.Errorf("TakeAsync = %+v, want the stopped hook reported", got)
	}
}

// The sub-agent of an agent hook runs no agent hooks itself: a
// SubagentStop agent hook would otherwise start a sub-agent at the end of
// each one, without end.
func TestAgentHookSubAgentRunsNoAgentHooks(t *testing.T) {
	calls := 0
	var r *Runner
	cfg := specRunner(SubagentStop, settings.HookSpec{Type: "agent", Prompt: "check $ARGUMENTS"})
	cfg.RunAgent = func(ctx context.Context, model, prompt string) (string, error) {
		calls++
		if calls > 3 {
			return "", errors.New("runaway")
		}
		// The sub-agent ends: its SubagentStop hooks run in its context.
		r.Run(ctx, inputFor(SubagentStop))
		return `{"ok": true}`, nil
	}
	r = New(cfg)
	res := r.Run(context.Background(), inputFor(SubagentStop))
	if calls != 1 || len(res.Errors) != 0 {
		t.Errorf("the agent hook started %d sub-agents (errors %v), want 1", calls, res.Errors)
	}
}

// An http hook does not follow a redirect: its headers would reach a URL
// it does not name. The 3xx answer is a non-blocking error.
func TestHTTPHookDoesNotFollowRedirects(t *testing.T) {
	hit := make(chan string, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit <- r.Header.Get("X-Token")
	}))
	defer target.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	cfg := specRunner(PreToolUse, settings.HookSpec{Type: "http", URL: srv.URL, Headers: map[string]string{"X-Token": "secret"}})
	res := New(cfg).Run(context.Background(), inputFor(PreToolUse))
	select {
	case tok := <-hit:
		t.Errorf("the redirect was followed; the target got X-Token %q", tok)
	default:
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "307") {
		t.Errorf("result %+v, want the 307 answer as an error", res)
	}
}

// The same handler in two settings files runs once; a plugin's copy of it
// runs apart, as Claude Code's reference says.
func TestPluginCopyOfASettingsHandlerRunsApart(t *testing.T) {
	spec := []settings.HookSpec{{Type: "command", Command: "echo same"}}
	r := New(Config{Hooks: map[string][]settings.HookMatcher{"Stop": {
		{Hooks: spec, Source: settings.SourceUser}, {Hooks: spec, Source: settings.SourceProject}}}})
	if n := len(r.Matching(&Input{Event: Stop})); n != 1 {
		t.Fatalf("%d hooks for one handler in two settings files, want 1", n)
	}
	r.SetPluginHooks([]PluginHooks{{Hooks: map[string][]settings.HookMatcher{"Stop": {{Hooks: spec}}}}})
	if n := len(r.Matching(&Input{Event: Stop})); n != 2 {
		t.Errorf("%d hooks with a plugin's copy, want 2", n)
	}
}

// A hook's context and messages are capped at 10,000 characters, as
// Claude Code caps them, with a note of what was left out.
func TestHookTextIsCapped(t *testing.T) {
	long := strings.Repeat("x", 25_000)
	b, _ := json.Marshal(map[string]any{"systemMessage": long,
		"hookSpecificOutput": map[string]any{"hookEventName": "UserPromptSubmit", "additionalContext": long}})
	for _, out := range []string{long, string(b)} {
		r := Aggregate(UserPromptSubmit, []Output{{Name: "big", Stdout: out}})
		for _, got := range append(r.AdditionalContext, r.SystemMessages...) {
			if len(got) > maxHookText+100 || !strings.HasSuffix(got, "[hook output cut: 10000 of 25000 characters shown]") {
				t.Errorf("kept %d characters ending %q", len(got), got[len(got)-60:])
			}
		}
		if len(r.AdditionalContext) != 1 {
			t.Errorf("context %d entries", len(r.AdditionalContext))
		}
	}
}
