package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// Esc with a message queued while the model works takes the message back
// into the input and leaves the turn running, as Claude Code does; it
// used to interrupt the turn and send the queued message on its own.
// The second esc interrupts, and nothing more goes to the model until
// enter.
func TestQA8EscTakesQueuedMessagesBackBeforeInterrupting(t *testing.T) {
	tt := newTerm(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("thinking hard")}, Fault: &llmtest.Fault{Stall: true, After: 3}},
		llmtest.Reply("answered the follow-up"),
	)
	tt.start()
	tt.ready()
	tt.prompt("start the work")
	tt.waitFor("esc to interrupt")
	tt.prompt("a follow-up note")
	tt.waitFor("> a follow-up note  (queued)")
	tt.keys("Escape")
	tt.waitUntil("the note back in the input, the turn still running", func(s string) bool {
		// (The hint saying so shows for a few seconds only; not waited for.)
		return !strings.Contains(s, "(queued)") && strings.Contains(s, "> a follow-up note") && strings.Contains(s, "esc to interrupt")
	})
	tt.keys("Escape")
	tt.waitFor("Interrupted")
	if n := len(tt.srv.Requests()); n != 1 {
		t.Fatalf("%d requests after the interrupt, want 1: the note must wait for enter", n)
	}
	tt.keys("Enter")
	tt.waitFor("answered the follow-up")
	if h := messageTexts(tt.requests(2)[1]); strings.Count(h, "a follow-up note") != 1 {
		t.Fatalf("want the note sent once:\n%s", h)
	}
}

// Narrowing the terminal while a permission dialog is open leaves no
// stale copy of the dialog's top rows: the cursor was hidden there, left
// wherever the renderer last wrote, so the rows the terminal rewrapped
// above it were not allowed for and the redraw started below them.
func TestQA8NarrowingWithADialogOpenLeavesNoStaleRows(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "touch approved.txt", "description": "create a file"})),
		llmtest.Reply("created it"),
	)
	tt.start()
	tt.ready()
	tt.prompt("make a file")
	tt.waitFor("touch approved.txt", "Do you want to proceed?", "esc to deny and stop")
	tt.run("resize-window", "-t", "main", "-x", "60", "-y", "40")
	// Only a redraw draws the dialog's title rule 60 columns wide (the
	// capture joins the rows tmux wrapped, so the old one stays wide).
	tt.waitUntil("the dialog redrawn 60 columns wide", func(string) bool {
		for _, l := range strings.Split(tt.visible(), "\n") {
			l = strings.TrimRight(l, " ")
			if strings.HasPrefix(l, "── Bash command") && len([]rune(l)) <= 60 {
				return true
			}
		}
		return false
	})
	s := tt.screen()
	for _, row := range []string{"── Bash command", "○ Bash(touch approved.txt)", "Do you want to proceed?"} {
		if n := count(s, row); n != 1 {
			t.Fatalf("%q shows %d times, want once:\n%s", row, n, s)
		}
	}
	tt.keys("Enter")
	tt.waitFor("created it")
}

// Ctrl+G opens the input in $EDITOR, as in Claude Code, and what the
// editor saves comes back into the input to be sent; pasted text goes
// to the editor whole. reins had no such key.
func TestQA8CtrlGEditsThePromptInTheEditor(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("got the edited prompt"))
	seen := filepath.Join(tt.sb.Dir, "seen.txt")
	editor := filepath.Join(tt.sb.Dir, "fake-editor.sh")
	tt.sb.Write(t, "fake-editor.sh", "#!/bin/sh\ncp \"$1\" "+shellQuote(seen)+"\nprintf 'rewritten in the editor\\nsecond line\\n' > \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	tt.sb.Env = append(tt.sb.Env, "EDITOR="+editor, "VISUAL=")
	tt.start()
	tt.ready()
	tt.typeText("first draft")
	tt.waitFor("> first draft")
	tt.keys("C-g")
	tt.waitFor("> rewritten in the editor", "  second line")
	if b, err := os.ReadFile(seen); err != nil || string(b) != "first draft" {
		t.Fatalf("the editor was given %q (%v), want the input", b, err)
	}
	tt.keys("Enter")
	tt.waitFor("got the edited prompt")
	if h := messageTexts(tt.requests(1)[0]); !strings.Contains(h, "user: rewritten in the editor\nsecond line") {
		t.Fatalf("want the edited prompt sent:\n%s", h)
	}
}

// /add-dir adds a working folder for the session, as in Claude Code:
// reading a file there no longer asks, as reading one outside the
// working folders does. reins had no /add-dir (only --add-dir at start).
func TestQA8AddDirMakesAFolderAWorkingFolder(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("from the other folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("r1", "Read", map[string]any{"file_path": filepath.Join(other, "notes.txt")})),
		llmtest.Reply("read it"),
	)
	tt.start()
	tt.ready()
	tt.prompt("/add-dir " + filepath.Join(other, "missing"))
	tt.waitFor("Cannot add " + filepath.Join(other, "missing") + ": no such folder")
	tt.prompt("/add-dir " + other)
	tt.waitFor("Added "+other, "as a working folder")
	tt.prompt("read the notes")
	tt.waitFor("read it")
	s := tt.screen()
	if strings.Contains(s, "Do you want to proceed?") {
		t.Fatalf("reading in the added folder asked for permission:\n%s", s)
	}
	reqs := tt.requests(2)
	if h := messageTexts(reqs[1]); !strings.Contains(h, "from the other folder") {
		t.Fatalf("want the file's contents sent:\n%s", h)
	}
	// The model is told of the folder with the first request after it
	// was added, once.
	if h := messageTexts(reqs[0]); !strings.Contains(h, "The user added "+other+" as a working folder") {
		t.Errorf("the first request after /add-dir does not name the folder:\n%s", h)
	}
	if h := messageTexts(reqs[1]); strings.Count(h, "The user added "+other) != 1 {
		t.Errorf("the note about the folder is not in the history once:\n%s", h)
	}
}

// /tasks (and /bashes) lists the background tasks with their command and
// status, and /tasks stop ID stops one, as Claude Code's /tasks does;
// reins had no way to see or stop them from the prompt.
func TestQA8TasksListsAndStopsBackgroundTasks(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "sleep 300", "description": "wait a long time", "run_in_background": true})),
		llmtest.Reply("started it"),
		llmtest.Reply("noted the stop"),
	)
	tt.start("--dangerously-skip-permissions")
	tt.ready()
	tt.prompt("start a long job")
	tt.waitFor("started it")
	tt.prompt("/bashes")
	tt.waitFor("bash_1  running", "sleep 300  # wait a long time")
	tt.prompt("/tasks stop bash_1")
	tt.waitFor("Stopping bash_1")
	// The task's end is passed to the model, so it has ended by then.
	tt.waitFor("noted the stop")
	tt.prompt("/tasks")
	tt.waitFor("bash_1  killed")
	tt.prompt("/tasks stop bash_9")
	tt.waitFor("no such task")
}

// A prompt that mentions files and folders says under it what was
// attached, as Claude Code does ("⎿  Read main.go (2 lines)"); the
// attachments went to the model unseen, so a typo'd or skipped mention
// could not be told from one that was read.
func TestQA8MentionedFilesAreShownAsRead(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("looked"), llmtest.Reply("again"))
	tt.sb.Write(t, "main.go", "package main\nfunc main() {}\n")
	tt.sb.Write(t, "src/pkg/a.go", "package pkg\n")
	tt.start()
	tt.ready()
	tt.prompt("check @main.go and @src and @missing.txt")
	tt.waitFor("looked")
	s := tt.waitFor("  ⎿  Read main.go (2 lines)", "  ⎿  Listed directory src/")
	if strings.Contains(s, "missing.txt (") {
		t.Fatalf("a missing file shown as read:\n%s", s)
	}
	// The transcript view shows them too.
	tt.keys("C-o")
	tt.waitUntil("the transcript view with the notes", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "ctrl+o or esc to go back") && strings.Contains(v, "Read main.go (2 lines)")
	})
}

// A resumed conversation shows what its prompts attached, as it was
// shown when they were sent.
func TestQA8ResumedPromptShowsItsAttachments(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("looked"))
	tt.sb.Write(t, "notes.md", "one\n")
	tt.start()
	tt.ready()
	tt.prompt("see @notes.md please")
	tt.waitFor("looked", "⎿  Read notes.md (1 line)")
	tt.keys("C-d")
	tt.keys("C-d")
	tt.waitFor("[reins exited")
	tt.start("--continue")
	tt.ready()
	tt.waitUntil("the resumed prompt with its attachment", func(string) bool {
		v := tt.visible()
		return strings.Contains(v, "> see @notes.md please") && strings.Contains(v, "⎿  Read notes.md (1 line)")
	})
}

// A "!" run in a resumed conversation shows as it did, its output under
// the command, and the rewind list offers the command, not its output:
// both showed the output message raw ("> <bash-stdout>…").
func TestQA8ResumedShellRunShowsItsOutputUnderTheCommand(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("seen it"))
	tt.start()
	tt.ready()
	tt.prompt("!echo shell-said-this; echo and-this >&2")
	tt.waitFor("shell-said-this", "and-this")
	tt.prompt("what did it say")
	tt.waitFor("seen it")
	tt.keys("C-d")
	tt.keys("C-d")
	tt.waitFor("[reins exited")
	tt.start("--continue")
	tt.ready()
	s := tt.waitFor("> what did it say", "seen it")
	if strings.Contains(s, "bash-stdout") || !strings.Contains(s, "> ! echo shell-said-this; echo and-this >&2\n  ⎿  shell-said-this\n     and-this") {
		t.Fatalf("want the run's output under its command:\n%s", s)
	}
	tt.keys("Escape")
	tt.keys("Escape")
	s = tt.waitFor("Rewind: go back to before which prompt?")
	if strings.Contains(s, "bash-stdout") || !strings.Contains(s, "  ! echo shell-said-this") {
		t.Fatalf("want the command, not its output, in the rewind list:\n%s", s)
	}
}
