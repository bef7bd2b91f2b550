package sdk_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// systemTexts is the text of each system block of a request.
func systemTexts(t *testing.T, raw []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, b := range raw {
		var v struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("system block %s: %v", b, err)
		}
		out = append(out, v.Text)
	}
	return out
}

// The SDK's SYSTEM_PROMPT_DYNAMIC_BOUNDARY in a string-list systemPrompt
// parts the shared text from the session's: the model gets the two parts
// as blocks of their own and never the marker (it was sent as prompt
// text).
func TestQA10SystemPromptBoundaryMarkerPartsThePromptAndIsNotSent(t *testing.T) {
	srv := server(t, reply("Hello.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	runScript(t, sb, "qa10.mjs", "boundary")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := systemTexts(t, reqs[0].System)
	if strings.Join(got, "|") != "SHARED-PART.|SESSION-PART." {
		t.Errorf("system blocks %q, want the shared part then the session's, without the marker", got)
	}
}

// The title option names the session as it starts, as /rename would (the
// SDK's getSessionInfo reads it back); resuming it with another title
// keeps the name it has. reins ignored the title.
func TestQA10TitleOptionNamesTheSession(t *testing.T) {
	srv := server(t, reply("Hello.", 100, 5), reply("Again.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa10.mjs", "title", "REINS_CONFIG_DIR="+filepath.Join(sb.Home, ".claude"))
	if got := summary["titled"]; got != "Release checklist" {
		t.Errorf("customTitle after the first query = %v, want the title option", got)
	}
	if got := summary["resumedTitle"]; got != "Release checklist" {
		t.Errorf("customTitle after resuming with another title = %v, want the name it had", got)
	}
}
