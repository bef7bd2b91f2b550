package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// bareProject fills sb with what bare mode must leave alone: a CLAUDE.md,
// a project hook that leaves a mark, an output style setting, an agent
// file, a skill-like command and an .mcp.json server.
func bareProject(t *testing.T, sb *e2etest.Sandbox) (hookMark string) {
	t.Helper()
	hookMark = filepath.Join(sb.Home, "hook-ran")
	sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY-MARKER\n")
	sb.Write(t, ".claude/settings.json", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch `+hookMark+`"}]}]},"outputStyle":"Explanatory"}`)
	sb.Write(t, ".claude/agents/rev.md", "---\nname: rev\ndescription: reviews code\n---\nReview.\n")
	sb.Write(t, ".claude/commands/greet.md", "---\ndescription: greets someone\n---\nSay hello to $ARGUMENTS\n")
	sb.Write(t, ".mcp.json", `{"mcpServers":{"disk":{"command":"/bin/false"}}}`)
	return hookMark
}

// --bare gives the model Bash, Read and Edit and a short prompt, and reads
// none of the project's hooks, memory, output style, agents or MCP
// servers; what the command line passes (--append-system-prompt) is kept.
func TestBareModeReadsNothingFromDisk(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	hookMark := bareProject(t, sb)
	r := sb.Run(t, "", "-p", "hi", "--bare", "--append-system-prompt", "APPENDED-MARKER", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	req := reqs[0]
	if got := req.ToolNames(); !slices.Equal(got, []string{"Bash", "Edit", "Read"}) {
		t.Errorf("tools %v, want Bash Edit Read", got)
	}
	sys := req.SystemText()
	if !strings.Contains(sys, "APPENDED-MARKER") || !strings.Contains(sys, "Working folder: "+sb.Dir) {
		t.Errorf("system prompt lacks the appended text or the folder:\n%s", sys)
	}
	if strings.Contains(sys, "# Environment") || strings.Contains(sys, "Output style") {
		t.Errorf("system prompt is the full one, want the short one:\n%s", sys)
	}
	body := string(req.Body)
	for _, leak := range []string{"PROJECT-MEMORY-MARKER", "greets someone", "reviews code"} {
		if strings.Contains(body, leak) {
			t.Errorf("the request carries %q from disk", leak)
		}
	}
	if _, err := os.Stat(hookMark); err == nil {
		t.Error("the project's UserPromptSubmit hook ran")
	}
	var init struct {
		Tools       []string `json:"tools"`
		MCPServers  []any    `json:"mcp_servers"`
		OutputStyle string   `json:"output_style"`
		Agents      []string `json:"agents"`
	}
	if err := json.Unmarshal([]byte(r.Lines()[0]), &init); err != nil {
		t.Fatal(err)
	}
	if len(init.MCPServers) != 0 || init.OutputStyle != "default" || slices.Contains(init.Agents, "rev") {
		t.Errorf("init line: servers %v, style %q, agents %v; want none, default, no rev", init.MCPServers, init.OutputStyle, init.Agents)
	}
}

// Without --bare the same project's files do take effect: the test above
// would pass for a project reins never reads.
func TestBareModeControlReadsTheProject(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	hookMark := bareProject(t, sb)
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "PROJECT-MEMORY-MARKER") {
		t.Error("without --bare the project's CLAUDE.md is not sent")
	}
	if _, err := os.Stat(hookMark); err != nil {
		t.Error("without --bare the project's hook did not run")
	}
}

// In bare mode a command named in the prompt still runs, hooks given in
// --settings still fire, and the tools' environment says CLAUDE_CODE_SIMPLE.
func TestBareModeKeepsWhatTheCommandLineGives(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("t1", "Bash", map[string]string{"command": "echo simple=$CLAUDE_CODE_SIMPLE"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	bareProject(t, sb)
	flagMark := filepath.Join(sb.Home, "flag-hook-ran")
	settings := `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch ` + flagMark + `"}]}]}}`
	r := sb.Run(t, "", "-p", "/greet bob", "--bare", "--settings", settings, "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if !strings.Contains(string(reqs[0].Body), "Say hello to bob") {
		t.Error("the /greet command was not expanded in bare mode")
	}
	if _, err := os.Stat(flagMark); err != nil {
		t.Error("the hook from --settings did not run in bare mode")
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || !strings.Contains(resultText(res[0]), "simple=1") {
		t.Errorf("Bash result %v, want simple=1", res)
	}
}
