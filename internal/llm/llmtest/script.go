package llmtest

import (
	"encoding/json"
	"strings"
	"time"
)

// Turn is one scripted response.
type Turn struct {
	// Blocks is the assistant content, in order.
	Blocks []Block `json:"blocks,omitempty"`
	// StopReason defaults to "tool_use" when Blocks hold a tool_use and
	// "end_turn" otherwise.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage overrides the reported usage; by default input tokens are
	// estimated from the request size.
	Usage *UsageSpec `json:"usage,omitempty"`
	// Fault, when set, replaces or interrupts the response.
	Fault *Fault `json:"fault,omitempty"`
	// Delay is a pause before each event (simulates a slow model).
	Delay Duration `json:"delay,omitempty"`
	// Side marks a side call (summary, small-model call): it is not
	// checked for cache stability and does not become the reference.
	Side bool `json:"side,omitempty"`
	// ResetPrefix marks the first request after a compaction: the message
	// prefix check restarts here.
	ResetPrefix bool `json:"reset_prefix,omitempty"`

	// Match selects which request this turn answers; nil matches any.
	Match func(*Request) bool `json:"-"`
	// MatchText, when set, matches requests whose last user message or
	// system prompt contains it (usable from JSON scripts).
	MatchText string `json:"match,omitempty"`
}

// UsageSpec is the usage a turn reports.
type UsageSpec struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	// Final are more usage fields (output_tokens_details, speed, ...)
	// reported with the final output count in message_delta.
	Final map[string]any `json:"final,omitempty"`
}

// Block is one content block of a scripted turn.
type Block struct {
	Type      string          `json:"type"` // text, tool_use, thinking, redacted_thinking, raw
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Data      string          `json:"data,omitempty"`
	// Raw is a complete content block sent as is (server tool blocks).
	Raw json.RawMessage `json:"raw,omitempty"`
	// RawInputJSON, when set, is streamed as the tool input instead of
	// Input, so a test can send invalid JSON.
	RawInputJSON *string `json:"raw_input_json,omitempty"`
}

// Fault is an injected failure.
type Fault struct {
	// Status answers with this HTTP status and an error body.
	Status int `json:"status,omitempty"`
	// ErrorType and Message fill the error body or error event.
	ErrorType string `json:"error_type,omitempty"`
	Message   string `json:"message,omitempty"`
	// RetryAfter / RetryAfterMs set the retry headers; ShouldRetry sets
	// x-should-retry ("true"/"false").
	RetryAfter   string `json:"retry_after,omitempty"`
	RetryAfterMs string `json:"retry_after_ms,omitempty"`
	ShouldRetry  string `json:"should_retry,omitempty"`
	// After is how many SSE events are sent before a mid-stream fault.
	After int `json:"after,omitempty"`
	// Reset closes the connection abruptly after After events.
	Reset bool `json:"reset,omitempty"`
	// Stall stops sending after After events, for StallFor (0: until the
	// client goes away).
	Stall    bool     `json:"stall,omitempty"`
	StallFor Duration `json:"stall_for,omitempty"`
	// Malformed sends a corrupt event after After events.
	Malformed bool `json:"malformed,omitempty"`
	// ErrorEvent sends an SSE error event after After events.
	ErrorEvent bool `json:"error_event,omitempty"`
}

// Duration is a time.Duration that reads "250ms" or a number of
// milliseconds from JSON.
type Duration time.Duration

// UnmarshalJSON reads "1s" or 1000.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := time.ParseDuration(s)
		*d = Duration(v)
		return err
	}
	var ms float64
	if err := json.Unmarshal(b, &ms); err != nil {
		return err
	}
	*d = Duration(time.Duration(ms * float64(time.Millisecond)))
	return nil
}

// Text is a text block.
func Text(s string) Block { return Block{Type: "text", Text: s} }

// ToolUse is a tool_use block; input is marshalled to JSON.
func ToolUse(id, name string, input any) Block {
	b, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return Block{Type: "tool_use", ID: id, Name: name, Input: b}
}

// Thinking is a thinking block with a signature.
func Thinking(text, sig string) Block { return Block{Type: "thinking", Thinking: text, Signature: sig} }

// Reply is a turn answering with text.
func Reply(text string) Turn { return Turn{Blocks: []Block{Text(text)}} }

// Calls is a turn making tool calls (optionally after some text).
func Calls(blocks ...Block) Turn { return Turn{Blocks: blocks} }

// PromptTooLong is a 400 prompt-too-long fault turn.
func PromptTooLong() Turn {
	return Turn{Fault: &Fault{Status: 400, ErrorType: "invalid_request_error",
		Message: "prompt is too long: 210000 tokens > 200000 maximum"}}
}

// Overloaded is a 529 fault turn.
func Overloaded() Turn {
	return Turn{Fault: &Fault{Status: 529, ErrorType: "overloaded_error", Message: "Overloaded"}}
}

// RateLimited is a 429 fault turn with retry-after seconds.
func RateLimited(retryAfter string) Turn {
	return Turn{Fault: &Fault{Status: 429, ErrorType: "rate_limit_error", Message: "rate limited", RetryAfter: retryAfter}}
}

// selective reports whether the turn answers only some requests, so a
// request must be decoded before the turn is chosen.
func (t *Turn) selective() bool { return t.Match != nil || t.MatchText != "" }

func (t *Turn) matches(r *Request) bool {
	if t.Match != nil && !t.Match(r) {
		return false
	}
	if t.MatchText != "" {
		return strings.Contains(r.LastUserText(), t.MatchText) || strings.Contains(r.SystemText(), t.MatchText)
	}
	return true
}
