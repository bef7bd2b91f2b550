package streamjson

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
)

// TestQA10UsageSinceLastResultCountsOnlyNewUsage: each result a Writer
// writes carries the per-model usage since the previous one; a model new
// since then counts whole, and totals that went down (a /clear replaced
// the session) count from zero rather than going negative.
func TestQA10UsageSinceLastResultCountsOnlyNewUsage(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{SessionID: "s"})
	totals := func(m map[string]int) engine.Totals {
		by := map[string]engine.ModelTotals{}
		for id, in := range m {
			by[id] = engine.ModelTotals{Usage: llm.Usage{InputTokens: in, OutputTokens: in / 10,
				CacheCreation: &llm.CacheCreation{Ephemeral5m: in / 100}}, Cost: float64(in) / 1000}
		}
		return engine.Totals{ByModel: by}
	}
	write := func(m map[string]int) map[string]ModelUsage {
		t.Helper()
		r := NewResult("s", &engine.TurnEnd{Reason: engine.ReasonCompleted, Total: totals(m)}, nil)
		if err := w.Line(r); err != nil {
			t.Fatal(err)
		}
		return *r.ModelUsageSinceLastResult
	}
	if got := write(map[string]int{"a": 1000}); got["a"].InputTokens != 1000 || got["a"].CacheCreationEphemeral5mInputTokens != 10 {
		t.Errorf("first result since last = %+v, want all of a", got)
	}
	got := write(map[string]int{"a": 1500, "b": 200})
	if got["a"].InputTokens != 500 || got["a"].OutputTokens != 50 || got["a"].CacheCreationEphemeral5mInputTokens != 5 || got["b"].InputTokens != 200 {
		t.Errorf("second result since last = %+v, want a's 500 new and b's 200", got)
	}
	if got := write(map[string]int{"a": 300}); got["a"].InputTokens != 300 {
		t.Errorf("after a reset, since last = %+v, want a's 300", got)
	}
	if got := write(nil); len(got) != 0 {
		t.Errorf("a result without usage has since last %+v, want none", got)
	}
	lines := bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n"))
	var last map[string]json.RawMessage
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil {
		t.Fatal(err)
	}
	if string(last["model_usage_since_last_result"]) != "{}" {
		t.Errorf("written model_usage_since_last_result = %s, want {}", last["model_usage_since_last_result"])
	}
}

// TestQA10SubagentCounterCountsBetweenTakes: the counter sorts spawns by
// what the call asked, nesting and type, and endings by outcome, and
// starts again from zero after each Take.
func TestQA10SubagentCounterCountsBetweenTakes(t *testing.T) {
	var c SubagentCounter
	yes, no := true, false
	c.Spawned("Explore", 1, &yes, true)
	c.Spawned("Explore", 2, nil, false)
	c.Spawned("general-purpose", 1, &no, false)
	c.Ended(SubagentCompleted)
	c.Ended(SubagentFailed)
	c.Ended(SubagentKilledUser)
	s := c.Take()
	if s.Spawned != 3 || s.Requested.Background != 1 || s.Requested.Unset != 1 || s.Requested.Foreground != 1 ||
		s.StartedInBackground != 1 || s.MaxDepth != 2 || s.SpawnedBySubagents != 1 || s.Completed != 1 || s.Failed != 1 ||
		s.Killed.User != 1 || s.ByType["Explore"] != 2 || s.ByType["general-purpose"] != 1 {
		t.Errorf("stats = %+v", s)
	}
	if s := c.Take(); s.Spawned != 0 || len(s.ByType) != 0 || s.ByType == nil {
		t.Errorf("stats after a take = %+v, want zero with an empty by_type", s)
	}
}

// TestQA10TurnClockMarksTheMainConversationsFirsts: the clock takes the
// first request, stream event, content block and delta of the main
// conversation only, and leaves out what never happened.
func TestQA10TurnClockMarksTheMainConversationsFirsts(t *testing.T) {
	now := time.Unix(0, 0)
	c := NewTurnClock(func() time.Time { return now })
	step := func(ms int, ev engine.Event) {
		now = time.Unix(0, 0).Add(time.Duration(ms) * time.Millisecond)
		c.Observe(ev)
	}
	sub := &engine.RequestStart{}
	engine.SetOrigin(sub, engine.Origin{ParentToolUseID: "toolu_1"})
	step(5, sub)
	step(10, &engine.RequestStart{})
	step(20, &engine.StreamEvent{Event: llm.Event{Type: llm.EventMessageStart}})
	step(30, &engine.StreamEvent{Event: llm.Event{Type: llm.EventContentBlockStart}})
	step(40, &engine.StreamEvent{Event: llm.Event{Type: llm.EventContentBlockDelta}})
	step(50, &engine.StreamEvent{Event: llm.Event{Type: llm.EventContentBlockDelta}})
	step(60, &engine.RequestStart{})
	var r Result
	c.Apply(&r)
	b, _ := json.Marshal(r.Timing)
	if want := `{"ttft_ms":40,"ttft_stream_ms":20,"time_to_request_ms":10,"first_content_frame_ms":30}`; string(b) != want {
		t.Errorf("timing = %s, want %s", b, want)
	}
	var none Result
	NewTurnClock(nil).Apply(&none)
	if b, _ := json.Marshal(none.Timing); string(b) != "{}" {
		t.Errorf("timing of a turn without a request = %s, want none", b)
	}
}
