package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Models used to ripgrep's PCRE-less engine sometimes write look-behind or
// back-references; the error must say that is what is unsupported (Go's
// own message for (?<= is "invalid named capture").
func TestQAGrepExplainsUnsupportedRegexFeatures(t *testing.T) {
	srv := server(t,
		llmtest.Calls(
			llmtest.ToolUse("toolu_lb", "Grep", map[string]any{"pattern": `(?<=func )New\w+`}),
			llmtest.ToolUse("toolu_br", "Grep", map[string]any{"pattern": `(\w+) \1`})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.go", "func NewThing() {}\n")
	r := sb.Run(t, "", "-p", "search")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()
	if got := res[0].ResultText(); !res[0].IsError || !strings.Contains(got, "look-behind") {
		t.Errorf("look-behind pattern answered %q", got)
	}
	if got := res[1].ResultText(); !res[1].IsError || !strings.Contains(got, "back-references") {
		t.Errorf("back-reference pattern answered %q", got)
	}
}
