package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
)

// doublePress is how close two presses of Esc or Ctrl+C must be.
const doublePress = 1500 * time.Millisecond

// modeCycle is the Shift+Tab order; auto and bypassPermissions follow
// plan when they are available.
var modeCycle = []string{"default", "acceptEdits", "plan"}

func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.transcript != nil:
		return m.transcriptKey(k)
	case m.dialog != nil:
		if wd, ok := m.dialog.(wholeDialog); ok && k.String() == "ctrl+o" {
			if _, body := wd.whole(m, m.width); body != "" {
				m.openTranscript() // all of it; esc comes back to the question
				return nil
			}
		}
		return m.dialogKey(k)
	case m.ed.search != nil:
		if m.ed.key(k) == editSubmit {
			return m.submit()
		}
		return nil
	}
	switch k.String() {
	case "ctrl+c":
		return m.onCtrlC()
	case "ctrl+d":
		if m.ed.empty() {
			return m.onCtrlD()
		}
	case "esc":
		return m.onEsc()
	case "alt+esc": // two Escs read at once
		m.lastEsc = m.o.Now()
		return m.onEsc()
	case "shift+tab":
		return m.cycleMode()
	case "ctrl+b":
		if m.canBackground("") {
			return m.moveToBackground()
		}
	case "ctrl+o":
		m.openTranscript()
		return nil
	case "ctrl+l":
		// As in Claude Code: the typed text goes (into the history, so
		// up brings it back) and the live area is drawn afresh, to
		// recover a garbled display.
		if !m.ed.empty() {
			if err := m.ed.hist.add(strings.TrimSpace(m.ed.expanded()), m.o.Now()); err != nil {
				m.o.Logger.Warn("input history not saved", "err", err)
			}
			m.ed.reset()
			m.comp = nil
		}
		return tea.ClearScreen
	case "ctrl+g":
		return m.editInEditor()
	case "ctrl+v", "alt+v": // an image from the clipboard, as in Claude Code
		return m.readClipboardImage()
	case "ctrl+t":
		m.toggleTodos()
		return nil
	case "alt+p": // Claude Code's model switch, keeping the prompt
		if m.running {
			m.setHint("The model can be changed once the current turn ends (esc to interrupt it)", 3*time.Second)
			return nil
		}
		m.comp = nil
		return m.cmdModel("")
	case "ctrl+z":
		return m.suspend()
	case "tab", "up", "down", "ctrl+p", "ctrl+n", "enter":
		if m.comp != nil && len(m.comp.items) > 0 {
			return m.completionKey(k)
		}
		if k.String() == "up" && len(m.queued) > 0 && m.ed.onTopRow() && m.editQueued() {
			return nil
		}
	}
	switch m.ed.key(k) {
	case editSubmit:
		return m.submit()
	case editChanged:
		opened := m.comp == nil || m.comp.kind != '@'
		m.updateCompletion()
		if m.comp == nil || m.comp.kind != '@' {
			break
		}
		var cmds []tea.Cmd
		if m.files == nil {
			m.files = []string{}
			cmds = append(cmds, listFiles(m.ctx, m.o.Cwd, m.o.ListIgnoredFiles))
		}
		if opened && m.o.Resources != nil {
			cmds = append(cmds, listResources(m.ctx, m.o.Resources))
		}
		return tea.Batch(cmds...)
	}
	return nil
}

func (m *Model) onPaste(text string) tea.Cmd {
	switch {
	case m.dialog != nil:
		m.dialog.paste(sanitize(text))
	case m.transcript == nil:
		m.ed.paste(text)
		m.updateCompletion()
	}
	return nil
}

// onCtrlC clears the input; on an empty input it interrupts a running
// turn; pressed twice it exits.
func (m *Model) onCtrlC() tea.Cmd {
	now := m.o.Now()
	if !m.ed.empty() {
		m.ed.reset()
		m.comp = nil
		return nil
	}
	if now.Sub(m.lastCtrlC) < doublePress {
		return m.quit()
	}
	m.lastCtrlC = now
	if m.running {
		m.interrupt()
		return nil
	}
	m.setHint("Press Ctrl+C again to exit", doublePress)
	return nil
}

// suspend stops reins until the shell's fg brings it back, as Ctrl+Z
// does in Claude Code and other terminal programs. A running turn (and
// the commands it started, in reins's process group) stops with it and
// goes on after fg.
func (m *Model) suspend() tea.Cmd {
	if m.o.JobControl == nil || !m.o.JobControl() {
		m.setHint("Ctrl+Z needs a shell with job control (reins was not started from one)", 3*time.Second)
		return nil
	}
	return tea.Suspend
}

// onCtrlD on an empty input exits when pressed twice, as Claude Code
// does: one stray press must not end the session and its running turn.
func (m *Model) onCtrlD() tea.Cmd {
	now := m.o.Now()
	if now.Sub(m.lastCtrlD) < doublePress {
		return m.quit()
	}
	m.lastCtrlD = now
	m.setHint("Press Ctrl+D again to exit", doublePress)
	return nil
}

// onEsc closes the menu, takes queued messages back into the input,
// interrupts the turn, or (twice, with an empty input) opens the rewind
// list.
//
// With messages queued during a turn, esc takes them back into the
// input and lets the turn go on, as Claude Code does since 2.1.0: they
// were neither sent on their own after the interrupt nor dropped with
// it. The next esc interrupts.
func (m *Model) onEsc() tea.Cmd {
	now := m.o.Now()
	defer func() { m.lastEsc = now }()
	switch {
	case m.comp != nil:
		// Closing the menu is not the first of two presses: the next
		// esc would have cleared the input.
		m.comp = nil
		now = time.Time{}
	case m.running:
		if len(m.queued) > 0 && m.takeQueuedIntoInput("Queued messages are back in the input; esc again interrupts") {
			return nil
		}
		m.interrupt()
	case !m.ed.empty():
		if now.Sub(m.lastEsc) < doublePress {
			// Into the history first, as Claude Code does, so up brings
			// back a draft cleared by a stray double press.
			if err := m.ed.hist.add(strings.TrimSpace(m.ed.expanded()), now); err != nil {
				m.o.Logger.Warn("input history not saved", "err", err)
			}
			m.ed.reset()
			return nil
		}
		m.setHint("Esc again to clear", doublePress)
	case now.Sub(m.lastEsc) < doublePress:
		m.openRewind()
		return nil
	default:
		m.setHint("Esc again to rewind", doublePress)
	}
	return nil
}

func (m *Model) mode() string {
	if m.o.Mode == nil {
		return "default"
	}
	return m.o.Mode.Mode()
}

// cycleMode moves to the next permission mode.
func (m *Model) cycleMode() tea.Cmd {
	if m.o.Mode == nil {
		m.setHint("Permission modes are not available", 2*time.Second)
		return nil
	}
	cycle := modeCycle
	if m.o.AutoAvailable {
		cycle = append(cycle[:len(cycle):len(cycle)], "auto")
	}
	if m.o.BypassAvailable {
		cycle = append(cycle[:len(cycle):len(cycle)], "bypassPermissions")
	}
	cur, next := m.mode(), cycle[0]
	for i, c := range cycle {
		if c == cur {
			next = cycle[(i+1)%len(cycle)]
		}
	}
	pm, remembers := m.o.Mode.(PlanMemory)
	if cur == "plan" && remembers && pm.PlanEntries() != m.cycledIntoPlan {
		// Plan mode came from the model or a control request, not from
		// this cycle: leaving it goes back to where the session was.
		if pre := pm.PrePlanMode(); pre != "" {
			next = pre
		}
	}
	if err := m.o.Mode.SetMode(next); err != nil {
		m.setHint(err.Error(), 3*time.Second)
		return nil
	}
	if next == "plan" && remembers {
		m.cycledIntoPlan = pm.PlanEntries()
	}
	return m.refreshStatus()
}

// updateCompletion opens, refreshes or closes the completion menu for
// the word under the cursor.
func (m *Model) updateCompletion() {
	start, tok := m.ed.token()
	switch {
	case start == 0 && strings.HasPrefix(tok, "/") && !strings.ContainsRune(string(m.ed.buf), '\n'):
		m.comp = &completion{kind: '/', start: 0, items: m.cmds.complete(tok[1:])}
	case strings.HasPrefix(tok, "@"):
		if m.comp == nil || m.comp.kind != '@' {
			m.comp = &completion{kind: '@'}
		}
		m.comp.start = start
		m.comp.items = mentionCompletions(m.files, m.resources, strings.Trim(tok[1:], `"`))
		m.comp.sel = min(m.comp.sel, max(0, len(m.comp.items)-1))
	default:
		m.comp = nil
	}
}

func (m *Model) completionKey(k tea.KeyPressMsg) tea.Cmd {
	c := m.comp
	switch k.String() {
	case "up", "ctrl+p":
		c.sel = (c.sel + len(c.items) - 1) % len(c.items)
	case "down", "ctrl+n":
		c.sel = (c.sel + 1) % len(c.items)
	case "tab", "enter":
		m.ed.applyCompletion(c)
		m.comp = nil
		if c.kind == '/' && k.String() == "enter" {
			return m.submit()
		}
		if c.kind == '@' && strings.HasSuffix(string(m.ed.buf[:m.ed.pos]), "/") {
			m.updateCompletion() // a folder: offer what is in it
		}
	}
	return nil
}

// submit sends what the editor holds.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.ed.expanded())
	m.comp = nil
	if text == "" {
		return nil
	}
	if err := m.ed.hist.add(text, m.o.Now()); err != nil {
		m.o.Logger.Warn("input history not saved", "err", err)
		m.setHint(err.Error(), 3*time.Second)
	}
	images := m.ed.imageBlocks(text)
	d := m.ed.snapshot()
	m.ed.reset()
	return m.submitInput(text, &d, images...)
}

// submitText acts on one input: a shell line, a memory line, a slash
// command, or a prompt (queued while a turn runs).
// images go with a prompt (images pasted as paths).
func (m *Model) submitText(text string, images ...llm.ContentBlock) tea.Cmd {
	return m.submitInput(text, nil, images...)
}

// submitInput is submitText for an input typed in the editor; raw is
// what the editor held, given back to it when a queued message is
// taken back for editing (nil: the text itself).
func (m *Model) submitInput(text string, raw *draft, images ...llm.ContentBlock) tea.Cmd {
	// The "!" and "/" modes are for what was typed: text pasted at the
	// start of the input (a log line, a Markdown text) is a prompt. A
	// collapsed paste is its placeholder here; a short one starting with
	// "!" is not run (a short "/name" is a command, as the menu offered).
	// "#" starts a prompt too, as in Claude Code since 2.0.70, which
	// dropped its "#" memory shortcut (the model edits CLAUDE.md when
	// asked; /memory opens it).
	typed := text
	if raw != nil {
		typed = strings.TrimSpace(raw.text)
	}
	switch {
	case strings.HasPrefix(typed, "!") && (raw == nil || !raw.pastedHead):
		return m.runShell(strings.TrimSpace(text[1:]))
	case isCommand(typed):
		return m.runCommand(text)
	case m.running:
		blocks := append([]llm.ContentBlock{llm.TextBlock(text)}, images...)
		q := queuedMsg{display: displayPrompt(&llm.Message{Role: llm.RoleUser, Content: blocks})}
		if raw != nil {
			q.raw = *raw
		} else {
			q.raw.text = text
		}
		q.uuid = m.o.Session.Queue(blocks)
		m.queued = append(m.queued, q)
		return nil
	}
	return m.submitPrompt(text, images...)
}

// submitPrompt starts a turn with a prompt, through Prepare when set.
func (m *Model) submitPrompt(text string, images ...llm.ContentBlock) tea.Cmd {
	if m.o.Prepare == nil {
		return m.startTurn(engine.Input{
			Content:     append([]llm.ContentBlock{llm.TextBlock(text)}, images...),
			UUID:        uuid.NewString(),
			TokenBudget: engine.ParseTokenBudget(text),
		})
	}
	prepare := m.o.Prepare
	ctx, cancel := context.WithCancelCause(m.ctx)
	m.busy("Sending…")
	m.cancel = cancel // esc stops a slow UserPromptSubmit hook
	// The spinner ticks while the hooks run, to show their statusMessage.
	return tea.Batch(m.startTick(), func() tea.Msg {
		in, refusal, err := prepare(ctx, text)
		if err == nil && refusal == "" {
			// Prepare attached the files and resources the prompt mentions.
			in.Content = append(in.Content, images...)
		}
		interrupted := errors.Is(context.Cause(ctx), errInterrupted)
		cancel(nil)
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			m.idle()
			switch {
			case interrupted:
				// Not sent: the prompt goes back into the input, with the
				// messages queued behind it (they would otherwise go out
				// on their own, ahead of it), before what was typed since.
				m.ed.restore(append([]draft{{text: text}}, m.takeBackQueued()...))
				m.setHint("Interrupted before sending; the prompt is back in the input", 3*time.Second)
			case err != nil:
				m.say(kError, err.Error())
			case refusal != "":
				m.commandOutput(text, refusal, true)
			default:
				if in.UUID == "" {
					in.UUID = uuid.NewString()
				}
				return m.startTurn(in)
			}
			return nil
		}}
	})
}

// isCommand reports whether text is a slash command: "/name" where name
// is a command-like word (a path such as /usr/bin is a prompt).
func isCommand(text string) bool {
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return false
	}
	name, _, _ := strings.Cut(text[1:], " ")
	name, _, _ = strings.Cut(name, "\n")
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_:", r)) {
			return false
		}
	}
	return name != ""
}

// canBackground reports whether a running tool call (toolUseID, or any
// with "") could move to the background now.
func (m *Model) canBackground(toolUseID string) bool {
	return m.running && m.o.CanBackground != nil && m.o.Background != nil && m.o.CanBackground(toolUseID)
}

// movedMsg says whether Ctrl+B moved anything to the background.
type movedMsg struct{ moved bool }

// moveToBackground moves the running calls to the background (Ctrl+B),
// off the UI goroutine: starting the tasks reports to observers that may
// send to the program.
func (m *Model) moveToBackground() tea.Cmd {
	move := m.o.Background
	return func() tea.Msg { return movedMsg{moved: move("")} }
}
