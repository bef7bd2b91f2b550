package tui

import (
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
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
