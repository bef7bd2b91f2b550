package e2e

import (
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A failing Bash call in a parallel batch stops its running Bash siblings;
// the model must be told, with an error result, that they were cancelled
// and why, not get a plain result it could take for a finished command.
func TestQABashFailingCallInParallelBatchAnswersSiblingsAsCancelledErrors(t *testing.T) {
	srv := server(t,
		llmtest.Calls(
			llmtest.ToolUse("toolu_slow", "Bash", map[string]any{"command": "echo begun; sleep 20; echo ended"}),
			llmtest.ToolUse("toolu_bad", "Bash", map[string]any{"command": "sleep 0.3; ls /no-such-folder-qa"})),
		llmtest.Reply("seen"))
	sb := e2etest.NewSandbox(t, srv.URL)
	e2etest.Binary(t)
	start := time.Now()
	r := sb.Run(t, "", "-p", "check", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the slow sibling was not stopped (run took %s)", d)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 2 {
		t.Fatalf("%d tool results", len(res))
	}
	slow, bad := res[0], res[1]
	if !bad.IsError || !strings.Contains(bad.ResultText(), "No such file") {
		t.Errorf("failing call result = %q (error %v)", bad.ResultText(), bad.IsError)
	}
	text := slow.ResultText()
	if !slow.IsError {
		t.Errorf("cancelled sibling is not an error result: %q", text)
	}
	if !strings.Contains(text, "Cancelled") || !strings.Contains(text, "ls /no-such-folder-qa") {
		t.Errorf("cancelled sibling does not say it was cancelled by the failing call: %q", text)
	}
	if !strings.Contains(text, "begun") || strings.Contains(text, "ended") {
		t.Errorf("cancelled sibling should keep the output it had: %q", text)
	}
}
