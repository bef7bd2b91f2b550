package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm"
)

// recorder writes entries the way the engine does: each message entry
// names the previous one as its parent.
type recorder struct {
	t    testing.TB
	w    *Writer
	id   string
	last string
	n    int
	now  time.Time
}

func newRecorder(t testing.TB, path, id string) *recorder {
	t.Helper()
	r := &recorder{t: t, w: NewWriter(path), id: id, now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	t.Cleanup(func() { r.w.Close() })
	return r
}

func (r *recorder) uuid() string {
	r.n++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", r.n)
}

func (r *recorder) stamp(e *Entry) {
	e.SessionID = r.id
	r.now = r.now.Add(time.Second)
	e.Timestamp = r.now.Format("2006-01-02T15:04:05.000Z")
	e.Cwd = "/home/user/project"
	e.Version = "test"
}

// msg records a message entry and returns its uuid.
func (r *recorder) msg(m *llm.Message, edit ...func(*Entry)) string {
	r.t.Helper()
	typ := TypeUser
	if m.Role == llm.RoleAssistant {
		typ = TypeAssistant
	}
	e := &Entry{Type: typ, UUID: r.uuid(), Message: m}
	if r.last != "" {
		p := r.last
		e.ParentUUID = &p
	}
	for _, f := range edit {
		f(e)
	}
	r.stamp(e)
	if err := r.w.Append(e); err != nil {
		r.t.Fatal(err)
	}
	r.last = e.UUID
	return e.UUID
}

// meta records an entry that is not a message.
func (r *recorder) meta(e *Entry) {
	r.t.Helper()
	r.stamp(e)
	if err := r.w.Append(e); err != nil {
		r.t.Fatal(err)
	}
}

func user(text string) *llm.Message { return llm.NewUserText(text) }

func assistant(id string, blocks ...llm.ContentBlock) *llm.Message {
	return &llm.Message{Role: llm.RoleAssistant, ID: id, Model: "claude-opus-5-5", StopReason: "end_turn",
		Usage: &llm.Usage{InputTokens: 10, OutputTokens: 5}, Content: blocks}
}

func toolUse(id, name, input string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(input)}
}

func result(id, text string, isErr bool) *llm.Message {
	return &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, isErr)}}
}

func apiBytes(t testing.TB, m *llm.Message) string {
	t.Helper()
	b, err := m.AppendAPI(nil, false, "")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustLoad(t testing.TB, path string) *Transcript {
	t.Helper()
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// checkAnswered asserts DESIGN invariant 2 on a history: every tool_use is
// answered by exactly one tool_result before the next assistant message,
// and no result answers anything else.
func checkAnswered(t testing.TB, items []Item) {
	t.Helper()
	open := map[string]bool{}
	for i, it := range items {
		for _, b := range it.Message.Content {
			switch {
			case b.Type == llm.BlockToolUse:
				open[b.ID] = true
			case b.Type == llm.BlockToolResult:
				if !open[b.ToolUseID] {
					t.Fatalf("item %d: tool_result %s answers no open call", i, b.ToolUseID)
				}
				delete(open, b.ToolUseID)
			}
		}
		if it.Message.Role == llm.RoleAssistant && i+1 < len(items) && items[i+1].Message.Role == llm.RoleAssistant && len(open) > 0 {
			t.Fatalf("item %d: calls %v unanswered before the next assistant message", i, open)
		}
	}
	if len(open) > 0 {
		t.Fatalf("calls %v unanswered at the end", open)
	}
}

func appendRaw(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
}

func tempTranscript(t testing.TB) string {
	return filepath.Join(t.TempDir(), "s.jsonl")
}

// writeLongSession records n messages shaped like a real coding session:
// prompts, answers with tool calls, and tool results of a few KiB.
func writeLongSession(b testing.TB, path string, n int) int64 {
	r := newRecorder(b, path, "bench")
	code := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintf(w, \"hello <%s>\", r.URL.Path)\n}\n", 20)
	for i := 0; i < n; {
		if i%40 == 0 {
			r.msg(user(fmt.Sprintf("Step %d: please refactor the handlers in pkg%d and keep the tests green.", i, i%7)))
			i++
			continue
		}
		id := fmt.Sprintf("toolu_%06d", i)
		a := assistant(fmt.Sprintf("msg_%06d", i),
			llm.TextBlock("I'll look at the file first, then make the change. "+strings.Repeat("Reasoning about the code. ", 8)),
			toolUse(id, "Read", fmt.Sprintf(`{"file_path":"/home/user/project/pkg%d/file%d.go"}`, i%7, i)))
		a.StopReason = "tool_use"
		r.msg(a)
		i++
		if i < n {
			text := code[:len(code)*(1+i%4)/4]
			r.msg(result(id, text, false), func(e *Entry) {
				// Like Claude Code's Read, the structured result repeats
				// the content.
				e.ToolUseResult = map[string]any{"type": "text", "file": map[string]any{"filePath": "/x", "content": text, "numLines": 60}}
			})
			i++
		}
	}
	r.w.Close()
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}
