package plan

import (
	"fmt"
	"strings"

	"reins/internal/llm"
)

// The heads of the plan-mode reminders, by which the next ones find them
// in the history.
const (
	onHead  = "<system-reminder>\nPlan mode is on"
	offHead = "<system-reminder>\nPlan mode is off"
)

// Reminder returns the note that tells the model of the session's plan
// mode when the history does not show it the mode as it is: plan mode
// entered by the user (Shift+Tab, /plan, --permission-mode plan, the
// SDK) rather than by the model's EnterPlanMode, or left other than by
// approving its plan. It returns "" when the model knows already (the
// last plan-mode note, EnterPlanMode result or approved plan in the
// history agrees with mode). canExit says whether the model has
// ExitPlanMode to present its plan with.
func Reminder(history []*llm.Message, mode string, canExit bool) string {
	return ReminderWith(history, mode, canExit, "")
}

// ReminderWith is Reminder with the host's own planning workflow (the
// Agent SDK's planModeInstructions): when set, it goes between the
// read-only rule and the words on how to present the plan, which it does
// not replace.
func ReminderWith(history []*llm.Message, mode string, canExit bool, workflow string) string {
	known := knownPlanMode(history)
	switch {
	case mode == ModePlan && !known:
		how := "When the plan is ready, present it with ExitPlanMode: the user approves it, or asks you to keep planning with what should change."
		if !canExit {
			how = "When you know what should change and how to check it, give that plan in your answer."
		}
		text := onHead + ": the user wants a plan before any change. Explore with read-only tools only: do not edit or create files, run commands that change anything, or commit."
		if w := strings.TrimSpace(workflow); w != "" {
			return text + "\n\n" + w + "\n\n" + how + "\n</system-reminder>"
		}
		return text + " " + how + "\n</system-reminder>"
	case mode != ModePlan && known:
		return fmt.Sprintf("%s now (the permission mode is %s): you may make changes again, within what the user asked for.\n</system-reminder>", offHead, mode)
	}
	return ""
}

// knownPlanMode reports whether the history last showed the model that
// plan mode is on.
func knownPlanMode(history []*llm.Message) bool {
	enter, exit := head(enterResult), head(exitResult)
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if m == nil || m.Role != llm.RoleUser {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			b := &m.Content[j]
			switch b.Type {
			case llm.BlockText:
				switch {
				case strings.HasPrefix(b.Text, onHead):
					return true
				case strings.HasPrefix(b.Text, offHead):
					return false
				}
			case llm.BlockToolResult:
				if b.IsError {
					continue
				}
				switch t := b.ResultText(); {
				case strings.HasPrefix(t, enter):
					return true
				case strings.HasPrefix(t, exit):
					return false
				}
			}
		}
	}
	return false
}

// head is the start of a tool's result text, enough to tell it apart.
func head(s string) string {
	s = strings.TrimSpace(s)
	return s[:min(len(s), 24)]
}
