package streamjson

import (
	"fmt"
	"sync"

	"reins/internal/hooks"
)

// HookEvents writes hook_started and hook_response lines for hooks as they
// start and finish (--include-hook-events), pairing each response with its
// start's hook_id. Make one per output stream with NewHookEvents and pass
// its Progress as the hook runner's Notify; it is safe for concurrent use.
type HookEvents struct {
	w *Writer

	mu  sync.Mutex // guards seq and ids
	seq int
	ids map[string][]string // hook ids started and not yet finished, by event and name
}

// NewHookEvents returns a HookEvents writing to w.
func NewHookEvents(w *Writer) *HookEvents {
	return &HookEvents{w: w, ids: map[string][]string{}}
}

// Progress writes the line for one hook starting or finishing. Lines name
// the hook as Claude Code does, by its event and what its matcher
// matched ("PreToolUse:Bash", "SessionStart:startup", "Stop").
func (h *HookEvents) Progress(p hooks.Progress) {
	key := p.ID
	if key == "" {
		key = string(p.Event) + "\x00" + p.Name
	}
	name := string(p.Event)
	if p.Query != "" {
		name += ":" + p.Query
	}
	sid := h.w.SessionID()
	if !p.Done {
		h.mu.Lock()
		h.seq++
		id := fmt.Sprintf("hook-%d", h.seq)
		h.ids[key] = append(h.ids[key], id)
		h.mu.Unlock()
		h.w.Line(NewHookStarted(sid, id, name, string(p.Event)))
		return
	}
	h.mu.Lock()
	var id string
	if ids := h.ids[key]; len(ids) > 0 {
		id = ids[0]
		if len(ids) == 1 {
			delete(h.ids, key)
		} else {
			h.ids[key] = ids[1:]
		}
	}
	h.mu.Unlock()
	o := p.Output
	r := HookResult{Stdout: o.Stdout, Stderr: o.Stderr, Output: o.Stdout + o.Stderr, Outcome: "success"}
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
	h.w.Line(NewHookResponse(sid, id, name, string(p.Event), r))
}
