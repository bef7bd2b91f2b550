package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
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
