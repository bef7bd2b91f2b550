package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// noisyTool returns output as a terminal program writes it: colours, a
// progress bar redrawn with carriage returns, a clear-screen sequence
// and a window-title escape.
type noisyTool struct{ tool.Defaults }

const noisyOutput = "\x1b[31mred\x1b[0m normal\r\nprogress 10%\rprogress 50%\rprogress 100%\n\x1b[2J\x1b[Hafter clear\x1b]0;title\x07\nend\r\n"

func (noisyTool) Name() string                    { return "Noisy" }
func (noisyTool) Description() string             { return "prints like a terminal program" }
func (noisyTool) InputSchema() json.RawMessage    { return json.RawMessage(`{"type":"object"}`) }
func (noisyTool) IsReadOnly(json.RawMessage) bool { return true }
func (noisyTool) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return tool.Text(noisyOutput), nil
}

// A tool's output is printed as a terminal would have left it: a
// progress bar redrawn with carriage returns shows its last state, and
// escape sequences (cursor moves, clear screen, colours, titles) are
// removed. The carriage returns went to the terminal raw, so the bar
// was drawn over the result's indent at the left edge ("progress 100%
// 10%" in the transcript view), and a clear-screen in the output would
// have cleared the conversation.
func TestQA10ToolOutputWithCarriageReturnsAndEscapesPrintsCleanly(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("n1", "Noisy", map[string]any{})),
		llmtest.Reply("done"),
	}, harnessOpts{tools: []tool.Tool{noisyTool{}}})
	h.typeText("run it")
	h.key("enter")
	h.waitFor("done")
	var short, full string
	h.do(func(m *Model) {
		for _, it := range m.conv.items {
			if it.kind == kTool {
				short, full = m.r.item(it, 80, false), m.r.item(it, 80, true)
			}
		}
	})
	for _, s := range []string{short, full} {
		for _, bad := range []string{"\r", "\x07", "\x1b[2J", "\x1b[H", "\x1b]0", "\x1b[31m"} {
			if strings.Contains(s, bad) {
				t.Fatalf("%q reaches the terminal: %q", bad, s)
			}
		}
		want := "⎿  red normal\n     progress 100%\n     after clear"
		if !strings.Contains(s, want) {
			t.Fatalf("result = %q, want it to hold %q", s, want)
		}
	}
	if !strings.HasSuffix(full, "after clear\n     end") {
		t.Fatalf("full result = %q", full)
	}
}

// A "!" command's output keeps the last state of a line redrawn with
// carriage returns, for the screen and for the model, instead of the
// run-together "progress 10%progress 100%".
func TestQA10ShellOutputKeepsTheLastRedrawOfALine(t *testing.T) {
	out, _, _ := runBash(context.Background(), `printf 'progress 10%%\rprogress 100%%\nnext\n'`, t.TempDir())
	if out != "progress 100%\nnext\n" {
		t.Fatalf("output = %q", out)
	}
}

// In Ctrl+R search, as Claude Code's docs describe it, esc takes the
// match into the input to edit (it left the search and dropped the
// match), enter takes it and sends it (it only took it into the input),
// and backspace on an empty search leaves the search (it did nothing).
func TestQA10CtrlRKeysFollowClaudeCode(t *testing.T) {
	e := newEditor(&history{entries: []string{"make test", "git status"}})
	typeKeys(e, "text:draft", "ctrl+r", "text:make", "esc")
	if e.search != nil || e.value() != "make test" {
		t.Fatalf("esc: value %q, search %v; want the match taken to edit", e.value(), e.search)
	}
	e.reset()
	typeKeys(e, "text:draft", "ctrl+r", "text:m", "backspace", "backspace")
	if e.search != nil || e.value() != "draft" {
		t.Fatalf("backspace on an empty search: value %q, search %v; want the search left, the draft kept", e.value(), e.search)
	}
	e.reset()
	typeKeys(e, "text:draft", "ctrl+r", "text:git")
	if res := e.key(keyMsg("ctrl+c")); e.search != nil || e.value() != "draft" || res == editSubmit {
		t.Fatalf("ctrl+c: value %q, search %v", e.value(), e.search)
	}
	typeKeys(e, "ctrl+r", "text:git")
	if res := e.key(keyMsg("enter")); res != editSubmit || e.value() != "git status" {
		t.Fatalf("enter: result %v, value %q; want the match sent", res, e.value())
	}
}

// Enter on a Ctrl+R match sends that prompt to the model.
func TestQA10CtrlREnterSendsTheMatch(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("one"), llmtest.Reply("two")}, harnessOpts{})
	h.typeText("deploy the staging build")
	h.key("enter")
	h.check("turn over", func(m *Model) bool { return !m.running && len(h.srv.Requests()) == 1 })
	h.key("ctrl+r")
	h.typeText("stag")
	h.check("a match", func(m *Model) bool { return m.ed.search != nil && m.ed.search.match >= 0 })
	h.key("enter")
	if got := strings.TrimSpace(h.requests(2)[1].LastUserText()); got != "deploy the staging build" {
		t.Fatalf("second prompt = %q", got)
	}
}

// A search typed past what any entry holds shows no match, and esc then
// leaves the input as it was; it kept showing (and took) the entry found
// for the shorter query, which does not hold the text searched for.
func TestQA10CtrlRTypedPastTheMatchHasNone(t *testing.T) {
	e := newEditor(&history{entries: []string{"make test", "git status"}})
	typeKeys(e, "text:draft", "ctrl+r", "text:mak")
	if e.search.match != 0 {
		t.Fatalf("match for %q = %d", e.search.query, e.search.match)
	}
	typeKeys(e, "text:z")
	if e.search.match != -1 {
		t.Fatalf("%q matches entry %d", e.search.query, e.search.match)
	}
	typeKeys(e, "esc")
	if e.value() != "draft" {
		t.Fatalf("value = %q", e.value())
	}
	e = newEditor(&history{})
	typeKeys(e, "ctrl+r", "text:x", "ctrl+r", "esc") // an empty history finds nothing
	if e.value() != "" {
		t.Fatalf("value = %q", e.value())
	}
}

// A long command in the permission dialog shows its first lines, which
// say what runs, and marks the rest as cut (ctrl+o shows it whole); it
// showed the last ten lines unmarked, so the start of a heredoc command
// ("cat <<EOF > out.txt") was never on screen. A reason quoting the
// command is cut to a few lines, so the question stays on screen.
func TestQA10PermissionDialogShowsTheStartOfALongCommand(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{w: 100, h: 30})
	var cmd strings.Builder
	cmd.WriteString("cat <<'EOF' > out.txt\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&cmd, "row %d\n", i)
	}
	cmd.WriteString("EOF\necho done")
	in, _ := json.Marshal(map[string]string{"command": cmd.String(), "description": "write rows"})
	q := engine.Question{ToolName: "Bash", Input: in, Reason: "no allow rule matches `" + cmd.String() + "`."}
	var view, whole string
	h.do(func(m *Model) {
		d := newPermissionDialog(m, askMsg{q: q})
		view = stripANSI(d.view(m, m.width))
		_, whole = d.whole(m, m.width)
		whole = stripANSI(whole)
	})
	if !strings.Contains(view, "  cat <<'EOF' > out.txt\n  row 1\n") {
		t.Fatalf("the dialog does not show the command's start:\n%s", view)
	}
	if !strings.Contains(view, "lines (ctrl+o to expand)") || strings.Contains(view, "row 40") {
		t.Fatalf("the cut is not marked, or the command is whole:\n%s", view)
	}
	if rows := strings.Count(view, "\n") + 1; rows > 30-6 {
		t.Fatalf("the dialog is %d rows in a 30-row terminal:\n%s", rows, view)
	}
	if !strings.Contains(whole, "row 40\n  EOF\n  echo done") {
		t.Fatalf("ctrl+o does not show the whole command:\n%s", whole)
	}
}

// Text pasted during a Ctrl+R search goes into the search; it went into
// the hidden input, where the match taken by esc or tab overwrote it.
func TestQA10PasteDuringCtrlRSearchesForIt(t *testing.T) {
	e := newEditor(&history{entries: []string{"deploy the staging build", "git status"}})
	typeKeys(e, "text:draft", "ctrl+r")
	e.paste("staging\nbuild")
	if e.search == nil || e.search.query != "staging build" || e.search.match != 0 {
		t.Fatalf("search = %+v", e.search)
	}
	typeKeys(e, "tab")
	if e.value() != "deploy the staging build" {
		t.Fatalf("value = %q", e.value())
	}
}

// A paste that starts the input is a prompt even when its text starts
// with "#", "!" or "/": a pasted Markdown bug report ("# Bug report")
// was written to CLAUDE.md as a memory note instead of going to the
// model, and a pasted line starting with "!" would have run as a shell
// command. Typed, the prefixes keep their meaning.
func TestQA10PasteStartingWithAPrefixIsAPrompt(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three")}, harnessOpts{})
	var cwd string
	h.do(func(m *Model) { cwd = m.o.Cwd })
	for i, paste := range []string{
		"# Bug report\n\nSteps:\n1. run it\n2. see the crash",
		"!!! build failed !!!\nerror: x\nerror: y\nerror: z",
		"/usr/lib/foo.so: undefined symbol\n  at a\n  at b\n  at c",
	} {
		h.tm.Send(tea.PasteMsg{Content: paste})
		h.check("the paste placeholder", func(m *Model) bool { return strings.HasPrefix(m.ed.value(), "[Pasted text #") })
		h.key("enter")
		if got := strings.TrimSpace(h.requests(i + 1)[i].LastUserText()); got != paste {
			t.Fatalf("prompt %d = %q, want the paste", i+1, got)
		}
		h.check("turn over", func(m *Model) bool { return !m.running })
	}
	if _, err := os.Stat(filepath.Join(cwd, "CLAUDE.md")); !os.IsNotExist(err) {
		t.Fatalf("a memory file was written (err %v)", err)
	}
}

// A "!" command stopped before it printed anything says so on the result
// line; the notice began with a line break, which left an empty "⎿" row
// above it, or, stopped before bash started, came under "context
// canceled".
func TestQA10StoppedSilentShellCommandHasNoEmptyRow(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("!sleep 30")
	h.key("enter")
	h.check("the command running", func(m *Model) bool { return m.running })
	h.key("esc")
	h.check("the command over", func(m *Model) bool { return !m.running && len(m.conv.items) > 0 })
	var shown string
	h.do(func(m *Model) {
		for _, it := range m.conv.items {
			if it.kind == kShell {
				shown = stripANSI(m.r.item(it, 80, false))
			}
		}
	})
	if want := "> ! sleep 30\n  ⎿  (stopped: interrupted by the user)"; shown != want {
		t.Fatalf("shown %q, want %q", shown, want)
	}
}

// An input starting with "!" is marked under the input, as Claude Code
// marks its bash mode, since enter sends it to the shell rather than to
// the model; nothing said so. "#" has no mode: it starts a prompt.
func TestQA10FooterMarksBashInput(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	footer := func() string {
		var f string
		h.do(func(m *Model) { f = stripANSI(m.footer(100)) })
		return f
	}
	h.typeText("!ls")
	h.check("typed", func(m *Model) bool { return m.ed.value() == "!ls" })
	if f := footer(); !strings.Contains(f, "! bash mode") {
		t.Fatalf("footer for %q: %q", "!ls", f)
	}
	h.key("ctrl+c")
	h.typeText("# use tabs")
	h.check("typed", func(m *Model) bool { return m.ed.value() == "# use tabs" })
	if f := footer(); strings.Contains(f, "mode") || strings.Contains(f, "memory") {
		t.Fatalf("footer for a prompt starting with #: %q", f)
	}
	h.key("ctrl+c")
	h.typeText("fix #12")
	h.check("typed", func(m *Model) bool { return m.ed.value() == "fix #12" })
	if f := footer(); strings.Contains(f, "mode") || strings.Contains(f, "memory") {
		t.Fatalf("footer for a prompt: %q", f)
	}
}

// A "!" command typed on several lines shows whole as the input, with
// the output under it; its lines after the first were shown as its
// output, under the result mark.
func TestQA10MultiLineShellCommandShowsWhole(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("!echo one")
	h.key("ctrl+j")
	h.typeText("echo two")
	h.key("enter")
	h.waitFor("two")
	ran := func(n int) func(m *Model) bool {
		return func(m *Model) bool {
			c := 0
			for _, it := range m.conv.items {
				if it.kind == kShell || it.kind == kCommand {
					c++
				}
			}
			return !m.running && c == n
		}
	}
	h.check("the command over", ran(1))
	var shown []string
	h.do(func(m *Model) {
		for _, it := range m.conv.items {
			if it.kind == kShell || it.kind == kCommand {
				shown = append(shown, stripANSI(m.r.item(it, 80, false)))
			}
		}
	})
	if want := "> ! echo one\n  echo two\n  ⎿  one\n     two"; shown[0] != want {
		t.Fatalf("shell run shown %q, want %q", shown[0], want)
	}
}

// Shift+Tab in an edit's permission dialog chooses "Yes, allow all edits
// during this session", as that choice's label says and as in Claude
// Code; it did nothing. Where no choice turns on accept-edits mode (a
// command), it still does nothing.
func TestQA10ShiftTabInTheEditDialogAllowsAllEdits(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	acceptEdits := engine.Suggestion{Type: "setMode", Mode: "acceptEdits", Destination: "session"}
	edit, _ := json.Marshal(map[string]string{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"})
	cmd, _ := json.Marshal(map[string]string{"command": "make"})
	for _, tc := range []struct {
		q      engine.Question
		closed bool
	}{
		{engine.Question{ToolName: "Edit", Input: edit, Suggestions: []engine.Suggestion{acceptEdits}}, true},
		{engine.Question{ToolName: "Bash", Input: cmd}, false},
	} {
		a := askMsg{q: tc.q, reply: make(chan engine.Answer, 1)}
		var closed bool
		h.do(func(m *Model) {
			d := newPermissionDialog(m, a)
			closed, _ = d.key(m, keyMsg("shift+tab"))
		})
		if closed != tc.closed {
			t.Fatalf("%s: shift+tab closed the dialog: %v, want %v", tc.q.ToolName, closed, tc.closed)
		}
		if !tc.closed {
			continue
		}
		ans := <-a.reply
		if !ans.Allow || len(ans.Updates) != 1 || ans.Updates[0].Mode != "acceptEdits" {
			t.Fatalf("answer = %+v, want allowed with accept-edits mode", ans)
		}
	}
}

// Esc that closes the completion menu is not the first of a double
// press: the next esc only starts one (the draft stays); it cleared the
// draft.
func TestQA10EscClosingTheMenuKeepsTheDraftOnTheNextEsc(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("/co")
	h.check("the menu open", func(m *Model) bool { return m.comp != nil && len(m.comp.items) > 0 })
	h.key("esc")
	h.check("the menu closed", func(m *Model) bool { return m.comp == nil })
	h.key("esc")
	h.check("the draft kept", func(m *Model) bool { return m.ed.value() == "/co" })
	h.key("esc")
	h.check("the draft cleared by a double press", func(m *Model) bool { return m.ed.value() == "" })
}

// A hook's message (a script's output) is printed without its escape
// sequences and carriage returns, as tool output is.
func TestQA10HookMessagesPrintWithoutEscapes(t *testing.T) {
	c := newConversation(time.Now)
	c.apply(&engine.Notice{Level: "info", Text: "\x1b[2J\x1b[32mformatted 3 files\x1b[0m\r\n"})
	if n := len(c.items); n != 1 || c.items[0].text != "formatted 3 files\n" {
		t.Fatalf("items = %d, last %q", n, c.items[n-1].text)
	}
	h := newHarness(t, nil, harnessOpts{})
	h.tm.Send(noticeMsg{level: "warning", text: "hook says \x1b]0;pwned\x07hi\x1b[1A"})
	h.waitFor("hook says hi")
	if strings.Contains(h.raw.String(), "\x1b]0;pwned") || strings.Contains(h.raw.String(), "hi\x1b[1A") {
		t.Fatalf("escape sequences reached the terminal: %q", h.raw.String())
	}
}

// A tool call stopped with esc shows "Interrupted by the user" under it,
// not the sentence the model is told ("The user interrupted this tool
// call before it finished; it was stopped and its result is not
// available.").
func TestQA10InterruptedToolCallSaysSo(t *testing.T) {
	slow := &slowTool{started: make(chan struct{})}
	h := newHarness(t, []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{}))}, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("wait")
	h.key("enter")
	<-slow.started
	h.key("esc")
	h.check("the turn over", func(m *Model) bool { return !m.running })
	var shown string
	h.do(func(m *Model) {
		for _, it := range m.conv.items {
			if it.kind == kTool {
				shown = stripANSI(m.r.item(it, 100, false))
			}
		}
	})
	if want := "⎿  Interrupted by the user"; !strings.HasSuffix(shown, want) {
		t.Fatalf("shown %q, want it to end with %q", shown, want)
	}
	// A call stopped by the executor (a running command) gets the
	// executor's sentence.
	h.do(func(m *Model) {
		shown = stripANSI(m.r.tool(&toolCall{name: "Bash", result: tool.InterruptedText, isError: true}, 100, false))
	})
	if want := "⎿  Interrupted by the user"; !strings.HasSuffix(shown, want) {
		t.Fatalf("shown %q, want it to end with %q", shown, want)
	}
}

// The cursor steps over a character made of several code points (a ZWJ
// family emoji, a flag, a letter with a combining accent) as one, and
// backspace and delete remove it whole; stepping by code point put the
// cursor inside the emoji, where typed text split it, and backspace took
// one code point of it at a time.
func TestQA10EditorStepsOverWholeCharacters(t *testing.T) {
	family, flag, accent := "👨\u200d👩\u200d👧", "🇯🇵", "e\u0301"
	e := newEditor(&history{})
	typeKeys(e, "text:a"+family+"b")
	typeKeys(e, "left", "left", "text:X")
	if got, want := e.value(), "aX"+family+"b"; got != want {
		t.Fatalf("typed after two lefts: %q, want %q", got, want)
	}
	typeKeys(e, "right", "backspace")
	if got, want := e.value(), "aXb"; got != want {
		t.Fatalf("backspace after the family: %q, want %q", got, want)
	}
	e.reset()
	typeKeys(e, "text:"+flag+accent+"\n"+flag, "up")
	typeKeys(e, "ctrl+a", "delete")
	if got, want := e.value(), accent+"\n"+flag; got != want {
		t.Fatalf("delete at the flag: %q, want %q", got, want)
	}
	typeKeys(e, "right", "backspace")
	if got, want := e.value(), "\n"+flag; got != want {
		t.Fatalf("backspace after the accented letter: %q, want %q", got, want)
	}
	typeKeys(e, "right", "right", "backspace")
	if got := e.value(); got != "\n" {
		t.Fatalf("backspace after the flag on the next line: %q", got)
	}
}

// FuzzQA10EditorClusterSteps checks that cursor steps and deletions by
// character never panic and keep the cursor inside the text.
func FuzzQA10EditorClusterSteps(f *testing.F) {
	f.Add("a👨\u200d👩\u200d👧b\ne\u0301🇯🇵", uint8(3))
	f.Fuzz(func(t *testing.T, text string, ops uint8) {
		e := newEditor(&history{})
		e.buf = []rune(text)
		e.pos = len(e.buf)
		for i := 0; i < int(ops)%64; i++ {
			switch i % 4 {
			case 0:
				typeKeys(e, "left")
			case 1:
				typeKeys(e, "backspace")
			case 2:
				e.key(keyMsg("right"))
			case 3:
				e.key(tea.KeyPressMsg{Code: tea.KeyDelete})
			}
			if e.pos < 0 || e.pos > len(e.buf) {
				t.Fatalf("cursor %d outside %d runes", e.pos, len(e.buf))
			}
		}
	})
}

// Moving up or down lands on a whole character, not inside an emoji
// made of several code points.
func TestQA10EditorUpDownLandsOnWholeCharacters(t *testing.T) {
	family := "👨\u200d👩\u200d👧"
	e := newEditor(&history{})
	typeKeys(e, "text:"+family+"z\nabcdefgh", "ctrl+a", "right", "right", "right", "up", "text:X")
	if got := e.value(); !strings.Contains(got, family) {
		t.Fatalf("typed inside the emoji after up: %q", got)
	}
	e = newEditor(&history{})
	e.width = 20
	typeKeys(e, "text:"+family+"z\nabcdefgh", "ctrl+a", "right", "right", "right", "up", "text:X")
	if got := e.value(); !strings.Contains(got, family) {
		t.Fatalf("typed inside the emoji after up at width 20: %q", got)
	}
}
