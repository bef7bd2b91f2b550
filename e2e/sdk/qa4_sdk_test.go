package sdk_test

import (
	"os"
	"path/filepath"
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

const haiku = "claude-haiku-4-5"

// The SDK's agent option (--agent) runs the main conversation as that
// agent, here one the agents option defines in initialize: its prompt is
// the system prompt, its tools (and the main conversation's own) are the
// session's, its model the session's. Before, reins ignored --agent as an
// unknown option and ran as itself.
func TestQA4TypeScriptAgentSDKRunsTheMainConversationAsAnAgent(t *testing.T) {
	srv := server(t, reply("Reviewed.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runAgent(t, sb, "main-agent")

	inits := ofType(msgs, "system", "init")
	if len(inits) != 1 || inits[0]["model"] != haiku {
		t.Fatalf("init lines %s; want one with model %s", js(inits), haiku)
	}
	if got := js(inits[0]["tools"]); strings.Contains(got, `"Bash"`) || !strings.Contains(got, `"Read"`) || !strings.Contains(got, `"Grep"`) {
		t.Errorf("init tools %s: want the agent's Read and Grep, no Bash", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[0].Model != haiku {
		t.Errorf("request model %s, want %s", reqs[0].Model, haiku)
	}
	if !strings.Contains(reqs[0].SystemText(), "You are REVIEWER-PROMPT.") {
		t.Errorf("system prompt %q lacks the agent's prompt", reqs[0].SystemText())
	}
	for _, name := range reqs[0].ToolNames() {
		if name == "Bash" || name == "Write" || name == "Agent" {
			t.Errorf("the request offers %s, which the agent's tools leave out", name)
		}
	}
	if last := msgs[len(msgs)-1]; last["type"] != "result" || last["result"] != "Reviewed." {
		t.Errorf("last message %s", js(last))
	}
}

// An --agent no definition names fails every turn with an error that says
// so (and lists the agents), rather than running as reins.
func TestQA4UnknownAgentFailsEachTurnWithANamedError(t *testing.T) {
	srv := server(t, reply("Should not be asked.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--agent", "nobody")
	c.request("init-1", `{"subtype":"initialize","hooks":null,"agents":{"reviewer":{"description":"d","prompt":"p"}}}`)
	c.expect(controlErr("init-1", `initialize: --agent: no agent named "nobody" (the agents are: Explore, general-purpose, Plan, reviewer)`))
	c.user("Hello?")
	c.expectSkipping([]string{"system"}, errorResult(`--agent: no agent named \"nobody\"`))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// In print mode --agent takes an agent --agents defines; one that no
// definition names is a usage error.
func TestQA4PrintModeRunsAsTheAgentAndRefusesAnUnknownOne(t *testing.T) {
	srv := server(t, reply("Reviewed.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	agents := `{"reviewer":{"description":"Reviews.","prompt":"You are REVIEWER-PROMPT.","tools":["Read"]}}`
	r := sb.Run(t, "", "-p", "--agents", agents, "--agent", "reviewer", "Review.")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Reviewed." {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	req := srv.Requests()[0]
	if !strings.Contains(req.SystemText(), "You are REVIEWER-PROMPT.") {
		t.Errorf("system prompt lacks the agent's prompt")
	}
	if got := strings.Join(req.ToolNames(), ","); got != "Read" {
		t.Errorf("tools %s, want Read", got)
	}
	r = sb.Run(t, "", "-p", "--agent", "nobody", "Review.")
	if r.Code != 2 || !strings.Contains(r.Stderr, `--agent: no agent named "nobody"`) {
		t.Errorf("unknown agent: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("the refused run reached the model")
	}
}

// A hook matcher with onFailure "block" makes a failed callback block the
// tool call it guards; reins answers initialize with
// hook_on_failure_supported. Before, the SDK refused the session (the
// answer lacked it), and a failed callback let the call run.
func TestQA4FailedGuardHookWithOnFailureBlockStopsTheCall(t *testing.T) {
	srv := server(t, call("toolu_1", "Bash", `{"command":"touch made","description":"make"}`, 100, 10), reply("Blocked.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runAgent(t, sb, "hook-block")

	if _, err := os.Stat(filepath.Join(sb.Dir, "made")); err == nil {
		t.Error("the command ran although its guard failed")
	}
	users := ofType(msgs, "user", "")
	if len(users) != 1 {
		t.Fatalf("%d user messages", len(users))
	}
	got := js(users[0]["message"])
	if !strings.Contains(got, `"is_error":true`) || !strings.Contains(got, `onFailure is \"block\"`) || !strings.Contains(got, "guard is down") {
		t.Errorf("tool result %s: want an error naming the block and the callback's failure", got)
	}
	if last := msgs[len(msgs)-1]; last["type"] != "result" || last["result"] != "Blocked." {
		t.Errorf("last message %s", js(last))
	}
}

// An onFailure reins does not know is refused by name, rather than read
// as "continue" (a guard meant to fail closed would fail open).
func TestQA4UnknownOnFailureIsRefused(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0"],"onFailure":"deny"}]}}`)
	c.expect(controlErr("init-1", `initialize: hooks.PreToolUse: onFailure "deny": want continue or block`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// A user message with "shouldQuery": false starts no turn and gets no
// result; its content reaches the model with the next message. Before,
// it ran a turn of its own (a model call and a result the client did not
// wait for).
func TestQA4MessageWithShouldQueryFalseWaitsForTheNext(t *testing.T) {
	srv := server(t, reply("Got both.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.send(`{"type":"user","session_id":"","message":{"role":"user","content":"CONTEXT-FIRST"},"parent_tool_use_id":null,"shouldQuery":false}`)
	c.user("Question second.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, textBlock("Got both."), 100))
	c.expect(resultLine(resultSpec{result: "Got both.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests; want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	first, second := strings.Index(body, "CONTEXT-FIRST"), strings.Index(body, "Question second.")
	if first < 0 || second < 0 || first > second {
		t.Errorf("the request should carry the held message before the next: %d, %d", first, second)
	}
}

// --setting-sources decides which memory files load, as the Agent SDK
// documents ("must include 'project' to load CLAUDE.md files"): the SDK's
// isolation mode (settingSources [], sent as an empty list) loads no
// CLAUDE.md. Before, every memory file loaded whatever the sources.
func TestQA4SettingSourcesDecideWhichMemoryLoads(t *testing.T) {
	srv := server(t, reply("A.", 100, 10), reply("B.", 100, 10), reply("C.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY-MARKER\n")
	sb.Write(t, "CLAUDE.local.md", "LOCAL-MEMORY-MARKER\n")
	for i, tc := range []struct {
		sources        string
		project, local bool
	}{{"", false, false}, {"project", true, false}, {"user,local", false, true}} {
		r := sb.Run(t, "", "-p", "--setting-sources", tc.sources, "Hi.")
		if r.Code != 0 {
			t.Fatalf("--setting-sources %q: exit %d: %s", tc.sources, r.Code, r.Stderr)
		}
		body := string(srv.Requests()[i].Body)
		if got := strings.Contains(body, "PROJECT-MEMORY-MARKER"); got != tc.project {
			t.Errorf("--setting-sources %q: CLAUDE.md sent = %v, want %v", tc.sources, got, tc.project)
		}
		if got := strings.Contains(body, "LOCAL-MEMORY-MARKER"); got != tc.local {
			t.Errorf("--setting-sources %q: CLAUDE.local.md sent = %v, want %v", tc.sources, got, tc.local)
		}
	}
}
