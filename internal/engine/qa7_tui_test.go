package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// heldTool blocks until its gate is closed; Queue does not stop it.
type heldTool struct {
	tool.Defaults
	started chan struct{}
	gate    chan struct{}
}

func (g *heldTool) Name() string        { return "Held" }
func (g *heldTool) Description() string { return "waits for the test" }
func (g *heldTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)
}
func (g *heldTool) IsReadOnly(json.RawMessage) bool        { return true }
func (g *heldTool) IsConcurrencySafe(json.RawMessage) bool { return true }
func (g *heldTool) InterruptBehavior() tool.Interrupt      { return tool.Block }
func (g *heldTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	close(g.started)
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return tool.Text("opened"), nil
}

func TestUnqueueTakesBackMessageBeforeTheBoundarySoTheModelNeverSeesIt(t *testing.T) {
	g := &heldTool{started: make(chan struct{}), gate: make(chan struct{})}
	h := newHarness(t, engine.Config{}, []tool.Tool{g}, llmtest.Calls(use("a", "Held")), llmtest.Reply("done"))
	var (
		id    string
		taken []engine.QueuedMessage
		after []engine.QueuedMessage
	)
	go func() {
		<-g.started
		id = h.sess.Queue([]llm.ContentBlock{llm.TextBlock("typo'd follow-up")})
		taken = h.sess.Unqueue()
		after = h.sess.Unqueue()
		close(g.gate)
	}()
	_, end := h.run(t, context.Background(), "go")
	if end.Reason != engine.ReasonCompleted {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	if len(taken) != 1 || taken[0].UUID != id || taken[0].Content[0].Text != "typo'd follow-up" {
		t.Fatalf("Unqueue = %+v, want the one queued message %s", taken, id)
	}
	if len(after) != 0 {
		t.Errorf("second Unqueue = %+v, want nothing", after)
	}
	for i, r := range h.srv.Requests() {
		if strings.Contains(r.LastUserText(), "typo'd") {
			t.Errorf("request %d carries the message taken back: %q", i, r.LastUserText())
		}
	}
	for _, m := range h.sess.Messages() {
		if strings.Contains(m.Text(), "typo'd") {
			t.Errorf("history holds the message taken back: %q", m.Text())
		}
	}
}

// Messages queued and taken back while tool rounds end: each is either
// taken back or delivered, exactly once, and none is lost.
func TestQueuedMessageIsEitherTakenBackOrDeliveredNeverBoth(t *testing.T) {
	const rounds = 40
	read := &fakeTool{name: "Read", safe: true, log: &trace{}}
	var turns []llmtest.Turn
	for i := range rounds {
		turns = append(turns, llmtest.Calls(use(fmt.Sprint("r", i), "Read")))
	}
	turns = append(turns, llmtest.Reply("done"))
	h := newHarness(t, engine.Config{}, []tool.Tool{read}, turns...)
	var (
		mu    sync.Mutex
		sent  = map[string]string{} // text by uuid
		taken = map[string]int{}
	)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			text := fmt.Sprint("note-", i)
			id := h.sess.Queue([]llm.ContentBlock{llm.TextBlock(text)})
			mu.Lock()
			sent[id] = text
			mu.Unlock()
			if i%2 == 0 {
				for _, q := range h.sess.Unqueue() {
					mu.Lock()
					taken[q.UUID]++
					mu.Unlock()
				}
			}
		}
	}()
	_, end := h.run(t, context.Background(), "go")
	close(stop)
	<-done
	if end.Reason != engine.ReasonCompleted {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	for _, q := range h.sess.Unqueue() { // still waiting for the next Run
		taken[q.UUID]++
	}
	delivered := map[string]int{}
	for _, m := range h.sess.Messages() {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText && strings.HasPrefix(b.Text, "note-") {
				delivered[b.Text]++
			}
		}
	}
	if len(delivered) == 0 || len(taken) == 0 {
		t.Logf("delivered %d, taken back %d of %d: one path not exercised", len(delivered), len(taken), len(sent))
	}
	for id, text := range sent {
		if n := taken[id] + delivered[text]; n != 1 {
			t.Errorf("%s: taken back %d times, delivered %d times; want exactly once in all", text, taken[id], delivered[text])
		}
	}
	answered(t, h.sess.Messages())
}
