package streamjson

import (
	"sync"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
)

// SubagentStats is a result line's subagent_stats: the sub-agents (Agent
// tool runs) started and ended since the previous result line, in
// Claude Code's shape.
type SubagentStats struct {
	Spawned int `json:"spawned"`
	// Requested splits Spawned by what the call asked for:
	// run_in_background true, false, or not given.
	Requested struct {
		Background int `json:"background"`
		Foreground int `json:"foreground"`
		Unset      int `json:"unset"`
	} `json:"requested"`
	StartedInBackground int `json:"started_in_background"`
	// MaxDepth is the deepest nesting level among them (1: started by
	// the main conversation).
	MaxDepth           int `json:"max_depth"`
	SpawnedBySubagents int `json:"spawned_by_subagents"`
	Completed          int `json:"completed"`
	Failed             int `json:"failed"`
	// Killed counts runs stopped before they finished: by the user
	// (an interrupt), by the agent that started them, or by reins.
	Killed struct {
		Parent int `json:"parent"`
		User   int `json:"user"`
		System int `json:"system"`
	} `json:"killed"`
	// Refused counts calls refused before a sub-agent started. reins
	// has no concurrency or budget limit on sub-agents, and offers no
	// Agent tool past the depth limit, so they stay 0.
	Refused struct {
		DepthLimit       int `json:"depth_limit"`
		ConcurrencyLimit int `json:"concurrency_limit"`
		Budget           int `json:"budget"`
	} `json:"refused"`
	// ByType counts Spawned by agent type.
	ByType map[string]int `json:"by_type"`
}

// NewSubagentStats returns empty stats (by_type an empty object).
func NewSubagentStats() SubagentStats { return SubagentStats{ByType: map[string]int{}} }

// How a sub-agent's run ended, for SubagentCounter.Ended.
const (
	SubagentCompleted    = "completed"
	SubagentFailed       = "failed"
	SubagentKilledUser   = "killed_user"
	SubagentKilledParent = "killed_parent"
	SubagentKilledSystem = "killed_system"
)

// SubagentCounter counts sub-agent runs between result lines. It is safe
// for concurrent use; the zero value is ready.
type SubagentCounter struct {
	mu sync.Mutex
	s  SubagentStats
}

// Spawned counts a sub-agent of agentType starting at depth; requested
// is the call's run_in_background (nil when not given) and background
// whether it runs there.
func (c *SubagentCounter) Spawned(agentType string, depth int, requested *bool, background bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s.ByType == nil {
		c.s.ByType = map[string]int{}
	}
	c.s.Spawned++
	c.s.ByType[agentType]++
	switch {
	case requested == nil:
		c.s.Requested.Unset++
	case *requested:
		c.s.Requested.Background++
	default:
		c.s.Requested.Foreground++
	}
	if background {
		c.s.StartedInBackground++
	}
	c.s.MaxDepth = max(c.s.MaxDepth, depth)
	if depth > 1 {
		c.s.SpawnedBySubagents++
	}
}

// Ended counts a sub-agent's run ending as how says (Subagent...).
func (c *SubagentCounter) Ended(how string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch how {
	case SubagentCompleted:
		c.s.Completed++
	case SubagentFailed:
		c.s.Failed++
	case SubagentKilledUser:
		c.s.Killed.User++
	case SubagentKilledParent:
		c.s.Killed.Parent++
	case SubagentKilledSystem:
		c.s.Killed.System++
	}
}

// Take returns the counts since the last Take and starts again from 0.
func (c *SubagentCounter) Take() SubagentStats {
	if c == nil {
		return NewSubagentStats()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.s
	if s.ByType == nil {
		s.ByType = map[string]int{}
	}
	c.s = NewSubagentStats()
	return s
}

// Timing is a result line's latency fields, in milliseconds from the
// start of the turn: to the first model request sent (time_to_request_ms),
// to the first streamed event of its response (ttft_stream_ms), to the
// first content block (first_content_frame_ms) and to the first token of
// content (ttft_ms). Each is left out when the turn never got that far
// (a local command, an error before the request).
type Timing struct {
	TTFTMs              *int64 `json:"ttft_ms,omitempty"`
	TTFTStreamMs        *int64 `json:"ttft_stream_ms,omitempty"`
	TimeToRequestMs     *int64 `json:"time_to_request_ms,omitempty"`
	FirstContentFrameMs *int64 `json:"first_content_frame_ms,omitempty"`
}

// TurnClock measures a turn's Timing from the events of its main
// conversation (a sub-agent's requests do not count). Start it when the
// turn starts, feed it every event, Apply it to the result. It is not
// safe for concurrent use.
type TurnClock struct {
	now   func() time.Time
	start time.Time
	t     Timing
}

// NewTurnClock starts a clock now (now nil: time.Now).
func NewTurnClock(now func() time.Time) *TurnClock {
	if now == nil {
		now = time.Now
	}
	return &TurnClock{now: now, start: now()}
}

// Observe notes the first request, stream event, content block and
// content delta of the main conversation.
func (c *TurnClock) Observe(ev engine.Event) {
	if engine.From(ev).ParentToolUseID != "" {
		return
	}
	mark := func(p **int64) {
		if *p == nil {
			ms := c.now().Sub(c.start).Milliseconds()
			*p = &ms
		}
	}
	switch e := ev.(type) {
	case *engine.RequestStart:
		mark(&c.t.TimeToRequestMs)
	case *engine.StreamEvent:
		if c.t.TimeToRequestMs == nil {
			return
		}
		mark(&c.t.TTFTStreamMs)
		switch e.Event.Type {
		case llm.EventContentBlockStart:
			mark(&c.t.FirstContentFrameMs)
		case llm.EventContentBlockDelta:
			mark(&c.t.FirstContentFrameMs)
			mark(&c.t.TTFTMs)
		}
	}
}

// Apply sets r's timing fields.
func (c *TurnClock) Apply(r *Result) {
	if c != nil {
		r.Timing = c.t
	}
}

// sinceLast is the per-model usage in now that was not in before: the
// usage since the previous result. A model whose counts went down (the
// session was replaced, by /clear) counts from 0.
func sinceLast(now, before map[string]engine.ModelTotals) map[string]ModelUsage {
	diff := make(map[string]engine.ModelTotals, len(now))
	for id, mt := range now {
		b, ok := before[id]
		if ok && b.Usage.InputTokens <= mt.Usage.InputTokens && b.Usage.OutputTokens <= mt.Usage.OutputTokens && b.Cost <= mt.Cost {
			mt.Usage = subUsage(mt.Usage, b.Usage)
			mt.Cost -= b.Cost
		}
		diff[id] = mt
	}
	return ModelUsages(diff)
}

// subUsage is a minus b for the counts modelUsage reports.
func subUsage(a, b llm.Usage) llm.Usage {
	out := llm.Usage{InputTokens: a.InputTokens - b.InputTokens, OutputTokens: a.OutputTokens - b.OutputTokens,
		CacheCreationInputTokens: a.CacheCreationInputTokens - b.CacheCreationInputTokens,
		CacheReadInputTokens:     a.CacheReadInputTokens - b.CacheReadInputTokens}
	if a.ServerToolUse != nil {
		s := *a.ServerToolUse
		if b.ServerToolUse != nil {
			s.WebSearchRequests -= b.ServerToolUse.WebSearchRequests
			s.WebFetchRequests -= b.ServerToolUse.WebFetchRequests
		}
		out.ServerToolUse = &s
	}
	if a.CacheCreation != nil {
		cc := *a.CacheCreation
		if b.CacheCreation != nil {
			cc.Ephemeral5m -= b.CacheCreation.Ephemeral5m
			cc.Ephemeral1h -= b.CacheCreation.Ephemeral1h
		}
		out.CacheCreation = &cc
	}
	if a.ThinkingTokens() > 0 {
		out.OutputTokensDetails = &llm.OutputTokensDetails{ThinkingTokens: a.ThinkingTokens() - b.ThinkingTokens()}
	}
	return out
}
