package plan

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
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

func TestReminderTellsTheModelOfPlanModeChangesItDoesNotKnow(t *testing.T) {
	user := func(text string) *llm.Message { return llm.NewUserText(text) }
	result := func(text string, isErr bool) *llm.Message {
		return &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockToolResult, ToolUseID: "t",
			Content: []llm.ContentBlock{llm.TextBlock(text)}, IsError: isErr}}}
	}
	on := Reminder(nil, ModePlan, true)
	off := Reminder([]*llm.Message{user(on)}, "acceptEdits", true)
	for _, tc := range []struct {
		name    string
		history []*llm.Message
		mode    string
		want    string // "" none, "on", "off"
	}{
		{"a session that starts in plan mode", []*llm.Message{user("hi")}, ModePlan, "on"},
		{"told already", []*llm.Message{user(on), user("next")}, ModePlan, ""},
		{"entered by the model", []*llm.Message{result(enterResult, false)}, ModePlan, ""},
		{"EnterPlanMode failed", []*llm.Message{result(enterResult, true)}, ModePlan, "on"},
		{"left by the user", []*llm.Message{user(on)}, "auto", "off"},
		{"plan approved", []*llm.Message{user(on), result(exitResult+"\n\nThe approved plan:\n1.", false)}, "acceptEdits", ""},
		{"told it left", []*llm.Message{user(on), user(off)}, "default", ""},
		{"never in plan mode", []*llm.Message{user("hi")}, "default", ""},
		{"entered again after leaving", []*llm.Message{user(on), user(off)}, ModePlan, "on"},
	} {
		got := Reminder(tc.history, tc.mode, true)
		switch {
		case tc.want == "" && got != "",
			tc.want == "on" && !strings.HasPrefix(got, onHead),
			tc.want == "off" && !strings.HasPrefix(got, offHead):
			t.Errorf("%s: reminder %q, want %s", tc.name, got, tc.want)
		}
	}
	if !strings.Contains(on, "ExitPlanMode") || strings.Contains(Reminder(nil, ModePlan, false), "ExitPlanMode") {
		t.Errorf("the reminder names ExitPlanMode only where the model has it:\n%s\n%s", on, Reminder(nil, ModePlan, false))
	}
	if !strings.Contains(off, "acceptEdits") {
		t.Errorf("the exit reminder does not name the mode: %q", off)
	}
}
