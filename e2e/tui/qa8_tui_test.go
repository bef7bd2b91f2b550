package tui

import (
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
		return !strings.Contains(s, "(queued)") && strings.Contains(s, "esc again interrupts") &&
			strings.Contains(s, "> a follow-up note") && strings.Contains(s, "esc to interrupt")
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
