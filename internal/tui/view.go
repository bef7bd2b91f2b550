package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/engine"
	"reins/internal/llm"
)

var spinnerFrames = []string{"✻", "✳", "✢", "·", "✢", "✳"}

// View draws the live area: unfinished items, the spinner, queued
// messages, the dialog or the editor, and the status line. Its cost does
// not depend on the length of the conversation.
func (m *Model) View() tea.View {
	if m.transcript != nil {
		v := tea.NewView(m.transcript.view(m))
		v.AltScreen = true
		m.noteFrame(v.Content, nil, true)
		return v
	}
	if m.quitting {
		m.frames.note(0, m.o.Now())
		m.noteFrame("", nil, false)
		return tea.NewView("")
	}
	w := m.width
	var parts []string
	if live := m.liveView(w); live != "" {
		parts = append(parts, live)
	}
	if s := m.spinnerLine(w); s != "" {
		parts = append(parts, s)
		if t := m.todoPanel(w); t != "" {
			parts = append(parts, t)
		}
	}
	for _, q := range m.queued {
		parts = append(parts, m.st.dim.Render(cut("> "+oneLine(q.display)+"  (queued)", w)))
	}
	lines := 0
	for _, p := range parts {
		lines += strings.Count(p, "\n") + 1
	}
	var cursor *tea.Cursor
	if m.dialog != nil {
		parts = append(parts, m.dialog.view(m, w))
	} else {
		parts = append(parts, m.st.rule.Render(strings.Repeat("─", w)))
		ed, row, col := m.ed.view(&m.st, w, max(3, m.height/3), m.placeholder())
		parts = append(parts, ed)
		cursor = tea.NewCursor(col, lines+1+row)
		cursor.Blink = false
		parts = append(parts, m.st.rule.Render(strings.Repeat("─", w)))
		if m.comp != nil && len(m.comp.items) > 0 {
			parts = append(parts, m.completionView(w))
		}
	}
	parts = append(parts, m.footer(w))
	content := strings.Join(parts, "\n")
	if cursor == nil {
		cursor = parkedCursor(content)
	}
	// A live area taller than the terminal loses its top lines here: drawn
	// whole, it scrolled the terminal on every redraw, leaving copies of
	// itself in the scrollback.
	if n, room := strings.Count(content, "\n")+1, max(1, m.height-1); n > room {
		drop := n - room
		rows := strings.SplitN(content, "\n", drop+1)
		content = rows[drop]
		if cursor != nil {
			cursor.Y -= drop
			if cursor.Y < 0 {
				cursor = nil
			}
		}
	}
	m.frames.note(strings.Count(content, "\n")+1, m.o.Now())
	m.noteFrame(content, cursor, false)
	v := tea.NewView(content)
	v.Cursor = cursor
	return v
}

// parkedCursor is where the cursor rests in a frame without the editor
// (a dialog is open): at the start of the last row, which the footer
// begins with blanks, as a still underline. Hidden, the cursor was left
// wherever the renderer last wrote, which nothing here knows, so a
// narrowing terminal's rewrapped rows above it could not be allowed for
// (see reflow.go) and left a stale copy of the dialog's top rows.
func parkedCursor(content string) *tea.Cursor {
	c := tea.NewCursor(0, strings.Count(content, "\n"))
	c.Shape, c.Blink = tea.CursorUnderline, false
	return c
}

// liveMax is the most lines of streaming text the live area shows.
func (m *Model) liveMax() int { return max(4, m.height-12) }

func (m *Model) liveView(w int) string {
	var parts []string
	now := m.o.Now()
	frame := spinnerFrames[m.frame%len(spinnerFrames)]
	for _, it := range m.conv.live() {
		switch {
		case it.done:
			parts = append(parts, m.r.item(it, w, false))
		case it.kind == kAssistant:
			text := tailLines(xansi.Wrap(tailBytes(it.text, m.liveMax()*w*2), w-2, ""), m.liveMax())
			parts = append(parts, m.st.bold.Render(dot)+" "+indentRest(text, "  "))
		case it.kind == kThinking:
			parts = append(parts, m.st.dim.Render("✻ Thinking…"))
		case it.kind == kTool:
			parts = append(parts, m.r.liveTool(it.tool, w, frame, now, it.tool.running && m.canBackground(it.tool.id)))
		}
	}
	return strings.Join(parts, "\n")
}

func (m *Model) spinnerLine(w int) string {
	if !m.running {
		return ""
	}
	label := m.busyLabel
	if label == "" {
		label = "Working…"
		if t := m.conv.currentTodo(); t != nil && t.ActiveForm != "" {
			label = t.ActiveForm + "…"
		}
	}
	if m.o.HookStatus != nil {
		if s := m.o.HookStatus(); s != "" {
			label = s
		}
	}
	if r := m.conv.retry; r != nil {
		label = retryLabel(r, m.conv.retryAt.Sub(m.o.Now()))
	}
	frame := spinnerFrames[m.frame%len(spinnerFrames)]
	tokens := ""
	if n := m.turnTokens + m.streamChars/4; n > 0 && m.busyLabel == "" {
		tokens = " · ↓ " + tokenCount(n) + " tokens"
	}
	todos := ""
	if len(m.conv.todos) > 0 && m.busyLabel == "" {
		todos = " · ctrl+t to show todos"
		if m.showTodos {
			todos = " · ctrl+t to hide todos"
		}
	}
	info := fmt.Sprintf(" (%s%s · esc to interrupt%s)", elapsed(m.o.Now().Sub(m.turnStart)), tokens, todos)
	return cut(m.st.accent.Render(frame+" "+label)+m.st.dim.Render(info), w)
}

// todoPanelMax is the most todos listed under the spinner.
const todoPanelMax = 10

// todoPanel is the todo list under the spinner while a turn runs, when
// ctrl+t has shown it, as Claude Code's ctrl+t does: at most
// todoPanelMax items, from the first not yet done.
func (m *Model) todoPanel(w int) string {
	ts := m.conv.todos
	if !m.showTodos || len(ts) == 0 || m.busyLabel != "" {
		return ""
	}
	from := 0
	for from < len(ts) && ts[from].Status == "completed" {
		from++
	}
	from = max(0, min(from, len(ts)-todoPanelMax))
	shown := ts[from:min(len(ts), from+todoPanelMax)]
	list := indentLines(m.r.todoList(shown, w-5), "     ")
	list = "  ⎿  " + strings.TrimPrefix(list, "     ")
	if more := len(ts) - from - len(shown); more > 0 {
		list += "\n" + m.st.dim.Render(fmt.Sprintf("     … +%d more", more))
	}
	return list
}

// tokenCount writes a token count as the spinner shows it: 950, 1.2k,
// 34.5k.
func tokenCount(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}
	return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
}

// retryLabel says why a request is retried and counts down to it:
// "API error 429 (rate_limit_error) · Retrying in 12s (attempt 1/10)…".
func retryLabel(r *engine.Retry, left time.Duration) string {
	why := "Request failed"
	var ae *llm.APIError
	switch {
	case errors.As(r.Err, &ae) && ae.Status != 0:
		why = fmt.Sprintf("API error %d", ae.Status)
		if ae.Type != "" {
			why += " (" + ae.Type + ")"
		}
	case ae != nil:
		why = "API error (" + ae.Type + ")"
	case r.Err != nil:
		why = "Connection error"
	}
	secs := max(0, int((left+time.Second-1)/time.Second))
	return fmt.Sprintf("%s · Retrying in %ds (attempt %d/%d)…", why, secs, r.Attempt, r.Max)
}

func (m *Model) placeholder() string {
	if len(m.queued) > 0 {
		return "Press up to edit queued messages"
	}
	if m.running {
		return "Type a message to queue it for the next step"
	}
	return `Try "explain this project" · / for commands · @ for files`
}

func (m *Model) completionView(w int) string {
	c := m.comp
	first := 0
	if c.sel >= completeMax {
		first = c.sel - completeMax + 1
	}
	// The descriptions line up after the longest label shown (at least
	// 20 columns, at most 32).
	col := 20
	for i := first; i < len(c.items) && i < first+completeMax; i++ {
		col = max(col, min(32, xansi.StringWidth(c.items[i].label)))
	}
	var lines []string
	for i := first; i < len(c.items) && i < first+completeMax; i++ {
		it := c.items[i]
		label := it.label
		line := "  " + label
		if it.desc != "" {
			pad := max(1, col+1-xansi.StringWidth(label))
			line = "  " + label + strings.Repeat(" ", pad) + m.st.dim.Render(it.desc)
		}
		line = cut(line, w)
		if i == c.sel {
			line = m.st.selected.Render(cut("❯ "+strings.TrimPrefix(xansi.Strip(line), "  "), w))
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// footer is the status line, or a hint for a moment.
func (m *Model) footer(w int) string {
	if m.hint != "" && m.o.Now().Before(m.hintUntil) {
		return m.st.dim.Render(cut("  "+m.hint, w))
	}
	left := m.modeLabel()
	if l := m.inputModeLabel(); l != "" {
		left = l
	}
	// The statusLine command's line is shown in its own colours; the
	// default one is dim.
	right := m.r.output(m.statusText)
	if right == "" {
		right = m.st.dim.Render(m.defaultStatus())
	}
	if left == "" {
		return cut("  "+right, w)
	}
	gap := w - xansi.StringWidth(left) - xansi.StringWidth(right) - 4
	if gap < 1 {
		return cut("  "+left, w)
	}
	return "  " + left + strings.Repeat(" ", gap) + right
}

// inputModeLabel says what enter will do with an input that starts with
// a typed "!", as Claude Code marks its bash mode: the text goes to the
// shell, not to the model.
func (m *Model) inputModeLabel() string {
	if m.dialog != nil || m.ed.search != nil || m.ed.pastedHead {
		return ""
	}
	if strings.HasPrefix(strings.TrimSpace(m.ed.value()), "!") {
		return m.st.accent.Render("! bash mode") + m.st.dim.Render(" (the output joins the conversation)")
	}
	return ""
}

func (m *Model) modeLabel() string {
	mode := m.mode()
	var s string
	switch mode {
	case "default", "":
		return ""
	case "acceptEdits":
		s = "⏵⏵ accept edits on"
	case "plan":
		s = "⏸ plan mode on"
	case "bypassPermissions":
		s = "⏵⏵ bypass permissions on"
	case "auto":
		s = "⏵⏵ auto mode on"
	default:
		s = mode + " mode"
	}
	return m.st.mode[mode].Render(s) + m.st.dim.Render(" (shift+tab to cycle)")
}

func tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[len(lines)-n:], "\n")
}

// tailBytes is about the last n bytes of s, starting at a line or rune
// boundary, so that a long streaming reply is not wrapped whole on every
// delta.
func tailBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		return t[i+1:]
	}
	for i := 0; i < len(t) && i < 4; i++ {
		if utf8.RuneStart(t[i]) {
			return t[i:]
		}
	}
	return t
}
