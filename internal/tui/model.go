package tui

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"reins/internal/engine"
	"reins/internal/llm"
)

// errInterrupted is the cause of a turn the user interrupted.
var errInterrupted = errors.New("interrupted by the user")

// Model is the UI's Bubble Tea model. Build it with newModel; Run does.
type Model struct {
	o Options
	// cycledIntoPlan is the count of plan mode entries (PlanMemory)
	// when Shift+Tab last entered plan mode.
	cycledIntoPlan int
	ctx            context.Context // the program's; turns derive from it
	br             *bridge
	st             styles
	r              renderer

	conv  *conversation
	ed    *editor
	comp  *completion
	files []string // for @ completion; nil until listed
	// resources are the MCP resources @ completion offers, listed anew
	// each time the menu opens.
	resources []Resource
	cmds      *commandTable

	width, height int

	// the running turn (or compaction)
	gen       int
	running   bool
	busyLabel string // what the spinner says instead of the default
	cancel    context.CancelCauseFunc
	turnStart time.Time
	// the turn's output tokens: those of its finished responses, and the
	// characters streamed since the last one (shown as tokens, ~4 each)
	turnTokens, streamChars int
	showTodos               bool           // ctrl+t: the todo list under the spinner
	queued                  []queuedMsg    // messages queued during the turn, not yet taken
	heldShell               []*llm.Message // "!" runs for the model, held while a turn runs
	frame                   int
	ticking                 bool

	dialog dialog
	asks   []askMsg // questions waiting behind the open dialog

	printing bool         // a print is on its way to the terminal
	pending  []string     // printed lines not yet sent to the terminal
	frames   frameHeights // heights of recent views (print.go)
	// writesAtTurn is how many writes the output had made when the first
	// turn started; -1 before it (print.go's start-up case).
	writesAtTurn int
	drawn        drawnFrame           // the last view's rows and cursor (reflow.go)
	frameLog     *frameLog            // which view is on screen; nil when the output does not say
	rewrap       *rewrap              // a narrowing being handed on (reflow.go)
	sized        bool                 // a window size arrived (width is the terminal's)
	profile      colorprofile.Profile // the terminal's colours, for prints

	lastCtrlC, lastCtrlD, lastEsc time.Time
	hint                          string
	hintUntil                     time.Time
	hintSeq                       int  // counts hints set, so an expiry matches its hint
	hintArmed                     bool // a hint was set; its expiry redraw is not yet scheduled

	// idleSeq counts turn ends and key presses; an idle timer whose
	// number is no longer current was overtaken by one of them.
	idleSeq int

	started    time.Time
	statusText string // the statusLine command's output
	transcript *transcriptView
	quitting   bool
}

// resize takes a new terminal size. What is already printed stays as
// the terminal re-wraps it; the live area is drawn again at the new size.
func (m *Model) resize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = max(msg.Width, 20), max(msg.Height, 6)
	m.sized = true
	return nil
}

// printedMsg: the previous print reached the terminal.
type printedMsg struct{}

// tickMsg animates the spinner while a turn runs.
type tickMsg struct{}

// idleMsg: IdleAfter passed since the turn end numbered seq.
type idleMsg struct{ seq int }

// asyncMsg carries the result of background work as a function applied
// to the model in Update (the work itself ran in a tea.Cmd).
type asyncMsg struct{ apply func(m *Model) tea.Cmd }

func newModel(ctx context.Context, o Options, br *bridge) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.JobControl == nil {
		o.JobControl = jobControl
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.LongTurn == 0 {
		o.LongTurn = 15 * time.Second
	}
	if o.IdleAfter == 0 {
		o.IdleAfter = 60 * time.Second
	}
	if o.Cwd == "" {
		o.Cwd, _ = os.Getwd()
	}
	m := &Model{o: o, ctx: ctx, br: br, width: 80, height: 24, started: o.Now(), writesAtTurn: -1}
	m.st = newStyles(!o.NoColor)
	m.r = renderer{st: &m.st, md: &markdown{color: !o.NoColor}, cwd: o.Cwd}
	m.conv = newConversation(o.Now)
	m.ed = newEditor(loadHistory(o.HistoryFile))
	m.ed.cwd = o.Cwd
	m.cmds = newCommandTable(o.Commands)
	if o.Width > 0 {
		m.width, m.height = o.Width, max(o.Height, 10)
	}
	return m
}

// Init prints a resumed history and sends the first prompt.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	m.conv.add(&item{kind: kNotice, text: m.welcome(), done: true, level: "welcome"})
	for _, n := range m.o.Notices {
		m.notice("warning", n)
	}
	if len(m.o.Resumed) > 0 {
		m.showHistory(m.o.Resumed)
	}
	if p := strings.TrimSpace(m.o.Prompt); p != "" {
		cmds = append(cmds, m.submitText(p))
	} else if m.o.PickResume && len(m.o.Resumed) == 0 {
		cmds = append(cmds, m.cmdResume(m.o.ResumeSearch))
	}
	cmds = append(cmds, m.refreshStatus())
	return tea.Batch(cmds...)
}

// Update hands each message to the part of the UI that owns it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		cmd = m.resize(msg)
	case tea.KeyPressMsg:
		m.idleSeq++
		cmd = m.onKey(msg)
	case tea.PasteMsg:
		m.idleSeq++
		cmd = m.onPaste(msg.Content)
	case tea.InterruptMsg:
		cmd = m.onCtrlC()
	case eventMsg:
		cmd = m.onEvent(msg)
	case turnDoneMsg:
		cmd = m.onTurnDone(msg.gen)
	case askMsg:
		cmd = m.onAsk(msg)
	case tickMsg:
		cmd = m.onTick()
	case hintDoneMsg:
		if msg.seq == m.hintSeq {
			m.hint = ""
		}
	case idleMsg:
		if msg.seq == m.idleSeq && !m.running && m.dialog == nil && m.o.OnIdle != nil {
			go m.o.OnIdle()
		}
	case printedMsg:
		m.printing = false
	case filesMsg:
		m.files = msg.files
		m.updateCompletion()
	case resourcesMsg:
		m.resources = msg.resources
		m.updateCompletion()
	case asyncMsg:
		cmd = tea.Batch(msg.apply(m), m.drainQueue())
	case noticeMsg:
		m.notice(msg.level, plainText(msg.text)) // a hook's systemMessage
	case movedMsg:
		if msg.moved {
			m.setHint("Moved to the background; the model will be told when it finishes", 3*time.Second)
		}
		return m, nil
	case backgroundMsg:
		cmd = m.announceBackground()
	case tea.ColorProfileMsg:
		m.profile = msg.Profile
	case clipboardImageMsg:
		m.onClipboardImage(msg)
	}
	if m.quitting {
		if m.printing {
			return m, nil // the print on its way comes back as printedMsg
		}
		return m, tea.Sequence(m.flush(), tea.Quit)
	}
	return m, tea.Batch(cmd, m.flush(), m.hintExpiry())
}

// hintDoneMsg ends the hint numbered seq, unless a newer one replaced it.
type hintDoneMsg struct{ seq int }

// hintExpiry schedules the redraw that takes a new hint off the screen
// when its time is up; without it, an idle UI kept showing "Press Ctrl+C
// again to exit" (or "Interrupting…") until the next key.
func (m *Model) hintExpiry() tea.Cmd {
	if !m.hintArmed {
		return nil
	}
	m.hintArmed = false
	seq, d := m.hintSeq, m.hintUntil.Sub(m.o.Now())
	return tea.Tick(max(d, 0), func(time.Time) tea.Msg { return hintDoneMsg{seq} })
}

// flush prints the finished items at the head of the live area, in order,
// one print at a time (see print.go).
func (m *Model) flush() tea.Cmd {
	if m.printing {
		return nil
	}
	var parts []string
	c := m.conv
	// When quitting, what is still streaming or running is printed as it
	// stands: the live area is about to go, and with it the partial reply.
	for c.printed < len(c.items) && (c.items[c.printed].done || m.quitting) {
		it := c.items[c.printed]
		s := m.r.item(it, m.width, false)
		if !it.done && it.kind == kTool {
			s = m.r.liveTool(it.tool, m.width, "○", m.o.Now(), false)
		}
		parts = append(parts, "\n"+s)
		c.printed++
	}
	if len(parts) > 0 {
		text := m.downsample(strings.Join(parts, "\n"))
		m.pending = append(m.pending, strings.Split(text, "\n")...)
	}
	return m.printPending()
}

// downsample converts colours of printed text to what the terminal
// shows (the live area is converted by Bubble Tea itself).
func (m *Model) downsample(s string) string {
	if m.profile == colorprofile.Unknown || m.profile == colorprofile.TrueColor {
		return s
	}
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: m.profile}
	w.WriteString(s)
	return b.String()
}

// welcome is the first line printed: version, folder, where help is.
func (m *Model) welcome() string {
	v := m.o.Version
	if v != "" {
		v = " " + v
	}
	return "✻ reins" + v + " · " + m.o.Cwd + " · /help for commands"
}

// notice shows a message from outside the conversation.
func (m *Model) notice(level, text string) {
	k := kNotice
	if level == "error" {
		k = kError
	}
	m.conv.add(&item{kind: k, level: level, text: text, done: true})
}

// say adds a finished note to the conversation.
func (m *Model) say(k kind, text string) {
	m.conv.add(&item{kind: k, text: text, done: true, level: "info"})
}

// setHint shows a short message under the input for a while.
func (m *Model) setHint(s string, d time.Duration) {
	m.hint, m.hintUntil = s, m.o.Now().Add(d)
	m.hintSeq++
	m.hintArmed = true
}

func (m *Model) onEvent(msg eventMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	if u, ok := msg.ev.(*engine.UserMessage); ok && !u.Meta && len(m.queued) > 0 {
		m.queued = slices.DeleteFunc(m.queued, func(q queuedMsg) bool { return q.uuid == u.UUID })
	}
	m.conv.apply(msg.ev)
	switch e := msg.ev.(type) {
	case *engine.Retry:
		m.conv.retryAt = m.o.Now().Add(e.Delay)
	case *engine.TextDelta:
		m.streamChars += len(e.Text)
	case *engine.ThinkingDelta:
		m.streamChars += len(e.Text)
	case *engine.StreamReset:
		m.streamChars = 0
	case *engine.Usage:
		m.turnTokens += e.Response.OutputTokens
		m.streamChars = 0
	}
	switch msg.ev.(type) {
	case *engine.Usage, *engine.TurnEnd:
		return m.refreshStatus()
	}
	return nil
}

// startTurn runs a turn with in.
func (m *Model) startTurn(in engine.Input) tea.Cmd {
	m.gen++
	ctx, cancel := context.WithCancelCause(m.ctx)
	m.running, m.cancel, m.turnStart, m.busyLabel = true, cancel, m.o.Now(), ""
	if m.frameLog != nil && m.writesAtTurn < 0 {
		m.writesAtTurn = m.frameLog.count()
	}
	m.turnTokens, m.streamChars = 0, 0
	if m.o.Checkpoints != nil && in.UUID != "" {
		m.o.Checkpoints.Begin(in.UUID)
	}
	m.br.runTurn(ctx, m.o.Session, m.gen, in)
	return m.startTick()
}

func (m *Model) onTurnDone(gen int) tea.Cmd {
	if gen != m.gen {
		return nil
	}
	m.running = false
	if m.cancel != nil {
		m.cancel(nil)
		m.cancel = nil
	}
	m.closeStaleDialogs()
	m.releaseShell()
	if m.hint == interruptingHint {
		m.hint = "" // the interruption is over
	}
	var cmds []tea.Cmd
	if m.o.Now().Sub(m.turnStart) >= m.o.LongTurn {
		cmds = append(cmds, m.notify("reins finished"))
	}
	if len(m.queued) > 0 {
		cmds = append(cmds, m.startQueuedTurn())
	} else if bg := m.announceBackground(); bg != nil {
		cmds = append(cmds, bg)
	} else if m.o.OnIdle != nil {
		m.idleSeq++
		seq := m.idleSeq
		cmds = append(cmds, tea.Tick(m.o.IdleAfter, func(time.Time) tea.Msg { return idleMsg{seq} }))
	}
	return tea.Batch(cmds...)
}

// drainQueue starts a turn for messages queued while local work (a
// command, a shell run) kept the UI busy.
func (m *Model) drainQueue() tea.Cmd {
	if len(m.queued) == 0 {
		return m.announceBackground()
	}
	if m.running {
		return nil
	}
	return m.startQueuedTurn()
}

// startQueuedTurn starts a turn for the queued messages, which the
// engine adds at its start. The first names the turn's checkpoint, as a
// typed prompt's id does, so rewinding to it offers to restore the files
// the turn changed.
func (m *Model) startQueuedTurn() tea.Cmd {
	if m.o.Checkpoints != nil {
		m.o.Checkpoints.Begin(m.queued[0].uuid)
	}
	m.queued = m.queued[:0]
	return m.startTurn(engine.Input{})
}

// interruptingHint is shown from esc until the turn has stopped.
const interruptingHint = "Interrupting…"

// interrupt stops the running turn.
func (m *Model) interrupt() {
	if m.running && m.cancel != nil {
		m.cancel(errInterrupted)
		m.setHint(interruptingHint, 2*time.Second)
	}
}

func (m *Model) startTick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(120*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) onTick() tea.Cmd {
	m.ticking = false
	m.closeStaleDialogs()
	if !m.running && m.dialog == nil {
		return nil
	}
	m.frame++
	return m.startTick()
}

// notify rings the bell or sends a desktop notification.
func (m *Model) notify(text string) tea.Cmd {
	switch m.o.Notify {
	case "none":
		return nil
	case "osc9":
		return tea.Raw("\x1b]9;" + sanitize(text) + "\x07")
	}
	return tea.Raw("\a")
}

// quit ends the program after the pending prints.
func (m *Model) quit() tea.Cmd {
	m.interrupt()
	m.quitting = true
	return nil
}

// backgroundMsg says a background task finished.
type backgroundMsg struct{}

// announceBackground starts a turn with the notifications of the
// background tasks that finished, when the UI is free: no turn or local
// work running, no dialog open, no message queued. Otherwise it does
// nothing; the notifications then reach the model with its next request,
// or at the next chance (the end of the turn or local work).
func (m *Model) announceBackground() tea.Cmd {
	if m.o.BackgroundNotes == nil || m.running || m.dialog != nil || len(m.queued) > 0 || m.quitting {
		return nil
	}
	notes := m.o.BackgroundNotes()
	if len(notes) == 0 {
		return nil
	}
	content := make([]llm.ContentBlock, len(notes))
	for i, n := range notes {
		content[i] = llm.TextBlock(n)
	}
	m.notice("info", "A background task finished; passing its notification to the model.")
	return m.startTurn(engine.Input{Content: content, Meta: true})
}
