package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
	"reins/internal/tools/askuser"
	"reins/internal/tools/plan"
)

func TestSlashCompletionListsCommandsWithDescriptions(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("/co")
	h.waitUntil("completion menu", func(s string) bool {
		return strings.Contains(s, "/compact") && strings.Contains(s, "/cost") && strings.Contains(s, "Show the session's cost and usage")
	})
	h.key("down") // /config … then Tab completes the selection
	h.key("tab")
	h.check("completed name", func(m *Model) bool { return m.ed.value() == "/config " })
}

func TestHelpListsCommandsAndKeys(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("/help")
	h.key("enter")
	h.waitUntil("help text", func(s string) bool {
		return strings.Contains(s, "/resume") && strings.Contains(s, "shift+tab") && strings.Contains(s, "!cmd")
	})
}

func TestCommandsWithoutTheirSubsystemSayNotAvailable(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	for _, c := range []string{"/permissions", "/hooks", "/config", "/compact", "/resume"} {
		h.mark()
		h.typeText(c)
		h.key("enter")
		h.waitFor(c + " is not available yet")
	}
}

func TestUnknownCommandIsReportedWithoutAModelCall(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("/nosuch thing")
	h.key("enter")
	h.waitFor("Unknown command: /nosuch")
	if n := len(h.srv.Requests()); n != 0 {
		t.Fatalf("%d model requests", n)
	}
}

// An input starting with "#" is a prompt, as in Claude Code since
// 2.0.70 ("Removed # shortcut for quick memory entry"): it goes to the
// model whole, and the memory file is left alone. It was appended to
// CLAUDE.md as a note instead.
func TestQA11HashStartsAPrompt(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "CLAUDE.md")
	os.WriteFile(mem, []byte("# Notes"), 0o644)
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("will do")}, harnessOpts{opts: func(o *Options) { o.MemoryFile = mem }})
	h.typeText("# use tabs from now on")
	h.key("enter")
	if got := strings.TrimSpace(h.requests(1)[0].LastUserText()); got != "# use tabs from now on" {
		t.Fatalf("prompt = %q, want the typed text", got)
	}
	h.waitFor("will do")
	if data, _ := os.ReadFile(mem); string(data) != "# Notes" {
		t.Fatalf("memory file = %q, want it unchanged", data)
	}
}

func TestBangRunsAShellCommandAndKeepsItForTheModel(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("I see the output")}, harnessOpts{})
	h.typeText("!echo from-shell")
	h.key("enter")
	h.waitFor("from-shell")
	h.check("idle", func(m *Model) bool { return !m.running && len(m.o.Session.History()) == 2 })
	h.typeText("what did it print?")
	h.key("enter")
	h.waitFor("I see the output")
	texts := ""
	for _, m := range h.requests(1)[0].Messages {
		for _, b := range m.Content {
			texts += b.Text + "\n"
		}
	}
	if !strings.Contains(texts, "<bash-input>echo from-shell</bash-input>") || !strings.Contains(texts, "<bash-stdout>from-shell</bash-stdout>") {
		t.Fatalf("the model did not get the shell run:\n%s", texts)
	}
}

func TestCtrlCClearsThenExitsOnSecondPress(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.typeText("draft")
	h.key("ctrl+c")
	h.check("cleared", func(m *Model) bool { return m.ed.empty() })
	h.key("ctrl+c")
	h.waitFor("Press Ctrl+C again to exit")
	h.key("ctrl+c")
	h.tm.WaitFinished(t)
}

func TestRewindRestoresHistoryAndFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("before"), 0o644)
	cp := &Checkpoints{}
	turns := []llmtest.Turn{llmtest.Reply("first answer"), llmtest.Reply("second answer")}
	h := newHarness(t, turns, harnessOpts{opts: func(o *Options) { o.Checkpoints = cp }})
	h.typeText("first prompt")
	h.key("enter")
	h.waitFor("first answer")
	h.typeText("second prompt")
	h.key("enter")
	h.waitFor("second answer")
	// Pretend the second turn edited the file.
	h.check("idle", func(m *Model) bool { return !m.running })
	var hist []engine.HistoryItem
	h.do(func(m *Model) { hist = m.o.Session.History() })
	second := hist[2].UUID
	cp.mu.Lock()
	cp.turns = []string{hist[0].UUID, second}
	cp.snaps = []snapshot{{turn: 1, path: file, data: []byte("before"), existed: true, mode: 0o644}}
	cp.mu.Unlock()
	os.WriteFile(file, []byte("after"), 0o644)

	h.key("esc")
	h.key("esc")
	h.waitFor("Rewind: go back to before which prompt?", "second prompt", "1 file changed since")
	h.key("enter")
	h.waitFor("Restore the conversation and the files")
	h.key("enter")
	h.waitFor("Rewound the conversation and 1 file")
	if data, _ := os.ReadFile(file); string(data) != "before" {
		t.Errorf("file = %q, want it restored", data)
	}
	h.do(func(m *Model) {
		if n := len(m.o.Session.History()); n != 2 {
			t.Errorf("history has %d messages, want the first exchange only", n)
		}
		if got := m.ed.value(); got != "second prompt" {
			t.Errorf("editor = %q, want the rewound prompt back", got)
		}
	})
}

func TestTranscriptViewShowsFullToolOutput(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	long := strings.Repeat("out line\n", 9) + "last line"
	h.do(func(m *Model) {
		m.conv.add(&item{kind: kTool, done: true, tool: &toolCall{id: "x", name: "Bash", input: []byte(`{"command":"seq"}`), result: long}})
	})
	h.waitFor("… +7 lines (ctrl+o to expand)")
	h.key("ctrl+o")
	h.waitUntil("full output", func(s string) bool { return strings.Contains(s, "last line") && strings.Contains(s, "transcript ·") })
	h.key("esc")
}

func TestNarrowTerminalKeepsLinesWithinTheWidth(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply(strings.Repeat("word ", 40))}, harnessOpts{w: 30, h: 20})
	h.typeText("a long prompt that is wider than thirty columns for sure")
	h.key("enter")
	h.waitFor("word word")
	h.check("idle", func(m *Model) bool { return !m.running })
	h.do(func(m *Model) {
		for _, l := range strings.Split(m.View().Content, "\n") {
			if w := len([]rune(stripANSI(l))); w > 30 {
				t.Errorf("line wider than 30 columns (%d): %q", w, stripANSI(l))
			}
		}
		for _, it := range m.conv.items {
			for _, l := range strings.Split(m.r.item(it, 30, false), "\n") {
				if w := len([]rune(stripANSI(l))); w > 30 {
					t.Errorf("printed line wider than 30 columns (%d): %q", w, stripANSI(l))
				}
			}
		}
	})
}

func TestResumedHistoryIsShown(t *testing.T) {
	hist := []engine.HistoryItem{
		{UUID: "u1", Message: llm.NewUserText("old question")},
		{UUID: "a1", Message: &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("old answer")}}},
	}
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { o.Resumed = hist }})
	h.waitFor("> old question", "old answer")
}

func TestStatusLineCommandReplacesTheStatus(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) {
		o.StatusLine = `read -r line; case "$line" in *'"session_id"'*) echo "custom status ok";; *) echo "no input";; esac`
	}})
	h.waitFor("custom status ok")
}

func TestModeAndStatusShowInTheFooter(t *testing.T) {
	mode := &fakeMode{mode: "acceptEdits"}
	h := newHarness(t, nil, harnessOpts{mode: mode})
	h.waitFor("accept edits on", "claude-opus-4-5")
}

func TestPromptTypedDuringAShellRunIsSentAfterIt(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("answered the queued prompt")}, harnessOpts{})
	h.typeText("!sleep 0.5; echo shell-done")
	h.key("enter")
	h.typeText("then this")
	h.key("enter")
	h.waitFor("then this  (queued)")
	h.waitFor("shell-done", "answered the queued prompt")
	if got := h.requests(1)[0].LastUserText(); !strings.Contains(got, "then this") {
		t.Fatalf("the model got %q", got)
	}
}

func TestNarrowTerminalDialogsFit(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/a/very/long/path/to/some/file/main.go", "old_string": "a long old line of code", "new_string": "a long new line of code"})),
		llmtest.Reply("ok"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}, w: 30, h: 24})
	h.typeText("edit")
	h.key("enter")
	h.check("dialog open", func(m *Model) bool { return m.dialog != nil })
	h.do(func(m *Model) {
		for _, l := range strings.Split(m.View().Content, "\n") {
			if w := len([]rune(stripANSI(l))); w > 30 {
				t.Errorf("dialog line wider than 30 columns (%d): %q", w, stripANSI(l))
			}
		}
	})
	h.key("1")
	h.waitFor("ok")
}

func TestNarrowTerminalPlanAndQuestionDialogsFit(t *testing.T) {
	mode := &fakeMode{mode: "plan"}
	q := map[string]any{"questions": []map[string]any{{
		"question": "Which of these rather long options should we take?", "header": "A long header", "multiSelect": true,
		"options": []map[string]any{{"label": "The first option with a long label", "description": "and a long description that wraps"}, {"label": "Second", "description": ""}},
	}}}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("q1", "AskUserQuestion", q)),
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "1. A plan step that is longer than the terminal is wide\n2. Another"})),
		llmtest.Reply("ok"),
	}
	h := newHarness(t, turns, harnessOpts{mode: mode, tools: []tool.Tool{askuser.New(), plan.NewExit(mode)}, w: 30, h: 30})
	fits := func() {
		h.do(func(m *Model) {
			for _, l := range strings.Split(m.View().Content, "\n") {
				if w := len([]rune(stripANSI(l))); w > 30 {
					t.Errorf("%T line wider than 30 columns (%d): %q", m.dialog, w, stripANSI(l))
				}
			}
		})
	}
	h.typeText("go")
	h.key("enter")
	h.check("question dialog", func(m *Model) bool { _, ok := m.dialog.(*questionDialog); return ok })
	fits()
	h.key("space")
	h.key("enter")
	h.check("plan dialog", func(m *Model) bool { _, ok := m.dialog.(*planDialog); return ok })
	fits()
	h.key("2")
	h.waitFor("ok")
}

func TestUsageAndStatsShowTheCost(t *testing.T) {
	// Current Claude Code names the command /usage, with /cost and /stats
	// as its other names; reins answers all three.
	h := newHarness(t, nil, harnessOpts{})
	for _, c := range []string{"/usage", "/stats"} {
		h.mark()
		h.typeText(c)
		h.key("enter")
		h.waitFor("Total cost:")
	}
}
