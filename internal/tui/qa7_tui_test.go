package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// userTexts are the text blocks of the user messages of a request.
func userTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Content {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

func TestUpTakesQueuedMessagesBackIntoTheInputSoEnterSendsThemOnce(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})),
		llmtest.Reply("saw your notes"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("start")
	h.key("enter")
	<-slow.started
	h.typeText("first note")
	h.key("enter")
	h.typeText("second note")
	h.key("enter")
	h.waitFor("second note  (queued)", "Press up to edit queued messages")
	h.key("up")
	h.check("queued messages back in the input", func(m *Model) bool {
		return m.ed.value() == "first note\nsecond note" && len(m.queued) == 0
	})
	h.typeText(" and more")
	h.key("enter")
	h.check("the edited message queued once", func(m *Model) bool { return len(m.queued) == 1 })
	close(slow.release)
	h.waitFor("saw your notes")
	var notes []string
	for _, s := range userTexts(h.requests(2)[1]) {
		if strings.Contains(s, "note") {
			notes = append(notes, s)
		}
	}
	if len(notes) != 1 || notes[0] != "first note\nsecond note and more" {
		t.Fatalf("notes sent to the model = %q, want only the edited one", notes)
	}
}

func TestUpKeepsWhatIsTypedAfterTheQueuedMessages(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(slow.release) })
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})), llmtest.Reply("ok")}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("start")
	h.key("enter")
	<-slow.started
	h.typeText("queued one")
	h.key("enter")
	h.waitFor("queued one  (queued)")
	h.typeText("draft")
	h.key("up")
	h.check("queued message before the draft", func(m *Model) bool {
		return m.ed.value() == "queued one\ndraft" && len(m.queued) == 0
	})
}

func TestUpBringsBackAQueuedPasteAsItsPlaceholder(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})), llmtest.Reply("read the log")}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("start")
	h.key("enter")
	<-slow.started
	log := strings.Repeat("log line\n", 20) + "end"
	h.typeText("see ")
	h.tm.Send(tea.PasteMsg{Content: log})
	h.key("enter")
	h.waitFor("(queued)")
	h.key("up")
	h.check("the placeholder back, standing for the paste", func(m *Model) bool {
		return strings.HasPrefix(m.ed.value(), "see [Pasted text #1 ") && m.ed.expanded() == "see "+log
	})
	h.key("enter")
	close(slow.release)
	h.waitFor("read the log")
	var got []string
	for _, s := range userTexts(h.requests(2)[1]) {
		if strings.HasPrefix(s, "see ") {
			got = append(got, s)
		}
	}
	if len(got) != 1 || got[0] != "see "+log {
		t.Fatalf("pasted message sent %d times (%q), want once in full", len(got), got)
	}
}

// A queued message the turn has already taken (its event not yet seen)
// cannot come back: Up then browses the history as usual, and the
// message stays listed until it shows in the conversation.
func TestUpAfterTheTurnTookTheQueuedMessageBrowsesHistory(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{})
	h.do(func(m *Model) {
		m.ed.hist.push("an older prompt")
		m.running = true // as if a turn ran: the probe must not start one
		m.queued = append(m.queued, queuedMsg{uuid: "delivered", display: "already taken"})
	})
	h.key("up")
	h.check("history entry shown", func(m *Model) bool {
		return m.ed.value() == "an older prompt" && len(m.queued) == 1
	})
	h.do(func(m *Model) { m.running, m.queued = false, nil })
}

// The placeholder's "+N lines" counts line breaks, as Claude Code's
// does: it counted lines, so a 30-line log ending in a newline read
// "+31 lines" and one without it "+30 lines" where Claude Code shows
// "+30" and "+29". A long paste with no line break shows no count, as in
// Claude Code (it read "[Pasted text #1 1501 chars]"), and backspace
// still removes it whole.
func TestPastePlaceholderCountsLineBreaksAsClaudeCodeDoes(t *testing.T) {
	for _, c := range []struct {
		paste string
		want  string
	}{
		{strings.Repeat("log line\n", 30), "[Pasted text #1 +30 lines]"},
		{strings.TrimSuffix(strings.Repeat("log line\n", 30), "\n"), "[Pasted text #1 +29 lines]"},
		{strings.Repeat("x", pasteChars+1), "[Pasted text #1]"},
	} {
		e := newEditor(nil)
		e.paste(c.paste)
		if got := e.value(); got != c.want {
			t.Errorf("paste of %d bytes shows %q, want %q", len(c.paste), got, c.want)
		}
		if e.expanded() != c.paste {
			t.Errorf("placeholder %q does not expand to the paste", c.want)
		}
		typeKeys(e, "backspace")
		if e.value() != "" {
			t.Errorf("backspace after %q left %q", c.want, e.value())
		}
	}
}

// A prompt stopped by esc while its UserPromptSubmit hook ran comes back
// into the input with the messages queued behind it: those used to be
// sent on their own right away, ahead of the prompt they followed.
func TestEscBeforeAPromptIsSentBringsBackTheMessagesQueuedBehindIt(t *testing.T) {
	hold := func(ctx context.Context, text string) (engine.Input, string, error) {
		<-ctx.Done()
		return engine.Input{}, "", ctx.Err()
	}
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { o.Prepare = hold }})
	h.typeText("first prompt")
	h.key("enter")
	h.check("the hook running", func(m *Model) bool { return m.running })
	h.typeText("a note on it")
	h.key("enter")
	h.waitFor("a note on it  (queued)")
	h.key("esc") // takes the queued note back
	h.check("the note back, the prompt still on its way", func(m *Model) bool {
		return m.running && len(m.queued) == 0 && m.ed.value() == "a note on it"
	})
	h.key("esc")
	h.check("both back in the input, nothing sent", func(m *Model) bool {
		return !m.running && len(m.queued) == 0 && m.ed.value() == "first prompt\na note on it"
	})
	if n := len(h.srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent, want none", n)
	}
}

// A message queued while a "!" command ran starts its own turn when the
// command ends; that turn had no checkpoint, so rewinding to the message
// could not put back the files the turn changed.
func TestMessageQueuedDuringAShellRunStartsACheckpointedTurn(t *testing.T) {
	cp := &Checkpoints{}
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("on it")}, harnessOpts{opts: func(o *Options) { o.Checkpoints = cp }})
	gate := filepath.Join(t.TempDir(), "gate")
	h.typeText("!while [ ! -f " + gate + " ]; do sleep 0.05; done; echo shell-done")
	h.key("enter")
	h.check("the shell running", func(m *Model) bool { return m.running })
	h.typeText("now change the file")
	h.key("enter")
	h.waitFor("now change the file  (queued)")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.waitFor("shell-done", "on it")
	var id string
	h.check("the turn over", func(m *Model) bool { return !m.running })
	h.do(func(m *Model) {
		for _, e := range m.o.Session.History() {
			if e.Message.Text() == "now change the file" {
				id = e.UUID
			}
		}
	})
	if id == "" {
		t.Fatal("the queued message is not in the conversation")
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if cp.turnIndex(id) < 0 {
		t.Fatalf("no checkpoint for the turn of the queued message %s (turns %q)", id, cp.turns)
	}
}

// A command that waits for the turn's end stays in the input: it was
// cleared, and had to be typed again.
func TestCommandRefusedDuringATurnStaysInTheInput(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(slow.release) })
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})), llmtest.Reply("ok")}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("start")
	h.key("enter")
	<-slow.started
	h.typeText("/compact keep the API notes")
	h.key("enter")
	h.waitFor("/compact can run once the current turn ends")
	h.check("the command still in the input", func(m *Model) bool {
		return m.ed.value() == "/compact keep the API notes" && len(m.queued) == 0
	})
}

// A queued message taken back keeps its images: the placeholders in the
// input still stand for them, so sending it again sends them.
func TestTakenBackDraftKeepsItsImages(t *testing.T) {
	e := newEditor(nil)
	typeKeys(e, "text:look at ")
	e.pasteImages([]pastedImage{{media: "image/png", data: []byte("png bytes")}})
	d := e.snapshot()
	e.reset()
	typeKeys(e, "text:and this")
	e.restore([]draft{d})
	if got, want := e.value(), "look at [Image #1]\nand this"; got != want {
		t.Fatalf("input = %q, want %q", got, want)
	}
	if blocks := e.imageBlocks(e.expanded()); len(blocks) != 1 || blocks[0].Source.MediaType != "image/png" {
		t.Fatalf("image blocks = %+v, want the pasted image", blocks)
	}
}

// A paste collapses past Claude Code's sizes: three lines stay in the
// input, a fourth collapses it, and so do more than 800 characters. It
// took eleven lines or 1501 characters, so a 10-line stack trace filled
// the input where Claude Code shows a placeholder.
func TestPasteCollapsesPastClaudeCodesSizes(t *testing.T) {
	for _, c := range []struct {
		paste string
		want  string
	}{
		{"one\ntwo\nthree", "one\ntwo\nthree"},
		{"one\ntwo\nthree\nfour", "[Pasted text #1 +3 lines]"},
		{strings.Repeat("y", 800), strings.Repeat("y", 800)},
		{strings.Repeat("y", 801), "[Pasted text #1]"},
	} {
		e := newEditor(nil)
		e.paste(c.paste)
		if got := e.value(); got != c.want {
			t.Errorf("paste of %d bytes shows %.40q, want %.40q", len(c.paste), got, c.want)
		}
	}
}
