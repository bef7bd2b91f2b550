package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Provider is a model back end. Implementations must be safe for
// concurrent use: the main conversation, sub-agents and side calls share
// one Provider.
type Provider interface {
	// Stream sends req and returns the streamed response. Errors that happen
	// before the first event (after any retries the provider makes) are
	// returned here; later ones come from Stream.Next. Cancelling ctx ends
	// the stream.
	Stream(ctx context.Context, req *Request) (Stream, error)
}

// Stream is a response being received.
type Stream interface {
	// Next returns the next event, io.EOF after message_stop, or the error
	// that ended the stream (an *APIError for an API error event).
	Next() (Event, error)
	// Close releases the connection. It is safe to call more than once.
	Close() error
}

// SystemBlock is one text block of the system prompt. Cache marks the end of
// a stable prefix that should become a prompt-cache breakpoint.
type SystemBlock struct {
	Text  string
	Cache bool
}

// ToolSpec is a tool as the model sees it. For a server tool (such as the
// Anthropic web search tool) Raw holds its complete definition and the
// other fields are ignored.
type ToolSpec struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Raw         json.RawMessage
}

// Thinking configures extended thinking. Type is "enabled" (with
// BudgetTokens), "adaptive", or "disabled". Display, when set, says how
// the thinking text comes back ("summarized" or "omitted"); it goes with
// "enabled" and "adaptive" only.
type Thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
	Display      string `json:"display,omitempty"`
}

// Request is one model call.
type Request struct {
	Model     string
	System    []SystemBlock
	Tools     []ToolSpec
	Messages  []*Message
	MaxTokens int

	Thinking    *Thinking
	Temperature *float64
	ToolChoice  json.RawMessage
	// Effort, when set, is sent as output_config.effort (merged into an
	// output_config that Extra carries, whose own effort wins).
	Effort string
	Betas  []string
	// Extra fields merged into the request body at the top level
	// (for example output_config or metadata).
	Extra map[string]json.RawMessage

	// CacheTTL, when non-empty, is the TTL of the cache breakpoints the
	// provider places ("5m" or "1h"). NoCache turns breakpoints off.
	CacheTTL string
	NoCache  bool

	// MaxOverloadRetries, when positive, caps retries of overloaded (529)
	// responses below the general limit, so a fallback model can take
	// over sooner.
	MaxOverloadRetries int

	// OnRetry, when set, is called before the provider waits to retry a
	// failed attempt. It must not block.
	OnRetry func(RetryInfo)
}

// RetryInfo describes an upcoming retry.
type RetryInfo struct {
	Attempt int           // 1 for the first retry
	Max     int           // retries allowed
	Delay   time.Duration // wait before the attempt
	Err     error         // what failed
}
