package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
	"reins/internal/tool"
)

// entries is a Recorder that keeps what it is given.
type entries struct {
	mu   sync.Mutex
	list []*session.Entry
}

func (r *entries) Append(e *session.Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, e)
	return nil
}

func (r *entries) all() []*session.Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*session.Entry(nil), r.list...)
}

func TestPromptRefusedAsTooLongLeavesTheConversation(t *testing.T) {
	rec := &entries{}
	h := newHarness(t, engine.Config{Recorder: rec}, nil, llmtest.Reply("first answer"), llmtest.PromptTooLong())
	if _, end := h.run(t, context.Background(), "one"); end.Reason != engine.ReasonCompleted {
		t.Fatalf("first turn: %s %v", end.Reason, end.Err)
	}
	before := h.sess.History()
	_, end := h.run(t, context.Background(), "two")
	if end.Reason != engine.ReasonError || !llm.IsPromptTooLong(end.Err) {
		t.Fatalf("second turn: %s %v; want the refusal", end.Reason, end.Err)
	}
	after := h.sess.History()
	if len(after) != len(before) || after[len(after)-1].UUID != before[len(before)-1].UUID {
		t.Fatalf("history after the refusal has %d items (last %s), want the %d before the prompt", len(after), after[len(after)-1].Message.Text(), len(before))
	}
	// The transcript: the prompt, then a notice chained to what came
	// before it, so a resume leaves the prompt out as well.
	es := rec.all()
	last := es[len(es)-1]
	if last.Type != session.TypeSystem || last.Subtype != session.SubtypeNotice || last.ParentUUID == nil || *last.ParentUUID != before[len(before)-1].UUID {
		t.Errorf("last entry %+v; want a notice whose parent is the entry before the prompt", last)
	}
	if h.sess.LastUUID() != last.UUID {
		t.Errorf("the next entry would follow %s, want the notice %s", h.sess.LastUUID(), last.UUID)
	}
}

func TestResultsAreRecordedAsTheirCallsFinish(t *testing.T) {
	rec := &entries{}
	log := &trace{}
	slow := &fakeTool{name: "Slow", safe: true, delay: 300 * time.Millisecond, log: log}
	fast := &fakeTool{name: "Read", safe: true, log: log}
	h := newHarness(t, engine.Config{Recorder: rec}, []tool.Tool{slow, fast},
		llmtest.Calls(use("a", "Slow"), use("b", "Read")), llmtest.Reply("done"))
	if _, end := h.run(t, context.Background(), "go"); end.Reason != engine.ReasonCompleted {
		t.Fatalf("turn: %s %v", end.Reason, end.Err)
	}
	// Recorded in the order they finished, each once.
	var recorded []string
	byID := map[string]string{}
	for _, e := range rec.all() {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Content {
			if b.Type == llm.BlockToolResult {
				recorded = append(recorded, b.ToolUseID)
				byID[b.ToolUseID] = e.UUID
			}
		}
	}
	if len(recorded) != 2 || recorded[0] != "b" || recorded[1] != "a" {
		t.Errorf("results recorded as %q, want b (finished first) then a", recorded)
	}
	// The history has them in call order, under the uuids recorded.
	var inHistory []string
	for _, it := range h.sess.History() {
		for _, b := range it.Message.Content {
			if b.Type == llm.BlockToolResult {
				inHistory = append(inHistory, b.ToolUseID)
				if byID[b.ToolUseID] != it.UUID {
					t.Errorf("result %s is in the history as %s but was recorded as %s", b.ToolUseID, it.UUID, byID[b.ToolUseID])
				}
			}
		}
	}
	if len(inHistory) != 2 || inHistory[0] != "a" || inHistory[1] != "b" {
		t.Errorf("history results %q, want call order a, b", inHistory)
	}
}
