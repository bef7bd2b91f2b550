package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/permission"
	"reins/internal/settings"
	"reins/internal/shell"
	"reins/internal/tool"
	"reins/internal/tools/bash"
)

// gateTool records the inputs it runs with. Named "Bash", it judges its
// read-only answer with the shell package like the real Bash tool.
type gateTool struct {
	tool.Defaults
	name string
	ro   bool
	fail bool
	data any

	mu  sync.Mutex
	got []string
}

func (g *gateTool) Name() string                 { return g.name }
func (g *gateTool) Description() string          { return "records its input" }
func (g *gateTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (g *gateTool) IsReadOnly(in json.RawMessage) bool {
	if g.name == "Bash" {
		var x struct{ Command string }
		_ = json.Unmarshal(in, &x)
		return shell.IsReadOnly(x.Command)
	}
	return g.ro
}
func (g *gateTool) Call(_ context.Context, _ *tool.Call, in json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	g.mu.Lock()
	g.got = append(g.got, string(in))
	g.mu.Unlock()
	if g.fail {
		return nil, errors.New("exit status 1: boom")
	}
	r := tool.Text("ran")
	r.Data = g.data
	return r, nil
}

func (g *gateTool) inputs() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string{}, g.got...)
}

// gateAsker answers from a function and counts questions.
type gateAsker struct {
	n      atomic.Int32
	answer func(ctx context.Context, q engine.Question) (engine.Answer, error)
}

func (a *gateAsker) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	a.n.Add(1)
	return a.answer(ctx, q)
}

type gateEnv struct {
	dir   string
	gate  *engine.PermissionGate
	perms *permission.Checker
}

type gateOpts struct {
	allow, ask, deny []string
	mode             permission.Mode
	hooks            map[string]string // event → command
	matcher          string
	asker            engine.Asker
	agentID          string
	classifier       engine.Classifier
}

func gateScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/usr/bin/env bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func newGateEnv(t *testing.T, o gateOpts) *gateEnv {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &settings.Settings{Hooks: map[string][]settings.HookMatcher{}}
	for b, list := range map[settings.Behavior][]string{settings.Allow: o.allow, settings.Ask: o.ask, settings.Deny: o.deny} {
		for _, r := range list {
			s.Rules = append(s.Rules, settings.Rule{Behavior: b, Text: r, Source: settings.SourceProject, Root: dir})
		}
	}
	for ev, cmd := range o.hooks {
		s.Hooks[ev] = []settings.HookMatcher{{Matcher: o.matcher, Hooks: []settings.HookSpec{{Type: "command", Command: cmd}}}}
	}
	mode := o.mode
	if mode == "" {
		mode = permission.ModeDefault
	}
	p, _, err := permission.NewPolicy(permission.Config{Settings: s, Mode: string(mode), Cwd: dir, Home: dir})
	if err != nil {
		t.Fatal(err)
	}
	perms := permission.NewChecker(p, permission.CheckerConfig{ProjectDir: dir})
	runner := hooks.New(hooks.Config{Hooks: s.Hooks, ProjectDir: dir})
	g := engine.NewGate(engine.GateConfig{Permissions: perms, Hooks: runner, Asker: o.asker, AgentID: o.agentID, AgentType: "helper", Classifier: o.classifier,
		HookInput: func() hooks.Input {
			return hooks.Input{SessionID: "sess", TranscriptPath: filepath.Join(dir, "t.jsonl"), Cwd: dir}
		}})
	return &gateEnv{dir: dir, gate: g, perms: perms}
}

func (e *gateEnv) run(ctx context.Context, tl tool.Tool, input string) *tool.Outcome {
	p := &tool.Pipeline{Gate: e.gate}
	return p.Run(ctx, &tool.Call{ID: "toolu_1", Name: tl.Name(), SessionID: "sess", Cwd: e.dir}, tl, json.RawMessage(input))
}

func resultOf(o *tool.Outcome) string {
	var parts []string
	for _, b := range o.Block.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func TestGatePreToolUseUpdatedInputIsWhatTheToolReceives(t *testing.T) {
	dir := t.TempDir()
	hook := gateScript(t, dir, "rewrite.sh", `cat > "$CLAUDE_PROJECT_DIR/seen.json"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -la"}, "additionalContext": "rewritten by policy"}}'`)
	e := newGateEnv(t, gateOpts{hooks: map[string]string{"PreToolUse": hook}, matcher: "Bash"})
	bash := &gateTool{name: "Bash"}
	out := e.run(context.Background(), bash, `{"command": "rm -rf /"}`)
	if out.IsError {
		t.Fatalf("call failed: %s", resultOf(out))
	}
	if got := bash.inputs(); len(got) != 1 || compactJSON(got[0]) != `{"command":"ls -la"}` {
		t.Errorf("tool received %v, want the hook's updated input", got)
	}
	if compactJSON(string(out.Input)) != `{"command":"ls -la"}` {
		t.Errorf("outcome input = %s", out.Input)
	}
	if !strings.Contains(resultOf(out), "rewritten by policy") {
		t.Errorf("additionalContext missing from result %q", resultOf(out))
	}
	seen, _ := os.ReadFile(filepath.Join(e.dir, "seen.json"))
	var in map[string]any
	if err := json.Unmarshal(seen, &in); err != nil {
		t.Fatalf("hook stdin %q: %v", seen, err)
	}
	if in["tool_name"] != "Bash" || in["tool_use_id"] != "toolu_1" || in["session_id"] != "sess" || in["permission_mode"] != "default" ||
		in["tool_input"].(map[string]any)["command"] != "rm -rf /" {
		t.Errorf("hook saw %s", seen)
	}
}

func TestGateHookDecisions(t *testing.T) {
	hookSays := func(decision string) string {
		return `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "` + decision + `", "permissionDecisionReason": "hook reason"}}'`
	}
	tests := []struct {
		name      string
		o         gateOpts
		hook      string
		tool      string
		input     string
		wantRun   bool
		wantAsked int32
		wantWhy   string
	}{
		{name: "hook deny beats an allow rule", o: gateOpts{allow: []string{"Bash"}}, hook: hookSays("deny"),
			input: `{"command": "ls"}`, wantWhy: "hook reason"},
		{name: "hook allow cannot beat a deny rule", o: gateOpts{deny: []string{"Bash(rm:*)"}}, hook: hookSays("allow"),
			input: `{"command": "rm -rf x"}`, wantWhy: "deny rule Bash(rm:*)"},
		{name: "hook allow cannot beat an ask rule", o: gateOpts{ask: []string{"Bash(git push:*)"}}, hook: hookSays("allow"),
			input: `{"command": "git push"}`, wantAsked: 1, wantWhy: "declined"},
		{name: "hook allow settles a mode ask", hook: hookSays("allow"), input: `{"command": "npm install"}`, wantRun: true},
		{name: "hook allow cannot settle a safety ask", o: gateOpts{mode: permission.ModeAcceptEdits}, hook: hookSays("allow"),
			tool: "Write", input: `{"file_path": ".git/config"}`, wantAsked: 1, wantWhy: "declined"},
		{name: "hook allow settles dontAsk's refusal", o: gateOpts{mode: permission.ModeDontAsk}, hook: hookSays("allow"),
			input: `{"command": "npm install"}`, wantRun: true},
		{name: "hook ask makes an allowed call ask", hook: hookSays("ask"), input: `{"command": "ls"}`, wantAsked: 1, wantWhy: "declined"},
		{name: "hook ask in dontAsk denies", o: gateOpts{mode: permission.ModeDontAsk}, hook: hookSays("ask"), input: `{"command": "ls"}`, wantWhy: "dontAsk"},
		{name: "exit 2 blocks with stderr", o: gateOpts{allow: []string{"Bash"}}, hook: `echo "not on Fridays" >&2; exit 2`,
			input: `{"command": "ls"}`, wantWhy: "not on Fridays"},
		{name: "exit 1 does not block", hook: `echo oops >&2; exit 1`, input: `{"command": "ls"}`, wantRun: true},
		{name: "legacy approve", hook: `echo '{"decision": "approve"}'`, input: `{"command": "npm test"}`, wantRun: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			asker := &gateAsker{answer: func(context.Context, engine.Question) (engine.Answer, error) { return engine.Answer{}, nil }}
			tt.o.asker = asker
			tt.o.hooks = map[string]string{"PreToolUse": gateScript(t, dir, "h.sh", tt.hook)}
			e := newGateEnv(t, tt.o)
			name := tt.tool
			if name == "" {
				name = "Bash"
			}
			tl := &gateTool{name: name}
			out := e.run(context.Background(), tl, tt.input)
			ran := len(tl.inputs()) == 1
			if ran != tt.wantRun {
				t.Fatalf("ran = %v, want %v (%s)", ran, tt.wantRun, resultOf(out))
			}
			if !ran && !out.Denied {
				t.Errorf("a refused call should be marked Denied: %+v", out)
			}
			if n := asker.n.Load(); n != tt.wantAsked {
				t.Errorf("asked %d times, want %d", n, tt.wantAsked)
			}
			if tt.wantWhy != "" && !strings.Contains(resultOf(out), tt.wantWhy) {
				t.Errorf("result %q does not say %q", resultOf(out), tt.wantWhy)
			}
		})
	}
}

func TestGateContinueFalseStopsTheTurnWithoutRunning(t *testing.T) {
	dir := t.TempDir()
	hook := gateScript(t, dir, "h.sh", `echo '{"continue": false, "stopReason": "maintenance window"}'`)
	e := newGateEnv(t, gateOpts{hooks: map[string]string{"PreToolUse": hook}, allow: []string{"Bash"}})
	bash := &gateTool{name: "Bash"}
	out := e.run(context.Background(), bash, `{"command": "ls"}`)
	if len(bash.inputs()) != 0 || !out.StopTurn || out.StopReason != "maintenance window" || !out.IsError {
		t.Errorf("outcome %+v, inputs %v", out, bash.inputs())
	}
}

func TestGateWithoutAskerDenies(t *testing.T) {
	e := newGateEnv(t, gateOpts{})
	bash := &gateTool{name: "Bash"}
	out := e.run(context.Background(), bash, `{"command": "npm install"}`)
	if !out.Denied || len(bash.inputs()) != 0 || !strings.Contains(resultOf(out), "Nobody can approve it") {
		t.Errorf("outcome %+v: %s", out, resultOf(out))
	}
	if !strings.Contains(out.DenyReason, "npm install") {
		t.Errorf("the reason should name the command: %q", out.DenyReason)
	}
}

func TestGateAskerAnswers(t *testing.T) {
	var questions []engine.Question
	var mu sync.Mutex
	asker := &gateAsker{answer: func(_ context.Context, q engine.Question) (engine.Answer, error) {
		mu.Lock()
		questions = append(questions, q)
		mu.Unlock()
		var x struct{ Command string }
		_ = json.Unmarshal(q.Input, &x)
		switch x.Command {
		case "npm install":
			return engine.Answer{Allow: true, UpdatedInput: json.RawMessage(`{"command": "npm ci"}`),
				Updates: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(npm install)"}, Behavior: "allow", Destination: "session"}}}, nil
		case "make deploy":
			return engine.Answer{Allow: false, Message: "not today", Interrupt: true}, nil
		}
		return engine.Answer{}, errors.New("unexpected")
	}}
	e := newGateEnv(t, gateOpts{asker: asker})
	bash := &gateTool{name: "Bash"}
	out := e.run(context.Background(), bash, `{"command": "npm install"}`)
	if got := bash.inputs(); len(got) != 1 || got[0] != `{"command": "npm ci"}` {
		t.Fatalf("tool got %v, want the answer's updated input", got)
	}
	if len(questions) != 1 || questions[0].ToolName != "Bash" || questions[0].ToolUseID != "toolu_1" || !strings.Contains(questions[0].Reason, "npm install") {
		t.Errorf("question = %+v", questions)
	}
	if s := questions[0].Suggestions; len(s) == 0 || s[0].Type != "addRules" || s[0].Rules[0] != "Bash(npm install *)" {
		t.Errorf("suggestions = %+v", s)
	}
	e.run(context.Background(), bash, `{"command": "npm install"}`)
	if asker.n.Load() != 1 {
		t.Errorf("the session rule from the answer should stop the second question (asked %d)", asker.n.Load())
	}
	out = e.run(context.Background(), bash, `{"command": "make deploy"}`)
	if !out.Denied || !out.Interrupt || resultOf(out) != "not today" {
		t.Errorf("denial outcome %+v %q", out, resultOf(out))
	}
}

func TestGateAskHonoursContext(t *testing.T) {
	asker := &gateAsker{answer: func(ctx context.Context, _ engine.Question) (engine.Answer, error) {
		<-ctx.Done()
		return engine.Answer{}, ctx.Err()
	}}
	e := newGateEnv(t, gateOpts{asker: asker})
	bash := &gateTool{name: "Bash"}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	// The asker returns only when its context ends: a gate that did not
	// pass the call's context on would wait here for good.
	out := e.run(ctx, bash, `{"command": "npm install"}`)
	if len(bash.inputs()) != 0 || !out.IsError {
		t.Errorf("outcome %+v", out)
	}
	v := e.gate.Before(ctx, &tool.Call{ID: "x"}, bash, json.RawMessage(`{"command": "npm install"}`))
	if v.Allow || !v.Denied {
		t.Errorf("Before after cancel = %+v", v)
	}
}

func TestGatePermissionRequestHooks(t *testing.T) {
	tests := []struct {
		name, hook string
		wantRun    bool
		wantWhy    string
	}{
		{"allow", `echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedPermissions": [{"type": "addRules", "rules": ["Bash(npm install)"], "behavior": "allow", "destination": "session"}]}}}'`, true, ""},
		{"deny", `echo '{"hookSpecificOutput": {"decision": {"behavior": "deny", "message": "policy says no"}}}'`, false, "policy says no"},
		// Exit 2 is not honoured on PermissionRequest: the asker decides.
		{"exit 2 falls to the asker", `echo "blocked by script" >&2; exit 2`, false, "Nobody can approve"},
		{"no answer falls to the asker", `true`, false, "Nobody can approve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			e := newGateEnv(t, gateOpts{hooks: map[string]string{"PermissionRequest": gateScript(t, dir, "h.sh", tt.hook)}})
			bash := &gateTool{name: "Bash"}
			out := e.run(context.Background(), bash, `{"command": "npm install"}`)
			if ran := len(bash.inputs()) == 1; ran != tt.wantRun {
				t.Fatalf("ran = %v: %s", ran, resultOf(out))
			}
			if tt.wantWhy != "" && !strings.Contains(resultOf(out), tt.wantWhy) {
				t.Errorf("result %q does not say %q", resultOf(out), tt.wantWhy)
			}
			if tt.name == "allow" {
				if d := e.perms.Check("Bash", json.RawMessage(`{"command": "npm install"}`), false); d.Behavior != permission.Allow {
					t.Errorf("updatedPermissions were not applied: %s", d.Reason)
				}
			}
		})
	}
}

func TestGatePostToolUseHooks(t *testing.T) {
	dir := t.TempDir()
	post := gateScript(t, dir, "post.sh", `cat > "$CLAUDE_PROJECT_DIR/post.json"
echo '{"decision": "block", "reason": "lint failed on line 3", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "file was formatted"}}'`)
	e := newGateEnv(t, gateOpts{allow: []string{"Bash"}, hooks: map[string]string{"PostToolUse": post}})
	bash := &gateTool{name: "Bash", data: map[string]any{"stdout": "hello", "stderr": ""}}
	out := e.run(context.Background(), bash, `{"command": "ls"}`)
	text := resultOf(out)
	if !strings.Contains(text, "ran") || !strings.Contains(text, "file was formatted") || !strings.Contains(text, "lint failed on line 3") {
		t.Errorf("result = %q", text)
	}
	seen, _ := os.ReadFile(filepath.Join(e.dir, "post.json"))
	if !strings.Contains(string(seen), `"tool_response":{"stderr":"","stdout":"hello"}`) || !strings.Contains(string(seen), `"hook_event_name":"PostToolUse"`) {
		t.Errorf("hook saw %s", seen)
	}

	stop := gateScript(t, dir, "stop.sh", `echo '{"continue": false, "stopReason": "budget reached"}'`)
	e = newGateEnv(t, gateOpts{allow: []string{"Bash"}, hooks: map[string]string{"PostToolUse": stop}})
	out = e.run(context.Background(), bash, `{"command": "ls"}`)
	if !out.StopTurn || out.StopReason != "budget reached" || out.IsError {
		t.Errorf("continue:false after the call: %+v", out)
	}
}

func TestGatePostToolUseFailureHooks(t *testing.T) {
	dir := t.TempDir()
	fail := gateScript(t, dir, "fail.sh", `cat > "$CLAUDE_PROJECT_DIR/fail.json"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "try make clean first"}}'`)
	post := gateScript(t, dir, "post.sh", `touch "$CLAUDE_PROJECT_DIR/post-ran"`)
	e := newGateEnv(t, gateOpts{allow: []string{"Bash"}, hooks: map[string]string{"PostToolUseFailure": fail, "PostToolUse": post}})
	bash := &gateTool{name: "Bash", fail: true}
	out := e.run(context.Background(), bash, `{"command": "make"}`)
	if !out.IsError || !strings.Contains(resultOf(out), "try make clean first") {
		t.Errorf("result = %q", resultOf(out))
	}
	seen, _ := os.ReadFile(filepath.Join(e.dir, "fail.json"))
	if !strings.Contains(string(seen), `"error":"exit status 1: boom"`) {
		t.Errorf("failure hook saw %s", seen)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "post-ran")); err == nil {
		t.Error("PostToolUse ran for a failed call")
	}
}

func TestGateStopHooks(t *testing.T) {
	dir := t.TempDir()
	loop := gateScript(t, dir, "loop.sh", `in=$(cat)
echo "$in" > "$CLAUDE_PROJECT_DIR/stop.json"
case "$in" in *'"stop_hook_active":true'*) exit 0;; esac
echo "3 tests failed" >&2; exit 2`)
	last := &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("all done")}}
	e := newGateEnv(t, gateOpts{hooks: map[string]string{"Stop": loop}})
	d := e.gate.Stop(context.Background(), engine.StopInput{LastAssistant: last})
	if !d.Block || d.Reason != "3 tests failed" || d.Prevent {
		t.Errorf("first stop = %+v", d)
	}
	seen, _ := os.ReadFile(filepath.Join(e.dir, "stop.json"))
	if !strings.Contains(string(seen), `"last_assistant_message":"all done"`) || !strings.Contains(string(seen), `"hook_event_name":"Stop"`) {
		t.Errorf("stop hook saw %s", seen)
	}
	if d := e.gate.Stop(context.Background(), engine.StopInput{Active: true}); d.Block || d.Prevent {
		t.Errorf("with stop_hook_active the hook lets it stop: %+v", d)
	}

	tests := []struct {
		hook string
		want engine.StopDecision
	}{
		{`echo '{"decision": "block", "reason": "write the changelog"}'`, engine.StopDecision{Block: true, Reason: "write the changelog"}},
		{`echo '{"continue": false, "stopReason": "dangerous operation detected", "systemMessage": "stopped"}'`,
			engine.StopDecision{Prevent: true, StopReason: "dangerous operation detected", Messages: []string{"stopped"}}},
		{`echo '{"decision": "block"}'`, engine.StopDecision{Messages: []string{`Stop hook "` + filepath.Join(dir, "s.sh") + `" said decision "block" without the required reason; ignored`}}},
		{`exit 0`, engine.StopDecision{Messages: []string{}}},
	}
	for _, tt := range tests {
		e := newGateEnv(t, gateOpts{hooks: map[string]string{"Stop": gateScript(t, dir, "s.sh", tt.hook)}})
		d := e.gate.Stop(context.Background(), engine.StopInput{})
		if d.Block != tt.want.Block || d.Reason != tt.want.Reason || d.Prevent != tt.want.Prevent || d.StopReason != tt.want.StopReason ||
			strings.Join(d.Messages, "|") != strings.Join(tt.want.Messages, "|") {
			t.Errorf("%s: Stop = %+v, want %+v", tt.hook, d, tt.want)
		}
	}

	sub := gateScript(t, dir, "sub.sh", `cat > "$CLAUDE_PROJECT_DIR/sub.json"; echo nope >&2; exit 2`)
	e = newGateEnv(t, gateOpts{agentID: "agent-7", hooks: map[string]string{"SubagentStop": sub, "Stop": gateScript(t, dir, "main.sh", "exit 2")}})
	if d := e.gate.Stop(context.Background(), engine.StopInput{}); !d.Block || d.Reason != "nope" {
		t.Errorf("sub-agent stop = %+v", d)
	}
	seen, _ = os.ReadFile(filepath.Join(e.dir, "sub.json"))
	if !strings.Contains(string(seen), `"hook_event_name":"SubagentStop"`) || !strings.Contains(string(seen), `"agent_id":"agent-7"`) {
		t.Errorf("SubagentStop hook saw %s", seen)
	}
}

func TestGateIsSafeForConcurrentUse(t *testing.T) {
	asker := &gateAsker{answer: func(context.Context, engine.Question) (engine.Answer, error) {
		return engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(make:*)"}, Behavior: "allow", Destination: "session"}}}, nil
	}}
	dir := t.TempDir()
	e := newGateEnv(t, gateOpts{asker: asker, hooks: map[string]string{"PostToolUse": gateScript(t, dir, "p.sh", "exit 0")}})
	bash := &gateTool{name: "Bash"}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			out := e.run(context.Background(), bash, `{"command": "make build"}`)
			if out.IsError {
				t.Errorf("call failed: %s", resultOf(out))
			}
		})
	}
	wg.Wait()
	if len(bash.inputs()) != 16 {
		t.Errorf("%d calls ran, want 16", len(bash.inputs()))
	}
}

// gateSession runs a session against the fake model server with the gate.
func gateSession(t *testing.T, e *gateEnv, tools []tool.Tool, turns ...llmtest.Turn) (*llmtest.Server, []engine.Event, *engine.TurnEnd) {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	sess := engine.New(engine.Config{
		Provider:  anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k", RetryBase: time.Millisecond, IdleTimeout: 2 * time.Second}),
		Models:    llm.NewModels(func(string) string { return "" }),
		Model:     "claude-sonnet-4-5",
		Cwd:       e.dir,
		Gate:      e.gate,
		StopHooks: e.gate,
		Tools:     func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: tools} },
	})
	var evs []engine.Event
	var end *engine.TurnEnd
	for ev := range sess.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock("go")}}) {
		evs = append(evs, ev)
		if x, ok := ev.(*engine.TurnEnd); ok {
			end = x
		}
	}
	if end == nil {
		t.Fatal("no TurnEnd")
	}
	return srv, evs, end
}

func TestGateThroughTheEngine(t *testing.T) {
	dir := t.TempDir()
	stop := gateScript(t, dir, "stop.sh", `case "$(cat)" in *'"stop_hook_active":true'*) exit 0;; esac
echo "run the tests before stopping" >&2; exit 2`)
	e := newGateEnv(t, gateOpts{deny: []string{"Bash(rm:*)"}, hooks: map[string]string{"Stop": stop}})
	bash := &gateTool{name: "Bash"}
	srv, evs, end := gateSession(t, e, []tool.Tool{bash},
		llmtest.Calls(llmtest.ToolUse("toolu_a", "Bash", map[string]string{"command": "rm -rf build"})),
		llmtest.Calls(llmtest.ToolUse("toolu_b", "Bash", map[string]string{"command": "npm install"})),
		llmtest.Calls(llmtest.ToolUse("toolu_c", "Bash", map[string]string{"command": "git status"})),
		llmtest.Reply("done"),
		llmtest.Reply("tests pass"))
	if end.Reason != engine.ReasonCompleted || end.Result != "tests pass" {
		t.Fatalf("end = %s %v %q", end.Reason, end.Err, end.Result)
	}
	denied := map[string]bool{}
	for _, ev := range evs {
		if r, ok := ev.(*engine.ToolResult); ok {
			denied[r.ID] = r.Denied
		}
	}
	if !denied["toolu_a"] || !denied["toolu_b"] || denied["toolu_c"] {
		t.Errorf("denied = %v, want a and b denied, c run", denied)
	}
	if got := bash.inputs(); len(got) != 1 || !strings.Contains(got[0], "git status") {
		t.Errorf("tool ran %v", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	why := func(r *llmtest.Request) string {
		var texts []string
		for _, b := range r.ToolResults() {
			texts = append(texts, b.ResultText())
		}
		return strings.Join(texts, "\n")
	}
	if got := why(reqs[1]); !strings.Contains(got, "deny rule Bash(rm:*)") {
		t.Errorf("the model was not told about the deny rule: %q", got)
	}
	if got := why(reqs[2]); !strings.Contains(got, "Nobody can approve it") {
		t.Errorf("the model was not told nobody can approve: %q", got)
	}
	if !strings.Contains(reqs[4].LastUserText(), "run the tests before stopping") {
		t.Errorf("stop hook feedback missing: %q", reqs[4].LastUserText())
	}
	srv.AssertClean(t)
}

// TestGateWithTheRealBashTool checks the hook's updated command is what
// bash actually runs, and that the shell's own folder is used for paths.
func TestGateWithTheRealBashTool(t *testing.T) {
	dir := t.TempDir()
	hook := gateScript(t, dir, "h.sh", `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "touch rewritten.txt"}}}'`)
	e := newGateEnv(t, gateOpts{allow: []string{"Bash(touch:*)"}, hooks: map[string]string{"PreToolUse": hook}})
	sh := bash.New(bash.Config{Cwd: e.dir, StateDir: t.TempDir()})
	out := e.run(context.Background(), sh, `{"command": "touch original.txt"}`)
	if out.IsError {
		t.Fatalf("call failed: %s", resultOf(out))
	}
	if _, err := os.Stat(filepath.Join(e.dir, "rewritten.txt")); err != nil {
		t.Errorf("the updated command did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "original.txt")); err == nil {
		t.Error("the original command ran")
	}

	outside := t.TempDir()
	e2 := newGateEnv(t, gateOpts{})
	sh = bash.New(bash.Config{Cwd: outside, StateDir: t.TempDir()})
	out = e2.run(context.Background(), sh, `{"command": "cat notes.txt"}`)
	if !out.Denied || !strings.Contains(out.DenyReason, outside) {
		t.Errorf("a read from the shell's folder outside the project should need approval: %s", out.DenyReason)
	}
}

// compactJSON returns s with the blanks between JSON tokens removed.
func compactJSON(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
