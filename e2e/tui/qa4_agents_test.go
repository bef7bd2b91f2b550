package tui

import (
	"testing"

	"reins/internal/llm/llmtest"
)

// A background command that finishes after the turn, while reins waits
// for input, starts a turn with its notification: the model's answer to
// it shows without the user typing anything.
func TestQA4FinishedBackgroundCommandWakesTheModel(t *testing.T) {
	tt := newTerm(t,
		llmtest.Calls(llmtest.ToolUse("b1", "Bash", map[string]any{
			"command": "sleep 1; echo built", "description": "build", "run_in_background": true})),
		llmtest.Reply("Building in the background."),
		llmtest.Reply("The background build is done."),
	)
	tt.start("--allowedTools", "Bash")
	tt.ready()
	tt.prompt("build in the background")
	tt.waitFor("Building in the background.", "The background build is done.")
}
