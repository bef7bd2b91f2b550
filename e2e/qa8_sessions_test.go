package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// reins -c whose newest transcript is damaged (no JSON line in it) stops
// and says which file and why, and which session comes before it, instead
// of going on with that older session as if it were the latest.
func TestQA8ContinueRefusesAnUnreadableLatestTranscript(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "question one", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	older := resultSessionID(t, r)
	damaged := filepath.Join(filepath.Dir(sb.Transcripts(t)[0]), "6f1e2d3c-4b5a-4968-8776-655443322110.jsonl")
	if err := os.WriteFile(damaged, []byte("\x00\x00\x00garbage\n\x00\x00more\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(damaged, later, later); err != nil {
		t.Fatal(err)
	}
	r = sb.Run(t, "", "-p", "-c", "question two")
	if r.Code == 0 {
		t.Fatalf("reins -c went on although the latest transcript is damaged; stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	for _, want := range []string{damaged, "damaged", older} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want none after the first run", n)
	}
	// A newest transcript that holds no message (a session quit before
	// anything was said) is no fault: -c continues the one before it.
	if err := os.WriteFile(damaged, []byte(`{"type":"last-prompt","lastPrompt":"x","sessionId":"6f1e2d3c-4b5a-4968-8776-655443322110"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(damaged, later, later)
	r = sb.Run(t, "", "-p", "-c", "question two")
	if r.Code != 0 {
		t.Fatalf("-c past a transcript without messages: code %d: %s", r.Code, r.Stderr)
	}
	if !carries(srv.Requests()[1], "question one") {
		t.Errorf("-c did not continue the session before: %q", historyTexts(srv.Requests()[1]))
	}
}
