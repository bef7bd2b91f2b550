package plan

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"reins/internal/tool"
)

type fakeMode struct {
	mu sync.Mutex
	m  string
}

func (f *fakeMode) Mode() string { f.mu.Lock(); defer f.mu.Unlock(); return f.m }
func (f *fakeMode) SetMode(m string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m = m
	return nil
}

func TestEnterSwitchesToPlanMode(t *testing.T) {
	m := &fakeMode{m: "default"}
	res, err := NewEnter(m).Call(context.Background(), &tool.Call{}, json.RawMessage(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Mode() != ModePlan {
		t.Fatalf("mode = %q, want plan", m.Mode())
	}
	if !strings.Contains(res.Content[0].Text, "ExitPlanMode") {
		t.Errorf("result does not tell the model how to leave: %q", res.Content[0].Text)
	}
}

func TestEnterRefusedUnderBypass(t *testing.T) {
	m := &fakeMode{m: "bypassPermissions"}
	if _, err := NewEnter(m).Call(context.Background(), &tool.Call{}, json.RawMessage(`{}`), nil); err == nil {
		t.Fatal("want an error")
	}
	if m.Mode() != "bypassPermissions" {
		t.Fatalf("mode changed to %q", m.Mode())
	}
}

func TestExitLeavesPlanModeAndReturnsThePlan(t *testing.T) {
	for _, tc := range []struct{ before, after string }{
		{"plan", "default"},            // the approval did not choose a mode
		{"acceptEdits", "acceptEdits"}, // the approval chose one already
	} {
		m := &fakeMode{m: tc.before}
		res, err := NewExit(m).Call(context.Background(), &tool.Call{}, json.RawMessage(`{"plan":"1. edit a.go"}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Mode() != tc.after {
			t.Errorf("from %s: mode = %q, want %q", tc.before, m.Mode(), tc.after)
		}
		if !strings.Contains(res.Content[0].Text, "1. edit a.go") {
			t.Errorf("result lacks the plan: %q", res.Content[0].Text)
		}
		if res.Data.(ExitOutput).Plan != "1. edit a.go" {
			t.Errorf("data = %+v", res.Data)
		}
	}
}

func TestExitValidateNamesPlan(t *testing.T) {
	for _, in := range []string{`{}`, `{"plan":"  "}`} {
		err := NewExit(nil).Validate(context.Background(), nil, json.RawMessage(in))
		if err == nil || !strings.HasPrefix(err.Error(), "plan:") {
			t.Errorf("%s: err = %v", in, err)
		}
	}
}
