package engine

import (
	"encoding/json"
	"time"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Event is something that happened in a turn. Front ends switch on the
// concrete type. Every event carries its Origin: events of a sub-agent name
// the Agent tool_use they run under.
type Event interface {
	origin() *Origin
}

// Origin says where an event comes from.
type Origin struct {
	// ParentToolUseID is the tool_use id of the Agent call a sub-agent's
	// event belongs to; "" for the main conversation.
	ParentToolUseID string
	// AgentID identifies the sub-agent; "" for the main conversation.
	AgentID string
}

func (o *Origin) origin() *Origin { return o }

// From returns an event's origin.
func From(e Event) Origin { return *e.origin() }

// SetOrigin re-tags an event (a parent forwarding a sub-agent's events).
func SetOrigin(e Event, o Origin) { *e.origin() = o }

// RequestStart: a model request is about to be sent.
type RequestStart struct {
	Origin
	Model   string
	Attempt int // 0 for the first try of this request
}

// StreamEvent is a raw streamed event of the model response, for front ends
// that pass them through (stream-json --include-partial-messages).
type StreamEvent struct {
	Origin
	Event llm.Event
}

// TextDelta is a piece of assistant text as it streams.
type TextDelta struct {
	Origin
	Index int
	Text  string
}

// ThinkingDelta is a piece of thinking text as it streams.
type ThinkingDelta struct {
	Origin
	Index int
	Text  string
}

// StreamReset: the response streamed so far is discarded (the request is
// being retried or sent to the fallback model); front ends drop partial
// text they showed for it.
type StreamReset struct {
	Origin
	Reason string
}

// AssistantBlock is one complete content block of an assistant message,
// reported as soon as it is complete. Message holds the message so far
// (id, model, usage, and the blocks completed up to this one).
type AssistantBlock struct {
	Origin
	UUID    string
	Message *llm.Message
	Block   llm.ContentBlock
}

// AssistantMessage is a complete assistant message, as added to history.
type AssistantMessage struct {
	Origin
	UUID    string
	Message *llm.Message
}

// UserMessage is a user message added to history: the prompt, a meta
// message (continuation, hook feedback), or extra content after tool
// results. Tool results have their own event.
type UserMessage struct {
	Origin
	UUID    string
	Message *llm.Message
	Meta    bool // not typed by the user
}

// ToolStart: a tool call passed its checks and is running.
type ToolStart struct {
	Origin
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolProgress is an update from a running call.
type ToolProgress struct {
	Origin
	ID       string
	Name     string
	Progress tool.Progress
}

// ToolResult is the answer to one call, in call order.
type ToolResult struct {
	Origin
	UUID    string // of the user message carrying the result, for display
	ID      string
	Name    string
	Input   json.RawMessage
	Block   llm.ContentBlock // the tool_result block the model sees
	IsError bool
	Data    any // structured result (tool_use_result)
	// Denied is set when permission refused the call.
	Denied   bool
	Duration time.Duration
	// Permission is how the call's permission was settled; nil when the
	// call never reached the permission check (invalid input).
	Permission *tool.PermissionDecision
}

// Retry: a failed request will be retried after Delay.
type Retry struct {
	Origin
	Attempt int
	Max     int
	Delay   time.Duration
	Err     error
}

// Usage reports tokens and cost after each model response.
type Usage struct {
	Origin
	Model    string
	Response llm.Usage // this response
	Cost     float64   // USD for this response; 0 when the price is unknown
	Total    Totals    // the session so far
}

// Notice is a message for the user that is not part of the conversation:
// a model fallback, a compaction, a warning.
type Notice struct {
	Origin
	Level string // "info", "warning" or "error"
	Text  string
}

// PermissionDenied reports a call refused without asking anyone, by what
// DeniedBy names ("classifier": auto mode's classifier); stream-json
// shows it as a permission_denied system message. The call's error
// result follows as usual.
type PermissionDenied struct {
	Origin
	ToolName  string
	ToolUseID string
	DeniedBy  string
	Reason    string
}

// CompactBoundary: the history before this point was replaced by a summary.
type CompactBoundary struct {
	Origin
	UUID      string
	Trigger   string // "manual" or "auto"
	PreTokens int
}

// TodoUpdate carries the session's todo list after a change.
type TodoUpdate struct {
	Origin
	Todos any
}

// Reason is why a turn ended.
type Reason string

// Terminal reasons.
const (
	ReasonCompleted     Reason = "completed"
	ReasonMaxTurns      Reason = "max_turns"
	ReasonAbortedTools  Reason = "aborted_tools"
	ReasonAborted       Reason = "aborted_streaming"
	ReasonStopHook      Reason = "stop_hook_prevented"
	ReasonBlockingLimit Reason = "blocking_limit"
	ReasonBudget        Reason = "max_budget_usd"
	ReasonError         Reason = "error"
)

// TurnEnd is the last event of a turn.
type TurnEnd struct {
	Origin
	Reason Reason
	// Err is set when the turn ended on an error (Reason "error"), and
	// may explain other reasons.
	Err error
	// Result is the text of the last assistant message.
	Result string
	// StopReason is the API stop_reason of the last response.
	StopReason string
	// NumTurns is the number of model responses in this turn.
	NumTurns int
	Duration time.Duration
	APITime  time.Duration
	Usage    llm.Usage // this turn
	Cost     float64   // this turn, USD
	Total    Totals
	Denials  []Denial
	// HookReason is a stop hook's stopReason (ReasonStopHook).
	HookReason string
}

// Denial is a call refused by permission.
type Denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// Totals is the session's running account.
type Totals struct {
	Usage   llm.Usage
	Cost    float64
	APITime time.Duration
	// ByModel is per-model usage and cost.
	ByModel map[string]ModelTotals
	// CostUnknown is set when some usage had no known price.
	CostUnknown bool
}

// ModelTotals is one model's share of Totals.
type ModelTotals struct {
	Usage llm.Usage
	Cost  float64
	Info  llm.ModelInfo
}
