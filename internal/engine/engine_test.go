package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
	"reins/internal/tool"
)

// fakeTool is a configurable tool that records when it ran.
type fakeTool struct {
	tool.Defaults
	name     string
	safe     bool
	behavior tool.Interrupt
	delay    time.Duration
	fail     bool
	log      *trace
}

type trace struct {
	mu     sync.Mutex
	events []string
}

func (t *trace) add(s string) {
	t.mu.Lock()
	t.events = append(t.events, s)
	t.mu.Unlock()
}

func (t *trace) list() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.events...)
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "fake " + f.name }
func (f *fakeTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)
}
func (f *fakeTool) IsReadOnly(json.RawMessage) bool        { return f.safe }
func (f *fakeTool) IsConcurrencySafe(json.RawMessage) bool { return f.safe }
func (f *fakeTool) InterruptBehavior() tool.Interrupt      { return f.behavior }
func (f *fakeTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	var in struct{ ID string }
	json.Unmarshal(input, &in)
	f.log.add("start " + in.ID)
	defer f.log.add("end " + in.ID)
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if f.fail {
		return nil, fmt.Errorf("%s failed", in.ID)
	}
	return tool.Text("result " + in.ID), nil
}

type harness struct {
	srv  *llmtest.Server
	sess *engine.Session
	log  *trace
}

func newHarness(t *testing.T, cfg engine.Config, tools []tool.Tool, turns ...llmtest.Turn) *harness {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cfg.Provider = anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "k", RetryBase: time.Millisecond, IdleTimeout: 2 * time.Second})
	cfg.Models = llm.NewModels(func(string) string { return "" })
	if cfg.Model == "" {
		cfg.Model = "claude-sonnet-4-5"
	}
	cfg.RetryBaseDelay = time.Millisecond
	cfg.System = []llm.SystemBlock{{Text: "test system", Cache: true}}
	cfg.Tools = func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: tools} }
	return &harness{srv: srv, sess: engine.New(cfg)}
}

func (h *harness) run(t *testing.T, ctx context.Context, prompt string) ([]engine.Event, *engine.TurnEnd) {
	t.Helper()
	var evs []engine.Event
	var end *engine.TurnEnd
	for ev := range h.sess.Run(ctx, engine.Input{Content: []llm.ContentBlock{llm.TextBlock(prompt)}}) {
		evs = append(evs, ev)
		if e, ok := ev.(*engine.TurnEnd); ok {
			end = e
		}
	}
	if end == nil {
		t.Fatal("no TurnEnd event")
	}
	return evs, end
}

// answered checks DESIGN invariant 2 on the session's history.
func answered(t *testing.T, msgs []*llm.Message) {
	t.Helper()
	for i, m := range msgs {
		if m.Role != llm.RoleAssistant {
			continue
		}
		want := map[string]bool{}
		for _, u := range m.ToolUses() {
			want[u.ID] = true
		}
		got := map[string]int{}
		for j := i + 1; j < len(msgs) && msgs[j].Role == llm.RoleUser; j++ {
			for _, b := range msgs[j].Content {
				if b.Type == llm.BlockToolResult {
					got[b.ToolUseID]++
				}
			}
		}
		for id := range want {
			if got[id] != 1 {
				t.Errorf("tool_use %s answered %d times", id, got[id])
			}
		}
	}
}

func resultIDs(evs []engine.Event) []string {
	var ids []string
	for _, ev := range evs {
		if r, ok := ev.(*engine.ToolResult); ok {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func use(id, name string) llmtest.Block {
	return llmtest.ToolUse(id, name, map[string]string{"id": id})
}

func TestParallelSafeCallsRunTogetherAndResultsComeInCallOrder(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, log: log}
	slow := &fakeTool{name: "Slow", safe: true, delay: 150 * time.Millisecond, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{read, slow},
		llmtest.Calls(use("a", "Slow"), use("b", "Read"), use("c", "Read")),
		llmtest.Reply("done"))
	evs, end := h.run(t, context.Background(), "go")
	if end.Reason != engine.ReasonCompleted || end.Result != "done" {
		t.Fatalf("end = %s %q %v", end.Reason, end.Result, end.Err)
	}
	if got := strings.Join(resultIDs(evs), ","); got != "a,b,c" {
		t.Errorf("results in order %s, want a,b,c", got)
	}
	// b and c finished while a (slow) was still running: they ran in parallel.
	l := strings.Join(log.list(), ";")
	if strings.Index(l, "end b") > strings.Index(l, "end a") {
		t.Errorf("safe calls did not run concurrently: %s", l)
	}
	answered(t, h.sess.Messages())
	h.srv.AssertClean(t)
}

func TestUnsafeCallRunsAloneAndKeepsOrder(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, delay: 40 * time.Millisecond, log: log}
	edit := &fakeTool{name: "Edit", log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{read, edit},
		llmtest.Calls(use("r1", "Read"), use("r2", "Read"), use("e", "Edit"), use("r3", "Read")),
		llmtest.Reply("ok"))
	_, end := h.run(t, context.Background(), "go")
	if end.Reason != engine.ReasonCompleted {
		t.Fatal(end.Err)
	}
	l := log.list()
	idx := func(s string) int {
		for i, e := range l {
			if e == s {
				return i
			}
		}
		return -1
	}
	if !(idx("end r1") < idx("start e") && idx("end r2") < idx("start e") && idx("end e") < idx("start r3")) {
		t.Errorf("order violated: %v", l)
	}
}

func TestFailingBashCancelsRunningSiblingsNotTheTurn(t *testing.T) {
	log := &trace{}
	bash := &fakeTool{name: "Bash", safe: true, fail: true, log: log}
	slow := &fakeTool{name: "Slow", safe: true, delay: 60 * time.Second, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{bash, slow},
		llmtest.Calls(use("s", "Slow"), use("b", "Bash")),
		llmtest.Reply("recovered"))
	start := time.Now()
	evs, end := h.run(t, context.Background(), "go")
	if end.Reason != engine.ReasonCompleted || end.Result != "recovered" {
		t.Fatalf("turn ended %s: %v", end.Reason, end.Err)
	}
	if time.Since(start) > 30*time.Second { // the sibling would take 60 s
		t.Errorf("the slow sibling was not cancelled")
	}
	for _, ev := range evs {
		if r, ok := ev.(*engine.ToolResult); ok && r.ID == "s" {
			if !r.IsError || !strings.Contains(r.Block.ResultText(), "Cancelled") {
				t.Errorf("sibling result = %q", r.Block.ResultText())
			}
		}
	}
	answered(t, h.sess.Messages())
}

func TestUnknownToolAndInvalidInputBecomeErrorResults(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, log: log}
	bad := "{\"id\": "
	h := newHarness(t, engine.Config{}, []tool.Tool{read},
		llmtest.Calls(use("x", "Nope"),
			llmtest.Block{Type: "tool_use", ID: "y", Name: "Read", Input: json.RawMessage(`{"other":1}`)},
			llmtest.Block{Type: "tool_use", ID: "z", Name: "Read", RawInputJSON: &bad}),
		llmtest.Reply("ok"))
	evs, end := h.run(t, context.Background(), "go")
	if end.Reason != engine.ReasonCompleted {
		t.Fatal(end.Err)
	}
	want := map[string]string{"x": "no tool named", "y": "InputValidationError", "z": "not valid JSON"}
	for _, ev := range evs {
		if r, ok := ev.(*engine.ToolResult); ok {
			if !r.IsError || !strings.Contains(r.Block.ResultText(), want[r.ID]) {
				t.Errorf("%s: %q", r.ID, r.Block.ResultText())
			}
		}
	}
	if len(log.list()) != 0 {
		t.Errorf("a tool ran: %v", log.list())
	}
	answered(t, h.sess.Messages())
	h.srv.AssertClean(t)
}

func TestCancelDuringToolAnswersEveryCall(t *testing.T) {
	log := &trace{}
	slow := &fakeTool{name: "Slow", safe: true, delay: 10 * time.Second, log: log}
	edit := &fakeTool{name: "Edit", log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{slow, edit},
		llmtest.Calls(use("a", "Slow"), use("b", "Edit")))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !strings.Contains(strings.Join(log.list(), ";"), "start a") {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	evs, end := h.run(t, ctx, "go")
	if end.Reason != engine.ReasonAbortedTools {
		t.Fatalf("reason %s", end.Reason)
	}
	// The cancel may land before the second block finished streaming; every
	// call that made it into history is answered, in order.
	var uses []string
	for _, m := range h.sess.Messages() {
		for _, u := range m.ToolUses() {
			uses = append(uses, u.ID)
		}
	}
	if got, want := strings.Join(resultIDs(evs), ","), strings.Join(uses, ","); got != want || !strings.HasPrefix(got, "a") {
		t.Errorf("results %s, calls %s", got, want)
	}
	answered(t, h.sess.Messages())
	// The history is valid for the next turn.
	h.srv.Add(llmtest.Reply("after"))
	_, end = h.run(t, context.Background(), "again")
	if end.Result != "after" {
		t.Fatalf("next turn: %s %v", end.Reason, end.Err)
	}
	h.srv.AssertClean(t)
}

func TestMaxTokensEscalatesThenContinuesThenFails(t *testing.T) {
	trunc := func(s string) llmtest.Turn {
		return llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(s)}, StopReason: "max_tokens"}
	}
	h := newHarness(t, engine.Config{}, nil, trunc("a"), trunc("b"), trunc("c"), trunc("d"), trunc("e"))
	_, end := h.run(t, context.Background(), "write a lot")
	if !errors.Is(end.Err, engine.ErrMaxOutputTokens) {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("requests = %d, want 5 (first, escalated retry, 3 continuations)", len(reqs))
	}
	if reqs[0].MaxTokens != engine.DefaultOutputCap || reqs[1].MaxTokens != engine.EscalatedOutputCap {
		t.Errorf("max_tokens = %d then %d", reqs[0].MaxTokens, reqs[1].MaxTokens)
	}
	if len(reqs[1].Messages) != len(reqs[0].Messages) {
		t.Errorf("the escalated retry changed the messages")
	}
	if !strings.Contains(reqs[2].LastUserText(), "cut off") {
		t.Errorf("continuation prompt missing: %q", reqs[2].LastUserText())
	}
	h.srv.AssertClean(t)
}

func TestMidStreamResetIsRetriedWhenNoToolStarted(t *testing.T) {
	h := newHarness(t, engine.Config{}, nil,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("x", 100))}, Fault: &llmtest.Fault{After: 4, Reset: true}},
		llmtest.Reply("second try"))
	evs, end := h.run(t, context.Background(), "hi")
	if end.Result != "second try" {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	var resets int
	for _, ev := range evs {
		if _, ok := ev.(*engine.StreamReset); ok {
			resets++
		}
	}
	if resets != 1 {
		t.Errorf("stream resets = %d", resets)
	}
}

func TestStreamBreakAfterToolStartedFailsCleanly(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, delay: 20 * time.Millisecond, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{read},
		llmtest.Turn{Blocks: []llmtest.Block{use("a", "Read"), llmtest.Text(strings.Repeat("y", 200))},
			Fault: &llmtest.Fault{After: 8, Reset: true}})
	_, end := h.run(t, context.Background(), "hi")
	if end.Reason != engine.ReasonError || end.Err == nil {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	if n := len(h.srv.Requests()); n != 1 {
		t.Errorf("requests = %d; a stream with a started tool must not be replayed", n)
	}
	answered(t, h.sess.Messages())
}

func TestFallbackModelAfterRepeatedOverload(t *testing.T) {
	h := newHarness(t, engine.Config{FallbackModel: "haiku"}, nil,
		llmtest.Overloaded(), llmtest.Overloaded(), llmtest.Overloaded(), llmtest.Reply("from fallback"))
	evs, end := h.run(t, context.Background(), "hi")
	if end.Result != "from fallback" {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	reqs := h.srv.Requests()
	if last := reqs[len(reqs)-1].Model; last != "claude-haiku-4-5" {
		t.Errorf("last model = %s", last)
	}
	if len(reqs) != 4 {
		t.Errorf("requests = %d, want 4", len(reqs))
	}
	var notice bool
	for _, ev := range evs {
		if n, ok := ev.(*engine.Notice); ok && strings.Contains(n.Text, "overloaded") {
			notice = true
		}
	}
	if !notice {
		t.Error("no notice of the switch")
	}
}

func TestMaxTurnsStopsAfterToolRound(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, log: log}
	h := newHarness(t, engine.Config{MaxTurns: 1}, []tool.Tool{read},
		llmtest.Calls(use("a", "Read")), llmtest.Reply("never"))
	_, end := h.run(t, context.Background(), "hi")
	if end.Reason != engine.ReasonMaxTurns {
		t.Fatalf("reason %s", end.Reason)
	}
	if len(h.srv.Requests()) != 1 {
		t.Errorf("requests = %d", len(h.srv.Requests()))
	}
	answered(t, h.sess.Messages())
}

type stopHooks struct {
	calls []bool
	plan  []engine.StopDecision
}

func (s *stopHooks) Stop(_ context.Context, in engine.StopInput) engine.StopDecision {
	s.calls = append(s.calls, in.Active)
	d := s.plan[0]
	s.plan = s.plan[1:]
	return d
}

func TestStopHookBlockContinuesThenPreventEnds(t *testing.T) {
	hooks := &stopHooks{plan: []engine.StopDecision{{Block: true, Reason: "3 tests failed"}, {Prevent: true, StopReason: "enough"}}}
	h := newHarness(t, engine.Config{StopHooks: hooks}, nil, llmtest.Reply("done?"), llmtest.Reply("fixed"))
	_, end := h.run(t, context.Background(), "hi")
	if end.Reason != engine.ReasonStopHook || end.HookReason != "enough" {
		t.Fatalf("end = %s %q", end.Reason, end.HookReason)
	}
	if len(hooks.calls) != 2 || hooks.calls[0] || !hooks.calls[1] {
		t.Errorf("stop_hook_active sequence = %v, want [false true]", hooks.calls)
	}
	if got := h.srv.Requests()[1].LastUserText(); !strings.Contains(got, "3 tests failed") {
		t.Errorf("hook reason not given to the model: %q", got)
	}
}

func TestQueuedMessageStopsCancelToolsAndArrivesAtBoundary(t *testing.T) {
	log := &trace{}
	sh := &fakeTool{name: "Bash", safe: true, behavior: tool.Cancel, delay: 10 * time.Second, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{sh}, llmtest.Calls(use("a", "Bash")), llmtest.Reply("saw it"))
	go func() {
		for !strings.Contains(strings.Join(log.list(), ";"), "start a") {
			time.Sleep(5 * time.Millisecond)
		}
		h.sess.Queue([]llm.ContentBlock{llm.TextBlock("actually, stop that")})
	}()
	_, end := h.run(t, context.Background(), "run it")
	if end.Result != "saw it" {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	reqs := h.srv.Requests()
	if !strings.Contains(reqs[1].LastUserText(), "actually, stop that") {
		t.Errorf("queued message missing from next request: %q", reqs[1].LastUserText())
	}
	answered(t, h.sess.Messages())
	h.srv.AssertClean(t)
}

func TestPrefixStaysByteIdenticalAcrossTurns(t *testing.T) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, log: log}
	h := newHarness(t, engine.Config{UserContext: "<system-reminder>memory</system-reminder>"}, []tool.Tool{read},
		llmtest.Calls(use("a", "Read")), llmtest.Calls(use("b", "Read")), llmtest.Reply("one"), llmtest.Reply("two"))
	h.run(t, context.Background(), "first")
	h.run(t, context.Background(), "second")
	h.srv.AssertClean(t)
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("requests %d", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		a, b := string(reqs[i-1].Body), string(reqs[i].Body)
		cut := strings.Index(a, `"messages":`)
		if a[:cut] != b[:cut] {
			t.Errorf("request %d prefix changed", i)
		}
	}
}

func TestTokenBudgetKeepsWorking(t *testing.T) {
	h := newHarness(t, engine.Config{}, nil,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("part 1")}, Usage: &llmtest.UsageSpec{OutputTokens: 400}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("part 2")}, Usage: &llmtest.UsageSpec{OutputTokens: 700}})
	var end *engine.TurnEnd
	for ev := range h.sess.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock("go +1k")}, TokenBudget: 1000}) {
		if e, ok := ev.(*engine.TurnEnd); ok {
			end = e
		}
	}
	if end.Reason != engine.ReasonCompleted || len(h.srv.Requests()) != 2 {
		t.Fatalf("end %s after %d requests", end.Reason, len(h.srv.Requests()))
	}
}

func TestParseTokenBudget(t *testing.T) {
	for in, want := range map[string]int{"do it +500k": 500_000, "+2M": 2_000_000, "please use 1.5m tokens": 1_500_000, "no budget": 0, "a+5k": 0} {
		if got := engine.ParseTokenBudget(in); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}

type failingRecorder struct{}

func (failingRecorder) Append(*session.Entry) error { return errors.New("disk full") }

// TestUnrecordableSessionNoticeOnce: when the transcript cannot be
// written, the first turn to end says so in a warning notice before its
// TurnEnd, later turns do not repeat it, and RecordError keeps the cause.
func TestUnrecordableSessionNoticeOnce(t *testing.T) {
	h := newHarness(t, engine.Config{Recorder: failingRecorder{}}, nil, llmtest.Reply("one"), llmtest.Reply("two"))
	for i, want := range []int{1, 0} {
		evs, end := h.run(t, context.Background(), "hi")
		if end == nil || end.Err != nil {
			t.Fatalf("turn %d ended %+v", i, end)
		}
		n := 0
		for _, ev := range evs {
			if nt, ok := ev.(*engine.Notice); ok && strings.Contains(nt.Text, "could not be recorded") && strings.Contains(nt.Text, "disk full") {
				n++
			}
		}
		if n != want {
			t.Errorf("turn %d: %d notices about recording, want %d", i, n, want)
		}
	}
	if err := h.sess.RecordError(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("RecordError() = %v", err)
	}
}
