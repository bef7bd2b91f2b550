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

// SLASH_COMMAND_TOOL_CHAR_BUDGET sets the size of the skill listing the
// model gets: with a small budget the descriptions go and the names stay.
func TestSkillListingBudgetFromEnvironment(t *testing.T) {
	srv := server(t, llmtest.Reply("a"), llmtest.Reply("b"))
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, n := range []string{"alpha", "beta", "gamma"} {
		sb.Write(t, ".claude/skills/"+n+"/SKILL.md", "---\nname: "+n+"\ndescription: "+strings.Repeat("long description words of "+n+" ", 8)+"\n---\nDo "+n+".\n")
	}
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sb.Env = append(sb.Env, "SLASH_COMMAND_TOOL_CHAR_BUDGET=60")
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	full, small := string(reqs[0].Body), string(reqs[1].Body)
	if !strings.Contains(full, "long description words of beta") {
		t.Fatal("without the variable the listing lacks the descriptions")
	}
	if strings.Contains(small, "long description words of beta") || !strings.Contains(small, "beta") {
		t.Error("with a 60-character budget the listing still has the descriptions, or lost the names")
	}
}

// A deny rule on one skill (Skill(secret)) leaves it out of the listing the
// model gets; the others stay.
func TestDeniedSkillIsNotListed(t *testing.T) {
	srv := server(t, llmtest.Reply("a"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/secret/SKILL.md", "---\nname: secret\ndescription: the secret skill marker\n---\nDo it.\n")
	sb.Write(t, ".claude/skills/open/SKILL.md", "---\nname: open\ndescription: the open skill marker\n---\nDo it.\n")
	if r := sb.Run(t, "", "-p", "hi", "--disallowedTools", "Skill(secret)"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	body := string(srv.Requests()[0].Body)
	if strings.Contains(body, "the secret skill marker") || !strings.Contains(body, "the open skill marker") {
		t.Error("the listing shows the denied skill, or lost the allowed one")
	}
}
