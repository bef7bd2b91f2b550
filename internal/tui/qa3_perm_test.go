package tui

import (
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

// When a turn has ended and the user types nothing for IdleAfter, OnIdle
// runs (the Notification hooks' idle_prompt), once.
func TestQAPermsIdleAfterATurnCallsOnIdle(t *testing.T) {
	idle := make(chan struct{}, 4)
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("all done")}, harnessOpts{opts: func(o *Options) {
		o.IdleAfter = 20 * time.Millisecond
		o.OnIdle = func() { idle <- struct{}{} }
	}})
	h.typeText("hello")
	h.key("enter")
	h.waitFor("all done")
	select {
	case <-idle:
	case <-time.After(20 * time.Second):
		t.Fatal("OnIdle was not called after the turn ended")
	}
}
