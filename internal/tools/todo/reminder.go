package todo

import (
	"fmt"
	"strings"

	"reins/internal/llm"
)

// ReminderTurns is how many model replies may pass without a TodoWrite
// call (and since the last reminder) before Reminder nudges the model,
// as Claude Code does.
const ReminderTurns = 10

// reminderHead starts every todo reminder; Reminder finds its earlier
// ones by it.
const reminderHead = "<system-reminder>\nThe TodoWrite tool has not been used for a while."

// Reminder returns a reminder of the todo list for the engine's reminder
// hook once ReminderTurns model replies have passed without a TodoWrite
// call and without an earlier reminder, else "". It shows the list as it
// stands (items), so the model can pick it up again or clear it.
func Reminder(history []*llm.Message, items []Item) string {
	replies := 0
	for i := len(history) - 1; i >= 0 && replies < ReminderTurns; i-- {
		m := history[i]
		if m == nil {
			continue
		}
		switch m.Role {
		case llm.RoleAssistant:
			for _, b := range m.Content {
				if b.Type == llm.BlockToolUse && b.Name == Name {
					return ""
				}
			}
			replies++
		case llm.RoleUser:
			for _, b := range m.Content {
				if b.Type == llm.BlockText && strings.HasPrefix(b.Text, reminderHead) {
					return ""
				}
			}
		}
	}
	if replies < ReminderTurns {
		return ""
	}
	var sb strings.Builder
	sb.WriteString(reminderHead)
	sb.WriteString(" If the work at hand has several steps, keeping them in a todo list helps you and shows the user where you are; if the list has gone stale, bring it up to date or clear it. Ignore this if a list does not fit the current work, and do not mention this reminder to the user.")
	if len(items) > 0 {
		sb.WriteString("\n\nThe todo list as it stands:\n")
		for i, it := range items {
			fmt.Fprintf(&sb, "%d. [%s] %s\n", i+1, it.Status, it.Content)
		}
	} else {
		sb.WriteString("\n")
	}
	sb.WriteString("</system-reminder>")
	return sb.String()
}
