package tui

import (
	"strings"
	"sync"
	"testing"

	"reins/internal/llm/llmtest"
)

// A background task that finishes while the UI waits for input starts a
// turn with its notification, so the model learns of it as it was told it
// would; before, the notification waited for the user's next message.
func TestQA4FinishedBackgroundTaskStartsATurnWhenIdle(t *testing.T) {
	const note = "<task-notification>\n<task-id>bash_1</task-id>\n<status>completed</status>\n</task-notification>"
	var mu sync.Mutex
	pending := []string{note}
	take := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := pending
		pending = nil
		return out
	}
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("The build finished.")}, harnessOpts{opts: func(o *Options) {
		o.BackgroundNotes = take
	}})
	h.tm.Send(backgroundMsg{})
	h.waitFor("The build finished.")
	reqs := h.requests(1)
	if got := reqs[0].LastUserText(); !strings.Contains(got, "<task-id>bash_1</task-id>") {
		t.Errorf("request text = %q, want the notification", got)
	}
	// Nothing more to announce: another signal starts no turn.
	h.tm.Send(backgroundMsg{})
	h.check("idle", func(m *Model) bool { return !m.running })
}
