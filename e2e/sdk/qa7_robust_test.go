package sdk_test

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// The TypeScript SDK's update_environment_variables message, sent in its
// streaming input, sets the variable for the Bash command of the next
// turn; before, reins answered it "not supported" and the command saw
// nothing.
func TestTypeScriptSDKUpdateEnvironmentVariablesReachBash(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_env", "Bash", map[string]any{"command": `echo "token=$QA7_TOKEN"`})),
		llmtest.Reply("Printed."))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runScript(t, sb, "qa7env.mjs", "")
	res := ofType(msgs, "result", "")
	if len(res) != 1 || res[0]["subtype"] != "success" {
		t.Fatalf("results %v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var out []string
	for _, b := range reqs[1].ToolResults() {
		out = append(out, b.ResultText())
	}
	if got := strings.Join(out, "\n"); !strings.Contains(got, "token=from-the-sdk") {
		t.Errorf("the Bash command printed %q, want the variable the SDK set", got)
	}
}
