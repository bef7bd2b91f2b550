package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// gapConfig builds the test MCP server (testdata/mcpgapserver: the text
// resource docs://api/auth, docs://broken whose read fails, and the tools
// dump and bigdump) and returns an --mcp-config naming it "gap".
func gapConfig(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpgapserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/mcpgapserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gap": map[string]any{"command": bin}}})
	return string(cfg)
}

// lastUserBlocks are the text blocks of the last user message a request
// carried.
func lastUserBlocks(t *testing.T, r *llmtest.Request) []string {
	t.Helper()
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role != llm.RoleUser {
			continue
		}
		var out []string
		for _, b := range r.Messages[i].Content {
			if b.Type == llm.BlockText {
				out = append(out, b.Text)
			}
		}
		return out
	}
	t.Fatal("no user message")
	return nil
}

// blockWith returns the block starting with prefix ("" when none).
func blockWith(blocks []string, prefix string) string {
	for _, b := range blocks {
		if strings.HasPrefix(b, prefix) {
			return b
		}
	}
	return ""
}

// A prompt that mentions @server:uri gets the resource read from that
// server and attached after the prompt, as Claude Code attaches it; the
// prompt itself goes as typed.
func TestMCPGapMentionedResourceIsAttachedToThePrompt(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("read it"))
	sb := e2etest.NewSandbox(t, srv.URL)
	prompt := "Summarise @gap:docs://api/auth, please."
	r := sb.Run(t, "", "-p", prompt, "--mcp-config", cfg)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	blocks := lastUserBlocks(t, srv.Requests()[0])
	if blockWith(blocks, prompt) != prompt {
		t.Errorf("blocks %q lack the prompt as typed", blocks)
	}
	want := "<mcp-resource server=\"gap\" uri=\"docs://api/auth\">\nAuthenticate with a bearer token in the Authorization header.\n</mcp-resource>"
	if got := blockWith(blocks, `<mcp-resource server="gap"`); got != want {
		t.Errorf("resource block = %q, want %q (blocks %q)", got, want, blocks)
	}
}

// A mentioned resource that cannot be read, or of a server that does not
// exist, is attached as a note saying why; the turn still runs.
func TestMCPGapUnreadableMentionedResourceIsANoteNotAFailure(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("went on"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "Compare @gap:docs://broken with @nosuch:issue://123 and @down:docs://a", "--mcp-config", cfg,
		"--mcp-config", `{"mcpServers":{"down":{"command":"/nonexistent/down-server"}}}`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "went on" {
		t.Fatalf("code %d out %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	blocks := lastUserBlocks(t, srv.Requests()[0])
	broken := blockWith(blocks, `<mcp-resource server="gap" uri="docs://broken">`)
	if !strings.Contains(broken, "[not attached: ") || !strings.Contains(broken, "the docs store is offline") {
		t.Errorf("broken resource block = %q", broken)
	}
	missing := blockWith(blocks, `<mcp-resource server="nosuch" uri="issue://123">`)
	if !strings.Contains(missing, `[not attached: no MCP server is named "nosuch"]`) {
		t.Errorf("missing server block = %q (blocks %q)", missing, blocks)
	}
	down := blockWith(blocks, `<mcp-resource server="down" uri="docs://a">`)
	if !strings.Contains(down, `[not attached: MCP server "down" has no resources available (failed: `) || !strings.Contains(down, "/nonexistent/down-server") {
		t.Errorf("failed server block = %q", down)
	}
}

// Stream-json input (the Agent SDK's user messages) attaches mentioned
// resources too.
func TestMCPGapMentionedResourceInAStreamJSONUserMessage(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"Check @gap:docs://api/auth"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--mcp-config", cfg)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	got := blockWith(lastUserBlocks(t, srv.Requests()[0]), `<mcp-resource server="gap" uri="docs://api/auth">`)
	if !strings.Contains(got, "bearer token") {
		t.Errorf("resource block = %q", got)
	}
}

// A custom command whose body mentions a resource includes it (not as a
// missing file), and a resource in its arguments is attached too.
func TestMCPGapCustomCommandMentionsAResource(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/auth.md", "Review the auth docs @gap:docs://api/auth against $ARGUMENTS.\n")
	r := sb.Run(t, "", "-p", "/auth @gap:docs://broken", "--mcp-config", cfg)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	text := strings.Join(lastUserBlocks(t, srv.Requests()[0]), "\n---\n")
	if strings.Contains(text, "not included") {
		t.Errorf("the resource was taken for a file:\n%s", text)
	}
	if strings.Count(text, `<mcp-resource server="gap" uri="docs://api/auth">`+"\nAuthenticate with a bearer token") != 1 {
		t.Errorf("the body's resource is not included once:\n%s", text)
	}
	if !strings.Contains(text, `<mcp-resource server="gap" uri="docs://broken">`+"\n[not attached: ") {
		t.Errorf("the argument's resource is not attached:\n%s", text)
	}
}

// dumpTurn has the model call a tool of the test server for chars
// characters (through ExecuteExtraTool: MCP tools are deferred).
func dumpTurn(toolName string, chars int) llmtest.Turn {
	return llmtest.Calls(llmtest.ToolUse("toolu_dump", "ExecuteExtraTool",
		map[string]any{"tool_name": "mcp__gap__" + toolName, "input": map[string]any{"chars": chars}}))
}

// dumpResult runs a print-mode turn in which the model calls toolName for
// chars characters, with env added, and returns the result the model got.
func dumpResult(t *testing.T, toolName string, chars int, env ...string) string {
	t.Helper()
	cfg := gapConfig(t)
	srv := server(t, dumpTurn(toolName, chars), llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, env...)
	r := sb.Run(t, "", "-p", "dump", "--mcp-config", cfg, "--allowedTools", "mcp__gap")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	return srv.Requests()[1].ToolResults()[0].ResultText()
}

var savedTo = regexp.MustCompile(`Full output saved to: (\S+)`)

// An MCP tool result over MAX_MCP_OUTPUT_TOKENS (estimated at four
// characters a token) is saved to a file the model can read, and the
// result says so, naming the variable and the limit.
func TestMCPGapOutputOverMaxMCPOutputTokensIsSavedAndSaid(t *testing.T) {
	got := dumpResult(t, "dump", 6000, "MAX_MCP_OUTPUT_TOKENS=1000")
	if !strings.HasPrefix(got, "<persisted-output>") ||
		!strings.Contains(got, "about 1500 tokens, over the limit of 1000 tokens that MAX_MCP_OUTPUT_TOKENS sets") {
		t.Fatalf("result = %q", got)
	}
	m := savedTo.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no file named in %q", got)
	}
	data, err := os.ReadFile(m[1])
	if err != nil || len(data) != 6000 {
		t.Errorf("saved file: %d bytes, %v; want the whole 6000", len(data), err)
	}
}

// MAX_MCP_OUTPUT_TOKENS works from the "env" of settings too, where
// Claude Code users commonly keep it.
func TestMCPGapMaxMCPOutputTokensFromSettingsEnv(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, dumpTurn("dump", 6000), llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	writeJSON(t, filepath.Join(sb.Home, ".claude", "settings.json"), map[string]any{"env": map[string]string{"MAX_MCP_OUTPUT_TOKENS": "1000"}})
	r := sb.Run(t, "", "-p", "dump", "--mcp-config", cfg, "--allowedTools", "mcp__gap")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[1].ToolResults()[0].ResultText(); !strings.Contains(got, "over the limit of 1000 tokens that MAX_MCP_OUTPUT_TOKENS sets") {
		t.Errorf("result = %q", got)
	}
}

// Raising MAX_MCP_OUTPUT_TOKENS lets a result longer than the 50,000
// characters of an ordinary tool result reach the model whole.
func TestMCPGapRaisedMaxMCPOutputTokensKeepsALargeResultInline(t *testing.T) {
	got := dumpResult(t, "dump", 60_000, "MAX_MCP_OUTPUT_TOKENS=20000")
	if len(got) != 60_000 || strings.Contains(got, "persisted-output") {
		t.Errorf("result: %d characters, starting %q", len(got), got[:min(len(got), 200)])
	}
}

// Without MAX_MCP_OUTPUT_TOKENS, a result over the ordinary 50,000
// characters is saved to a file, and the result says how to raise the
// limit; a tool whose server declares anthropic/maxResultSizeChars keeps
// results up to that size inline.
func TestMCPGapDefaultLimitAndTheServersOwnLimit(t *testing.T) {
	got := dumpResult(t, "dump", 60_000)
	if !strings.HasPrefix(got, "<persisted-output>") || !strings.Contains(got, "(MAX_MCP_OUTPUT_TOKENS changes it)") {
		t.Errorf("default: result = %q", got[:min(len(got), 3000)])
	}
	got = dumpResult(t, "bigdump", 120_000)
	if len(got) != 120_000 || strings.Contains(got, "persisted-output") {
		t.Errorf("declared limit: result %d characters, starting %q", len(got), got[:min(len(got), 200)])
	}
}

// reins mcp reset-project-choices forgets the answers about the project's
// .mcp.json servers that reins recorded, keeps the other settings, and
// points out answers kept in Claude Code's own file, which it leaves.
func TestMCPGapResetProjectChoices(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	local := filepath.Join(sb.Dir, ".claude", "settings.local.json")
	writeJSON(t, local, map[string]any{"enabledMcpjsonServers": []string{"team"}, "disabledMcpjsonServers": []string{"other"},
		"permissions": map[string]any{"allow": []string{"Bash(ls)"}}})
	writeJSON(t, filepath.Join(sb.Home, ".claude", ".claude.json"), map[string]any{"projects": map[string]any{
		sb.Dir: map[string]any{"enableAllProjectMcpServers": true}}})
	r := sb.Run(t, "", "mcp", "reset-project-choices")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "Removed enabledMcpjsonServers, disabledMcpjsonServers from .claude/settings.local.json") ||
		!strings.Contains(r.Stdout, ".claude.json still records choices for this project") {
		t.Errorf("output:\n%s", r.Stdout)
	}
	var got map[string]any
	data, _ := os.ReadFile(local)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%s: %v\n%s", local, err, data)
	}
	if _, ok := got["enabledMcpjsonServers"]; ok || got["permissions"] == nil {
		t.Errorf("settings.local.json after the reset:\n%s", data)
	}
}

// Against a real peer (server-everything): a text resource and a text
// resource sent as a blob are both attached as text.
func TestMCPGapMentionedResourcesOfServerEverything(t *testing.T) {
	cfg := everythingConfig(t)
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "Compare @ev:demo://resource/dynamic/text/7 and @ev:demo://resource/dynamic/blob/3", "--mcp-config", cfg)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	blocks := lastUserBlocks(t, srv.Requests()[0])
	text := blockWith(blocks, `<mcp-resource server="ev" uri="demo://resource/dynamic/text/7">`)
	if !strings.Contains(text, "\nResource 7: This is a plaintext resource") {
		t.Errorf("text resource block = %q", text)
	}
	blob := blockWith(blocks, `<mcp-resource server="ev" uri="demo://resource/dynamic/blob/3">`)
	if !strings.Contains(blob, "Resource 3: This is a base64 blob") {
		t.Errorf("blob resource block = %q", blob)
	}
}

// In print mode, as in the terminal UI, a prompt's @file and @folder
// mentions attach them, and a file a Read deny rule covers is not read;
// the MCP resource beside them is attached too.
func TestMCPGapPrintModeAttachesMentionedFilesAndResources(t *testing.T) {
	cfg := gapConfig(t)
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.md", "the notes\n")
	sb.Write(t, "src/a.go", "package src\n")
	sb.Write(t, "secret.env", "TOKEN=x\n")
	writeJSON(t, filepath.Join(sb.Home, ".claude", "settings.json"), map[string]any{"permissions": map[string]any{"deny": []string{"Read(./secret.env)"}}})
	r := sb.Run(t, "", "-p", "Check @notes.md, @src/ and @secret.env against @gap:docs://api/auth", "--mcp-config", cfg)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	blocks := lastUserBlocks(t, srv.Requests()[0])
	for _, want := range []string{"<file path=\"notes.md\">\nthe notes\n</file>", "<folder path=\"src/\">\na.go\n</folder>",
		"[@secret.env not included: a permission rule denies reading it]"} {
		if blockWith(blocks, want) != want {
			t.Errorf("no block %q in %q", want, blocks)
		}
	}
	if got := blockWith(blocks, `<mcp-resource server="gap"`); !strings.Contains(got, "bearer token") {
		t.Errorf("resource block = %q", got)
	}
	if strings.Contains(strings.Join(blocks, "\n"), "TOKEN=x") {
		t.Error("the denied file's content was sent")
	}
}
