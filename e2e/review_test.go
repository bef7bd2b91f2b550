package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// /review and /security-review are built-in prompt commands, as in Claude
// Code: they send the model a review request (naming the pull request or
// focus given), in print mode too; a project command of the same name
// replaces the built-in one.
func TestReviewCommandsSendAReviewRequest(t *testing.T) {
	srv := server(t, llmtest.Reply("r1"), llmtest.Reply("r2"), llmtest.Reply("r3"))
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, p := range []string{"/review 42", "/security-review the upload handler"} {
		if r := sb.Run(t, "", "-p", p); r.Code != 0 {
			t.Fatalf("%s: code %d: %s", p, r.Code, r.Stderr)
		}
	}
	sb.Write(t, ".claude/commands/review.md", "---\ndescription: ours\n---\nOUR-OWN-REVIEW $ARGUMENTS\n")
	if r := sb.Run(t, "", "-p", "/review 7"); r.Code != 0 {
		t.Fatalf("custom /review: code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[0].LastUserText(); !strings.Contains(got, "pull request 42") || !strings.Contains(got, "gh pr diff") {
		t.Errorf("/review 42 sent:\n%s", got)
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "security review") || !strings.Contains(got, "the upload handler") {
		t.Errorf("/security-review sent:\n%s", got)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "OUR-OWN-REVIEW 7") || strings.Contains(got, "gh pr diff") {
		t.Errorf("the project's /review did not replace the built-in one:\n%s", got)
	}
}
