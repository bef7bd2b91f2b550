package tui

import (
	"bytes"
	"os"
	"testing"

	"github.com/charmbracelet/x/term"
)

// The renderer's erase below is sent as a delete of the lines below, so
// that tmux and other terminals do not take an erase from the top left
// corner for a clear screen and push the screen into the scrollback.
func TestQA11EraseBelowIsSentAsDeleteLines(t *testing.T) {
	var b bytes.Buffer
	w := programOutput(&b)
	in := "\r\x1b[2A\x1b[Jframe\r\n\x1b[J"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if got, want := b.String(), "\r\x1b[2A\x1b[9999Mframe\r\n\x1b[9999M"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
	b.Reset()
	w.Write([]byte("\x1b[2Jplain\x1b[K"))
	if got := b.String(); got != "\x1b[2Jplain\x1b[K" {
		t.Fatalf("other sequences changed: %q", got)
	}
}

// A terminal stays a terminal behind the erase filter: Bubble Tea reads
// its size through the file descriptor.
func TestQA11TerminalOutputKeepsItsDescriptor(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tf, ok := programOutput(f).(term.File)
	if !ok {
		t.Fatal("a file output is no longer a term.File")
	}
	if tf.Fd() != f.Fd() {
		t.Fatalf("Fd = %d, want %d", tf.Fd(), f.Fd())
	}
}
