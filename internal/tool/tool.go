package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"reins/internal/llm"
)

// Interrupt says what happens to a running call when the user sends a new
// message in the middle of a turn. A hard interrupt (Esc, SIGINT, an SDK
// interrupt) stops every call whatever its behaviour.
type Interrupt int

const (
	// Block lets the call finish; the new message waits for the turn
	// boundary.
	Block Interrupt = iota
	// Cancel stops the call and answers it with an interrupted error.
	Cancel
)

// NoLimit, returned by MaxResultChars, exempts a tool's results from being
// written to disk (Read limits itself instead).
const NoLimit = -1

// DefaultMaxResultChars is the largest result kept inline whatever a tool
// declares.
const DefaultMaxResultChars = 50_000

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the name the model calls, e.g. "Read" or "mcp__github__get_issue".
	Name() string
	// Description tells the model what the tool is for and when to prefer
	// another. It must not change within a session (prompt cache).
	Description() string
	// InputSchema is the JSON Schema of the input object.
	InputSchema() json.RawMessage
	// Validate checks an input that already matches the schema, with the
	// tool's own rules (a file must exist, a path must be absolute ...).
	Validate(ctx context.Context, c *Call, input json.RawMessage) error
	// IsReadOnly reports whether the call changes nothing outside reins.
	IsReadOnly(input json.RawMessage) bool
	// IsConcurrencySafe reports whether the call may run beside others.
	IsConcurrencySafe(input json.RawMessage) bool
	// InterruptBehavior says whether a mid-turn user message stops the call.
	InterruptBehavior() Interrupt
	// MaxResultChars is the size past which a result is written to disk
	// and replaced by a preview; 0 means DefaultMaxResultChars and NoLimit
	// means never.
	MaxResultChars() int
	// Call runs the tool. progress may be called from any goroutine until
	// Call returns. An error becomes an error result whose text is the
	// error's message.
	Call(ctx context.Context, c *Call, input json.RawMessage, progress func(Progress)) (*Result, error)
}

// Defaults gives a Tool the conservative answers: not read-only, not
// concurrency-safe, blocks on interrupt, the default result limit, and no
// validation of its own. Embed it and override what differs.
type Defaults struct{}

// Validate accepts every input.
func (Defaults) Validate(context.Context, *Call, json.RawMessage) error { return nil }

// IsReadOnly reports false.
func (Defaults) IsReadOnly(json.RawMessage) bool { return false }

// IsConcurrencySafe reports false.
func (Defaults) IsConcurrencySafe(json.RawMessage) bool { return false }

// InterruptBehavior reports Block.
func (Defaults) InterruptBehavior() Interrupt { return Block }

// MaxResultChars reports 0 (the default limit).
func (Defaults) MaxResultChars() int { return 0 }

// Deferrable is implemented by tools that may be left out of the request
// until the model searches for them (MCP tools, some built-ins).
type Deferrable interface {
	// ShouldDefer reports whether the tool is deferred by default.
	ShouldDefer() bool
	// SearchHint is a short phrase of what the tool does, for search.
	SearchHint() string
}

// Call carries what a tool needs to know about the call being made.
type Call struct {
	ID        string // the tool_use id
	Name      string // the tool name the model used
	SessionID string
	AgentID   string // "" on the main thread
	Cwd       string // the session's working folder
	Model     string // the model that made the call
	// Effort is the effort level asked for the conversation that made the
	// call ("" for the model's default); a sub-agent it starts inherits it.
	Effort string
	// ParentToolUseID is the tool_use id of the Agent call this call runs
	// under, "" on the main thread.
	ParentToolUseID string
	// Transcript is the conversation the call was made in: the messages of
	// the request that produced it, without the user context message. It
	// is shared and must not be changed. Auto mode's classifier reads the
	// user's messages and the earlier tool calls from it.
	Transcript []*llm.Message
	// NotUser marks the user-role messages of Transcript that reins added
	// rather than the user wrote (reminders, task notifications, skill
	// content, compaction summaries). It is shared and must not be
	// changed; nil means none.
	NotUser map[*llm.Message]bool
	// Earlier are the tool_use blocks of the same response that come
	// before this call (the executor fills them in): auto mode's
	// classifier reads them with Transcript, so that calls split across
	// one response are seen together.
	Earlier []llm.ContentBlock
	// ReadDenied, when set (by the permission gate's Before), reports the
	// absolute paths the user's read-deny rules keep from this call: tools
	// that read many files at once (Grep, Glob) leave them out.
	ReadDenied func(abs string) bool
}

// Progress is an update from a running call, passed to front ends as is.
type Progress struct {
	Message string // a short line for display, e.g. the last output line
	Data    any    // tool-specific
}

// Result is what a call returns.
type Result struct {
	// Content is what the model sees: text and image blocks. Empty content
	// becomes "(<Tool> completed with no output)".
	Content []llm.ContentBlock
	IsError bool
	// Data is the structured result for front ends and the SDK's
	// tool_use_result field, with Claude Code's field names.
	Data any
	// Messages are extra user-side content appended after the results of
	// this turn (for example a loaded skill's instructions).
	Messages []llm.ContentBlock
	// StopTurn, set by a Gate's After (a PostToolUse hook's
	// continue:false), ends the turn after the results; StopReason says
	// why.
	StopTurn   bool
	StopReason string
	// Elapsed is how long the call ran, set by the pipeline before the
	// Gate's After (PostToolUse hooks' duration_ms).
	Elapsed time.Duration
}

// Text returns a result holding one text block.
func Text(s string) *Result { return &Result{Content: []llm.ContentBlock{llm.TextBlock(s)}} }

// Errorf returns an error result for the model.
func Errorf(format string, args ...any) *Result {
	r := Text(fmt.Sprintf(format, args...))
	r.IsError = true
	return r
}

// Lookup finds a tool by name; ok is false when no tool has it.
type Lookup func(name string) (Tool, bool)

// Aliased is implemented by a tool the model may also call by older names
// (TaskStop by KillShell). A call under an alias runs as a call of the
// tool's own name: permission rules, hooks and results see that name.
type Aliased interface {
	Aliases() []string
}

// NewLookup returns a Lookup over tools: the first tool with a name wins,
// and a name no tool has reaches the first tool that lists it among its
// Aliases.
func NewLookup(tools []Tool) Lookup {
	m := make(map[string]Tool, len(tools))
	for _, tl := range tools {
		if _, dup := m[tl.Name()]; !dup {
			m[tl.Name()] = tl
		}
	}
	aliases := map[string]Tool{}
	for _, tl := range tools {
		a, ok := tl.(Aliased)
		if !ok {
			continue
		}
		for _, name := range a.Aliases() {
			if _, taken := m[name]; taken {
				continue
			}
			if _, dup := aliases[name]; !dup {
				aliases[name] = tl
			}
		}
	}
	return func(name string) (Tool, bool) {
		if tl, ok := m[name]; ok {
			return tl, true
		}
		tl, ok := aliases[name]
		return tl, ok
	}
}

// aliasOf reports whether name is one of t's aliases rather than its name.
func aliasOf(t Tool, name string) bool {
	a, ok := t.(Aliased)
	if !ok || name == t.Name() {
		return false
	}
	for _, n := range a.Aliases() {
		if n == name {
			return true
		}
	}
	return false
}
