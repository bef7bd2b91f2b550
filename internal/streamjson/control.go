package streamjson

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// ControlRequest is a control_request line: a question one side of the SDK
// protocol puts to the other, answered by a ControlResponse with the same
// request id. reins sends can_use_tool, hook_callback and mcp_message.
type ControlRequest struct {
	Type      string `json:"type"` // "control_request"
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

// NewControlRequest returns a control_request line carrying req, whose
// "subtype" member names the request.
func NewControlRequest(id string, req any) ControlRequest {
	return ControlRequest{Type: "control_request", RequestID: id, Request: req}
}

// ControlResponse is a control_response line.
type ControlResponse struct {
	Type     string        `json:"type"` // "control_response"
	Response ControlResult `json:"response"`
}

// ControlResult is the body of a control_response: subtype "success" with
// a response object, or "error" with a message.
type ControlResult struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	// Response is set on success ({} when there is nothing to say).
	Response any `json:"response,omitempty"`
	// Error is set on error.
	Error string `json:"error,omitempty"`
	// PendingPermissionRequests and PendingUserDialogRequests answer an
	// initialize: the can_use_tool (and user dialog) requests sent and
	// not yet answered, as they were sent, so that a client joining the
	// session can answer them. Set (possibly empty) on initialize
	// answers only.
	PendingPermissionRequests *[]ControlRequest `json:"pending_permission_requests,omitempty"`
	PendingUserDialogRequests *[]ControlRequest `json:"pending_user_dialog_requests,omitempty"`
}

// NewControlSuccess answers request id with resp; a nil resp is sent as {}.
func NewControlSuccess(id string, resp any) ControlResponse {
	if resp == nil {
		resp = json.RawMessage("{}")
	}
	return ControlResponse{Type: "control_response", Response: ControlResult{Subtype: "success", RequestID: id, Response: resp}}
}

// NewControlError answers request id with an error message.
func NewControlError(id, msg string) ControlResponse {
	return ControlResponse{Type: "control_response", Response: ControlResult{Subtype: "error", RequestID: id, Error: msg}}
}

// ControlCancel is a control_cancel_request line: the sender abandons a
// request it made, and the other side must not answer it.
type ControlCancel struct {
	Type      string `json:"type"` // "control_cancel_request"
	RequestID string `json:"request_id"`
}

// NewControlCancel returns a control_cancel_request line for request id.
func NewControlCancel(id string) ControlCancel {
	return ControlCancel{Type: "control_cancel_request", RequestID: id}
}

// Session states reported by session_state_changed lines.
const (
	StateIdle           = "idle"
	StateRunning        = "running"
	StateRequiresAction = "requires_action"
)

// NewSessionState returns a system/session_state_changed line: the session
// became idle, started running a turn, or waits for an answer from the
// client (requires_action). These lines are meant for SDK hosts only.
func NewSessionState(sessionID, state string) System {
	return System{Type: "system", Subtype: "session_state_changed", SessionID: sessionID, UUID: uuid.NewString(),
		Fields: map[string]any{"state": state, "sdk_host_only": true}}
}

// NewPermissionStatus is the system status line that tells the client
// the session's permission mode is now mode.
func NewPermissionStatus(sessionID, mode string) System {
	return System{Type: "system", Subtype: "status", SessionID: sessionID, UUID: uuid.NewString(),
		Fields: map[string]any{"status": nil, "permissionMode": mode}}
}

// HookResult is what a finished hook reports in a hook_response line.
type HookResult struct {
	Output   string
	Stdout   string
	Stderr   string
	ExitCode *int
	// Outcome is "success", "error" or "cancelled".
	Outcome string
}

// NewHookStarted returns a system/hook_started line (--include-hook-events).
func NewHookStarted(sessionID, hookID, hookName, hookEvent string) System {
	return System{Type: "system", Subtype: "hook_started", SessionID: sessionID, UUID: uuid.NewString(),
		Fields: map[string]any{"hook_id": hookID, "hook_name": hookName, "hook_event": hookEvent}}
}

// NewHookResponse returns a system/hook_response line for a finished hook.
func NewHookResponse(sessionID, hookID, hookName, hookEvent string, r HookResult) System {
	f := map[string]any{"hook_id": hookID, "hook_name": hookName, "hook_event": hookEvent,
		"output": r.Output, "stdout": r.Stdout, "stderr": r.Stderr, "outcome": r.Outcome}
	if r.ExitCode != nil {
		f["exit_code"] = *r.ExitCode
	}
	return System{Type: "system", Subtype: "hook_response", SessionID: sessionID, UUID: uuid.NewString(), Fields: f}
}

// SessionID returns the session id stamped on lines.
func (w *Writer) SessionID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.opts.SessionID
}

// ConversationReset is the conversation_reset line Claude Code writes when
// "/clear" discards the conversation: a client mounts a fresh transcript
// under NewConversationID.
type ConversationReset struct {
	Type              string `json:"type"`
	NewConversationID string `json:"new_conversation_id"`
	UUID              string `json:"uuid"`
	SessionID         string `json:"session_id"`
	Trigger           string `json:"trigger"`
	UserMessageUUID   string `json:"user_message_uuid,omitempty"`
	Timestamp         string `json:"timestamp"`
}

// NewConversationReset returns the conversation_reset line of a "/clear"
// that started session newID; messageUUID is the uuid of the user
// message that carried the command, when it had a canonical one. Like
// every line written after the reset, it carries the new session's id
// (Claude Code stamps its queued lines with the current session's id as
// it writes them), so session_id equals new_conversation_id.
func NewConversationReset(newID, messageUUID string) ConversationReset {
	if _, err := uuid.Parse(messageUUID); err != nil {
		messageUUID = ""
	}
	return ConversationReset{Type: "conversation_reset", NewConversationID: newID, UUID: uuid.NewString(),
		SessionID: newID, Trigger: "clear", UserMessageUUID: messageUUID,
		Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}
}
