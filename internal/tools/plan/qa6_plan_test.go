package plan

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/tool"
)

// leaverMode remembers the mode before plan mode, as the session's does.
type leaverMode struct {
	fakeMode
	pre string
}

func (l *leaverMode) LeavePlan() error { return l.SetMode(l.pre) }

// An approved plan whose approval chose no mode goes back to the mode in
// force before plan mode (auto here), not to default.
func TestExitReturnsToTheModeBeforePlan(t *testing.T) {
	m := &leaverMode{fakeMode: fakeMode{m: "plan"}, pre: "auto"}
	if _, err := NewExit(m).Call(context.Background(), &tool.Call{}, json.RawMessage(`{"plan":"1. edit a.go"}`), nil); err != nil {
		t.Fatal(err)
	}
	if got := m.Mode(); got != "auto" {
		t.Errorf("mode = %q, want auto", got)
	}
}

// ExitPlanMode outside plan mode is an error for the model, before anyone
// is asked: there is no plan to approve.
func TestExitOutsidePlanModeIsRefused(t *testing.T) {
	in := json.RawMessage(`{"plan":"1. edit a.go"}`)
	if err := NewExit(&fakeMode{m: "plan"}).Validate(context.Background(), &tool.Call{}, in); err != nil {
		t.Errorf("in plan mode: %v", err)
	}
	for _, mode := range []string{"default", "acceptEdits", "auto"} {
		err := NewExit(&fakeMode{m: mode}).Validate(context.Background(), &tool.Call{}, in)
		if err == nil || !strings.Contains(err.Error(), "not in plan mode") {
			t.Errorf("in %s: err = %v, want a refusal", mode, err)
		}
	}
}
