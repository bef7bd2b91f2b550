package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
)

// sessionIDs lists the ids of the transcripts recorded in the sandbox.
func sessionIDs(t *testing.T, sb *e2etest.Sandbox) []string {
	t.Helper()
	var ids []string
	for _, p := range sb.Transcripts(t) {
		ids = append(ids, strings.TrimSuffix(filepath.Base(p), ".jsonl"))
	}
	return ids
}

// historyTexts is the text of every message a request carried, in order,
// one string per message (text blocks and tool results joined).
func historyTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		var sb strings.Builder
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockText:
				sb.WriteString(b.Text)
			case llm.BlockToolResult:
				sb.WriteString(b.ResultText())
			}
		}
		out = append(out, sb.String())
	}
	return out
}

// withoutReminders drops the <system-reminder> blocks reins adds to a
// message, leaving what the user and the model wrote.
func withoutReminders(s string) string {
	for {
		i := strings.Index(s, "<system-reminder>")
		j := strings.Index(s, "</system-reminder>")
		if i < 0 || j < i {
			return s
		}
		s = s[:i] + s[j+len("</system-reminder>"):]
	}
}

// carries reports whether some message of the request contains text.
func carries(r *llmtest.Request, text string) bool {
	for _, m := range historyTexts(r) {
		if strings.Contains(m, text) {
			return true
		}
	}
	return false
}

// Resuming a session Claude Code recorded (under ~/.claude/projects)
// continues it in reins; the next --continue must still have the whole
// conversation, not only what reins added.
func TestQAResumingAClaudeCodeSessionKeepsItsHistoryForTheNextResume(t *testing.T) {
	srv := server(t, llmtest.Reply("reins answer one"), llmtest.Reply("reins answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	id := "c6a30bf9-4594-48ad-9ebf-5697196bd4f4"
	ccDir := filepath.Join(sb.Home, ".claude", "projects", session.Slug(sb.Dir))
	if err := os.MkdirAll(ccDir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := []map[string]any{
		{"parentUuid": nil, "isSidechain": false, "type": "user", "uuid": "u1", "sessionId": id, "cwd": sb.Dir,
			"timestamp": "2026-11-29T21:20:26.857Z", "version": "2.1.328",
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "the codeword is PAPAYA"}}}},
		{"parentUuid": "u1", "isSidechain": false, "type": "assistant", "uuid": "a1", "sessionId": id, "cwd": sb.Dir,
			"timestamp": "2026-11-29T21:20:27.059Z", "version": "2.1.328",
			"message": map[string]any{"id": "msg_0", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "text", "text": "Noted: PAPAYA."}}, "stop_reason": "end_turn",
				"usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}},
		{"type": "last-prompt", "lastPrompt": "the codeword is PAPAYA", "leafUuid": "a1", "sessionId": id},
	}
	var data []byte
	for _, l := range lines {
		b, _ := json.Marshal(l)
		data = append(append(data, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(ccDir, id+".jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := sb.Run(t, "", "-p", "first follow-up", "--resume", id); r.Code != 0 {
		t.Fatalf("resume: code %d: %s", r.Code, r.Stderr)
	}
	if req := srv.Requests()[0]; !carries(req, "PAPAYA") {
		t.Fatalf("the resumed request lacks Claude Code's history: %q", historyTexts(req))
	}
	r := sb.Run(t, "", "-p", "second follow-up", "--continue")
	if r.Code != 0 {
		t.Fatalf("continue: code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "not found") {
		t.Errorf("continue warned about a broken chain: %s", r.Stderr)
	}
	req := srv.Requests()[1]
	for _, want := range []string{"the codeword is PAPAYA", "Noted: PAPAYA.", "first follow-up", "reins answer one", "second follow-up"} {
		if !carries(req, want) {
			t.Errorf("continued request lacks %q: %q", want, historyTexts(req))
		}
	}
	// Claude Code's own file is left as it was.
	if got, _ := os.ReadFile(filepath.Join(ccDir, id+".jsonl")); string(got) != string(data) {
		t.Errorf("Claude Code's transcript was changed:\n%s", got)
	}
}

// --resume with --session-id continues the conversation under the new id;
// resuming that id later still has the whole conversation.
func TestQAResumeUnderANewSessionIDCarriesTheHistory(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"), llmtest.Reply("answer three"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	old := sessionIDs(t, sb)[0]
	newID := "11111111-2222-4333-8444-555555555555"
	if r := sb.Run(t, "", "-p", "question two", "--resume", old, "--session-id", newID); r.Code != 0 {
		t.Fatalf("resume under new id: code %d: %s", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "question three", "--resume", newID)
	if r.Code != 0 {
		t.Fatalf("resume new id: code %d: %s", r.Code, r.Stderr)
	}
	req := srv.Requests()[2]
	for _, want := range []string{"question one", "answer one", "question two", "answer two", "question three"} {
		if !carries(req, want) {
			t.Errorf("request lacks %q: %q", want, historyTexts(req))
		}
	}
}

// --session-id naming a session that already exists is refused, as Claude
// Code refuses it, instead of starting a second conversation in its file.
func TestQASessionIDAlreadyInUseIsRefused(t *testing.T) {
	srv := server(t, llmtest.Reply("one"))
	sb := e2etest.NewSandbox(t, srv.URL)
	id := "11111111-2222-4333-8444-555555555555"
	if r := sb.Run(t, "", "-p", "first", "--session-id", id); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	before, _ := os.ReadFile(sb.Transcripts(t)[0])
	r := sb.Run(t, "", "-p", "second", "--session-id", id)
	if r.Code == 0 || !strings.Contains(r.Stderr, id) || !strings.Contains(r.Stderr, "already") {
		t.Fatalf("code %d stderr %q: want a refusal naming the id", r.Code, r.Stderr)
	}
	if n := strings.Count(strings.TrimSpace(r.Stderr), "\n"); n > 1 {
		t.Errorf("stderr is not a short message: %q", r.Stderr)
	}
	if after, _ := os.ReadFile(sb.Transcripts(t)[0]); string(after) != string(before) {
		t.Errorf("the existing transcript was written to")
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("the refused run called the model")
	}
}

// --resume without a session id cannot open the picker in print mode; it
// is refused rather than silently starting a new conversation.
func TestQAResumeWithoutIDInPrintModeIsRefused(t *testing.T) {
	srv := server(t, llmtest.Reply("one"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "first"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	for _, args := range [][]string{
		{"-p", "what did I say", "--resume"},
		{"-p", "what did I say", "-r"},
		{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--resume"},
	} {
		r := sb.Run(t, `{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}`+"\n", args...)
		if r.Code == 0 || !strings.Contains(r.Stderr, "--resume") || !strings.Contains(r.Stderr, "session id") {
			t.Errorf("%v: code %d stderr %q, want a refusal saying --resume needs a session id", args, r.Code, r.Stderr)
		}
	}
	if n := len(sessionIDs(t, sb)); n != 1 {
		t.Errorf("%d sessions recorded, want the first only", n)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}

// --resume-session-at (the Agent SDK's resumeSessionAt) goes on from an
// earlier assistant message: what came after it is left out of the
// conversation, and the next plain --resume follows the new branch.
func TestQAResumeSessionAtBranchesFromAnEarlierMessage(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"), llmtest.Reply("answer three"), llmtest.Reply("answer four"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "question one", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	var at, id string
	for _, line := range strings.Split(r.Stdout, "\n") {
		var v struct {
			Type      string `json:"type"`
			UUID      string `json:"uuid"`
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(line), &v) == nil && v.Type == "assistant" {
			at, id = v.UUID, v.SessionID
		}
	}
	if at == "" {
		t.Fatalf("no assistant line with a uuid in:\n%s", r.Stdout)
	}
	if r := sb.Run(t, "", "-p", "question two", "--resume", id); r.Code != 0 {
		t.Fatalf("second run: code %d: %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "question three", "--resume", id, "--resume-session-at", at); r.Code != 0 {
		t.Fatalf("resume at %s: code %d: %s", at, r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "question four", "--resume", id); r.Code != 0 {
		t.Fatalf("fourth run: code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	for i, want := range [][]string{
		2: {"question one", "answer one", "question three"},
		3: {"question one", "answer one", "question three", "answer three", "question four"},
	} {
		if want == nil {
			continue
		}
		var got []string
		for _, m := range historyTexts(reqs[i]) {
			got = append(got, withoutReminders(m))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("request %d carried %q, want %q", i+1, got, want)
		}
	}
	if got := sessionIDs(t, sb); len(got) != 1 {
		t.Errorf("transcripts %v, want the one session's file", got)
	}

	bad := sb.Run(t, "", "-p", "x", "--resume", id, "--resume-session-at", "00000000-0000-4000-8000-000000000000")
	if bad.Code == 0 || !strings.Contains(bad.Stderr, "00000000-0000-4000-8000-000000000000") {
		t.Errorf("unknown message uuid: code %d stderr %q, want an error naming it", bad.Code, bad.Stderr)
	}
	if none := sb.Run(t, "", "-p", "x", "--resume-session-at", at); none.Code == 0 || !strings.Contains(none.Stderr, "--resume") {
		t.Errorf("--resume-session-at alone: code %d stderr %q", none.Code, none.Stderr)
	}
}

// The API connection is warmed while the session is set up: one HEAD to
// the base URL, without credentials, which is not a model request.
func TestQAPreconnectWarmsTheConnection(t *testing.T) {
	srv := server(t, llmtest.Reply("one"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 || r.Stdout != "one\n" {
		t.Fatalf("code %d stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	if n := srv.Heads(); n != 1 {
		t.Errorf("%d warm-up requests, want 1", n)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}
