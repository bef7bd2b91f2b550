package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"reins/internal/engine"
	"reins/internal/llm/llmtest"
)

// The renderer's erase below is sent as a delete of the lines below, so
// that tmux and other terminals do not take an erase from the top left
// corner for a clear screen and push the screen into the scrollback.
func TestQA11EraseBelowIsSentAsDeleteLines(t *testing.T) {
	var b bytes.Buffer
	w := programOutput(&b, nil)
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
	tf, ok := programOutput(f, nil).(term.File)
	if !ok {
		t.Fatal("a file output is no longer a term.File")
	}
	if tf.Fd() != f.Fd() {
		t.Fatalf("Fd = %d, want %d", tf.Fd(), f.Fd())
	}
}

// A command's colours stay in what the screen shows, each line closing
// what it leaves open and the next line opening it again; cursor moves,
// clears, titles, blinking and private sequences go.
func TestQA11ScreenTextKeepsColours(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x1b[31mred\x1b[0m plain", "\x1b[31mred\x1b[0m plain"},
		{"\x1b[1;32mok\x1b[m", "\x1b[1;32mok\x1b[m"},
		{"\x1b[38;5;196mx\x1b[0m \x1b[48;2;1;2;3my\x1b[0m", "\x1b[38;5;196mx\x1b[0m \x1b[48;2;1;2;3my\x1b[0m"},
		{"\x1b[32mone\ntwo\x1b[0m", "\x1b[32mone\x1b[0m\n\x1b[32mtwo\x1b[0m"},
		{"\x1b[31mopen at the end", "\x1b[31mopen at the end\x1b[0m"},
		{"a\x1b[2Jb\x1b[Hc\x1b[1Ad", "abcd"},
		{"\x1b]0;title\x07t\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tlink"},
		{"\x1b[5;31mblink\x1b[0m", "\x1b[31mblink\x1b[0m"},
		{"\x1b[8mhidden\x1b[0m", "hidden\x1b[0m"},
		{"\x1b[?25lcursor\x1b[?25h", "cursor"},
		{"\x1b[4:3mcurly\x1b[0m", "\x1b[4:3mcurly\x1b[0m"},
		{"progress 10%\rprogress 100%\n", "progress 100%\n"},
		{"bell\a tab\t\x1b", "bell tab\t"},
		{"\x1b[0;33mwarn\x1b[0m\nnext", "\x1b[0;33mwarn\x1b[0m\nnext"},
	} {
		if got := screenText(c.in); got != c.want {
			t.Errorf("screenText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzScreenText checks that what screenText keeps of any output is
// text, newlines, tabs and SGR sequences only, and that no line leaves
// attributes on for the next.
func FuzzScreenText(f *testing.F) {
	f.Add("\x1b[31mred\x1b[0m plain\r\nbar 10%\rbar 90%")
	f.Add("\x1b[38;5;1;2mx\ny\x1b]0;t\x07\x1b[2J\x1bP+q\x1b\\")
	f.Add("\x1b[\x1b[1m\x9b31m")
	f.Fuzz(func(t *testing.T, s string) {
		out := screenText(s)
		for _, line := range strings.Split(out, "\n") {
			rest := line
			for {
				i := strings.IndexByte(rest, 0x1b)
				if i < 0 {
					break
				}
				rest = rest[i:]
				end := strings.IndexByte(rest, 'm')
				if end < 0 || !strings.HasPrefix(rest, "\x1b[") || strings.Trim(rest[2:end], "0123456789;:") != "" {
					t.Fatalf("non-SGR sequence kept in %q (from %q)", line, s)
				}
				rest = rest[end+1:]
			}
			for _, r := range xansi.Strip(line) {
				if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
					t.Fatalf("control character %U kept in %q", r, line)
				}
			}
			if i := strings.LastIndex(line, "\x1b["); i >= 0 {
				if last := line[i:][:strings.IndexByte(line[i:], 'm')+1]; strings.Trim(last[2:len(last)-1], "0;") != "" {
					t.Fatalf("line %q leaves attributes on (its last SGR is %q; from %q)", line, last, s)
				}
			}
		}
		if plain := plainText(s); strings.ContainsRune(plain, 0x1b) {
			t.Fatalf("plainText kept an escape: %q", plain)
		}
	})
}

// A short paste that starts the input is a prompt even when it starts
// with "!": a pasted "!touch file" (a line copied from a chat or a
// shell history) is not run in the shell, and the footer does not
// announce bash mode for it. Only a collapsed paste was a prompt; a short
// one was taken as typed. A "!" typed before a paste keeps its meaning.
func TestQA11ShortPasteAtTheStartIsAPrompt(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("one"), llmtest.Reply("two")}, harnessOpts{})
	var cwd string
	h.do(func(m *Model) { cwd = m.o.Cwd })
	for i, paste := range []string{"!touch pasted-ran.txt", "!!! touch pasted-ran.txt !!!"} {
		h.tm.Send(tea.PasteMsg{Content: paste})
		h.check("the paste in the input", func(m *Model) bool { return m.ed.value() == paste })
		var footer string
		h.do(func(m *Model) { footer = stripANSI(m.footer(100)) })
		if strings.Contains(footer, "bash mode") {
			t.Fatalf("footer for a pasted %q: %q", paste, footer)
		}
		h.key("enter")
		if got := strings.TrimSpace(h.requests(i + 1)[i].LastUserText()); got != paste {
			t.Fatalf("prompt %d = %q, want the paste", i+1, got)
		}
		h.check("turn over", func(m *Model) bool { return !m.running })
	}
	if _, err := os.Stat(filepath.Join(cwd, "pasted-ran.txt")); !os.IsNotExist(err) {
		t.Fatalf("the pasted command ran (err %v)", err)
	}
	h.typeText("!")
	h.tm.Send(tea.PasteMsg{Content: "echo typed-bang"})
	h.check("the input", func(m *Model) bool { return m.ed.value() == "!echo typed-bang" })
	h.key("enter")
	h.waitFor("typed-bang")
	h.check("a shell run", func(m *Model) bool {
		for _, it := range m.conv.items {
			if it.kind == kShell {
				return true
			}
		}
		return false
	})
}

// The permission dialog of an edit asks about the file, as Claude Code
// does: "Do you want to make this edit to main.go?" for an edit or an
// existing file written over, "Do you want to create notes.md?" (under a
// "Create file" title) for a new one. Every call asked "Do you want to
// proceed?".
func TestQA11EditDialogsAskAboutTheFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "main.go")
	if err := os.WriteFile(existing, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool  string
		input string
		want  string
	}{
		{"Edit", `{"file_path":"` + existing + `","old_string":"a","new_string":"b"}`, "Do you want to make this edit to main.go?"},
		{"Write", `{"file_path":"` + existing + `","content":"x"}`, "Do you want to make this edit to main.go?"},
		{"Write", `{"file_path":"` + filepath.Join(dir, "notes.md") + `","content":"x"}`, "Do you want to create notes.md?"},
		{"Bash", `{"command":"make"}`, "Do you want to proceed?"},
	} {
		q := engine.Question{ToolName: c.tool, Input: json.RawMessage(c.input)}
		if got := permissionQuestion(q); got != c.want {
			t.Errorf("%s %s: question %q, want %q", c.tool, c.input, got, c.want)
		}
	}
	h := newHarness(t, nil, harnessOpts{})
	var title string
	h.do(func(m *Model) {
		title, _ = permissionPreview(m, engine.Question{ToolName: "Write", Input: json.RawMessage(`{"file_path":"` + filepath.Join(dir, "new.txt") + `","content":"x"}`)}, 10)
	})
	if title != "Create file" {
		t.Fatalf("title for a new file = %q, want Create file", title)
	}
}

// A statusLine command's colours are shown, as Claude Code documents
// ("ANSI color codes are supported"), and its other escape sequences
// are not; with NO_COLOR the line is plain. Every escape was removed.
func TestQA11StatusLineKeepsItsColours(t *testing.T) {
	line, err := runStatusLine(t.Context(), `printf '\033[2J\033[32mmain\033[0m \033]0;t\007| \033[1;34mopus\033[0m\nsecond line\n'`, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[32mmain\x1b[0m | \x1b[1;34mopus\x1b[0m"; line != want {
		t.Fatalf("status line %q, want %q", line, want)
	}
	h := newHarness(t, nil, harnessOpts{}) // NoColor
	var footer string
	h.do(func(m *Model) {
		m.statusText = line
		footer = m.footer(80)
	})
	if footer != "  main | opus" {
		t.Fatalf("footer without colours = %q", footer)
	}
}

// fakeClipboard puts an xclip on PATH that prints data (nothing when
// data is nil), for clipboardImage.
func fakeClipboard(t *testing.T, data []byte) {
	t.Helper()
	dir := t.TempDir()
	img := filepath.Join(dir, "clip.bin")
	if err := os.WriteFile(img, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncat " + img + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xclip"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Ctrl+V pastes the clipboard's image as an "[Image #N]" placeholder,
// as in Claude Code, and the image goes with the prompt; with no image
// in the clipboard a hint says so. reins had no such key.
func TestQA11CtrlVPastesTheClipboardImage(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")
	fakeClipboard(t, png)
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("a tiny image")}, harnessOpts{opts: func(o *Options) {
		o.Getenv = func(string) string { return "" } // no Wayland: xclip
	}})
	h.typeText("what is in")
	h.key("ctrl+v")
	h.check("the placeholder", func(m *Model) bool { return m.ed.value() == "what is in [Image #1] " })
	h.key("enter")
	r := h.requests(1)[0]
	last := r.Messages[len(r.Messages)-1]
	var images int
	for _, c := range last.Content {
		if c.Type == "image" {
			images++
		}
	}
	if images != 1 {
		t.Fatalf("the prompt carries %d images, want 1: %+v", images, last.Content)
	}
	h.waitFor("a tiny image")

	fakeClipboard(t, []byte("just some text"))
	h.key("ctrl+v")
	h.check("the hint", func(m *Model) bool {
		return strings.Contains(m.hint, "No image found in the clipboard") && m.ed.value() == ""
	})
}

// Ctrl+L clears the input and redraws, as in Claude Code ("Clear prompt
// input and redraw screen"); the text goes into the history, so up
// brings it back. It only redrew.
func TestQA11CtrlLClearsTheInput(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("a draft to drop")
	h.check("typed", func(m *Model) bool { return m.ed.value() == "a draft to drop" })
	h.key("ctrl+l")
	h.check("the input cleared", func(m *Model) bool { return m.ed.value() == "" })
	h.key("up")
	h.check("the draft back from the history", func(m *Model) bool { return m.ed.value() == "a draft to drop" })
}

// A narrowing is measured on the frame the terminal shows, not on the
// view last handed to Bubble Tea, which draws on a timer: while text
// streams in, the view handed over was often a row longer than the one
// on screen, and the cursor moved up by the rows of a frame never drawn.
// The output marks the view handed over as shown when it writes.
func TestQA11NarrowingIsMeasuredOnTheFrameOnScreen(t *testing.T) {
	m := &Model{width: 100, height: 40, sized: true, frameLog: &frameLog{}}
	var b bytes.Buffer
	out := programOutput(&b, m.frameLog)
	full := strings.Repeat("x", 100)
	cur := tea.NewCursor(2, 2)
	m.noteFrame(full+"\n"+full+"\n> input\nstatus", cur, false)
	out.Write([]byte("frame one"))
	rowsAt50 := func() int { f := m.onScreen(); return f.rewrapRows(50) }
	if n := rowsAt50(); n != 2 {
		t.Fatalf("rows added above the cursor on screen = %d, want 2", n)
	}
	// A view with a third full row is handed over, not yet drawn.
	cur = tea.NewCursor(2, 3)
	m.noteFrame(full+"\n"+full+"\n"+full+"\n> input\nstatus", cur, false)
	if n := rowsAt50(); n != 2 {
		t.Fatalf("before it is drawn: %d rows, want the 2 of the frame on screen", n)
	}
	out.Write([]byte("frame two"))
	if n := rowsAt50(); n != 3 {
		t.Fatalf("once drawn: %d rows, want 3", n)
	}
}

// A turn stopped with esc says "Interrupted · What should reins do
// instead?", as Claude Code asks "What should Claude do instead?".
func TestQA11InterruptedTurnAsksWhatToDoInstead(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("slow words ", 200))}, Delay: llmtest.Duration(50 * time.Millisecond)}}, harnessOpts{})
	h.typeText("talk slowly")
	h.key("enter")
	h.check("the turn running", func(m *Model) bool { return m.running })
	h.key("esc")
	h.waitFor("Interrupted · What should reins do instead?")
}
