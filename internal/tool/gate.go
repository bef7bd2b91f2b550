package tool

import (
	"context"
	"encoding/json"
)

// Gate decides whether a call may run and observes what it returned. The
// engine supplies one that runs PreToolUse/PostToolUse hooks and the
// permission decision; a Gate must be safe for concurrent use.
type Gate interface {
	// Before runs after validation and before the call.
	Before(ctx context.Context, c *Call, t Tool, input json.RawMessage) Verdict
	// After runs once the call returned (successfully or not) and may add
	// context for the model to res.
	After(ctx context.Context, c *Call, t Tool, input json.RawMessage, res *Result)
}

// Verdict is a Gate's decision on one call.
type Verdict struct {
	Allow bool
	// Input replaces the model's input when non-nil (a hook or an SDK
	// permission callback changed it).
	Input json.RawMessage
	// Reason explains a refusal to the model.
	Reason string
	// Denied marks a refusal by permission (reported in
	// permission_denials), as opposed to a hook block.
	Denied bool
	// DeniedBy names what refused a Denied call when front ends report it
	// on its own (Claude Code's decision_reason_type): "classifier" for
	// auto mode's classifier; "" otherwise.
	DeniedBy string
	// Interrupt ends the turn after this call is answered.
	Interrupt bool
	// StopTurn ends the turn after the results (a hook's
	// continue:false); with Allow the call still runs first.
	StopTurn   bool
	StopReason string
	// Context is extra text for the model, appended to the result.
	Context []string
	// Permission is what decided the call, for front ends to report
	// (nil when the gate made no permission decision).
	Permission *PermissionDecision
}

// PermissionDecision says how a call's permission was settled, in Claude
// Code's terms (a tool result's tool_result_meta): Decision is "accept"
// or "reject"; Source is who decided ("config" for the permission mode or
// rules, "hook", "classifier" for auto mode's, "user_temporary",
// "user_permanent", "user_reject" or "user_abort" for an answer);
// ReasonType, when the decision came from configuration, hooks or the
// classifier, is what in it decided ("mode", "rule", "hook",
// "classifier", "safetyCheck", "asyncAgent", "other").
type PermissionDecision struct {
	Decision   string `json:"decision"`
	Source     string `json:"source"`
	ReasonType string `json:"reason_type,omitempty"`
}

// Values of PermissionDecision.Decision.
const (
	DecisionAccept = "accept"
	DecisionReject = "reject"
)

// AllowAll is a Gate that lets every call run. It is for tests and for
// bypassPermissions without hooks.
type AllowAll struct{}

// Before allows the call.
func (AllowAll) Before(context.Context, *Call, Tool, json.RawMessage) Verdict {
	return Verdict{Allow: true}
}

// After does nothing.
func (AllowAll) After(context.Context, *Call, Tool, json.RawMessage, *Result) {}
