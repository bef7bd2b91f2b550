package e2e

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// The Agent SDK's permissionPrompts: 'none' (--permission-prompts none):
// a call that would ask is denied at once with a message telling the
// model nobody can approve it; the host is never sent can_use_tool.
func TestPermissionPromptsNoneDeniesWithoutAsking(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made-by-bash"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb, "--permission-prompt-tool", "stdio", "--permission-prompts", "none")
	p.send(sdkUserLine("make the file"))
	var asked bool
	for p.lines.Scan() {
		line := p.lines.Text()
		if strings.Contains(line, `"can_use_tool"`) {
			asked = true
		}
		if strings.Contains(line, `"type":"result"`) {
			break
		}
	}
	p.finish()
	if asked {
		t.Error("reins sent can_use_tool although permission prompts are off")
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(resultText(res[0]), "nobody can give approval") {
		t.Errorf("Bash result %+v, want a denial saying nobody can approve", res)
	}
	if r := sb.Run(t, "", "-p", "x", "--permission-prompts", "sometimes"); r.Code != 2 || !strings.Contains(r.Stderr, "host or none") {
		t.Errorf("a bad value: code %d, stderr %q", r.Code, r.Stderr)
	}
}
