package tui

import (
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// Narrowing the terminal.
//
// Most terminals (tmux, iTerm2, kitty, VTE, Windows Terminal...) rewrap
// the lines on screen when the window gets narrower: a full-width rule of
// the live area becomes two or three rows, and the cursor moves down with
// its text. Bubble Tea knows none of this: to redraw the frame at the new
// width it moves the cursor up by the row it last put the cursor on, which
// now lands inside the rewrapped frame, and the rows above that point (the
// top rule, the streaming text) stay on screen and in the scrollback as a
// stale copy.
//
// So a narrowing is held back for a moment: the cursor is first moved up
// by the rows the rewrapping added above it, worked out from the frame
// last drawn, and only then is the new size handed on. Bubble Tea's own
// move then reaches the real top of the old frame, and its erase below
// takes the whole rewrapped frame away.

// drawnFrame is what the last view left on screen: the width it was drawn
// at, the width of each of its rows, and the cursor, if shown.
type drawnFrame struct {
	width     int
	rows      []int
	cursor    bool
	cx, cy    int
	altScreen bool
}

// frameLog tells the view handed to Bubble Tea from the one on screen.
// Bubble Tea draws the latest view on a timer (30 times a second), so
// while text streams in the view last handed over is often a row longer
// than what the terminal shows; a narrowing measured on it moved the
// cursor too far or not far enough, and left rows of the streaming text
// on screen. The program's output (eraseWriter) marks the view handed
// over as shown each time the renderer writes.
type frameLog struct {
	mu               sync.Mutex
	handed, onScreen drawnFrame
	seen             bool // a write happened since the first view
	writes           int  // how many writes the output made
}

// handedOver records the view just handed to Bubble Tea.
func (l *frameLog) handedOver(f drawnFrame) {
	l.mu.Lock()
	l.handed = f
	l.handed.rows = slices.Clone(f.rows)
	l.mu.Unlock()
}

// written marks the view handed over as the one on screen.
func (l *frameLog) written() {
	l.mu.Lock()
	l.onScreen = l.handed
	l.seen = true
	l.writes++
	l.mu.Unlock()
}

// count is how many writes the output has made so far.
func (l *frameLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writes
}

// shown is the frame on screen, if anything was written yet.
func (l *frameLog) shown() (drawnFrame, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.onScreen
	f.rows = slices.Clone(f.rows)
	return f, l.seen
}

// onScreen is the frame the terminal shows: the one the output last
// wrote when the output reports its writes, else the view last handed
// to Bubble Tea.
func (m *Model) onScreen() drawnFrame {
	if m.frameLog != nil {
		if f, ok := m.frameLog.shown(); ok {
			return f
		}
	}
	return m.drawn
}

// noteFrame records a view handed to Bubble Tea.
func (m *Model) noteFrame(content string, cursor *tea.Cursor, alt bool) {
	d := &m.drawn
	if m.frameLog != nil {
		defer func() { m.frameLog.handedOver(*d) }()
	}
	d.width, d.altScreen, d.cursor = m.width, alt, cursor != nil
	d.rows = d.rows[:0]
	if alt || !m.sized {
		// Before the first size a view is drawn at a guessed width.
		d.cursor = false
		return
	}
	for _, l := range strings.Split(content, "\n") {
		d.rows = append(d.rows, xansi.StringWidth(strings.TrimRight(xansi.Strip(l), " ")))
	}
	if cursor != nil {
		d.cx, d.cy = cursor.X, cursor.Y
	}
}

// rewrapRows is how many rows a terminal that rewraps its lines added
// above the cursor when the frame f, drawn at f.width, is shown at width
// columns.
func (f *drawnFrame) rewrapRows(width int) int {
	if width <= 0 || width >= f.width || f.altScreen || !f.cursor || f.cy >= len(f.rows) {
		return 0
	}
	extra := 0
	for _, w := range f.rows[:f.cy] {
		if w > width {
			extra += (w+width-1)/width - 1
		}
	}
	return extra + f.cx/width
}

// resizedMsg is a window size handed on after the cursor was moved.
type resizedMsg tea.WindowSizeMsg

// rewrap is a narrowing being handed on: the frame on screen, the rows
// the cursor was moved up so far, and the size to hand on.
type rewrap struct {
	frame drawnFrame
	moved int
	want  tea.WindowSizeMsg
}

// rewrapFilter is the program's message filter: it puts the cursor-up
// for a narrowing ahead of the new size (see above). Sizes that arrive
// while one is being handed on only change the size handed on, and the
// rows moved follow it.
func rewrapFilter(reflows bool) func(tea.Model, tea.Msg) tea.Msg {
	return func(tm tea.Model, msg tea.Msg) tea.Msg {
		m, ok := tm.(*Model)
		if !ok || !reflows {
			return msg
		}
		switch msg := msg.(type) {
		case resizedMsg:
			rw := m.rewrap
			if rw == nil {
				return tea.WindowSizeMsg(msg)
			}
			if n := rw.frame.rewrapRows(rw.want.Width); n != rw.moved {
				move := xansi.CursorUp(n - rw.moved)
				if n < rw.moved {
					move = xansi.CursorDown(rw.moved - n)
				}
				rw.moved = n
				return handOn(move, rw.want)
			}
			m.rewrap = nil
			return rw.want
		case tea.WindowSizeMsg:
			if m.rewrap != nil {
				m.rewrap.want = msg
				return nil
			}
			f := m.onScreen()
			n := f.rewrapRows(msg.Width)
			if n == 0 {
				return msg
			}
			f.rows = slices.Clone(f.rows) // the next view reuses them
			m.rewrap = &rewrap{frame: f, moved: n, want: msg}
			return handOn(xansi.CursorUp(n), msg)
		}
		return msg
	}
}

// handOn moves the cursor, then hands on the size. A sequence runs its
// commands in order, each message handled before the next is sent: the
// cursor moves (written before the next frame) before the renderer
// learns the new size.
func handOn(move string, size tea.WindowSizeMsg) tea.Msg {
	return tea.Sequence(tea.Raw(move), func() tea.Msg { return resizedMsg(size) })()
}

// terminalRewraps reports whether the terminal rewraps its lines on a
// resize: every common one does except xterm, st, the Linux console and
// GNU screen, which cut them (moving the cursor up there would leave the
// frame's copy below the new one instead).
func terminalRewraps(getenv func(string) string) bool {
	term := getenv("TERM")
	switch {
	case getenv("XTERM_VERSION") != "" && getenv("TERM_PROGRAM") == "":
		return false
	case term == "linux":
		return false
	case strings.HasPrefix(term, "screen") && getenv("TMUX") == "" && getenv("STY") != "":
		return false
	case term == "st" || strings.HasPrefix(term, "st-"):
		return false
	}
	return true
}
