package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// A Markdown text pasted into the terminal that starts with "# Title"
// goes to the model as the prompt; it was written to CLAUDE.md as a
// memory note.
func TestQA10PastedMarkdownHeadingIsAPrompt(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("looking at the report"))
	tt.start()
	tt.ready()
	report := "# Bug report\n\nSteps:\n1. run it\n2. see the crash"
	tt.paste(report)
	tt.waitFor("[Pasted text #1 +4 lines]")
	tt.keys("Enter")
	tt.waitFor("looking at the report")
	if got := tt.requests(1)[0].LastUserText(); !strings.Contains(got, "</system-reminder>\n"+report+"\n") {
		t.Fatalf("the model got %q", got)
	}
	if _, err := os.Stat(filepath.Join(tt.sb.Dir, "CLAUDE.md")); !os.IsNotExist(err) {
		t.Fatalf("CLAUDE.md was written (err %v)", err)
	}
}

// A Bash result whose command redraws a progress line with carriage
// returns shows the line's last state under the result mark; the raw
// carriage returns drew it at the left edge, over the mark's indent.
func TestQA10BashProgressLineShowsItsLastState(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{"command": `printf 'step one\nprogress 10%%\rprogress 100%%\n'`, "description": "progress"})),
		llmtest.Reply("finished"),
	)
	if err := os.MkdirAll(filepath.Join(tt.sb.Dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tt.sb.Dir, ".claude", "settings.json"), []byte(`{"permissions":{"allow":["Bash(printf *)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tt.start()
	tt.ready()
	tt.prompt("show progress")
	s := tt.waitFor("finished")
	if !strings.Contains(s, "⎿  step one\n     progress 100%\n") {
		t.Fatalf("the progress line is not under the result:\n%s", s)
	}
}
