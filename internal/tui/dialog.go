package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/engine"
)

// dialog takes over the input area until it is done.
type dialog interface {
	// key handles a key; done closes the dialog.
	key(m *Model, k tea.KeyPressMsg) (done bool, cmd tea.Cmd)
	// paste receives pasted text (sanitized).
	paste(s string)
	view(m *Model, width int) string
}

// wholeDialog is a dialog that may show its content cut short; whole
// returns all of it (body "" when nothing was cut), which ctrl+o shows in
// the transcript view.
type wholeDialog interface {
	whole(m *Model, width int) (title, body string)
}

// askDialog is a dialog answering an engine question.
type askDialog interface {
	dialog
	ask() askMsg
}

func (m *Model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	done, cmd := d.key(m, k)
	if done && m.dialog == d { // (a picker may open the next dialog)
		m.dialog = nil
		return tea.Batch(cmd, m.nextAsk())
	}
	return cmd
}

// onAsk opens a dialog for a question, or queues it behind the open one.
func (m *Model) onAsk(a askMsg) tea.Cmd {
	m.asks = append(m.asks, a)
	m.transcript = nil // the question must be seen
	if m.dialog != nil {
		return nil
	}
	return tea.Batch(m.nextAsk(), m.notify("reins needs your answer"), m.startTick())
}

// nextAsk opens the next question still waiting for an answer.
func (m *Model) nextAsk() tea.Cmd {
	for len(m.asks) > 0 && m.dialog == nil {
		a := m.asks[0]
		m.asks = m.asks[1:]
		if closed(a.done) {
			continue
		}
		m.dialog = newAskDialog(m, a)
		m.comp = nil
	}
	return nil
}

// closeStaleDialogs drops dialogs whose question was withdrawn (the turn
// was interrupted while it waited).
func (m *Model) closeStaleDialogs() {
	if d, ok := m.dialog.(askDialog); ok && closed(d.ask().done) {
		m.dialog = nil
		m.nextAsk()
	}
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// answer replies to a question once.
func answer(a askMsg, ans engine.Answer) {
	select {
	case a.reply <- ans:
	default:
	}
}

func newAskDialog(m *Model, a askMsg) dialog {
	switch a.q.ToolName {
	case "AskUserQuestion":
		if d := newQuestionDialog(a); d != nil {
			return d
		}
	case "ExitPlanMode":
		return newPlanDialog(m, a)
	case ElicitationQuestion:
		if d := newElicitDialog(a); d != nil {
			return d
		}
	}
	return newPermissionDialog(m, a)
}

// menu is a list of choices with a cursor, chosen with arrows, digits
// and Enter.
type menu struct {
	items []string
	sel   int
}

// key moves the cursor; chosen is the index picked with Enter or a digit
// (-1 when none).
func (mn *menu) key(k tea.KeyPressMsg) (chosen int) {
	switch s := k.String(); s {
	case "up", "ctrl+p", "k":
		mn.sel = (mn.sel + len(mn.items) - 1) % len(mn.items)
	case "down", "ctrl+n", "j", "tab":
		mn.sel = (mn.sel + 1) % len(mn.items)
	case "enter":
		return mn.sel
	default:
		if len(s) == 1 && s[0] >= '1' && s[0] <= '9' {
			if i := int(s[0] - '1'); i < len(mn.items) {
				mn.sel = i
				return i
			}
		}
	}
	return -1
}

func (mn *menu) view(st *styles, width int) string {
	lines := make([]string, len(mn.items))
	for i, it := range mn.items {
		// A long choice wraps under its own text, not under its number.
		num := strconv.Itoa(i+1) + ". "
		if i == mn.sel {
			lines[i] = st.selected.Render(hang("❯ "+num, it, width))
		} else {
			lines[i] = hang("  "+num, it, width)
		}
	}
	return strings.Join(lines, "\n")
}

// lineInput is a one-line text field used inside dialogs.
type lineInput struct {
	buf []rune
}

func (li *lineInput) key(k tea.KeyPressMsg) {
	switch k.String() {
	case "backspace", "ctrl+h":
		if len(li.buf) > 0 {
			li.buf = li.buf[:len(li.buf)-1]
		}
	case "ctrl+u":
		li.buf = nil
	default:
		if t := sanitize(k.Text); t != "" {
			li.buf = append(li.buf, []rune(strings.ReplaceAll(t, "\n", " "))...)
		}
	}
}

func (li *lineInput) paste(s string) {
	li.buf = append(li.buf, []rune(strings.ReplaceAll(s, "\n", " "))...)
}

func (li *lineInput) value() string { return strings.TrimSpace(string(li.buf)) }

func (li *lineInput) view(st *styles, width int, placeholder string) string {
	if len(li.buf) == 0 {
		return st.accent.Render("> ") + st.dim.Render(cut(placeholder, width-2))
	}
	return st.accent.Render("> ") + xansi.TruncateLeft(string(li.buf), max(0, xansi.StringWidth(string(li.buf))-(width-3)), "…")
}

// frame draws a dialog: a rule with a title, then the body.
func frame(st *styles, title, body string, width int) string {
	return st.accent.Render(ruleLine(title, width)) + "\n" + body
}
