package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

// lastLines is the last n non-empty lines of the visible screen.
func (tt *term) lastLines(n int) string {
	var out []string
	for _, l := range strings.Split(tt.visible(), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

// A hint under the input goes away when its time is up, even when
// nothing else happens: "Press Ctrl+C again to exit" stayed on an idle
// screen for good, though a second press a while later did not exit.
func TestQA4HintLeavesAnIdleScreen(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.ready()
	tt.keys("C-c")
	tt.waitFor("Press Ctrl+C again to exit")
	tt.waitUntil("the hint to go", func(string) bool {
		return !strings.Contains(tt.visible(), "Press Ctrl+C again to exit")
	})
}

// Esc while a 429 is being waited out interrupts the turn, and the
// "Interrupting…" shown meanwhile goes once the turn has stopped; it
// stayed under the input of an idle UI.
func TestQA4InterruptingHintGoesWhenTheTurnHasStopped(t *testing.T) {
	tt := newTerm(t,
		llmtest.Turn{Fault: &llmtest.Fault{Status: 429, ErrorType: "rate_limit_error", Message: "slow down", RetryAfter: "30"}},
		llmtest.Reply("after the interruption"),
	)
	tt.start()
	tt.ready()
	tt.prompt("hi")
	tt.waitFor("Retrying in")
	tt.keys("Escape")
	tt.waitFor("Interrupted")
	tt.waitUntil("Interrupting… to go", func(string) bool {
		return !strings.Contains(tt.visible(), "Interrupting…")
	})
	tt.prompt("again")
	tt.waitFor("after the interruption")
}

// The model chosen with /model stays after /clear and after /resume: the
// next request uses it. /clear started the new conversation on the
// configured model again.
func TestQA4ModelChoiceSurvivesClearAndResume(t *testing.T) {
	tt := newTerm(t,
		llmtest.Reply("first answer"),
		llmtest.Reply("after clear"),
		llmtest.Reply("after resume"),
	)
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("first answer")
	tt.prompt("/model haiku")
	tt.waitFor("Model set to claude-haiku")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(2)
	if got := rs[1].Model; !strings.Contains(got, "haiku") {
		t.Fatalf("the request after /clear used %s, want the haiku model chosen with /model", got)
	}
	tt.prompt("/resume")
	tt.waitFor("Resume a conversation")
	tt.keys("Enter")
	tt.waitFor("Resumed:")
	tt.prompt("and on")
	tt.waitFor("after resume")
	rs = tt.requests(3)
	if got := rs[2].Model; !strings.Contains(got, "haiku") {
		t.Fatalf("the request after /resume used %s, want the haiku model chosen with /model", got)
	}
}

// A command that takes arguments is shown as typed above its output:
// "/permissions allow RULE" showed as "/permissions", so the scrollback
// did not say which rule was added or removed.
func TestQA4CommandArgumentsAreShownAsTyped(t *testing.T) {
	tt := newTerm(t)
	tt.start()
	tt.ready()
	tt.prompt("/permissions allow Bash(git status:*)")
	tt.waitFor("Added allow rule")
	tt.prompt("/permissions remove allow Bash(git status:*)")
	tt.waitFor("Removed allow rule")
	s := tt.screen()
	for _, want := range []string{"> /permissions allow Bash(git status:*)", "> /permissions remove allow Bash(git status:*)"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the screen does not show %q:\n%s", want, s)
		}
	}
}

// In a real terminal, Ctrl+_ undoes a cut and Ctrl+Y pastes the cut
// text back; both did nothing.
func TestQA4UndoAndYankInTheInput(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("got it"))
	tt.start()
	tt.ready()
	tt.typeText("please fix the flaky test")
	tt.keys("C-w")
	tt.waitUntil("ctrl+w to cut the last word", func(string) bool {
		return strings.Contains(tt.visible(), "> please fix the flaky \n") || !strings.Contains(tt.visible(), "flaky test")
	})
	tt.keys("C-_")
	tt.waitFor("> please fix the flaky test")
	tt.keys("C-u")
	tt.waitUntil("ctrl+u to empty the input", func(string) bool { return !strings.Contains(tt.visible(), "please fix") })
	tt.typeText("now: ")
	tt.keys("C-y", "Enter")
	tt.waitFor("got it")
	rs := tt.requests(1)
	if got := messageTexts(rs[0]); !strings.Contains(got, "user: now: please fix the flaky test") {
		t.Fatalf("the prompt sent is not the yanked text:\n%s", got)
	}
}

// The permission dialog of an Edit numbers its diff by the file's lines
// and shows the lines around the change, as the result does after; it
// numbered old_string against new_string from 1, so a change to line 7
// read as a change to line 1.
func TestQA4EditDialogShowsTheFilesLineNumbers(t *testing.T) {
	tt := newTerm(t)
	path := tt.sb.Write(t, "notes.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n")
	// The file is read first: an Edit of a file not read fails before
	// anyone is asked.
	tt.srv.Add(
		llmtest.Calls(llmtest.ToolUse("r1", "Read", map[string]any{"file_path": path})),
		llmtest.Calls(llmtest.ToolUse("e1", "Edit", map[string]any{"file_path": path, "old_string": "seven", "new_string": "SEVEN"})),
		llmtest.Reply("edited"),
	)
	tt.start()
	tt.ready()
	tt.prompt("shout line seven")
	s := tt.waitFor("Do you want to make this edit to")
	for _, want := range []string{"7 -seven", "7 +SEVEN", "6  six", "8  eight"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the dialog does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "1 -seven") {
		t.Fatalf("the dialog numbers the change from line 1:\n%s", s)
	}
	tt.keys("Escape")
}

// /export writes the conversation as plain text to the file named (with
// .txt added), or to one named after the date and the first prompt; it
// was an unknown command.
func TestQA4ExportWritesTheConversation(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": "echo exported-output", "description": "say"})),
		llmtest.Reply("All **done** here."),
	)
	tt.sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash(echo *)"]}}`)
	tt.start()
	tt.ready()
	tt.prompt("Fix the login bug, please!")
	tt.waitFor("All done here.")
	tt.prompt("/export notes/chat")
	tt.waitFor("export to " + filepath.Join(tt.sb.Dir, "notes", "chat.txt")) // no such folder: said, not lost
	tt.sb.Write(t, "notes/.keep", "")
	tt.prompt("/export notes/chat")
	tt.waitFor("Conversation exported to notes/chat.txt")
	data, err := os.ReadFile(filepath.Join(tt.sb.Dir, "notes", "chat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{"> Fix the login bug, please!", "Bash(echo exported-output)", "exported-output", "All done here."} {
		if !strings.Contains(got, want) {
			t.Fatalf("the export lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b[") {
		t.Fatalf("the export holds terminal escapes:\n%q", got)
	}
	tt.prompt("/export")
	// The earlier export's line may still be on screen: wait for this one.
	named := regexp.MustCompile(`exported to (\S+-fix-the-login-bug-please\.txt)`)
	s := tt.waitUntil("the default export", func(s string) bool { return named.MatchString(s) })
	m := named.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("the default export name is not made of the date and the first prompt:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, m[1])); err != nil {
		t.Fatalf("the default export was not written: %v", err)
	}
}

// tinyPNG is a 1×1 PNG.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")

// paste pastes text into the pane as a terminal does (bracketed paste).
func (tt *term) paste(s string) {
	tt.run("set-buffer", "-b", "qa4", s)
	tt.run("paste-buffer", "-p", "-d", "-b", "qa4", "-t", "main")
}

// Pasting (or dropping) the path of an image file, quoted or with
// escaped spaces, attaches the image: the input shows "[Image #N]" and
// the prompt carries an image block. The path went to the model as text.
func TestQA4PastedImagePathIsAttached(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("a green dot"), llmtest.Reply("plain text kept"))
	shots := filepath.Join(t.TempDir(), "my shots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	one, two := filepath.Join(shots, "shot one.png"), filepath.Join(shots, "two.png")
	for _, p := range []string{one, two} {
		if err := os.WriteFile(p, tinyPNG, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tt.start()
	tt.ready()
	tt.typeText("compare")
	tt.paste("'" + one + "'")
	tt.waitFor("> compare [Image #1]")
	tt.paste(strings.ReplaceAll(two, " ", `\ `))
	tt.waitFor("[Image #2]")
	tt.typeText("please")
	tt.keys("Enter")
	if s := tt.waitFor("a green dot"); strings.Contains(s, "[Image]") {
		t.Fatalf("the prompt shows its images twice, as placeholders and as [Image]:\n%s", s)
	}
	r := tt.requests(1)[0]
	last := r.Messages[len(r.Messages)-1]
	var images int
	var text string
	for _, c := range last.Content {
		switch c.Type {
		case "image":
			images++
			if c.Source == nil || c.Source.MediaType != "image/png" || c.Source.Data == "" {
				t.Fatalf("image block without its PNG data: %+v", c.Source)
			}
		case "text":
			text += c.Text
		}
	}
	if images != 2 || !strings.Contains(text, "compare [Image #1] [Image #2] please") {
		t.Fatalf("the prompt has %d images and text %q, want 2 images and the placeholders", images, text)
	}
	// A path to something that is not an image is pasted as text.
	notes := tt.sb.Write(t, "notes.txt", "hello\n")
	tt.paste(notes)
	tt.keys("Enter")
	tt.waitFor("plain text kept")
	r = tt.requests(2)[1]
	if got := messageTexts(r); !strings.Contains(got, "user: "+notes) {
		t.Fatalf("the pasted text path was not sent as text:\n%s", got)
	}
}

// The @ menu offers folders as well as files; choosing a folder keeps
// the menu open on what is inside it, and a mentioned folder is attached
// as its listing. Only files were offered.
func TestQA4MentionMenuOffersFolders(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("seen the folder"))
	tt.sb.Write(t, "src/pkg/inner/deep.go", "package inner\n")
	tt.sb.Write(t, "src/pkg/top.go", "package pkg\n")
	tt.start()
	tt.ready()
	tt.typeText("look in @src/pk")
	tt.waitFor("❯ src/pkg/")
	tt.keys("Tab")
	tt.waitFor("> look in @src/pkg/", "src/pkg/top.go")
	tt.typeText("inn")
	tt.waitFor("❯ src/pkg/inner/")
	tt.keys("Tab")
	tt.waitFor("> look in @src/pkg/inner/")
	tt.typeText(" please")
	tt.keys("Enter")
	tt.waitFor("seen the folder")
	if got := messageTexts(tt.requests(1)[0]); !strings.Contains(got, `<folder path="src/pkg/inner/">`) || !strings.Contains(got, "deep.go") {
		t.Fatalf("the mentioned folder was not attached:\n%s", got)
	}
}

// The statusLine command reads what Claude Code gives it, transcript_path
// and hook_event_name included (status line scripts read the transcript
// for token counts); both were missing.
func TestQA4StatusLineCommandGetsTheTranscriptPath(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("noted"))
	dump := filepath.Join(t.TempDir(), "status.json")
	tt.sb.Write(t, ".claude/settings.json", `{"statusLine":{"type":"command","command":"cat > `+dump+`; echo MY-STATUS"}}`)
	tt.start()
	tt.ready()
	tt.waitFor("MY-STATUS")
	tt.prompt("hello")
	tt.waitFor("noted")
	ts := tt.sb.Transcripts(t)
	if len(ts) != 1 {
		t.Fatalf("transcripts: %v", ts)
	}
	var in struct {
		HookEventName  string `json:"hook_event_name"`
		TranscriptPath string `json:"transcript_path"`
		SessionID      string `json:"session_id"`
		Cost           struct {
			TotalDurationMs *int64 `json:"total_duration_ms"`
		} `json:"cost"`
	}
	tt.waitUntil("the status line input to name the transcript", func(string) bool {
		data, err := os.ReadFile(dump)
		return err == nil && json.Unmarshal(data, &in) == nil && in.TranscriptPath == ts[0]
	})
	if in.HookEventName != "Status" || in.Cost.TotalDurationMs == nil || !strings.Contains(ts[0], in.SessionID) {
		t.Fatalf("status line input: %+v (transcript %s)", in, ts[0])
	}
}

// Closing the terminal while a permission question is open (SIGHUP)
// ends reins as SIGTERM does: the transcript answers the call it asked
// about. reins died on the spot and left the call unanswered.
func TestQA4ClosingTheTerminalDuringADialogAnswersTheCall(t *testing.T) {
	tt := newTerm(t, llmtest.Calls(llmtest.Text("Writing."), llmtest.ToolUse("w1", "Write", map[string]any{"file_path": "/dev/null/never.txt", "content": "x\n"})))
	tt.start()
	tt.ready()
	tt.prompt("write it")
	tt.waitFor("Do you want to create never.txt?")
	tt.stop() // the terminal goes away
	var last string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ts := tt.sb.Transcripts(t); len(ts) == 1 {
			data, _ := os.ReadFile(ts[0])
			last = string(data)
			if strings.Contains(last, `"tool_use_id":"w1"`) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the transcript does not answer the call asked about:\n%s", last)
		}
	}
}

// While a 429 is waited out, the spinner says what failed and counts
// down to the next attempt; it said "Retrying in 3s" without the reason
// and kept saying 3s until the retry.
func TestQA4RetrySaysWhyAndCountsDown(t *testing.T) {
	tt := newTerm(t,
		llmtest.Turn{Fault: &llmtest.Fault{Status: 429, ErrorType: "rate_limit_error", Message: "slow down", RetryAfter: "3"}},
		llmtest.Reply("made it"),
	)
	tt.start()
	tt.ready()
	tt.prompt("hi")
	tt.waitFor("API error 429 (rate_limit_error) · Retrying in ", "(attempt 1/")
	tt.waitFor("Retrying in 1s")
	tt.waitFor("made it")
}
