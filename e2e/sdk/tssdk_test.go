package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// agentSDK finds node and the TypeScript Agent SDK installed in
// .ci/node_modules (scripts/test.sh installs it). Without them the test
// fails under CI=true and is skipped otherwise.
func agentSDK(t *testing.T) (node, modules string) {
	t.Helper()
	missing := func(what string) {
		msg := what + " is missing; run ./scripts/test.sh (or npm ci --prefix .ci --omit=optional)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	modules, _ = filepath.Abs(filepath.Join("..", "..", ".ci", "node_modules"))
	if _, err := os.Stat(filepath.Join(modules, "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")); err != nil {
		missing("@anthropic-ai/claude-agent-sdk")
	}
	return node, modules
}

// runAgent runs testdata/agent.mjs for a scenario against reins in sb and
// returns the messages the SDK yielded and the script's summary.
func runAgent(t *testing.T, sb *e2etest.Sandbox, scenario string, env ...string) ([]map[string]any, map[string]any) {
	t.Helper()
	return runScript(t, sb, "agent.mjs", scenario, env...)
}

// runScript is runAgent for another script of testdata that prints the
// same way.
func runScript(t *testing.T, sb *e2etest.Sandbox, script, scenario string, env ...string) ([]map[string]any, map[string]any) {
	t.Helper()
	node, modules := agentSDK(t)
	dir := t.TempDir()
	// The scripts, and those they start (stdio MCP servers).
	scripts, _ := filepath.Glob(filepath.Join("testdata", "*.mjs"))
	for _, path := range scripts {
		script, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(path)), script, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The script resolves the SDK from a node_modules beside it.
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, script), scenario)
	cmd.Dir = sb.Dir
	cmd.Env = append(append(append([]string(nil), sb.Env...), "REINS_BIN="+e2etest.Binary(t)), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstderr:\n%s", script, scenario, err, errb.String())
	}
	var msgs []map[string]any
	var summary map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var v struct {
			Msg     map[string]any `json:"msg"`
			Summary map[string]any `json:"summary"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s printed %q", script, line)
		}
		if v.Msg != nil {
			msgs = append(msgs, v.Msg)
		}
		if v.Summary != nil {
			summary = v.Summary
		}
	}
	if summary == nil || summary["error"] != nil {
		t.Fatalf("the SDK failed: %v\nstderr:\n%s", summary["error"], errb.String())
	}
	return msgs, summary
}

// ofType returns the messages of a type (and subtype, when given).
func ofType(msgs []map[string]any, typ, subtype string) []map[string]any {
	var out []map[string]any
	for _, m := range msgs {
		if m["type"] == typ && (subtype == "" || m["subtype"] == subtype) {
			out = append(out, m)
		}
	}
	return out
}

func TestTypeScriptAgentSDKUsesHooksPermissionsAndItsMCPServer(t *testing.T) {
	const shout = "mcp__tools__shout"
	srv := server(t,
		call("toolu_1", shout, `{"text":"hi"}`, 100, 10),
		call("toolu_2", shout, `{"text":"secret"}`, 110, 10),
		reply("All done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runAgent(t, sb, "tools", "ENABLE_TOOL_SEARCH=false")

	if got := js(summary["hooks"]); got != `[{"text":"hi"},{"text":"secret"}]` {
		t.Errorf("the PreToolUse hook saw %s", got)
	}
	if got := js(summary["asks"]); got != `[{"input":{"text":"hi"},"name":"mcp__tools__shout"},{"input":{"text":"secret"},"name":"mcp__tools__shout"}]` {
		t.Errorf("canUseTool saw %s", got)
	}
	inits := ofType(msgs, "system", "init")
	if len(inits) != 1 {
		t.Fatalf("%d init messages", len(inits))
	}
	m := newMatcher(inits[0]["session_id"].(string))
	if err := m.match(`{"tools":"<has:`+shout+`>","mcp_servers":[{"name":"tools","status":"connected"}]}`,
		js(map[string]any{"tools": inits[0]["tools"], "mcp_servers": inits[0]["mcp_servers"]})); err != nil {
		t.Error(err)
	}
	var results []string
	for _, u := range ofType(msgs, "user", "") {
		results = append(results, js(u["message"]))
	}
	want := []string{
		`{"content":[{"content":"HI THERE!","tool_use_id":"toolu_1","type":"tool_result"}],"role":"user"}`,
		`{"content":[{"content":"No secrets.","is_error":true,"tool_use_id":"toolu_2","type":"tool_result"}],"role":"user"}`,
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool results:\n%s\nwant:\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	last := msgs[len(msgs)-1]
	if last["type"] != "result" || last["subtype"] != "success" || last["result"] != "All done." ||
		js(last["permission_denials"]) != `[{"tool_input":{"text":"secret"},"tool_name":"mcp__tools__shout","tool_use_id":"toolu_2"}]` {
		t.Errorf("last message %s", js(last))
	}
	if got := srv.Requests()[1].ToolResults(); len(got) != 1 || got[0].ResultText() != "HI THERE!" {
		t.Errorf("the model was sent %+v", got)
	}
}

func TestTypeScriptAgentSDKStreamsTurnsAndControlsTheSession(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("Very slowly. ", 30))}, Delay: llmtest.Duration(100 * time.Millisecond)}
	srv := server(t, reply("One done.", 100, 10), reply("Two done.", 110, 10), slow)
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runAgent(t, sb, "stream")

	var got []string
	for _, r := range ofType(msgs, "result", "") {
		text, _ := r["result"].(string)
		got = append(got, r["subtype"].(string)+" "+text)
	}
	want := []string{"success One done.", "success Two done.", "error_during_execution "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("results %q, want %q", got, want)
	}
	var inits []string
	for _, in := range ofType(msgs, "system", "init") {
		inits = append(inits, in["model"].(string)+" "+in["permissionMode"].(string))
	}
	if len(inits) < 2 || inits[0] != opus+" default" || inits[1] != sonnet+" acceptEdits" {
		t.Errorf("init lines %q: setModel and setPermissionMode must apply from the next turn", inits)
	}
	if reqs := srv.Requests(); len(reqs) < 2 || reqs[1].Model != sonnet {
		t.Errorf("the second turn did not use the model set by setModel")
	}
	if js(summary["mcpStatus"]) != "[]" {
		t.Errorf("mcpServerStatus = %s", js(summary["mcpStatus"]))
	}
	if got := js(summary["rewind"]); !strings.Contains(got, `"canRewind":false`) || !strings.Contains(got, "file checkpointing is not enabled") {
		t.Errorf("rewindFiles without checkpointing = %s", got)
	}
	if got, _ := summary["toggle"].(string); !strings.Contains(got, `mcp_toggle: no MCP server named "nope"`) {
		t.Errorf("toggleMcpServer of an unknown server = %q, want reins's refusal naming it", got)
	}
	ctx, _ := summary["context"].(map[string]any)
	// Measured after setModel: the window is the next request's model's.
	if ctx["model"] != sonnet || ctx["totalTokens"] != float64(110) || ctx["maxTokens"] != float64(200000) {
		t.Errorf("getContextUsage = %s", js(ctx))
	}
	if !strings.Contains(js(summary["models"]), `"sonnet"`) {
		t.Errorf("supportedModels = %s", js(summary["models"]))
	}
	if len(ofType(msgs, "stream_event", "")) == 0 {
		t.Error("includePartialMessages gave no stream events")
	}
}
