package session

import (
	"encoding/json"
	"os"
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

func TestClaudeCodeAPIErrorMessagesAreNotResumedAsAnswers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("first"))
	r.msg(assistant("m1", llm.TextBlock("first answer")))
	r.msg(user("second"))
	// What Claude Code records when a request fails: an assistant message
	// of its own making, flagged as an API error.
	errLine, _ := json.Marshal(map[string]any{"parentUuid": r.last, "isSidechain": false, "type": "assistant",
		"uuid": "0c9e3b7a-0000-4000-8000-000000000001", "timestamp": "2026-03-01T10:00:30.000Z", "sessionId": "s",
		"isApiErrorMessage": true, "message": map[string]any{"id": "0c9e3b7a", "model": "<synthetic>", "role": "assistant",
			"type": "message", "stop_reason": "stop_sequence", "stop_sequence": "",
			"content": []any{map[string]any{"type": "text", "text": "API Error: 529 Overloaded"}}}})
	appendLine(t, path, errLine)
	r.last = "0c9e3b7a-0000-4000-8000-000000000001"
	r.msg(user("second, again"))
	r.msg(assistant("m2", llm.TextBlock("second answer")))
	tr := mustLoad(t, path)
	var texts []string
	for _, it := range tr.Items {
		texts = append(texts, it.Message.Text())
	}
	want := []string{"first", "first answer", "second", "second, again", "second answer"}
	if len(texts) != len(want) {
		t.Fatalf("items %q, want %q", texts, want)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Fatalf("items %q, want %q", texts, want)
		}
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %v; an API error message is expected in Claude Code's transcripts", tr.Warnings)
	}
}

// appendLine appends a raw line to the transcript at path.
func appendLine(t *testing.T, path string, line []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}

func TestResumeFindsThePlanApprovedBeforeACompactionBoundary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("plan the port"))
	r.msg(assistant("m1", toolUse("p1", "ExitPlanMode", `{"plan":"1. first draft"}`)))
	r.msg(result("p1", "The user did not approve the plan", true))
	r.msg(assistant("m2", toolUse("p2", "ExitPlanMode", `{"plan":"1. Port the PELICAN parser\n2. Test it"}`)))
	r.msg(result("p2", "The user approved the plan", false))
	last := r.msg(assistant("m3", llm.TextBlock("porting")))
	b := &Entry{Type: TypeSystem, Subtype: SubtypeCompactBoundary, UUID: r.uuid(), LogicalParentUUID: last,
		CompactMetadata: &CompactMetadata{Trigger: "auto", PreTokens: 1000}}
	r.meta(b)
	r.last = b.UUID
	r.msg(user("summary"), func(e *Entry) { e.IsCompactSummary, e.IsMeta = true, true })
	r.msg(assistant("m4", llm.TextBlock("going on")))
	tr := mustLoad(t, path)
	if tr.Plan != "1. Port the PELICAN parser\n2. Test it" {
		t.Errorf("plan = %q, want the plan approved (the refused one is not)", tr.Plan)
	}
}

func TestResultsRecordedAsTheyFinishedLoadInCallOrderWithTheirReplacements(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("look"))
	r.msg(assistant("m1", toolUse("a", "Bash", `{"command":"sleep 1"}`), toolUse("b", "Glob", `{"pattern":"*"}`)))
	r.msg(result("b", "found b", false))
	r.msg(result("a", "a very long output", false))
	r.meta(&Entry{Type: TypeReplacement, Replacements: []Replacement{{ToolUseID: "a", Text: "<persisted-output>a</persisted-output>"}}})
	r.msg(assistant("m2", llm.TextBlock("done")))
	tr := mustLoad(t, path)
	var got []string
	for _, it := range tr.Items {
		for _, b := range it.Message.Content {
			if b.Type == llm.BlockToolResult {
				got = append(got, b.ToolUseID+"="+b.ResultText())
			}
		}
	}
	if len(got) != 2 || got[0] != "a=<persisted-output>a</persisted-output>" || got[1] != "b=found b" {
		t.Errorf("results %q; want a (replaced) then b, in call order", got)
	}
	checkAnswered(t, tr.Items)
}
