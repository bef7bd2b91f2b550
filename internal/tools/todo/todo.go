package todo

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "TodoWrite"

// The item states.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Item is one entry of a todo list, with Claude Code's field names.
type Item struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

// Store holds the todo lists of a session, one per agent. It is safe for
// concurrent use; the zero value is ready.
type Store struct {
	mu       sync.Mutex
	lists    map[string][]Item                          // by agent ID; guarded by mu
	watchers map[int]func(agentID string, items []Item) // guarded by mu
	nextID   int                                        // guarded by mu
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{} }

// Items returns a copy of an agent's list ("" is the main thread).
func (s *Store) Items(agentID string) []Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lists[agentID])
}

// Replace sets an agent's list and returns the previous one. Watchers are
// called after the change, outside the store's lock.
func (s *Store) Replace(agentID string, items []Item) (old []Item) {
	s.mu.Lock()
	if s.lists == nil {
		s.lists = map[string][]Item{}
	}
	old = s.lists[agentID]
	if len(items) == 0 {
		delete(s.lists, agentID)
	} else {
		s.lists[agentID] = slices.Clone(items)
	}
	watchers := make([]func(string, []Item), 0, len(s.watchers))
	for _, w := range s.watchers {
		watchers = append(watchers, w)
	}
	s.mu.Unlock()
	for _, w := range watchers {
		w(agentID, slices.Clone(items))
	}
	return old
}

// Watch calls fn with an agent's new list after every change, until the
// returned function is called. fn must not block.
func (s *Store) Watch(fn func(agentID string, items []Item)) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers == nil {
		s.watchers = map[int]func(string, []Item){}
	}
	id := s.nextID
	s.nextID++
	s.watchers[id] = fn
	return func() {
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
	}
}

// Input is the tool's input.
type Input struct {
	Todos []Item `json:"todos"`
}

// Output is the structured result (tool_use_result).
type Output struct {
	OldTodos []Item `json:"oldTodos"`
	NewTodos []Item `json:"newTodos"`
}

// Tool is the TodoWrite tool.
type Tool struct {
	tool.Defaults
	store *Store
}

// New returns the TodoWrite tool writing to store. It panics if store is
// nil.
func New(store *Store) *Tool {
	if store == nil {
		panic("todo.New: nil Store")
	}
	return &Tool{store: store}
}

// Name returns "TodoWrite".
func (*Tool) Name() string { return Name }

// Description returns the tool description.
func (*Tool) Description() string { return description }

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true: the list lives inside reins.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// Validate checks the list: known states, no empty text, and at most one
// item in progress.
func (*Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	_, err := parse(raw)
	return err
}

func parse(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("input is not valid: %w", err)
	}
	if in.Todos == nil {
		return in, errors.New("todos: required, a list of items (an empty list clears it)")
	}
	var active []string
	for i, it := range in.Todos {
		switch it.Status {
		case Pending, InProgress, Completed:
		default:
			return in, fmt.Errorf("todos[%d].status: %q is not one of pending, in_progress, completed", i, it.Status)
		}
		if strings.TrimSpace(it.Content) == "" {
			return in, fmt.Errorf("todos[%d].content: must not be empty", i)
		}
		if strings.TrimSpace(it.ActiveForm) == "" {
			return in, fmt.Errorf("todos[%d].activeForm: must not be empty", i)
		}
		if it.Status == InProgress {
			active = append(active, fmt.Sprintf("%d (%q)", i, it.Content))
		}
	}
	if len(active) > 1 {
		return in, fmt.Errorf("todos: %d items are in_progress (%s); exactly one may be in progress at a time, so mark the others pending or completed",
			len(active), strings.Join(active, ", "))
	}
	return in, nil
}

// Call replaces the caller's list.
func (t *Tool) Call(_ context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := parse(raw)
	if err != nil {
		return nil, err
	}
	agent := ""
	if c != nil {
		agent = c.AgentID
	}
	stored := in.Todos
	allDone := len(stored) > 0
	for _, it := range stored {
		if it.Status != Completed {
			allDone = false
		}
	}
	if allDone {
		stored = nil // a finished list is cleared
	}
	old := t.store.Replace(agent, stored)
	if old == nil {
		old = []Item{}
	}
	r := tool.Text("The todo list is updated. Keep it current as you go: one item in progress, each marked completed as soon as it is done.")
	r.Data = &Output{OldTodos: old, NewTodos: in.Todos}
	return r, nil
}
