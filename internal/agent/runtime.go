package agent

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"strings"

	"reins/internal/llm"
)

// DefaultMaxDepth is how deep sub-agents nest by default: the main
// conversation may start sub-agents, and they may not start their own.
const DefaultMaxDepth = 1

// Spec is one sub-agent to start, as the Agent tool hands it to a Spawner.
// Everything in it has already been narrowed: Tools are a subset of the
// parent's, Model is resolved.
type Spec struct {
	// Definition is the agent type. Its Prompt, PermissionMode, MaxTurns,
	// DisallowedTools rules and ReadOnly apply to the sub-agent.
	Definition *Definition
	// AgentID identifies the sub-agent (transcript, hooks, events).
	AgentID string
	// Description is the caller's 3-5 word label for the task.
	Description string
	// Prompt is the task: the sub-agent's first user message.
	Prompt string
	// Model is the model id the sub-agent runs.
	Model string
	// ParentToolUseID is the Agent tool_use that started it; the
	// sub-agent's events carry it.
	ParentToolUseID string
	// Depth is the sub-agent's nesting level: 1 for a sub-agent of the
	// main conversation.
	Depth int
	// Background is set for run_in_background: nobody can be asked, so a
	// call that needs approval is denied (DESIGN invariant 5).
	Background bool
	// BackgroundAsked is the call's run_in_background as given, nil when
	// the call left it out (result lines count the three cases).
	BackgroundAsked *bool
	// ParentTranscript is the conversation the Agent call was made in
	// (tool.Call.Transcript). Auto mode's classifier reads it to see what
	// the user asked, since the sub-agent's own task is the parent
	// agent's words.
	ParentTranscript []*llm.Message
	// ParentNotUser marks the messages of ParentTranscript that reins
	// added (tool.Call.NotUser).
	ParentNotUser map[*llm.Message]bool
	// Tools are the names of the tools the sub-agent gets, in order. An
	// "Agent" entry means it may start sub-agents of its own (at Depth+1).
	Tools []string
	// Effort is the effort level asked for the sub-agent: the call's,
	// else its definition's, else its caller's ("" for the model's
	// default).
	Effort string
	// Isolation is IsolationWorktree to run the sub-agent in a git
	// worktree of its own, or "".
	Isolation string
}

// Result is how a sub-agent's conversation ended.
type Result struct {
	// Text is the last assistant text: the answer the parent receives.
	Text string
	// Reason is the engine's terminal reason ("completed", "max_turns",
	// "error", "aborted_streaming" ...).
	Reason string
	// Err explains a turn that ended on an error, nil otherwise.
	Err error
	// Turns is the number of model responses.
	Turns int
	// ToolUses is the number of tool calls the sub-agent made.
	ToolUses int
	// Usage is the sum over every response; LastUsage is the final
	// response's (its context size).
	Usage     llm.Usage
	LastUsage llm.Usage
	// Cost is USD for Usage; 0 when the price is unknown.
	Cost float64
	// WorktreePath and WorktreeBranch name the git worktree an isolated
	// sub-agent left changes in; both are empty when it ran in the
	// caller's folder or changed nothing (its worktree is removed then).
	WorktreePath   string
	WorktreeBranch string
}

// Progress is what a background sub-agent reports as it works, passed to
// Run's emit in place of its events: the tool calls it made so far, the
// one it just started, and the tokens of its context.
type Progress struct {
	ToolUses int
	LastTool string
	Tokens   int
}

// Conversation is a started sub-agent. Run it once, then Close it.
type Conversation interface {
	// Run sends the prompt and runs the sub-agent until its turn ends,
	// calling emit (when not nil) with each of its events in order, from
	// the calling goroutine. The events are the engine's, already tagged
	// with the sub-agent's origin; a parent passes them up unchanged. At
	// each tool call it starts, a sub-agent also emits a Progress value
	// (a foreground one may move to the background, where that is all
	// that is reported); a background sub-agent (Spec.Background) emits
	// only those.
	// Cancelling ctx stops the sub-agent; Run then returns what it had.
	// The error is for failures to run at all; a turn that ended badly is
	// reported in Result.Reason and Result.Err.
	Run(ctx context.Context, emit func(event any)) (*Result, error)
	// Close releases everything the sub-agent owns: its background shells
	// and their processes, MCP connections it opened, its transcript
	// file. It waits for them and is safe to call more than once.
	Close() error
}

// Backgrounder is a Conversation that can be told the user moved it to
// the background while it ran (Ctrl+B, the SDK's background_tasks). From
// then on nobody watches it, so a call of its that needs approval is
// denied, with a result that says why, instead of being asked: a
// background sub-agent has only the permissions it had without asking.
type Backgrounder interface {
	MovedToBackground()
}

// Spawner starts sub-agents. The CLI implements it on top of the engine;
// this package and the Agent tool see only this interface. Spawn prepares
// the sub-agent (tools, gate, system prompt, transcript) and fires the
// SubagentStart hooks, bounded by ctx; the Conversation must not keep ctx,
// since a background sub-agent outlives the call that started it.
// Implementations must be safe for concurrent use.
type Spawner interface {
	Spawn(ctx context.Context, spec Spec) (Conversation, error)
}

// NewID returns a fresh agent id: "a" and 16 hex digits.
func NewID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return "a" + hex.EncodeToString(b[:])
}

//go:embed subagent_notes.md
var subagentNotes string

// SystemPrompt returns the sub-agent's system prompt: the definition's
// prompt followed by the notes every sub-agent gets (how its answer
// reaches the caller). The environment section is added by the caller.
func (d *Definition) SystemPrompt() string {
	p := strings.TrimSpace(d.Prompt)
	notes := strings.TrimSpace(subagentNotes)
	if p == "" {
		return notes
	}
	return p + "\n\n" + notes
}
