package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// -n/--name names the session at start, as /rename does later: the name
// shows in `reins sessions`, and --resume NAME goes on with it.
func TestNameFlagNamesTheSessionForResume(t *testing.T) {
	srv := server(t, llmtest.Reply("first answer"), llmtest.Reply("second answer"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "remember the word kiwi", "-n", "fruit work"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "sessions"); !strings.Contains(r.Stdout, "fruit work") {
		t.Errorf("reins sessions does not show the name:\n%s", r.Stdout)
	}
	if r := sb.Run(t, "", "-p", "--resume", "fruit work", "what was the word?"); r.Code != 0 {
		t.Fatalf("resume by name: code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	hist := strings.Join(historyTexts(reqs[1]), "\n")
	if !strings.Contains(hist, "remember the word kiwi") || !strings.Contains(hist, "first answer") {
		t.Errorf("the resumed request lacks the named session's history:\n%s", hist)
	}
}

// --name with --no-session-persistence cannot record a name: it says so
// and the run goes on.
func TestNameFlagWithoutPersistenceWarns(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--name", "x", "--no-session-persistence")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "--name") || !strings.Contains(r.Stderr, "not saved") {
		t.Errorf("stderr %q, want a warning that the name cannot be kept", r.Stderr)
	}
}
