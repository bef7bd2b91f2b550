package task

import "slices"

// A foreground tool call that could still go on as a background task (a
// Bash command, a sub-agent) registers itself with AddMovable for as long
// as it runs. Background moves such calls on request (Ctrl+B in the
// terminal UI, the SDK's background_tasks): each call's move function
// starts the task that carries on its work and makes the call return at
// once.

// movable is one foreground call that may move.
type movable struct {
	toolUseID string
	move      func() bool
}

// AddMovable records that the tool call toolUseID runs in the foreground
// and can go on in the background: move must start the task that carries
// on the call's work, make the call return, and report whether it did (it
// may refuse, for example when the call has just ended). The call must
// run the returned remove function once it can no longer move; move is
// never called after remove returned.
func (r *Registry) AddMovable(toolUseID string, move func() bool) (remove func()) {
	m := &movable{toolUseID: toolUseID, move: move}
	r.mu.Lock()
	r.movables = append(r.movables, m)
	r.mu.Unlock()
	return func() {
		r.moving.Lock() // waits for a move in progress
		defer r.moving.Unlock()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.movables = slices.DeleteFunc(r.movables, func(x *movable) bool { return x == m })
	}
}

// CanBackground reports whether the foreground call toolUseID, or with ""
// any foreground call, could move to the background now.
func (r *Registry) CanBackground(toolUseID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	return slices.ContainsFunc(r.movables, func(m *movable) bool {
		return toolUseID == "" || m.toolUseID == toolUseID
	})
}

// Background moves the foreground call toolUseID, or with "" every
// foreground call that can move, to the background, and reports whether
// any call moved.
func (r *Registry) Background(toolUseID string) bool {
	r.moving.Lock()
	defer r.moving.Unlock()
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	var ms []*movable
	for _, m := range r.movables {
		if toolUseID == "" || m.toolUseID == toolUseID {
			ms = append(ms, m)
		}
	}
	r.mu.Unlock()
	moved := false
	for _, m := range ms {
		if m.move() {
			moved = true
			r.mu.Lock()
			r.movables = slices.DeleteFunc(r.movables, func(x *movable) bool { return x == m })
			r.mu.Unlock()
		}
	}
	return moved
}
