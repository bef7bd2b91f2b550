package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// Printing above the live area.
//
// Bubble Tea prints a line above the program by scrolling the terminal
// by the printed rows, moving the cursor up by those rows plus the height
// of the frame it last drew, and inserting the lines there. When the
// printed rows and that frame together are taller than the terminal, the
// cursor stops at the top row, and the top of the old frame (a streaming
// reply's raw text, the input box) is left in the scrollback between the
// printed messages. The frame it uses is the last one drawn, which may
// be older than the view just returned: frames are drawn on a timer.
//
// So finished items are printed in chunks that fit in the terminal below
// the tallest frame that may still be on screen, one chunk per print.

// frameWindow is how long a view is counted as possibly on screen after
// the next view replaced it (frames are drawn 30 times a second; the
// margin covers a busy machine).
const frameWindow = 500 * time.Millisecond

// printMargin is rows kept free for a view that grows between a chunk
// being cut and Bubble Tea printing it.
const printMargin = 2

// frameHeights remembers the heights of recent views, to bound the
// height of the frame Bubble Tea last drew. The queue is decreasing in
// height from the front, so the front is the tallest.
type frameHeights struct {
	q     []frameHeight
	first time.Time // when the first view was noted
}

type frameHeight struct {
	h     int
	until time.Time // when the next view replaced it; zero while current
}

// note records the height of a view handed to Bubble Tea at now.
func (f *frameHeights) note(h int, now time.Time) {
	if f.first.IsZero() {
		f.first = now
	}
	if n := len(f.q); n > 0 && f.q[n-1].until.IsZero() {
		f.q[n-1].until = now
	}
	for n := len(f.q); n > 0 && f.q[n-1].h <= h; n = len(f.q) {
		f.q = f.q[:n-1]
	}
	f.q = append(f.q, frameHeight{h: h})
}

// tallest is the height of the tallest view that may still be on screen.
func (f *frameHeights) tallest(now time.Time) int {
	for len(f.q) > 1 && !f.q[0].until.IsZero() && now.Sub(f.q[0].until) > frameWindow {
		f.q = f.q[1:]
	}
	if len(f.q) == 0 {
		return 0
	}
	return f.q[0].h
}

// starting reports whether Bubble Tea may not have drawn its first frame
// yet. Until it does, it counts a blank frame as tall as the terminal, so
// that every print lands at the top row: one print at a time then works
// (the frame drawn after it starts below it), while a second print
// would land on the first.
func (f *frameHeights) starting(now time.Time) bool {
	return f.first.IsZero() || now.Sub(f.first) <= frameWindow
}

// rows is how many terminal rows line takes at width w, counted as
// Bubble Tea counts them.
func rows(line string, w int) int {
	n := 1
	if lw := xansi.StringWidth(line); w > 0 && lw > w {
		n += lw / w
	}
	return n
}

// nextChunk takes from m.pending the lines that fit in limit rows (at
// least one line when ignoring the limit).
func (m *Model) nextChunk(limit int) string {
	used, n := 0, 0
	for n < len(m.pending) {
		r := rows(m.pending[n], m.width)
		if n > 0 && used+r > limit {
			break
		}
		used += r
		n++
	}
	chunk := strings.Join(m.pending[:n], "\n")
	m.pending = m.pending[n:]
	return chunk
}

// drawnInTurn reports whether the renderer has written to the terminal
// since the first turn started: it has drawn frames then, the streaming
// reply's among them, and the start-up case no longer holds however soon
// the turn ends (a fast model, a prompt given on the command line).
func (m *Model) drawnInTurn() bool {
	return m.frameLog != nil && m.writesAtTurn >= 0 && m.frameLog.count() > m.writesAtTurn
}

// printPending prints the pending lines: one chunk now, the next when it
// has reached the terminal (printedMsg). When quitting, the view is empty
// and stays so: every chunk is printed in sequence.
func (m *Model) printPending() tea.Cmd {
	if len(m.pending) == 0 {
		return nil
	}
	now := m.o.Now()
	m.View() // notes the height of the view about to be drawn
	// At least one line: the live area is at most a line shorter than the
	// terminal (View cuts it), so one line always fits above it.
	limit := max(1, m.height-m.frames.tallest(now)-printMargin)
	if m.frames.starting(now) && !m.drawnInTurn() {
		// Everything printed so far goes out in one piece (the welcome,
		// a resumed conversation).
		limit = 1 << 30
	}
	if m.quitting {
		var cmds []tea.Cmd
		for len(m.pending) > 0 {
			cmds = append(cmds, tea.Println(m.nextChunk(limit)))
		}
		m.printing = true
		return tea.Sequence(append(cmds, func() tea.Msg { return printedMsg{} })...)
	}
	m.printing = true
	return tea.Sequence(tea.Println(m.nextChunk(limit)), func() tea.Msg { return printedMsg{} })
}
