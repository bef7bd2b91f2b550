package toolsearch

import (
	_ "embed"
	"slices"
	"sort"
	"strings"

	"reins/internal/llm"
	"reins/internal/tool"
)

var (
	//go:embed announce.txt
	announceText string
	//go:embed discovered.txt
	discoveredText string
)

// Section headers of the reminders. They are parsed back from the history
// to know what was already announced, so they must not change.
const (
	reminderOpen     = "<system-reminder>\n"
	reminderClose    = "\n</system-reminder>"
	headAvailable    = "Available deferred tools:"
	headAdded        = "Deferred tools added:"
	headRemoved      = "Deferred tools removed:"
	headDiscovered   = "Discovered deferred tools:"
	discoveredPrefix = "<tool name=\""
)

// deltaReminder returns the reminder announcing how the deferred pool
// differs from what the history already announced, or "" when it does not.
// The first announcement lists every deferred tool; later ones only the
// names added and removed, so earlier messages never change.
func deltaReminder(cat *catalog, history []*llm.Message) string {
	announced, any := scanAnnounced(history)
	current := cat.deferredNames()
	if !any {
		if len(current) == 0 {
			return ""
		}
		return reminderOpen + strings.TrimSpace(announceText) + "\n" + headAvailable + "\n" +
			strings.Join(current, "\n") + reminderClose
	}
	var added, removed []string
	cur := map[string]bool{}
	for _, n := range current {
		cur[n] = true
		if !announced[n] {
			added = append(added, n)
		}
	}
	for n := range announced {
		if !cur[n] {
			removed = append(removed, n)
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		return ""
	}
	sort.Strings(removed)
	var b strings.Builder
	b.WriteString(reminderOpen)
	b.WriteString("The deferred tools changed. Find them with SearchExtraTools and run them with ExecuteExtraTool.")
	if len(added) > 0 {
		b.WriteString("\n" + headAdded + "\n" + strings.Join(added, "\n"))
	}
	if len(removed) > 0 {
		b.WriteString("\n" + headRemoved + "\n" + strings.Join(removed, "\n"))
	}
	b.WriteString(reminderClose)
	return b.String()
}

// reminderTexts yields the text blocks of user messages that are
// reminders.
func reminderTexts(history []*llm.Message, yield func(string)) {
	for _, m := range history {
		if m == nil || m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText && strings.HasPrefix(b.Text, reminderOpen) {
				yield(b.Text)
			}
		}
	}
}

// scanAnnounced rebuilds the announced deferred set from the history's
// reminders; any is false when none was announced yet (a new session, or
// a compacted one whose reminders were summarised away).
func scanAnnounced(history []*llm.Message) (set map[string]bool, any bool) {
	set = map[string]bool{}
	reminderTexts(history, func(text string) {
		section := ""
		for _, line := range strings.Split(strings.TrimSuffix(text, reminderClose), "\n") {
			switch line {
			case headAvailable:
				clear(set)
				section, any = line, true
				continue
			case headAdded, headRemoved:
				section, any = line, true
				continue
			}
			if line == "" || strings.ContainsAny(line, " <") {
				if section != "" && strings.HasPrefix(line, "<") {
					section = ""
				}
				continue
			}
			switch section {
			case headAvailable, headAdded:
				set[line] = true
			case headRemoved:
				delete(set, line)
			}
		}
	})
	return set, any
}

// discoveryReminder announces tools found by prefetch, with their
// descriptions and schemas so the model can run them at once.
func discoveryReminder(tools []tool.Tool) string {
	var b strings.Builder
	b.WriteString(reminderOpen)
	b.WriteString(strings.TrimSpace(discoveredText))
	b.WriteString("\n" + headDiscovered)
	for _, t := range tools {
		b.WriteString("\n")
		b.WriteString(describe(t))
	}
	b.WriteString(reminderClose)
	return b.String()
}

// scanDiscovered lists the tools earlier discovery reminders named.
func scanDiscovered(history []*llm.Message) []string {
	var out []string
	reminderTexts(history, func(text string) {
		if !strings.Contains(text, "\n"+headDiscovered+"\n") {
			return
		}
		for _, line := range strings.Split(text, "\n") {
			if rest, ok := strings.CutPrefix(line, discoveredPrefix); ok {
				if name, _, ok := strings.Cut(rest, "\""); ok && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	})
	return out
}

func countAssistant(history []*llm.Message) int {
	n := 0
	for _, m := range history {
		if m != nil && m.Role == llm.RoleAssistant {
			n++
		}
	}
	return n
}

// userText is the text a person typed in m: its text blocks that are not
// reminders.
func userText(m *llm.Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == llm.BlockText && !strings.HasPrefix(b.Text, reminderOpen) && !strings.HasPrefix(b.Text, "<system-reminder>") {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// lastUserText is the latest user prompt of the history.
func lastUserText(history []*llm.Message) string {
	for i := len(history) - 1; i >= 0; i-- {
		if m := history[i]; m != nil && m.Role == llm.RoleUser {
			if t := userText(m); strings.TrimSpace(t) != "" {
				return t
			}
		}
	}
	return ""
}

// conversationQuery is what prefetch searches after an assistant message:
// the latest user prompt and the assistant's latest text, cut to a bound.
func conversationQuery(history []*llm.Message) string {
	const maxChars = 1500
	q := lastUserText(history)
	for i := len(history) - 1; i >= 0; i-- {
		if m := history[i]; m != nil && m.Role == llm.RoleAssistant {
			if t := m.Text(); t != "" {
				q += "\n" + t
				break
			}
		}
	}
	if len(q) > maxChars {
		q = q[len(q)-maxChars:]
	}
	return q
}
