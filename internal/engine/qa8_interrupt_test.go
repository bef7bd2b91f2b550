package engine_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// lastText is the text of the last message of msgs.
func lastText(msgs []*llm.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	return msgs[len(msgs)-1].Text()
}

func TestInterruptedAnswerLeavesAMarkerTheNextRequestCarries(t *testing.T) {
	stalled := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("Let me think about this at length")},
		Fault: &llmtest.Fault{After: 3, Stall: true}}
	h := newHarness(t, engine.Config{}, nil, stalled)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for len(h.srv.Requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // let some of the stream arrive
		cancel(tool.ErrInterrupted)
	}()
	_, end := h.run(t, ctx, "first question")
	if end.Reason != engine.ReasonAborted {
		t.Fatalf("reason %s, want %s", end.Reason, engine.ReasonAborted)
	}
	msgs := h.sess.Messages()
	if got := lastText(msgs); got != engine.InterruptedText {
		t.Fatalf("last message %q, want %q", got, engine.InterruptedText)
	}
	if !engine.IsInterruptMarker(msgs[len(msgs)-1]) {
		t.Error("IsInterruptMarker does not know the marker")
	}

	h.srv.Add(llmtest.Reply("ok"))
	_, end = h.run(t, context.Background(), "second question")
	if end.Result != "ok" {
		t.Fatalf("next turn: %s %v", end.Reason, end.Err)
	}
	reqs := h.srv.Requests()
	body := reqs[len(reqs)-1].Body
	first := bytes.Index(body, []byte("first question"))
	mark := bytes.Index(body, []byte(engine.InterruptedText))
	second := bytes.Index(body, []byte("second question"))
	if first < 0 || mark < 0 || second < 0 || !(first < mark && mark < second) {
		t.Errorf("the next request does not carry the interruption between the prompts (at %d, %d, %d)", first, mark, second)
	}
}

func TestInterruptedToolCallsLeaveTheToolUseMarker(t *testing.T) {
	log := &trace{}
	slow := &fakeTool{name: "Slow", safe: true, delay: 10 * time.Second, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{slow}, llmtest.Calls(use("a", "Slow")))
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for !strings.Contains(strings.Join(log.list(), ";"), "start a") {
			time.Sleep(5 * time.Millisecond)
		}
		cancel(tool.ErrInterrupted)
	}()
	_, end := h.run(t, ctx, "go")
	if end.Reason != engine.ReasonAbortedTools {
		t.Fatalf("reason %s", end.Reason)
	}
	msgs := h.sess.Messages()
	answered(t, msgs)
	if got := lastText(msgs); got != engine.InterruptedToolUseText {
		t.Fatalf("last message %q, want %q", got, engine.InterruptedToolUseText)
	}
	h.srv.Add(llmtest.Reply("after"))
	if _, end = h.run(t, context.Background(), "again"); end.Result != "after" {
		t.Fatalf("next turn: %s %v", end.Reason, end.Err)
	}
	h.srv.AssertClean(t)
}

func TestUninterruptedTurnLeavesNoMarker(t *testing.T) {
	h := newHarness(t, engine.Config{}, nil, llmtest.Reply("fine"))
	h.run(t, context.Background(), "hello")
	for _, m := range h.sess.Messages() {
		if engine.IsInterruptMarker(m) {
			t.Fatal("a finished turn left an interruption marker")
		}
	}
}
