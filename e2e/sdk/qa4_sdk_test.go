package sdk_test

import (
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// With mcpServersDelivery 'initialize' (the SDK's coming default) the SDK
// starts reins with --await-initialize and sends the servers reins runs in
// the initialize request, not on the command line; it ends the session
// unless the answer says mcp_servers_applied. reins takes them before it
// starts its servers: the stdio server's tool and the SDK-hosted one both
// work. Before, reins warned about the unknown option, answered without
// mcp_servers_applied, and the SDK refused to go on.
func TestQA4TypeScriptAgentSDKDeliversMCPServersInInitialize(t *testing.T) {
	srv := server(t,
		call("toolu_1", "mcp__reverser__reverse", `{"text":"abc"}`, 100, 10),
		call("toolu_2", "mcp__tools__shout", `{"text":"hey"}`, 110, 10),
		reply("Both done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runAgent(t, sb, "mcp-initialize", "ENABLE_TOOL_SEARCH=false")

	if summary["applied"] != true {
		t.Errorf("initializationResult().mcp_servers_applied = %v, want true", summary["applied"])
	}
	inits := ofType(msgs, "system", "init")
	if len(inits) != 1 {
		t.Fatalf("%d init messages", len(inits))
	}
	if got := js(inits[0]["mcp_servers"]); got != `[{"name":"reverser","status":"connected"},{"name":"tools","status":"connected"}]` {
		t.Errorf("init mcp_servers = %s", got)
	}
	var results []string
	for _, u := range ofType(msgs, "user", "") {
		results = append(results, js(u["message"]))
	}
	want := []string{
		`{"content":[{"content":"cba","tool_use_id":"toolu_1","type":"tool_result"}],"role":"user"}`,
		`{"content":[{"content":"HEY!","tool_use_id":"toolu_2","type":"tool_result"}],"role":"user"}`,
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool results:\n%s\nwant:\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	if last := msgs[len(msgs)-1]; last["type"] != "result" || last["result"] != "Both done." {
		t.Errorf("last message %s", js(last))
	}
}

// MCP servers in initialize that cannot be used get an error answer that
// names them, and the session goes on without them.
func TestQA4UnusableMCPServersInInitializeAreRefused(t *testing.T) {
	srv := server(t, reply("Fine.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--await-initialize")
	c.request("init-1", `{"subtype":"initialize","hooks":null,"mcpServers":{"bad":{"type":"stdio"}}}`)
	c.expect(controlErr("init-1", `initialize: mcpServers: server "bad" in initialize: a stdio server needs a command`))
	c.user("Hello?")
	c.expectSkipping([]string{"system", "assistant"}, resultLine(resultSpec{result: "Fine.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if strings.Contains(c.stderrText(), "unknown option") {
		t.Errorf("stderr: %s", c.stderrText())
	}
}
