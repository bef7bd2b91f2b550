package agent

import (
	"fmt"
	"strings"

	"reins/internal/task"
)

// TaskReminders returns one <task-notification> per background task that
// finished since the last call (shells and agents), and marks them
// announced. A finished agent's notification carries its final answer, so
// the parent does not need TaskOutput to read it. Plug it into the
// engine's reminders so the model learns of completions at its next
// request. A nil registry has nothing to announce.
func TaskReminders(reg *task.Registry) []string {
	if reg == nil {
		return nil
	}
	var out []string
	for _, info := range reg.TakeFinished() {
		if info.Kind != task.KindAgent {
			out = append(out, info.Notification())
			continue
		}
		var text string
		if t, ok := reg.Get(info.ID); ok {
			text, _ = t.Output()
		}
		out = append(out, agentNotification(info, text))
	}
	return out
}

// agentNotification tells the model a background agent ended.
func agentNotification(info task.Info, result string) string {
	var sb strings.Builder
	sb.WriteString("<task-notification>\n")
	fmt.Fprintf(&sb, "<task-id>%s</task-id>\n", info.ID)
	fmt.Fprintf(&sb, "<status>%s</status>\n", info.Status)
	fmt.Fprintf(&sb, "<summary>Agent %q %s", info.Description, info.Status)
	if info.Err != "" {
		fmt.Fprintf(&sb, ": %s", info.Err)
	}
	sb.WriteString(".</summary>\n")
	if r := strings.TrimSpace(result); r != "" {
		fmt.Fprintf(&sb, "<result>\n%s\n</result>\n", r)
	} else {
		sb.WriteString("The agent left no final message.\n")
	}
	sb.WriteString("</task-notification>")
	return sb.String()
}
