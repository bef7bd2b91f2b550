package session

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"reins/internal/llm"
)

func todosJSON(items ...string) string {
	var list []map[string]string
	for i := 0; i+1 < len(items); i += 2 {
		list = append(list, map[string]string{"content": items[i], "status": items[i+1], "activeForm": items[i]})
	}
	b, _ := json.Marshal(map[string]any{"todos": list})
	return string(b)
}

func todoContents(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var items []struct{ Content, Status string }
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatalf("todos %s: %v", raw, err)
	}
	var out []string
	for _, it := range items {
		out = append(out, it.Content+":"+it.Status)
	}
	return out
}

func TestResumeTakesTheTodoListFromTheLastSuccessfulTodoWriteCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("plan it"))
	r.msg(assistant("m1", toolUse("t1", "TodoWrite", todosJSON("write tests", "in_progress", "fix bug", "pending"))))
	r.msg(result("t1", "ok", false))
	r.msg(assistant("m2", toolUse("t2", "TodoWrite", todosJSON("write tests", "completed", "fix bug", "in_progress"))))
	r.msg(result("t2", "ok", false))
	// Refused (two items in progress): the list stays as it was.
	r.msg(assistant("m3", toolUse("t3", "TodoWrite", todosJSON("a", "in_progress", "b", "in_progress"))))
	r.msg(result("t3", "two items in progress", true))
	r.msg(assistant("m4", llm.TextBlock("done for now")))
	tr := mustLoad(t, path)
	got := todoContents(t, tr.Todos)
	if len(got) != 2 || got[0] != "write tests:completed" || got[1] != "fix bug:in_progress" {
		t.Errorf("todos = %q, want the list of the last call that succeeded", got)
	}
}

func TestResumeLeavesAFinishedTodoListEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("plan it"))
	r.msg(assistant("m1", toolUse("t1", "TodoWrite", todosJSON("write tests", "in_progress"))))
	r.msg(result("t1", "ok", false))
	r.msg(assistant("m2", toolUse("t2", "TodoWrite", todosJSON("write tests", "completed"))))
	r.msg(result("t2", "ok", false))
	tr := mustLoad(t, path)
	if got := todoContents(t, tr.Todos); len(got) != 0 {
		t.Errorf("todos = %q, want none: every item was completed, and TodoWrite clears such a list", got)
	}
}

func TestResumeFindsTheTodoListBeforeACompactionBoundary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("plan it"))
	r.msg(assistant("m1", toolUse("t1", "TodoWrite", todosJSON("port the parser", "in_progress"))))
	r.msg(result("t1", "ok", false))
	last := r.msg(assistant("m2", llm.TextBlock("working")))
	b := &Entry{Type: TypeSystem, Subtype: SubtypeCompactBoundary, UUID: r.uuid(), LogicalParentUUID: last,
		CompactMetadata: &CompactMetadata{Trigger: "auto", PreTokens: 1000}}
	r.meta(b)
	r.last = b.UUID
	r.msg(user("summary of it all"), func(e *Entry) { e.IsCompactSummary, e.IsMeta = true, true })
	r.msg(user("go on"))
	r.msg(assistant("m3", llm.TextBlock("going on")))
	tr := mustLoad(t, path)
	if tr.Boundary == nil {
		t.Fatal("the boundary was not found")
	}
	got := todoContents(t, tr.Todos)
	if len(got) != 1 || got[0] != "port the parser:in_progress" {
		t.Errorf("todos = %q, want the list set before the compaction", got)
	}
}

func TestResumeSessionAtTakesTheTodoListOfThatPoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("plan it"))
	r.msg(assistant("m1", toolUse("t1", "TodoWrite", todosJSON("first", "in_progress"))))
	r.msg(result("t1", "ok", false))
	at := r.msg(assistant("m2", llm.TextBlock("step one")))
	r.msg(user("more"))
	r.msg(assistant("m3", toolUse("t2", "TodoWrite", todosJSON("second", "in_progress"))))
	r.msg(result("t2", "ok", false))
	tr, err := LoadAt(path, at)
	if err != nil {
		t.Fatal(err)
	}
	if got := todoContents(t, tr.Todos); len(got) != 1 || got[0] != "first:in_progress" {
		t.Errorf("todos at %s = %q, want the list as it was then", at, got)
	}
}
