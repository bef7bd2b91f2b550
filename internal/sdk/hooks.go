package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"reins/internal/hooks"
	"reins/internal/streamjson"
)

// callbackHook is a hook the client registered in initialize: running it
// sends hook_callback and the answer is the hook's JSON output.
type callbackHook struct {
	s  *Server
	id string
}

// hookCallback is the hook_callback request body.
type hookCallback struct {
	Subtype    string          `json:"subtype"`
	CallbackID string          `json:"callback_id"`
	Input      json.RawMessage `json:"input"`
	ToolUseID  *string         `json:"tool_use_id"`
}

// Run asks the client to run the callback with input and returns its
// answer as the hook's output (exit code 0, the answer on stdout).
func (h *callbackHook) Run(ctx context.Context, input []byte) hooks.Output {
	req := hookCallback{Subtype: "hook_callback", CallbackID: h.id, Input: input}
	var in struct {
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(input, &in) == nil && in.ToolUseID != "" {
		req.ToolUseID = &in.ToolUseID
	}
	raw, err := h.s.peer.request(ctx, "hook_callback", req)
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
func (s *Server) HookProgress(p hooks.Progress) {
	key := string(p.Event) + "\x00" + p.Name
	sid := s.cfg.Out.SessionID()
	if !p.Done {
		s.mu.Lock()
		s.hookSeq++
		id := fmt.Sprintf("hook-%d", s.hookSeq)
		s.hookIDs[key] = append(s.hookIDs[key], id)
		s.mu.Unlock()
		s.cfg.Out.Line(streamjson.NewHookStarted(sid, id, p.Name, string(p.Event)))
		return
	}
	s.mu.Lock()
	var id string
	if ids := s.hookIDs[key]; len(ids) > 0 {
		id = ids[0]
		if len(ids) == 1 {
			delete(s.hookIDs, key)
		} else {
			s.hookIDs[key] = ids[1:]
		}
	}
	s.mu.Unlock()
	o := p.Output
	r := streamjson.HookResult{Stdout: o.Stdout, Stderr: o.Stderr, Output: o.Stdout + o.Stderr, Outcome: "success"}
	switch {
	case o.Err != nil:
		r.Outcome = "error"
		if r.Stderr == "" {
			r.Stderr = o.Err.Error()
			r.Output += r.Stderr
		}
	case o.TimedOut:
		r.Outcome = "cancelled"
	default:
		code := o.ExitCode
		r.ExitCode = &code
		if code != 0 {
			r.Outcome = "error"
		}
	}
	s.cfg.Out.Line(streamjson.NewHookResponse(sid, id, p.Name, string(p.Event), r))
}
