package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
)

// in returns a copy of sb whose runs start in the folder rel under its
// working folder (made if missing).
func in(t *testing.T, sb *e2etest.Sandbox, rel string) *e2etest.Sandbox {
	t.Helper()
	c := *sb
	c.Dir = filepath.Join(sb.Dir, rel)
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &c
}

// resultSessionID is the session_id of a --output-format json result.
func resultSessionID(t *testing.T, r e2etest.Result) string {
	t.Helper()
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("result is not JSON: %q (stderr %q)", r.Stdout, r.Stderr)
	}
	return res.SessionID
}

// A transcript whose lines carry another session's id (a copy, or a
// Claude Code transcript begun by copying an earlier session) is resumed
// as the session its file names: the conversation goes on in that file.
// reins took the id from the first line, and then failed ("file exists")
// or recorded into the other session's file.
func TestQA6ResumeGoesOnInTheFileItNames(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	orig := sb.Transcripts(t)[0]
	before, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	copyID := "0b5e7c2a-4d1f-4e8b-9a6c-3f2d1e0c9b8a"
	copyPath := filepath.Join(filepath.Dir(orig), copyID+".jsonl")
	if err := os.WriteFile(copyPath, before, 0o600); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "question two", "--resume", copyID, "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("resume of the copy: code %d: %s", r.Code, r.Stderr)
	}
	if got := resultSessionID(t, r); got != copyID {
		t.Errorf("session_id %s, want the resumed file's %s", got, copyID)
	}
	if !carries(srv.Requests()[1], "question one") {
		t.Errorf("the resumed request lacks the history: %q", historyTexts(srv.Requests()[1]))
	}
	if after, _ := os.ReadFile(orig); string(after) != string(before) {
		t.Errorf("the other session's transcript was written to")
	}
	if after, _ := os.ReadFile(copyPath); !strings.Contains(string(after), "question two") {
		t.Errorf("the resumed transcript did not get the new turn")
	}
	if n := len(sb.Transcripts(t)); n != 2 {
		t.Errorf("%d transcripts, want the two there were", n)
	}
}

// Resuming a session from another folder says where it was recorded and
// where it goes on; resuming it later from a third folder finds the copy
// that has the latest turns, not whichever project folder sorts first.
func TestQA6ResumeFromAnotherFolderSaysWhereItGoesOn(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"), llmtest.Reply("answer three"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "question one", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	id := resultSessionID(t, r)
	elsewhere := in(t, sb, "zz-elsewhere")
	r = elsewhere.Run(t, "", "-p", "question two", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume from another folder: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, sb.Dir) || !strings.Contains(r.Stderr, "continues here") {
		t.Errorf("stderr %q: want a note naming the folder the session was recorded in and saying it continues here", r.Stderr)
	}
	third := in(t, sb, "third")
	if r := third.Run(t, "", "-p", "question three", "--resume", id); r.Code != 0 {
		t.Fatalf("resume from a third folder: code %d: %s", r.Code, r.Stderr)
	}
	req := srv.Requests()[2]
	for _, want := range []string{"question one", "question two", "answer two"} {
		if !carries(req, want) {
			t.Errorf("third resume lacks %q: %q", want, historyTexts(req))
		}
	}
}

// writeClaudeSession writes a transcript shaped as Claude Code writes one
// (see spec/captures/transcript-sample.jsonl) in Claude Code's project
// folder for the sandbox's working folder, and returns its path and bytes.
func writeClaudeSession(t *testing.T, sb *e2etest.Sandbox, id, prompt, answer string) (string, []byte) {
	t.Helper()
	dir := filepath.Join(sb.Home, ".claude", "projects", session.Slug(sb.Dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := []map[string]any{
		{"parentUuid": nil, "isSidechain": false, "type": "user", "uuid": "cc-u1", "sessionId": id, "cwd": sb.Dir,
			"timestamp": "2026-11-29T21:20:26.857Z", "version": "2.1.328", "userType": "external", "entrypoint": "cli",
			"message": map[string]any{"role": "user", "content": prompt}},
		{"parentUuid": "cc-u1", "isSidechain": false, "type": "assistant", "uuid": "cc-a1", "sessionId": id, "cwd": sb.Dir,
			"timestamp": "2026-11-29T21:20:27.059Z", "version": "2.1.328", "requestId": "req_1",
			"message": map[string]any{"id": "msg_cc1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "text", "text": answer}}, "stop_reason": "end_turn",
				"usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}},
		{"type": "last-prompt", "lastPrompt": prompt, "leafUuid": "cc-a1", "sessionId": id},
	}
	var data []byte
	for _, l := range lines {
		b, _ := json.Marshal(l)
		data = append(append(data, b...), '\n')
	}
	p := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p, data
}

// A user coming from Claude Code finds their sessions of this folder in
// `reins sessions`, and --continue picks the latest up: reins continues it
// in its own store, says so, and leaves Claude Code's file alone. The list
// then shows the session once. reins listed and continued only its own.
func TestQA6ClaudeCodeSessionsAreListedAndContinued(t *testing.T) {
	srv := server(t, llmtest.Reply("reins goes on"))
	sb := e2etest.NewSandbox(t, srv.URL)
	id := "5d0c3f6e-8a41-4b7e-9c2d-1e6f0a9b8c7d"
	ccPath, data := writeClaudeSession(t, sb, id, "remember MANGO please", "Noted: MANGO.")
	r := sb.Run(t, "", "sessions")
	if r.Code != 0 || !strings.Contains(r.Stdout, id) || !strings.Contains(r.Stdout, "(Claude Code) remember MANGO please") {
		t.Fatalf("reins sessions: code %d stdout %q stderr %q: want Claude Code's session, marked as such", r.Code, r.Stdout, r.Stderr)
	}
	r = sb.Run(t, "", "-p", "what was the word", "--continue", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("continue: code %d: %s", r.Code, r.Stderr)
	}
	if got := resultSessionID(t, r); got != id {
		t.Errorf("session_id %s, want Claude Code's %s", got, id)
	}
	if !carries(srv.Requests()[0], "remember MANGO please") || !carries(srv.Requests()[0], "Noted: MANGO.") {
		t.Errorf("the request lacks Claude Code's history: %q", historyTexts(srv.Requests()[0]))
	}
	if !strings.Contains(r.Stderr, "recorded by Claude Code") || !strings.Contains(r.Stderr, ccPath) {
		t.Errorf("stderr %q: want a note that the session was Claude Code's and where it goes on", r.Stderr)
	}
	if got, _ := os.ReadFile(ccPath); string(got) != string(data) {
		t.Errorf("Claude Code's transcript was changed")
	}
	r = sb.Run(t, "", "sessions")
	if n := strings.Count(r.Stdout, id); n != 1 {
		t.Errorf("reins sessions lists the session %d times, want once:\n%s", n, r.Stdout)
	}
}

// /rename NAME names the session (print mode too), `reins sessions` shows
// the name, and --resume NAME finds the session, as claude --resume <name>
// does. reins answered "Unknown command: /rename" and took NAME for an id.
func TestQA6ResumeByTheNameGivenWithRename(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "/rename auth-refactor", "--continue")
	if r.Code != 0 || !strings.Contains(r.Stdout, "auth-refactor") {
		t.Fatalf("/rename: code %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := sb.Run(t, "", "sessions"); !strings.Contains(r.Stdout, "TITLE") || !strings.Contains(r.Stdout, "auth-refactor") {
		t.Errorf("reins sessions does not show the name:\n%s", r.Stdout)
	}
	r = in(t, sb, "sub").Run(t, "", "-p", "question two", "--resume", "auth-refactor")
	if r.Code != 0 {
		t.Fatalf("--resume by name: code %d: %s", r.Code, r.Stderr)
	}
	if !carries(srv.Requests()[1], "question one") {
		t.Errorf("the resumed request lacks the history: %q", historyTexts(srv.Requests()[1]))
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2 (/rename runs locally)", n)
	}
}

// --session-id is refused for an id a session of another folder, or of
// Claude Code, already has: reins checked only this folder's own store,
// and started a second conversation under the id.
func TestQA6SessionIDOfASessionRecordedElsewhereIsRefused(t *testing.T) {
	srv := server(t, llmtest.Reply("one"))
	sb := e2etest.NewSandbox(t, srv.URL)
	ccID := "5d0c3f6e-8a41-4b7e-9c2d-1e6f0a9b8c7d"
	ccPath, _ := writeClaudeSession(t, sb, ccID, "remember MANGO please", "Noted: MANGO.")
	r := sb.Run(t, "", "-p", "hello", "--session-id", ccID)
	if r.Code == 0 || !strings.Contains(r.Stderr, "already in use") || !strings.Contains(r.Stderr, ccPath) {
		t.Errorf("Claude Code's id: code %d stderr %q: want a refusal naming its transcript", r.Code, r.Stderr)
	}
	id := "11111111-2222-4333-8444-555555555555"
	if r := sb.Run(t, "", "-p", "first", "--session-id", id); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	r = in(t, sb, "sub").Run(t, "", "-p", "second", "--session-id", id)
	if r.Code == 0 || !strings.Contains(r.Stderr, "already in use") {
		t.Errorf("another folder's id: code %d stderr %q: want a refusal", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want only the first run's", n)
	}
}

// A session named long ago (its /rename line now further back than the
// part session lists read) shows its name again once resumed: the resume
// records the title anew near the end.
func TestQA6ResumeKeepsAnOldTitleInTheList(t *testing.T) {
	srv := server(t, llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "/rename long-story", "--continue"); r.Code != 0 {
		t.Fatalf("/rename: code %d: %s", r.Code, r.Stderr)
	}
	long := strings.Repeat("a pasted log line that goes on and on\n", 3000) // about 110 KB
	if r := sb.Run(t, long, "-p", "--continue"); r.Code != 0 {
		t.Fatalf("long prompt: code %d: %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "short one", "--continue"); r.Code != 0 {
		t.Fatalf("resume: code %d: %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "sessions"); !strings.Contains(r.Stdout, "long-story") {
		t.Errorf("reins sessions lost the name after the session went on:\n%s", r.Stdout)
	}
}
