package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// transcriptStamps returns the userType and entrypoint values of the
// message lines of the one transcript in sb.
func transcriptStamps(t *testing.T, sb *e2etest.Sandbox) (userTypes, entrypoints map[string]bool) {
	t.Helper()
	files := sb.Transcripts(t)
	if len(files) != 1 {
		t.Fatalf("transcripts: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	userTypes, entrypoints = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct{ Type, UserType, Entrypoint string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if e.Type == "user" || e.Type == "assistant" {
			userTypes[e.UserType] = true
			entrypoints[e.Entrypoint] = true
		}
	}
	return userTypes, entrypoints
}

// Transcript lines say who started the session, as Claude Code's do: the
// Agent SDKs' session listings tell programmatic sessions by entrypoint.
func TestQA8TranscriptLinesNameTheEntrypoint(t *testing.T) {
	srv := server(t, llmtest.Reply("hello"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	users, entries := transcriptStamps(t, sb)
	if len(users) != 1 || !users["external"] {
		t.Errorf("userType values %v, want only external", users)
	}
	if len(entries) != 1 || !entries["sdk-cli"] {
		t.Errorf("entrypoint values %v, want only sdk-cli for print mode", entries)
	}
}

func TestQA8TranscriptEntrypointFollowsTheSDKsVariable(t *testing.T) {
	srv := server(t, llmtest.Reply("hello"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_ENTRYPOINT=sdk-ts")
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, entries := transcriptStamps(t, sb); len(entries) != 1 || !entries["sdk-ts"] {
		t.Errorf("entrypoint values %v, want only sdk-ts", entries)
	}
}
