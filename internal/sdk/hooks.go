package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"reins/internal/hooks"
)

// callbackHook is a hook the client registered in initialize: running it
// sends hook_callback and the answer is the hook's JSON output.
type callbackHook struct {
	s  *Server
	id string
	// block says a failed callback (an error answer, no answer in time)
	// blocks what its event guards, as a hook exiting 2 does: the
	// matcher's onFailure "block".
	block bool
}

// failureIgnored are the events whose matchers' onFailure is ignored: a
// block there would make the model go on rather than stop anything.
var failureIgnored = map[hooks.Event]bool{hooks.Stop: true, hooks.SubagentStop: true}

// hookCallback is the hook_callback request body.
type hookCallback struct {
	Subtype    string          `json:"subtype"`
	CallbackID string          `json:"callback_id"`
	Input      json.RawMessage `json:"input"`
	// ToolUseID is the tool call's id for a tool event, else a fresh
	// UUID for this callback.
	ToolUseID *string `json:"tool_use_id"`
}

// Run asks the client to run the callback with input and returns its
// answer as the hook's output (exit code 0, the answer on stdout).
func (h *callbackHook) Run(ctx context.Context, input []byte) hooks.Output {
	req := hookCallback{Subtype: "hook_callback", CallbackID: h.id, Input: input}
	var in struct {
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(input, &in) != nil || in.ToolUseID == "" {
		// An event of no tool call still gets an id of its own, as
		// Claude Code gives one, so a host can tell callbacks apart.
		in.ToolUseID = uuid.NewString()
	}
	req.ToolUseID = &in.ToolUseID
	raw, err := h.s.peer.request(ctx, "hook_callback", req)
	if err != nil && h.block && hookEvent(input) == hooks.PermissionRequest {
		// Exit 2 does not deny a permission; the decision object does.
		msg := fmt.Sprintf("hook callback %s failed and its matcher's onFailure is \"block\": %v", h.id, err)
		b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": hooks.PermissionRequest,
			"decision": map[string]any{"behavior": "deny", "message": msg}}})
		return hooks.Output{Name: h.id, Stdout: string(b)}
	}
	if err != nil && h.block {
		return hooks.Output{Name: h.id, ExitCode: 2,
			Stderr: fmt.Sprintf("hook callback %s failed and its matcher's onFailure is \"block\": %v", h.id, err)}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return hooks.Output{Name: h.id, TimedOut: true}
		}
		return hooks.Output{Name: h.id, Err: err}
	}
	out := string(raw)
	if out == "null" {
		out = ""
	}
	return hooks.Output{Name: h.id, Stdout: out}
}

// HookProgress writes hook_started and hook_response lines for hooks as
// they start and finish (--include-hook-events). Pass it as the hook
// runner's Notify; it is safe for concurrent use.
func (s *Server) HookProgress(p hooks.Progress) { s.hookEvents.Progress(p) }

// hookEvent is the event a hook input is for.
func hookEvent(input []byte) hooks.Event {
	var in struct {
		Event hooks.Event `json:"hook_event_name"`
	}
	_ = json.Unmarshal(input, &in)
	return in.Event
}
