package tui

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

// Ctrl+K, Ctrl+U and Ctrl+W keep what they cut, and Ctrl+Y puts it back
// (Alt+Y right after swaps in the cut before), as in Claude Code's
// input; the cut text was lost.
func TestQA4CtrlYPastesWhatWasCut(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		want string
	}{
		{"ctrl+k then ctrl+y", []string{"text:keep this tail", "ctrl+a", "alt+f", "ctrl+k", "ctrl+a", "ctrl+y", "text: "}, " this tail keep"},
		{"ctrl+u then ctrl+y elsewhere", []string{"text:abc def", "ctrl+u", "text:x ", "ctrl+y"}, "x abc def"},
		{"ctrl+w then ctrl+y", []string{"text:one two", "ctrl+w", "ctrl+a", "ctrl+y"}, "twoone "},
		{"alt+y cycles to the older cut", []string{"text:first second", "ctrl+w", "ctrl+w", "ctrl+y", "alt+y"}, "second"},
		{"ctrl+y with nothing cut does nothing", []string{"text:abc", "ctrl+y"}, "abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEditor(nil)
			typeKeys(e, tc.keys...)
			if got := e.value(); got != tc.want {
				t.Fatalf("after %q the input is %q, want %q", tc.keys, got, tc.want)
			}
		})
	}
}

// Ctrl+_ undoes the last change to the input: a cut, a paste, a word
// typed. It did nothing.
func TestQA4CtrlUnderscoreUndoes(t *testing.T) {
	e := newEditor(nil)
	typeKeys(e, "text:hello brave new world")
	typeKeys(e, "ctrl+w")
	if got := e.value(); got != "hello brave new " {
		t.Fatalf("ctrl+w left %q", got)
	}
	typeKeys(e, "ctrl+_")
	if got := e.value(); got != "hello brave new world" {
		t.Fatalf("undo after ctrl+w gave %q, want the word back", got)
	}
	typeKeys(e, "ctrl+a", "ctrl+k", "ctrl+_")
	if got := e.value(); got != "hello brave new world" {
		t.Fatalf("undo after ctrl+k gave %q", got)
	}
	e.paste("PASTED")
	typeKeys(e, "ctrl+_")
	if got := e.value(); got != "hello brave new world" {
		t.Fatalf("undo after a paste gave %q", got)
	}
	// Typing is undone a word at a time, newest first.
	typeKeys(e, "ctrl+e", "_")
	typeKeys(e, "ctrl+_")
	typeKeys(e, "ctrl+_")
	if got := e.value(); got != "hello brave new" {
		t.Fatalf("two undos of typing gave %q, want %q", got, "hello brave new")
	}
	for range 10 {
		typeKeys(e, "ctrl+_")
	}
	if got := e.value(); got != "" {
		t.Fatalf("undoing everything left %q", got)
	}
}

// In a prompt that wraps, Up and Down move the cursor a drawn row,
// keeping its column; only on the first (last) row do they go through
// the history. Up on a long wrapped prompt replaced it with the previous
// prompt.
func TestQA4UpDownMoveThroughWrappedRows(t *testing.T) {
	st := newStyles(false)
	e := newEditor(&history{entries: []string{"older prompt"}})
	e.set("abcdefghijklmnopqrstuvwxyz")
	draw := func() (int, int) {
		_, row, col := e.view(&st, 12, 10, "")
		return row, col
	}
	// inner width 10: "abcdefghij" / "klmnopqrst" / "uvwxyz", cursor after z.
	if row, col := draw(); row != 2 || col != 8 {
		t.Fatalf("cursor at row %d col %d, want 2, 8", row, col)
	}
	typeKeys(e, "up")
	if row, col := draw(); row != 1 || col != 8 || e.value() != "abcdefghijklmnopqrstuvwxyz" {
		t.Fatalf("up: row %d col %d, input %q; want row 1 col 8 and the same input", row, col, e.value())
	}
	typeKeys(e, "up", "text:_")
	if got := e.value(); got != "abcdef_ghijklmnopqrstuvwxyz" {
		t.Fatalf("after a second up the insert went to %q", got)
	}
	draw()
	typeKeys(e, "down")
	typeKeys(e, "down", "text:!")
	if got := e.value(); got != "abcdef_ghijklmnopqrstuvwxyz!" {
		t.Fatalf("down twice then typing gave %q", got)
	}
	draw()
	typeKeys(e, "ctrl+a")
	draw()
	typeKeys(e, "up")
	if got := e.value(); got != "older prompt" {
		t.Fatalf("up on the first row gave %q, want the history entry", got)
	}
	typeKeys(e, "down")
	if got := e.value(); !strings.HasPrefix(got, "abcdef_") {
		t.Fatalf("down from the history entry gave %q, want the draft back", got)
	}
}

// A dialog choice too long for the terminal wraps under its own text,
// after the number; it wrapped to the number's column, so the next line
// read as a new choice.
func TestQA4LongDialogChoiceWrapsUnderItsText(t *testing.T) {
	st := newStyles(false)
	mn := &menu{items: []string{"Yes", "Yes, and don't ask again this session for Bash(touch /tmp/some/file *)"}}
	lines := strings.Split(mn.view(&st, 40), "\n")
	if len(lines) < 3 {
		t.Fatalf("the long choice did not wrap:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines[2:] {
		if !strings.HasPrefix(l, "     ") || strings.TrimSpace(l) == "" {
			t.Fatalf("a wrapped line is not indented under the choice's text: %q\n%s", l, strings.Join(lines, "\n"))
		}
	}
}

// Backspace right after a paste placeholder removes it whole (Ctrl+_
// brings it back); it took one character, and the broken placeholder
// was sent as text in place of the paste.
func TestQA4BackspaceRemovesAPastePlaceholderWhole(t *testing.T) {
	e := newEditor(nil)
	typeKeys(e, "text:see ")
	e.paste(strings.Repeat("log line\n", 30))
	if got := e.value(); got != "see [Pasted text #1 +30 lines]" {
		t.Fatalf("paste gave %q", got)
	}
	typeKeys(e, "backspace")
	if got := e.value(); got != "see " {
		t.Fatalf("backspace after the placeholder left %q, want it gone whole", got)
	}
	typeKeys(e, "ctrl+_")
	if got := e.expanded(); !strings.Contains(got, "log line\nlog line") {
		t.Fatalf("undo did not bring the paste back: %q", got)
	}
	// Text that only looks like a placeholder is edited as text.
	e = newEditor(nil)
	e.set("[Pasted text #7 +3 lines]")
	typeKeys(e, "backspace")
	if got := e.value(); got != "[Pasted text #7 +3 lines" {
		t.Fatalf("backspace after typed brackets gave %q", got)
	}
}

// A picker's descriptions line up in one column (the /model list read
// "opus  claude-opus-…" and "sonnet  claude-sonnet-…" out of line).
func TestQA4PickerDescriptionsLineUp(t *testing.T) {
	m := &Model{st: newStyles(false), height: 30}
	p := newPicker("Model", []pickItem{{"opus", "claude-opus-5-5"}, {"sonnet", "claude-sonnet-4-5"}, {"default", "claude-opus-5-5"}}, nil)
	out := p.view(m, 60)
	cols := map[int]bool{}
	for _, l := range strings.Split(xansi.Strip(out), "\n") {
		if i := strings.Index(l, "claude-"); i >= 0 {
			cols[len([]rune(l[:i]))] = true
		}
	}
	if len(cols) != 1 {
		t.Fatalf("descriptions start in %d columns:\n%s", len(cols), out)
	}
}
