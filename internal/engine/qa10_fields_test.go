package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"reins/internal/engine"
	"reins/internal/tool"
)

// TestQA10GateReportsWhoSettledEachCall: the outcome of a call carries
// the permission decision a front end reports as tool_result_meta: an
// answer that remembers is the user's permanent decision, one that only
// allows is temporary, a refusal that stops the turn is an abort, a plain
// refusal a rejection, an Asker's own classification wins, and a
// PreToolUse hook's allow is the hook's.
func TestQA10GateReportsWhoSettledEachCall(t *testing.T) {
	hookAllows := `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'`
	for _, tc := range []struct {
		name   string
		answer engine.Answer
		hook   bool
		want   tool.PermissionDecision
	}{
		{"allow remembering", engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(touch x)"}, Behavior: "allow", Destination: "session"}}},
			false, tool.PermissionDecision{Decision: "accept", Source: "user_permanent"}},
		{"allow once", engine.Answer{Allow: true}, false, tool.PermissionDecision{Decision: "accept", Source: "user_temporary"}},
		{"deny and stop", engine.Answer{Interrupt: true}, false, tool.PermissionDecision{Decision: "reject", Source: "user_abort"}},
		{"deny", engine.Answer{}, false, tool.PermissionDecision{Decision: "reject", Source: "user_reject"}},
		{"denied by nobody", engine.Answer{Source: "config", ReasonType: "asyncAgent"}, false,
			tool.PermissionDecision{Decision: "reject", Source: "config", ReasonType: "asyncAgent"}},
		{"hook allow", engine.Answer{}, true, tool.PermissionDecision{Decision: "accept", Source: "hook", ReasonType: "hook"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asker := &gateAsker{answer: func(context.Context, engine.Question) (engine.Answer, error) { return tc.answer, nil }}
			o := gateOpts{asker: asker}
			if tc.hook {
				o.hooks, o.matcher = map[string]string{"PreToolUse": hookAllows}, "Bash"
			}
			e := newGateEnv(t, o)
			out := e.run(context.Background(), &gateTool{name: "Bash"}, `{"command": "touch x"}`)
			if out.Permission == nil || *out.Permission != tc.want {
				got, _ := json.Marshal(out.Permission)
				t.Errorf("decision = %s, want %+v", got, tc.want)
			}
		})
	}
}
