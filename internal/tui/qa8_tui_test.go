package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// Esc with messages queued during a turn takes them back into the input
// and leaves the turn running, as Claude Code does (2.1.0: "Esc key with
// queued prompts only moves them to input without canceling the running
// task"). It used to interrupt the turn and then send the queued
// messages on their own, so the esc meant to stop reins started another
// turn. The next esc interrupts; nothing is sent until enter.
func TestEscWithQueuedMessagesTakesThemBackAndLeavesTheTurnRunning(t *testing.T) {
	stall := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("working on it")}, Fault: &llmtest.Fault{Stall: true, After: 3}}
	h := newHarness(t, []llmtest.Turn{stall, llmtest.Reply("answered both")}, harnessOpts{})
	h.typeText("first")
	h.key("enter")
	h.requests(1)
	h.typeText("second thought")
	h.key("enter")
	h.typeText("third thought")
	h.key("enter")
	h.waitFor("second thought  (queued)", "third thought  (queued)")
	h.key("esc")
	h.check("the queued messages back in the input, the turn still running", func(m *Model) bool {
		return m.running && len(m.queued) == 0 && m.ed.value() == "second thought\nthird thought"
	})
	h.waitFor("esc again interrupts")
	h.key("esc")
	h.check("the turn interrupted, the input kept", func(m *Model) bool {
		return !m.running && m.ed.value() == "second thought\nthird thought"
	})
	if n := len(h.srv.Requests()); n != 1 {
		t.Fatalf("%d requests after the interrupt, want 1 (the queued messages must wait for enter)", n)
	}
	h.key("enter")
	h.waitFor("answered both")
	last := h.requests(2)[1].LastUserText()
	if !strings.Contains(last, "second thought\nthird thought") {
		t.Fatalf("last request's user text = %q, want the two messages", last)
	}
}

// With a dialog open the cursor rests at the start of the last row, so a
// narrowing knows how many rewrapped rows are above it: hidden, it was
// wherever the renderer last wrote, the frame was noted without one, and
// the rows the terminal rewrapped stayed on screen above the redrawn
// dialog.
func TestDialogFrameKeepsTheCursorOnItsLastRowForANarrowing(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"})),
		llmtest.Reply("ok"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}})
	h.typeText("edit a")
	h.key("enter")
	h.waitFor("Do you want to make this edit to a.go?")
	var (
		cursor     *tea.Cursor
		rows, wide int
		moved      int
	)
	h.do(func(m *Model) {
		v := m.View()
		cursor, rows = v.Cursor, strings.Count(v.Content, "\n")
		for _, w := range m.drawn.rows[:rows] {
			if w > 40 {
				wide += (w+39)/40 - 1
			}
		}
		moved = m.drawn.rewrapRows(40)
	})
	if cursor == nil || cursor.X != 0 || cursor.Y != rows {
		t.Fatalf("cursor %+v, want column 0 of the last row (%d)", cursor, rows)
	}
	if wide == 0 {
		t.Fatal("no row of the dialog is wider than 40 columns; the test needs one")
	}
	if moved != wide {
		t.Fatalf("narrowing to 40 columns moves up %d rows, want %d", moved, wide)
	}
	h.key("enter")
	h.waitFor("ok")
}

// @ completion walks into folders, a folder with a space in its name
// too: completing one left the folder itself first in the menu, so tab
// put in the same text again, and a folder with a space was closed with
// a quote and a space, so the menu could not go on into it at all.
func TestMentionCompletionWalksIntoFoldersWithSpaces(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	var cwd string
	h.do(func(m *Model) { cwd = m.o.Cwd })
	if err := os.MkdirAll(filepath.Join(cwd, "sub dir", "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "sub dir", "inner", "my file.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.typeText("look at @sub")
	h.waitFor("sub dir/inner/my file.txt")
	steps := []string{`look at @"sub dir/`, `look at @"sub dir/inner/`, `look at @"sub dir/inner/my file.txt" `}
	for _, want := range steps {
		h.key("tab")
		h.check(fmt.Sprintf("the input holding %q", want), func(m *Model) bool { return m.ed.value() == want })
	}
	h.check("the menu closed after the file", func(m *Model) bool { return m.comp == nil })
	// Typing on inside the open quote narrows the menu to the folder.
	h.key("ctrl+u")
	h.typeText(`see @"sub dir/inner/my`)
	h.check("the menu offering the file", func(m *Model) bool {
		return m.comp != nil && len(m.comp.items) > 0 && m.comp.items[0].label == "sub dir/inner/my file.txt"
	})
}

// The editor reads an open quoted mention as one word, and a closed one
// as finished.
func TestTokenReadsAnOpenQuotedMention(t *testing.T) {
	for text, want := range map[string]string{
		`see @"sub dir/in`:   `@"sub dir/in`,
		`see @"a b" next`:    `next`,
		`say "hi there`:      `there`,
		"x\n@\"a b":          `@"a b`,
		`@"only one`:         `@"only one`,
		`mail@"odd thing`:    `thing`,
		`see @"a b" @"c d/e`: `@"c d/e`,
	} {
		e := newEditor(nil)
		e.set(text)
		if _, got := e.token(); got != want {
			t.Errorf("token of %q = %q, want %q", text, got, want)
		}
	}
}

// /add-dir hands the session an absolute, existing folder: a relative
// path is read from the working folder, and a file or a missing path is
// refused with what is wrong.
func TestAddDirResolvesAndChecksTheFolder(t *testing.T) {
	var added []string
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) {
		o.AddDir = func(d string) error { added = append(added, d); return nil }
	}})
	var cwd string
	h.do(func(m *Model) { cwd = m.o.Cwd })
	if err := os.MkdirAll(filepath.Join(cwd, "lib", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "file.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.typeText("/add-dir file.txt")
	h.key("enter")
	h.waitFor("it is not a folder")
	h.typeText("/add-dir nope")
	h.key("enter")
	h.waitFor("nope: no such folder")
	h.typeText("/add-dir lib/x/../x")
	h.key("enter")
	h.waitFor("as a working folder")
	var got []string
	h.do(func(m *Model) { got = append(got, added...) })
	if want := filepath.Join(cwd, "lib", "x"); len(got) != 1 || got[0] != want {
		t.Fatalf("added %q, want [%q]", got, want)
	}
}

// The spinner counts the turn's output tokens, as Claude Code's does
// ("↓ 1.2k tokens"): those of the responses so far, and an estimate of
// the text streaming in. It showed only the elapsed time.
func TestSpinnerShowsTheTurnsOutputTokens(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	first := llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{}))
	first.Usage = &llmtest.UsageSpec{InputTokens: 10, OutputTokens: 1234}
	h := newHarness(t, []llmtest.Turn{first, llmtest.Reply("done")}, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("go")
	h.key("enter")
	<-slow.started
	h.waitFor("↓ 1.2k tokens · esc to interrupt")
	close(slow.release)
	h.waitFor("done")
	if got := tokenCount(950); got != "950" {
		t.Errorf("tokenCount(950) = %q", got)
	}
}

// The notes under a prompt count the lines attached for each file, say
// when a file was cut short, and name each folder listed.
func TestAttachedNotes(t *testing.T) {
	m := &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.TextBlock("look at @a.go @big.txt @src"),
		llm.TextBlock("<file path=\"a.go\">\npackage a\n\nfunc A() {}\n</file>"),
		llm.TextBlock("<file path=\"big.txt\">\nx\ny\n[truncated: the first 4 of 90000 bytes are shown]\n</file>"),
		llm.TextBlock("<file path=\"empty.txt\">\n</file>"),
		llm.TextBlock("<folder path=\"src\">\npkg/\n</folder>"),
		llm.TextBlock("<system-reminder>\nnot a mention\n</system-reminder>"),
	}}
	want := []string{"Read a.go (3 lines)", "Read big.txt (2 lines, truncated)", "Read empty.txt (0 lines)", "Listed directory src/"}
	if got := attachedNotes(m); !slices.Equal(got, want) {
		t.Fatalf("notes = %q, want %q", got, want)
	}
}

// fakeTodos is a "TodoWrite" tool that accepts the list.
type fakeTodos struct{ tool.Defaults }

func (fakeTodos) Name() string                    { return "TodoWrite" }
func (fakeTodos) Description() string             { return "writes todos" }
func (fakeTodos) InputSchema() json.RawMessage    { return json.RawMessage(`{"type":"object"}`) }
func (fakeTodos) IsReadOnly(json.RawMessage) bool { return true }
func (fakeTodos) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return tool.Text("Todos have been modified successfully"), nil
}

// Ctrl+T shows the todo list under the spinner while reins works, and
// hides it again, as Claude Code's Ctrl+T does; the spinner says so.
// The list was only printed once, where TodoWrite ran, and scrolled away.
func TestCtrlTShowsTheTodoListUnderTheSpinner(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	todos := map[string]any{"todos": []map[string]any{
		{"content": "Run the tests", "activeForm": "Running the tests", "status": "in_progress"},
		{"content": "Fix the bug", "activeForm": "Fixing the bug", "status": "pending"},
	}}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "TodoWrite", todos)),
		llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})),
		llmtest.Reply("done"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeTodos{}, slow}})
	h.key("ctrl+t")
	h.waitFor("No todos yet")
	h.typeText("go")
	h.key("enter")
	<-slow.started
	view := func(wants ...string) func(m *Model) bool {
		return func(m *Model) bool {
			v := stripANSI(m.View().Content)
			for _, w := range wants {
				if !strings.Contains(v, w) {
					return false
				}
			}
			return true
		}
	}
	h.check("the spinner offering the list", view("Running the tests…", "esc to interrupt · ctrl+t to show todos"))
	h.key("ctrl+t")
	h.check("the list under the spinner", view("ctrl+t to hide todos", "\n  ⎿  ☐ Run the tests\n     ☐ Fix the bug\n"))
	h.key("ctrl+t")
	h.check("the list hidden again", func(m *Model) bool { return !m.showTodos && m.todoPanel(80) == "" })
	close(slow.release)
	h.waitFor("done")
}

// Alt+P opens the model picker and keeps what is typed, as Claude
// Code's Option+P / Alt+P does; it did nothing.
func TestAltPOpensTheModelPickerKeepingTheInput(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("half a thought")
	h.key("alt+p")
	h.waitFor("Model (now ")
	h.key("down")
	h.key("enter")
	h.waitFor("Model set to ")
	h.check("the input kept", func(m *Model) bool { return m.dialog == nil && m.ed.value() == "half a thought" })
}

// /terminal-setup says how to type a new line: in VS Code's terminal
// the keybinding that makes Shift+Enter send backslash and Enter (which
// the editor takes as a new line); reins had no such command.
func TestTerminalSetupExplainsShiftEnter(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) {
		o.Getenv = func(k string) string {
			if k == "TERM_PROGRAM" {
				return "vscode"
			}
			return ""
		}
	}})
	h.typeText("/terminal-setup")
	h.key("enter")
	h.waitFor(`"key": "shift+enter"`, `"args": {"text": "\\\r"}`, "Alt+Enter and Ctrl+J")
	// What the keybinding sends is a new line in the editor.
	e := newEditor(nil)
	typeKeys(e, `text:first\`, "enter", "text:second")
	if e.value() != "first\nsecond" {
		t.Fatalf("backslash and enter gave %q", e.value())
	}
}

// A "!" command stopped with esc says it was stopped, without the
// "exit status -1" of the kill under it.
func TestStoppedShellCommandShowsNoKillStatus(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("!echo begun; sleep 30")
	h.key("enter")
	h.check("the command running", func(m *Model) bool { return m.running })
	h.key("esc")
	h.waitFor("(stopped: interrupted by the user)")
	h.check("the command over", func(m *Model) bool { return !m.running })
	var text string
	h.do(func(m *Model) {
		for _, it := range m.conv.items {
			if it.kind == kShell {
				text = it.text
			}
		}
	})
	if strings.Contains(text, "exit status") || !strings.Contains(text, "stopped: interrupted by the user") {
		t.Fatalf("the stopped command shows:\n%s", text)
	}
}

// A "!" run's two messages make one item in a loaded history: the
// command with its stdout and stderr under it.
func TestHistoryItemsJoinAShellRunAndItsOutput(t *testing.T) {
	h := []engine.HistoryItem{
		{UUID: "u1", Message: llm.NewUserText("<bash-input>ls</bash-input>")},
		{UUID: "u2", Message: llm.NewUserText("<bash-stdout>a.txt\n</bash-stdout><bash-stderr>warn</bash-stderr>")},
		{UUID: "u3", Message: llm.NewUserText("next")},
	}
	items := historyItems(h)
	if len(items) != 2 || items[0].kind != kShell || items[0].text != "! ls\na.txt\nwarn" || items[0].uuid != "u1" || items[1].text != "next" {
		for _, it := range items {
			t.Logf("%d %q", it.kind, it.text)
		}
		t.Fatal("want the run as one shell item, then the prompt")
	}
}

// Esc twice clears the input into the history, as Claude Code's docs
// say, so up brings a draft cleared by a stray double press back; it was
// lost.
func TestEscEscClearsTheInputIntoTheHistory(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("a long draft I want back")
	h.key("esc")
	h.key("esc")
	h.check("the input cleared", func(m *Model) bool { return m.ed.empty() })
	h.key("up")
	h.check("the draft back", func(m *Model) bool { return m.ed.value() == "a long draft I want back" })
}
