package tui

import (
	"bytes"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
)

// Erasing the live area without clearing the screen.
//
// Bubble Tea redraws the whole live area after a resize (and when its
// height changes): it moves to the area's first row, at column 0, and
// erases everything below with ED ("CSI J"). tmux (scroll-on-clear, on by
// default) and some other terminals take an erase that starts at the top
// left corner for a clear screen and first push the whole screen into the
// scrollback. When the live area sits on the top row (a short session in
// a fresh or cleared terminal, or after a narrowing pushed the rows above
// it out), every resize left a copy of the old input box and status line
// in the scrollback, and the conversation printed so far went with it.
//
// So the erase is sent as DL ("CSI n M", delete lines) with a count that
// reaches the bottom of any screen: at column 0 it blanks the same rows,
// and no terminal counts it as a clear. The renderer only ever erases
// from column 0 in the main screen (it moves to the start of a row
// first); the alternate screen has no scrollback.

// eraseBelow is the sequence the renderer erases with; deleteBelow is
// what is sent instead.
var (
	eraseBelow  = []byte("\x1b[J")
	deleteBelow = []byte("\x1b[9999M")
)

// replaceErase returns p with every erase-below sequence replaced.
func replaceErase(p []byte) []byte {
	if !bytes.Contains(p, eraseBelow) {
		return p
	}
	return bytes.ReplaceAll(p, eraseBelow, deleteBelow)
}

// eraseWriter is the program's output with erases replaced. It marks
// each write in frames (see frameLog), when set.
type eraseWriter struct {
	w      io.Writer
	frames *frameLog
}

// Write writes p with its erases replaced, reporting p's length.
func (e *eraseWriter) Write(p []byte) (int, error) {
	if _, err := e.w.Write(replaceErase(p)); err != nil {
		return 0, err
	}
	if e.frames != nil {
		e.frames.written()
	}
	return len(p), nil
}

// eraseTerminal is eraseWriter for a terminal: Bubble Tea reads its size
// and modes through the file.
type eraseTerminal struct {
	eraseWriter
	f term.File
}

// Read reads from the terminal.
func (e *eraseTerminal) Read(p []byte) (int, error) { return e.f.Read(p) }

// Close closes the terminal.
func (e *eraseTerminal) Close() error { return e.f.Close() }

// Fd is the terminal's file descriptor.
func (e *eraseTerminal) Fd() uintptr { return e.f.Fd() }

// programOutput wraps out (nil: standard output) so that the renderer's
// erases do not clear the screen, marking its writes in frames (nil: not
// marked).
func programOutput(out io.Writer, frames *frameLog) io.Writer {
	if out == nil {
		out = os.Stdout
	}
	if f, ok := out.(term.File); ok {
		return &eraseTerminal{eraseWriter: eraseWriter{w: f, frames: frames}, f: f}
	}
	return &eraseWriter{w: out, frames: frames}
}
