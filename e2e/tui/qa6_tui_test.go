package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Approving an edit "for the session" turns on accept-edits mode, as in
// Claude Code: the next edit inside the folder runs without a question and
// nothing is saved. The dialog used to offer "always allow Edit", which
// wrote a bare Edit rule to .claude/settings.local.json (every later edit
// anywhere on disk allowed, for good).
func TestQA6EditApprovedForTheSessionTurnsOnAcceptEdits(t *testing.T) {
	tt := newTerm(t)
	file := tt.sb.Write(t, "notes.txt", "one\ntwo\n")
	tt.srv.Add(
		llmtest.Calls(llmtest.ToolUse("r1", "Read", map[string]any{"file_path": file})),
		llmtest.Calls(llmtest.ToolUse("e1", "Edit", map[string]any{"file_path": file, "old_string": "one", "new_string": "uno"})),
		// Asked again, the dialog would hold the turn and the reply
		// below would never come.
		llmtest.Calls(llmtest.ToolUse("e2", "Edit", map[string]any{"file_path": file, "old_string": "two", "new_string": "dos"})),
		llmtest.Reply("both edited"),
	)
	tt.start()
	tt.ready()
	tt.prompt("edit the notes")
	s := tt.waitFor("Edit file", "2. Yes, allow all edits during this session (shift+tab)", "3. No")
	if strings.Contains(s, "always allow Edit") {
		t.Fatalf("the dialog offers to save a bare Edit rule:\n%s", s)
	}
	tt.keys("2")
	tt.waitFor("both edited", "accept edits on")
	if data, _ := os.ReadFile(file); string(data) != "uno\ndos\n" {
		t.Fatalf("file = %q", data)
	}
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, ".claude", "settings.local.json")); !os.IsNotExist(err) {
		t.Fatalf("settings.local.json was written (err %v)", err)
	}
}

// "Always allow" for a command saves the gate's prefix rule to
// .claude/settings.local.json, and the next such command runs unasked.
func TestQA6BashAlwaysAllowSavesThePrefixRule(t *testing.T) {
	tt := newTerm(t)
	tt.srv.Add(
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "mkdir -p out"})),
		// Asked again, the dialog would hold the turn.
		llmtest.Calls(llmtest.ToolUse("b2", "Bash", map[string]any{"command": "mkdir -p out2"})),
		llmtest.Reply("made"),
	)
	tt.start()
	tt.ready()
	tt.prompt("make the folders")
	tt.waitFor("3. Yes, and always allow Bash(mkdir *) (saved in .claude/settings.local.json)")
	tt.keys("3")
	tt.waitFor("made")
	data, err := os.ReadFile(filepath.Join(tt.sb.Dir, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(data), `"allow": [
      "Bash(mkdir *)"
    ]`) {
		t.Fatalf("settings.local.json = %s (%v)", data, err)
	}
}

// Leaving prints how to come back in Claude Code's words, the command on
// a line of its own, and that command resumes the recorded session.
func TestQA6ExitPrintsTheResumeCommandOnItsOwnLine(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("Noted."), llmtest.Reply("Back again."))
	tt.start()
	tt.ready()
	tt.prompt("remember the word kiwi")
	tt.waitFor("Noted.")
	tt.prompt("/exit")
	s := tt.waitFor("[reins exited 0]")
	paths := tt.sb.Transcripts(t)
	if len(paths) != 1 {
		t.Fatalf("transcripts: %v", paths)
	}
	id := strings.TrimSuffix(filepath.Base(paths[0]), ".jsonl")
	if !strings.Contains(s, "Resume this session with:\nreins --resume "+id+"\n") {
		t.Fatalf("no resume hint for %s:\n%s", id, s)
	}
	tt.start("--resume", id)
	tt.ready()
	tt.waitFor("remember the word kiwi")
	tt.prompt("and now?")
	tt.waitFor("Back again.")
	if got := messageTexts(tt.requests(2)[1]); !strings.Contains(got, "remember the word kiwi") {
		t.Fatalf("the resumed request lacks the first prompt:\n%s", got)
	}
}

// Narrowing the terminal leaves no stale copy of the input box's rules: the
// terminal rewraps the old full-width rule into two rows, and the redraw
// used to start below the first of them, which stayed in the scrollback.
func TestQA6NarrowingLeavesNoStaleRule(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("Here is the answer."))
	tt.start()
	tt.ready()
	tt.prompt("a question")
	// The turn has ended and its frame is drawn (the cost is in the
	// status line): a frame drawn while tmux has rewrapped the screen but
	// not yet told reins the new size would move the cursor on its own.
	tt.waitUntil("the idle input box after the reply", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "● Here is the answer.") && strings.Contains(v, `> Try "explain this project"`) && strings.Contains(v, "$0.")
	})
	tt.run("resize-window", "-t", "main", "-x", "60", "-y", "40")
	rules := func(s string) (n int, wide bool) {
		for _, l := range strings.Split(s, "\n") {
			l = strings.TrimRight(l, " ")
			if l != "" && strings.Trim(l, "─") == "" {
				n++
				wide = wide || len([]rune(l)) > 60
			}
		}
		return n, wide
	}
	// The prompt's placeholder is under 60 columns in the old frame too:
	// wait for a rule of the new width, which only a redraw draws (the
	// capture joins the lines tmux wrapped, so an old rule stays wide).
	tt.waitUntil("the input box redrawn 60 columns wide", func(string) bool {
		for _, l := range strings.Split(tt.visible(), "\n") {
			l = strings.TrimRight(l, " ")
			if l != "" && strings.Trim(l, "─") == "" && len([]rune(l)) <= 60 {
				return true
			}
		}
		return false
	})
	s := tt.screen()
	if n, wide := rules(s); n != 2 || wide {
		t.Fatalf("%d rule lines (one wider than the terminal: %v), want the input box's 2:\n%s", n, wide, s)
	}
	tt.prompt("/cost")
	tt.waitFor("Total cost:")
}

// Ctrl+Z stops reins as in other terminal programs; the shell's fg brings
// it back, drawn again and answering. It did nothing.
func TestQA6CtrlZSuspendsAndFgResumes(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("Welcome back."))
	bin := e2etest.Binary(t)
	var rc strings.Builder
	rc.WriteString("PS1='qa6$ '\ncd " + shellQuote(tt.sb.Dir) + "\n")
	for _, e := range tt.sb.Env {
		rc.WriteString("export " + shellQuote(e) + "\n")
	}
	rcFile := filepath.Join(t.TempDir(), "rc")
	if err := os.WriteFile(rcFile, []byte(rc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.stop()
	tt.socket += "-shell"
	tt.run("new-session", "-d", "-s", "main", "-x", "100", "-y", "40", "bash --noprofile --rcfile "+shellQuote(rcFile)+" -i")
	tt.waitFor("qa6$ ")
	tt.typeText(shellQuote(bin))
	tt.keys("Enter")
	tt.ready()
	tt.typeText("kept draft")
	tt.keys("C-z")
	tt.waitUntil("the shell's prompt after the stop", func(s string) bool {
		return strings.Contains(s, "Stopped") && strings.HasSuffix(strings.TrimRight(s, "\n "), "qa6$")
	})
	tt.typeText("fg")
	tt.keys("Enter")
	tt.waitUntil("the input box again", func(string) bool { return strings.Contains(tt.visible(), "> kept draft") })
	tt.keys("C-u")
	tt.prompt("are you back?")
	tt.waitFor("Welcome back.")
}

// noteEditor sets $EDITOR to a script that appends a note to the file it
// is given, for /memory.
func (tt *term) noteEditor(note string) {
	tt.t.Helper()
	editor := tt.sb.Write(tt.t, "note-editor.sh", "#!/bin/sh\nprintf '%s\\n' "+shellQuote(note)+" >> \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		tt.t.Fatal(err)
	}
	tt.sb.Env = append(tt.sb.Env, "EDITOR="+editor, "VISUAL=")
}

// A note saved with /memory reaches the model from the next request on,
// and in the next conversation after /clear: the memory files were read
// once at start, so the model learnt the note only in the next run of
// reins.
func TestQA6MemoryNoteReachesTheModelAtOnce(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("Before the note."),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("After the note.")}, ResetPrefix: true},
		llmtest.Reply("In a new conversation."))
	tt.noteEditor("- always indent with tabs")
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("Before the note.")
	tt.prompt("/memory")
	tt.waitFor("Saved CLAUDE.md")
	tt.prompt("what now?")
	tt.waitFor("After the note.")
	tt.prompt("/clear")
	tt.prompt("and now?")
	tt.waitFor("In a new conversation.")
	rs := tt.requests(3)
	for i, want := range []bool{false, true, true} {
		if got := strings.Contains(messageTexts(rs[i]), "always indent with tabs"); got != want {
			t.Errorf("request %d carries the note: %v, want %v\n%s", i+1, got, want, messageTexts(rs[i]))
		}
	}
}

// A sub-agent started after a note saved with /memory gets the note too.
func TestQA6MemoryNoteReachesSubAgentsStartedLater(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("Noted before."),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("a1", "Agent", map[string]any{
			"description": "check style", "prompt": "check the style", "subagent_type": "general-purpose"})}, ResetPrefix: true},
		llmtest.Reply("Style checked."),
		llmtest.Reply("The sub-agent checked it."))
	tt.noteEditor("- always indent with tabs")
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("Noted before.")
	tt.prompt("/memory")
	tt.waitFor("Saved CLAUDE.md")
	tt.prompt("delegate")
	tt.waitFor("The sub-agent checked it.")
	rs := tt.requests(4)
	sub := messageTexts(rs[2])
	if !strings.Contains(sub, "check the style") || !strings.Contains(sub, "always indent with tabs") {
		t.Fatalf("the sub-agent's request lacks the note:\n%s", sub)
	}
}
