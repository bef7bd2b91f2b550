package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"reins/internal/automode"
	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/permission"
	"reins/internal/tool"
)

// stubClassifier answers from a function and records the actions.
type stubClassifier struct {
	mu      sync.Mutex
	actions []automode.Action
	answer  func(a automode.Action) (automode.Verdict, error)
}

func (s *stubClassifier) Classify(_ context.Context, a automode.Action) (automode.Verdict, error) {
	s.mu.Lock()
	s.actions = append(s.actions, a)
	s.mu.Unlock()
	return s.answer(a)
}

func (s *stubClassifier) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.actions)
}

func allowAll(automode.Action) (automode.Verdict, error) {
	return automode.Verdict{Allow: true, Reason: "routine"}, nil
}

func blockAll(automode.Action) (automode.Verdict, error) {
	return automode.Verdict{Reason: "it force-pushes over shared history"}, nil
}

func approve(context.Context, engine.Question) (engine.Answer, error) {
	return engine.Answer{Allow: true}, nil
}

func TestGateAutoModeClassifierAllows(t *testing.T) {
	cl := &stubClassifier{answer: allowAll}
	asker := &gateAsker{answer: approve}
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: cl, asker: asker})
	bash := &gateTool{name: "Bash"}
	history := []*llm.Message{llm.NewUserText("install the deps")}
	p := &tool.Pipeline{Gate: e.gate}
	out := p.Run(context.Background(), &tool.Call{ID: "toolu_1", Name: "Bash", Cwd: e.dir, Transcript: history}, bash, json.RawMessage(`{"command":"npm install"}`))
	if out.Denied || len(bash.inputs()) != 1 {
		t.Fatalf("the allowed command did not run: %+v %s", out, resultOf(out))
	}
	if asker.n.Load() != 0 {
		t.Error("the user was asked although the classifier allowed")
	}
	if cl.calls() != 1 {
		t.Fatalf("the classifier was asked %d times, want once", cl.calls())
	}
	a := cl.actions[0]
	if a.Tool != "Bash" || !strings.Contains(string(a.Input), "npm install") || a.Cwd != e.dir || len(a.Transcript) != 1 || a.Reason == "" {
		t.Errorf("the classifier saw %+v", a)
	}
}

func TestGateAutoModeClassifierBlocks(t *testing.T) {
	cl := &stubClassifier{answer: blockAll}
	got := filepath.Join(t.TempDir(), "denied.json")
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: cl, asker: &gateAsker{answer: approve},
		hooks: map[string]string{"PermissionDenied": "cat > " + got}})
	bash := &gateTool{name: "Bash"}
	out := e.run(context.Background(), bash, `{"command":"git push --force"}`)
	if !out.Denied || len(bash.inputs()) != 0 {
		t.Fatalf("the blocked command ran: %+v", out)
	}
	if msg := resultOf(out); !strings.Contains(msg, "Auto mode blocked this Bash call") || !strings.Contains(msg, "force-pushes over shared history") {
		t.Errorf("the result does not say auto mode blocked it and why: %q", msg)
	}
	raw, err := os.ReadFile(got)
	if err != nil {
		t.Fatalf("the PermissionDenied hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	if in["hook_event_name"] != "PermissionDenied" || in["tool_name"] != "Bash" || in["tool_use_id"] != "toolu_1" ||
		in["reason"] != "it force-pushes over shared history" || in["permission_mode"] != "auto" {
		t.Errorf("PermissionDenied input = %s", raw)
	}
	if ti, _ := in["tool_input"].(map[string]any); ti["command"] != "git push --force" {
		t.Errorf("tool_input = %v", in["tool_input"])
	}
}

func TestGateAutoModeRulesComeFirst(t *testing.T) {
	cl := &stubClassifier{answer: blockAll}
	asker := &gateAsker{answer: approve}
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: cl, asker: asker,
		allow: []string{"Bash(make build)"}, deny: []string{"Bash(rm:*)"}, ask: []string{"Bash(git push:*)"}})
	bash := &gateTool{name: "Bash"}
	if out := e.run(context.Background(), bash, `{"command":"make build"}`); out.Denied {
		t.Errorf("allow rule: %s", resultOf(out))
	}
	if out := e.run(context.Background(), bash, `{"command":"rm -rf x"}`); !out.Denied || !strings.Contains(out.DenyReason, "deny") {
		t.Errorf("deny rule: %+v", out)
	}
	if out := e.run(context.Background(), bash, `{"command":"git push"}`); out.Denied || asker.n.Load() != 1 {
		t.Errorf("ask rule: asked %d times, %s", asker.n.Load(), resultOf(out))
	}
	write := &gateTool{name: "Write"}
	if out := e.run(context.Background(), write, `{"file_path":"`+filepath.Join(e.dir, ".git", "hooks", "pre-commit")+`","content":"x"}`); out.Denied || asker.n.Load() != 2 {
		t.Errorf("protected path: asked %d times, %s", asker.n.Load(), resultOf(out))
	}
	if out := e.run(context.Background(), write, `{"file_path":"`+filepath.Join(e.dir, "main.go")+`","content":"x"}`); out.Denied {
		t.Errorf("edit inside: %s", resultOf(out))
	}
	if n := cl.calls(); n != 0 {
		t.Errorf("the classifier was asked %d times about calls rules and the mode settle", n)
	}
}

func TestGateAutoModeClassifierUnavailable(t *testing.T) {
	failing := func(automode.Action) (automode.Verdict, error) {
		return automode.Verdict{}, errors.New("API error 529 overloaded")
	}
	// Someone to ask: the user decides.
	asker := &gateAsker{answer: approve}
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: &stubClassifier{answer: failing}, asker: asker})
	bash := &gateTool{name: "Bash"}
	if out := e.run(context.Background(), bash, `{"command":"npm install"}`); out.Denied || asker.n.Load() != 1 {
		t.Errorf("with an asker: asked %d times, %s", asker.n.Load(), resultOf(out))
	}
	// Nobody to ask (print mode): denied, saying the classifier was unavailable.
	e = newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: &stubClassifier{answer: failing}})
	out := e.run(context.Background(), bash, `{"command":"npm install"}`)
	if !out.Denied || len(bash.inputs()) != 1 || !strings.Contains(resultOf(out), "classifier was unavailable (API error 529 overloaded)") {
		t.Errorf("without an asker: %+v %s", out, resultOf(out))
	}
}

func TestGateAutoModePausesAfterRepeatedBlocks(t *testing.T) {
	cl := &stubClassifier{answer: blockAll}
	asker := &gateAsker{answer: approve}
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: cl, asker: asker})
	bash := &gateTool{name: "Bash"}
	for i := range automode.MaxConsecutiveBlocks {
		if out := e.run(context.Background(), bash, `{"command":"npm publish"}`); !out.Denied {
			t.Fatalf("block %d ran", i+1)
		}
	}
	out := e.run(context.Background(), bash, `{"command":"npm publish"}`)
	if out.Denied || asker.n.Load() != 1 || cl.calls() != automode.MaxConsecutiveBlocks {
		t.Fatalf("after %d blocks: asked %d, classified %d, %s", automode.MaxConsecutiveBlocks, asker.n.Load(), cl.calls(), resultOf(out))
	}
	// The user's approval ends the run of blocks: auto mode decides again.
	e.run(context.Background(), bash, `{"command":"npm publish"}`)
	if cl.calls() != automode.MaxConsecutiveBlocks+1 {
		t.Errorf("auto mode did not resume after the user approved: classified %d", cl.calls())
	}
}

func TestGateAutoModeWithoutClassifierAsks(t *testing.T) {
	asker := &gateAsker{answer: approve}
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, asker: asker})
	bash := &gateTool{name: "Bash"}
	if out := e.run(context.Background(), bash, `{"command":"npm install"}`); out.Denied || asker.n.Load() != 1 {
		t.Errorf("asked %d times, %s", asker.n.Load(), resultOf(out))
	}
}

func TestGateAutoModePermissionDeniedHookMayAllowARetry(t *testing.T) {
	e := newGateEnv(t, gateOpts{mode: permission.ModeAuto, classifier: &stubClassifier{answer: blockAll},
		hooks: map[string]string{"PermissionDenied": `echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'`}})
	out := e.run(context.Background(), &gateTool{name: "Bash"}, `{"command":"git push --force"}`)
	if msg := resultOf(out); !out.Denied || !strings.Contains(msg, "may retry this call") || strings.Contains(msg, "Do not try to get around") {
		t.Errorf("result = %q", msg)
	}
}
