package engine

import (
	"context"
	"encoding/json"
	"errors"
)

// Asker puts a permission question to whoever can answer it: the terminal
// UI, the SDK client (can_use_tool), or a parent agent. Ask blocks until
// the question is answered or ctx is done; an error means no answer (the
// call is denied). Implementations must be safe for concurrent use.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// Question is one permission question.
type Question struct {
	ToolName  string
	ToolUseID string
	Input     json.RawMessage
	// Reason says why the call needs a decision (which rule or mode).
	Reason string
	// Suggestions are rules that would allow such calls from now on, for
	// "don't ask again" answers (Claude Code's permission_suggestions).
	Suggestions []Suggestion
	// BlockedPath is the path outside the working folders, if that is why.
	BlockedPath string
	AgentID     string
}

// Suggestion is a permission update the user may accept with an answer.
type Suggestion struct {
	// Type is "addRules" (the only kind reins suggests).
	Type string `json:"type"`
	// Rules are rule strings such as "Bash(npm test:*)".
	Rules []string `json:"rules"`
	// Behavior is "allow", "deny" or "ask".
	Behavior string `json:"behavior"`
	// Destination is "session", "localSettings", "projectSettings" or
	// "userSettings".
	Destination string `json:"destination"`
	// Mode is the permission mode of a "setMode" update.
	Mode string `json:"mode,omitempty"`
	// Directories are the folders of an "addDirectories" or
	// "removeDirectories" update.
	Directories []string `json:"directories,omitempty"`
}

// Answer is the reply to a Question.
type Answer struct {
	Allow bool
	// UpdatedInput replaces the tool input when non-nil.
	UpdatedInput json.RawMessage
	// Updates are permission changes to apply (remember the decision).
	Updates []Suggestion
	// Message tells the model why the call was denied, or what to do
	// instead.
	Message string
	// Interrupt ends the turn after a denial.
	Interrupt bool
	// Source, when set, classifies the answer for the call's reported
	// permission decision (tool.PermissionDecision.Source): an SDK
	// client's decisionClassification, or "config" for a denial nobody
	// chose. "" infers it: user_permanent for an allow that remembers
	// (Updates), user_temporary for other allows, user_abort for a
	// denial that interrupts, user_reject for other denials.
	Source string
	// ReasonType goes with a Source of "config": what denied the call.
	ReasonType string
}

// ErrNobodyToAsk is returned by an Asker that has no one to put the
// question to; the gate then denies as if there were no Asker at all.
var ErrNobodyToAsk = errors.New("nobody can be asked in this mode")

// DenyAsker answers every question with a denial. Print mode without a
// permission prompt tool uses it.
type DenyAsker struct{}

// Ask denies.
func (DenyAsker) Ask(context.Context, Question) (Answer, error) {
	return Answer{Allow: false}, nil
}
