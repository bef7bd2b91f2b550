package tui

import (
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// A session in auto mode that the model puts in plan mode is offered to
// go on in auto mode when it presents the plan, with the cursor on that
// choice; Enter returns to auto mode.
func TestQA6PlanApprovalReturnsToAutoMode(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("e1", "EnterPlanMode", map[string]any{})),
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "1. Change the flag"})),
		llmtest.Reply("plan approved, starting"))
	tt.start("--permission-mode", "auto")
	tt.ready()
	tt.waitUntil("auto mode on", func(string) bool { return strings.Contains(tt.visible(), "auto mode on") })
	tt.prompt("plan the change")
	tt.waitUntil("the plan's choices", func(string) bool { return strings.Contains(tt.visible(), "4. No, keep planning") })
	s := tt.visible()
	for _, want := range []string{"❯ 1. Yes, and use auto mode", "2. Yes, and auto-accept edits", "3. Yes, and manually approve edits", "4. No, keep planning"} {
		if !strings.Contains(s, want) {
			t.Errorf("the plan dialog lacks %q:\n%s", want, tt.visible())
		}
	}
	tt.keys("Enter")
	tt.waitFor("plan approved, starting")
	tt.waitUntil("auto mode on after the approval", func(string) bool { return strings.Contains(tt.visible(), "auto mode on") })
}

// Shift+Tab out of a plan mode the model entered goes back to the mode
// before it (acceptEdits here), not on round the cycle; out of a plan
// mode Shift+Tab entered it goes on round the cycle (to auto mode).
func TestQA6ShiftTabLeavesPlanForTheModeBefore(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("e1", "EnterPlanMode", map[string]any{})),
		llmtest.Reply("planning now"))
	tt.start("--permission-mode", "acceptEdits")
	tt.ready()
	tt.prompt("think first")
	tt.waitFor("planning now")
	onScreen := func(what string) {
		t.Helper()
		tt.waitUntil(what, func(string) bool { return strings.Contains(tt.visible(), what) })
	}
	onScreen("plan mode on")
	tt.keys("BTab")
	onScreen("accept edits on")
	tt.keys("BTab")
	onScreen("plan mode on")
	tt.keys("BTab")
	onScreen("auto mode on")
}

// Switching into auto mode with Shift+Tab names the allow rules auto mode
// sets aside, as start-up does.
func TestQA6ShiftTabIntoAutoNamesTheRulesSetAside(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/settings.local.json", `{"permissions":{"allow":["Bash(python3:*)"]}}`)
	tt.start()
	tt.ready()
	for _, want := range []string{"accept edits on", "plan mode on", "auto mode on"} {
		tt.keys("BTab")
		tt.waitUntil(want, func(string) bool { return strings.Contains(tt.visible(), want) })
	}
	tt.waitFor("auto mode sets aside allow rules", "Bash(python3:*)")
}

// /plan with a task enters plan mode and sends the task, as typed; the
// model's edit is refused by plan mode; Shift+Tab then goes back to the
// mode before /plan.
func TestQA6PlanCommandEntersPlanModeAndSendsTheTask(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("w1", "Write", map[string]any{"file_path": "/tmp/never-written-by-qa6.txt", "content": "x"})),
		llmtest.Reply("I will plan instead"))
	tt.start("--permission-mode", "acceptEdits")
	tt.ready()
	tt.prompt("/plan add a retry flag")
	tt.waitFor("I will plan instead")
	tt.waitUntil("plan mode on", func(string) bool { return strings.Contains(tt.visible(), "plan mode on") })
	req := tt.requests(2)
	if got := req[0].LastUserText(); !strings.Contains(got, "add a retry flag") {
		t.Errorf("the first request's prompt is %q", got)
	}
	if res := req[1].ToolResults(); len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "Plan mode") {
		t.Errorf("the write's result = %+v, want plan mode's refusal", res)
	}
	tt.keys("BTab")
	tt.waitUntil("accept edits on", func(string) bool { return strings.Contains(tt.visible(), "accept edits on") })
}

// /permissions says where leaving plan mode goes, and, in auto mode,
// which allow rules auto mode sets aside.
func TestQA6PermissionsViewShowsPlanReturnAndRulesSetAside(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/settings.local.json", `{"permissions":{"allow":["Bash(python3:*)","Bash(git status:*)"]}}`)
	tt.start("--permission-mode", "auto")
	tt.ready()
	tt.prompt("/permissions")
	tt.waitFor("Bash(python3:*)", "set aside in auto mode")
	for _, line := range strings.Split(tt.screen(), "\n") {
		if strings.Contains(line, "Bash(git status:*)") && strings.Contains(line, "set aside") {
			t.Errorf("the narrow rule is marked set aside too: %q", line)
		}
	}
	tt.prompt("/plan")
	tt.waitFor("Plan mode on")
	tt.prompt("/permissions")
	tt.waitFor("Leaving plan mode returns to: auto")
}

// Shift+Tab into plan mode tells the model at its next request, once;
// Shift+Tab out of it tells it plan mode is off.
func TestQA6ShiftTabPlanModeIsToldToTheModel(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("first"), llmtest.Reply("second"), llmtest.Reply("third"))
	tt.start()
	tt.ready()
	for _, want := range []string{"accept edits on", "plan mode on"} {
		tt.keys("BTab")
		tt.waitUntil(want, func(string) bool { return strings.Contains(tt.visible(), want) })
	}
	tt.prompt("look around")
	tt.waitFor("first")
	tt.prompt("and more")
	tt.waitFor("second")
	tt.keys("BTab")
	tt.waitUntil("auto mode on", func(string) bool { return strings.Contains(tt.visible(), "auto mode on") })
	tt.prompt("now do it")
	tt.waitFor("third")
	reqs := tt.requests(3)
	all := func(i int) string { return messageTexts(reqs[i]) }
	if n := strings.Count(all(1), "Plan mode is on"); n != 1 || !strings.Contains(all(0), "present it with ExitPlanMode") {
		t.Errorf("plan mode was told %d times by the second request; first request:\n%s", n, all(0))
	}
	if !strings.Contains(all(2), "Plan mode is off now (the permission mode is auto)") {
		t.Errorf("leaving plan mode was not told:\n%s", all(2))
	}
}
