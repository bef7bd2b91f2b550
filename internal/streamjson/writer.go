package streamjson

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/session"
	"reins/internal/tool"
)

// Options select what a Writer emits.
type Options struct {
	SessionID string
	// Partial emits stream_event lines (--include-partial-messages).
	Partial bool
	// Replay echoes user prompts back (--replay-user-messages).
	Replay bool
	Now    func() time.Time
}

// Writer writes protocol lines to an io.Writer.
type Writer struct {
	opts Options

	mu  sync.Mutex // guards w, err and results
	w   io.Writer
	err error
	// results counts the result lines written (their result_index).
	results int
	// lastByModel are the per-model totals of the last result written,
	// for the next one's model_usage_since_last_result.
	lastByModel map[string]engine.ModelTotals
}

// NewWriter returns a writer.
func NewWriter(w io.Writer, opts Options) *Writer {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Writer{w: w, opts: opts}
}

// SetSessionID changes the session id stamped on lines.
func (w *Writer) SetSessionID(id string) {
	w.mu.Lock()
	w.opts.SessionID = id
	w.mu.Unlock()
}

// Line writes v as one JSON line. A *Result is numbered (result_index)
// in the order the results are written, from 0, and gets its
// model_usage_since_last_result; one whose write fails still takes its
// number.
func (w *Writer) Line(v any) error {
	if r, ok := v.(*Result); ok {
		w.mu.Lock()
		n := w.results
		w.results++
		since := sinceLast(r.byModel, w.lastByModel)
		r.ModelUsageSinceLastResult = &since
		if r.byModel != nil {
			w.lastByModel = snapshot(r.byModel)
		}
		w.mu.Unlock()
		r.ResultIndex = &n
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode output line: %w", err)
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("write output: %w", err)
		return w.err
	}
	if f, ok := w.w.(interface{ Flush() error }); ok {
		f.Flush()
	}
	return nil
}

// Err is the first write error.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func parent(o engine.Origin) *string {
	if o.ParentToolUseID == "" {
		return nil
	}
	p := o.ParentToolUseID
	return &p
}

// Messages converts an engine event into protocol messages (none for events
// the protocol does not carry).
func (w *Writer) Messages(ev engine.Event) []any {
	w.mu.Lock()
	sid := w.opts.SessionID
	w.mu.Unlock()
	o := engine.From(ev)
	now := timestamp(w.opts.Now())
	switch e := ev.(type) {
	case *engine.StreamEvent:
		if !w.opts.Partial || len(e.Event.Raw) == 0 {
			return nil
		}
		return []any{StreamEvent{Type: "stream_event", Event: e.Event.Raw, ParentToolUseID: parent(o), SessionID: sid, UUID: uuid.NewString()}}
	case *engine.AssistantBlock:
		// Derived from the recorded message's uuid, one per block:
		// --resume-session-at can name any of them.
		id := uuid.NewString()
		if e.UUID != "" {
			id = session.BlockUUID(e.UUID, blockIndex(e.Message, e.Block))
		}
		return []any{Assistant{Type: "assistant", Message: assistantMessage(e.Message, e.Block),
			ParentToolUseID: parent(o), SessionID: sid, UUID: id, Timestamp: now, RequestID: e.Message.RequestID}}
	case *engine.ToolResult:
		msg, _ := json.Marshal(&llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{e.Block}})
		var data any = e.Data
		if e.IsError && data == nil {
			data = "Error: " + strings.TrimPrefix(e.Block.ResultText(), "Error: ")
		}
		u := User{Type: "user", Message: msg, ParentToolUseID: parent(o), SessionID: sid,
			UUID: e.UUID, Timestamp: now, ToolUseResult: data}
		if p := e.Permission; p != nil {
			m := ToolResultMeta{ID: e.ID, PermissionDecision: p}
			switch {
			case p.Decision == tool.DecisionReject && p.Source == "user_abort":
				// The user rejected it and stopped the turn: Claude Code
				// gives the kind alone.
				m.NonExecutionKind, m.PermissionDecision = "user-rejected", nil
			case p.Decision == tool.DecisionReject:
				m.NonExecutionKind = "permission-rule"
			}
			u.ToolResultMeta = []ToolResultMeta{m}
		}
		return []any{u}
	case *engine.UserMessage:
		if !w.opts.Replay || e.Meta {
			return nil
		}
		msg, _ := json.Marshal(e.Message)
		return []any{User{Type: "user", Message: msg, ParentToolUseID: parent(o), SessionID: sid, UUID: e.UUID, Timestamp: now, IsReplay: true}}
	case *engine.CompactBoundary:
		// A sub-agent's compaction is marked with its Agent call, as its
		// other lines are: the session's own context was not compacted.
		return []any{System{Type: "system", Subtype: "compact_boundary", SessionID: sid, UUID: e.UUID, ParentToolUseID: parent(o),
			Fields: map[string]any{"compact_metadata": map[string]any{"trigger": e.Trigger, "pre_tokens": e.PreTokens}}}}
	case *engine.Notice:
		return []any{System{Type: "system", Subtype: "notice", SessionID: sid, UUID: uuid.NewString(), ParentToolUseID: parent(o),
			Fields: map[string]any{"level": e.Level, "message": e.Text}}}
	case *engine.PermissionDenied:
		f := map[string]any{"tool_name": e.ToolName, "tool_use_id": e.ToolUseID, "decision_reason_type": e.DeniedBy, "decision_reason": e.Reason}
		if o.AgentID != "" {
			f["agent_id"] = o.AgentID
		}
		return []any{System{Type: "system", Subtype: "permission_denied", SessionID: sid, UUID: uuid.NewString(), ParentToolUseID: parent(o), Fields: f}}
	case *engine.Retry:
		return []any{System{Type: "system", Subtype: "api_retry", SessionID: sid, UUID: uuid.NewString(), ParentToolUseID: parent(o),
			Fields: map[string]any{"attempt": e.Attempt, "max_retries": e.Max, "retry_delay_ms": e.Delay.Milliseconds(), "error": errText(e.Err)}}}
	}
	return nil
}

// blockIndex is the position of b, just completed, in the message
// streamed so far: the last block like it.
func blockIndex(m *llm.Message, b llm.ContentBlock) int {
	if m == nil {
		return 0
	}
	for i := len(m.Content) - 1; i >= 0; i-- {
		c := m.Content[i]
		if c.Type == b.Type && c.ID == b.ID && c.Text == b.Text && c.Thinking == b.Thinking {
			return i
		}
	}
	return max(len(m.Content)-1, 0)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Event writes the lines for an engine event.
func (w *Writer) Event(ev engine.Event) error {
	for _, m := range w.Messages(ev) {
		if err := w.Line(m); err != nil {
			return err
		}
	}
	return nil
}

// UserLine writes a user message the CLI itself added to the main
// conversation (not a replay of the client's input), such as the
// "[Request interrupted by user]" an interrupted turn leaves; id is its
// uuid in the transcript.
func (w *Writer) UserLine(id string, m *llm.Message) error {
	msg, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode user message %s: %w", id, err)
	}
	return w.Line(User{Type: "user", Message: msg, SessionID: w.SessionID(), UUID: id, Timestamp: timestamp(w.opts.Now())})
}

// snapshot copies per-model totals, with their own copies of the
// counters that Usage.Add changes in place.
func snapshot(m map[string]engine.ModelTotals) map[string]engine.ModelTotals {
	out := make(map[string]engine.ModelTotals, len(m))
	for id, mt := range m {
		u := mt.Usage
		if u.CacheCreation != nil {
			cc := *u.CacheCreation
			u.CacheCreation = &cc
		}
		if u.ServerToolUse != nil {
			st := *u.ServerToolUse
			u.ServerToolUse = &st
		}
		if u.OutputTokensDetails != nil {
			d := *u.OutputTokensDetails
			u.OutputTokensDetails = &d
		}
		mt.Usage = u
		out[id] = mt
	}
	return out
}
