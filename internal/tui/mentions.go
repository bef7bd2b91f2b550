package tui

import (
	"strings"

	"reins/internal/llm"
)

// isAttachment reports a text block added for a mention or a reminder,
// which the screen does not show as part of the prompt.
func isAttachment(text string) bool {
	return strings.HasPrefix(text, "<file path=") || strings.HasPrefix(text, "<folder path=") || strings.HasPrefix(text, "<system-reminder>") ||
		strings.HasPrefix(text, "<mcp-resource server=")
}

// attachedNotes says what was attached to a prompt for the files and
// folders it mentions, one line each, as Claude Code shows them under
// the prompt: "Read a.go (12 lines)", "Listed directory src/".
func attachedNotes(m *llm.Message) []string {
	var notes []string
	for i, b := range m.Content {
		if b.Type != llm.BlockText || i == 0 {
			continue
		}
		switch t := b.Text; {
		case strings.HasPrefix(t, `<file path="`):
			path := between(t, `<file path="`, "\">\n")
			body := strings.TrimSuffix(t[strings.IndexByte(t, '\n')+1:], "</file>")
			n := strings.Count(body, "\n")
			note := "Read " + path + " (" + plural(n, "line") + ")"
			if strings.Contains(body, "\n[truncated: ") || strings.HasPrefix(body, "[truncated: ") {
				note = "Read " + path + " (" + plural(n-1, "line") + ", truncated)"
			}
			notes = append(notes, note)
		case strings.HasPrefix(t, `<folder path="`):
			notes = append(notes, "Listed directory "+strings.TrimSuffix(between(t, `<folder path="`, "\">\n"), "/")+"/")
		}
	}
	return notes
}
