package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An asyncRewake hook runs in the background, and when it exits 2 what it
// printed wakes the model: in a stream-json session that is idle, a new
// turn starts with the hook's report.
func TestAsyncRewakeHookExit2WakesTheModel(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo edited"})),
		llmtest.Reply("edited the file"),
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return strings.Contains(r.LastUserText(), "3 tests failed in pkg/foo")
		}, Blocks: []llmtest.Block{llmtest.Text("fixing the 3 failing tests")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	// The hook waits for the test's go-ahead, so the first turn is over
	// (reins idle) when it reports.
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "asyncRewake": true, "command": "while [ ! -f \"$CLAUDE_PROJECT_DIR/go-ahead\" ]; do sleep 0.05; done; echo '3 tests failed in pkg/foo' >&2; exit 2"}]}]}}`)
	p := startSDK(t, sb)
	p.send(sdkUserLine("edit the file"))
	if res := p.next("result"); res["result"] != "edited the file" {
		t.Fatalf("first result %v", res["result"])
	}
	if err := os.WriteFile(filepath.Join(sb.Dir, "go-ahead"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := p.next("result"); res["result"] != "fixing the 3 failing tests" {
		t.Fatalf("the hook's report did not wake the model: result %v", res["result"])
	}
	p.finish()
}
