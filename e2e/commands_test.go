package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func TestCustomSlashCommandExpandsInPrintMode(t *testing.T) {
	srv := server(t, llmtest.Reply("reviewed"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/review.md", "---\ndescription: Review a folder\nargument-hint: <path>\n---\nReview the code under $ARGUMENTS and list problems.\n")
	r := sb.Run(t, "", "-p", "/review src/")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "reviewed" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	got := srv.Requests()[0].LastUserText()
	if !strings.Contains(got, "Review the code under src/ and list problems.") || !strings.Contains(got, "<command-name>/review</command-name>") {
		t.Errorf("expanded prompt = %q", got)
	}
}

func TestUnknownSlashCommandIsRefusedWithoutAModelCall(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "/nosuchcommand arg")
	if r.Code != 1 || !strings.Contains(r.Stderr, "Unknown command: /nosuchcommand") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d model requests for an unknown command", n)
	}
}

func TestUserPromptSubmitHookAddsContextAndCanBlock(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"if grep -q forbidden; then echo 'no forbidden prompts' >&2; exit 2; fi; echo 'Ticket: REINS-42'"}]}]}}`)
	r := sb.Run(t, "", "-p", "fix the bug")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "Ticket: REINS-42") {
		t.Errorf("hook context missing: %q", got)
	}
	r = sb.Run(t, "", "-p", "a forbidden thing")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no forbidden prompts") {
		t.Errorf("blocked prompt: code %d err %q", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the blocked prompt must not reach the model", n)
	}
}
