package tui

import "strings"

// isAttachment reports a text block added for a mention or a reminder,
// which the screen does not show as part of the prompt.
func isAttachment(text string) bool {
	return strings.HasPrefix(text, "<file path=") || strings.HasPrefix(text, "<folder path=") || strings.HasPrefix(text, "<system-reminder>") ||
		strings.HasPrefix(text, "<mcp-resource server=")
}
