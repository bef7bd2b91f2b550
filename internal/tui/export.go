package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/engine"
	"reins/internal/llm"
)

// exportWidth is the narrowest width an export is laid out at.
const exportWidth = 80

// cmdExport writes the conversation as plain text to a file: the one
// named, or one named after the date and the first prompt in the working
// folder ("/export [file]").
func (m *Model) cmdExport(args string) tea.Cmd {
	typed := strings.TrimSpace("/export " + args)
	h := m.o.Session.History()
	items := historyItems(h)
	if len(items) == 0 {
		m.commandOutput(typed, "Nothing to export yet.", false)
		return nil
	}
	name := strings.TrimSpace(args)
	if name == "" {
		name = exportName(m.o.Now().Format("2006-01-02-150405"), firstPrompt(h))
	}
	if filepath.Ext(name) == "" {
		name += ".txt"
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.o.Cwd, path)
	}
	w := max(m.width, exportWidth)
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range strings.Split(xansi.Strip(m.r.item(it, w, true)), "\n") {
			b.WriteString(strings.TrimRight(l, " ") + "\n")
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		m.commandOutput(typed, fmt.Sprintf("export to %s: %v", path, err), true)
		return nil
	}
	m.commandOutput(typed, "Conversation exported to "+m.r.rel(path), false)
	return nil
}

// firstPrompt is the first prompt typed in history, or "".
func firstPrompt(h []engine.HistoryItem) string {
	for _, hi := range h {
		if hi.Meta || hi.Summary || hi.Message.Role != llm.RoleUser || onlyResults(hi.Message) || engine.IsInterruptMarker(hi.Message) {
			continue
		}
		if p := strings.TrimSpace(displayPrompt(hi.Message)); p != "" {
			return p
		}
	}
	return ""
}

// exportName is a file name from a time stamp and the first words of a
// prompt: "2026-11-30-091500-fix-the-login-bug.txt".
func exportName(stamp, prompt string) string {
	var words []string
	n := 0
	for _, f := range strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if n+len(f) > 40 {
			break
		}
		words = append(words, f)
		n += len(f) + 1
	}
	if len(words) == 0 {
		return "conversation-" + stamp + ".txt"
	}
	return stamp + "-" + strings.Join(words, "-") + ".txt"
}
