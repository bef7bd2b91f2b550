package e2e

import (
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// CLAUDE_CODE_MAX_RETRIES, as Claude Code users set it, bounds how often a
// failed request is repeated; 0 means it is sent once.
func TestRetryCountFromClaudeCodeVariable(t *testing.T) {
	fail := llmtest.Turn{Fault: &llmtest.Fault{Status: 500}}
	for _, tc := range []struct {
		value    string
		requests int
	}{
		{"0", 1},
		{"2", 3},
	} {
		srv := server(t, fail, fail, fail, fail, fail)
		sb := e2etest.NewSandbox(t, srv.URL)
		sb.Env = append(sb.Env, "CLAUDE_CODE_MAX_RETRIES="+tc.value)
		r := sb.Run(t, "", "-p", "go")
		if r.Code != 1 {
			t.Fatalf("CLAUDE_CODE_MAX_RETRIES=%s: code %d, want 1; stderr %q", tc.value, r.Code, r.Stderr)
		}
		if n := len(srv.Requests()); n != tc.requests {
			t.Errorf("CLAUDE_CODE_MAX_RETRIES=%s: %d requests, want %d", tc.value, n, tc.requests)
		}
	}
}

// A retry count that is not a number is reported, not silently taken as
// the default.
func TestBadRetryCountIsReported(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_MAX_RETRIES=lots")
	r := sb.Run(t, "", "-p", "go")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "ok" {
		t.Fatalf("code %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "CLAUDE_CODE_MAX_RETRIES") || !strings.Contains(r.Stderr, "lots") {
		t.Errorf("stderr %q does not name the bad value", r.Stderr)
	}
}

// API_TIMEOUT_MS bounds the wait for the API's response to begin: a server
// that does not answer within it fails the attempt instead of holding the
// run for the default ten minutes.
func TestAPITimeoutBoundsTheWaitForAResponse(t *testing.T) {
	slow := llmtest.Reply("too late")
	slow.Delay = llmtest.Duration(30 * time.Second)
	srv := server(t, slow)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "API_TIMEOUT_MS=300", "CLAUDE_CODE_MAX_RETRIES=0")
	start := time.Now()
	r := sb.Run(t, "", "-p", "go")
	if r.Code != 1 {
		t.Fatalf("code %d, want 1; stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(strings.ToLower(r.Stderr), "timeout") {
		t.Errorf("stderr %q does not say the request timed out", r.Stderr)
	}
	// Far below the 30 s the server would take; the run's own limit is 60 s.
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the run waited %v for a server set to answer after 30 s", d)
	}
}

// A refused key names where the key came from, so the user knows what to
// fix.
func TestRefusedKeyNamesItsSource(t *testing.T) {
	srv := server(t, llmtest.Turn{Fault: &llmtest.Fault{Status: 401, ErrorType: "authentication_error", Message: "invalid x-api-key"}})
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "go")
	if r.Code != 1 {
		t.Fatalf("code %d, want 1", r.Code)
	}
	if !strings.Contains(r.Stderr, "invalid x-api-key") || !strings.Contains(r.Stderr, "ANTHROPIC_API_KEY") {
		t.Errorf("stderr %q: want the API's message and the variable the key came from", r.Stderr)
	}
	if n := strings.Count(strings.TrimSpace(r.Stderr), "\n"); n != 0 {
		t.Errorf("stderr has %d extra lines: %q", n, r.Stderr)
	}
}
