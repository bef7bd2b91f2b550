package sdk_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

const sonnet = "claude-sonnet-4-5"

func usage(in, out int) *llmtest.UsageSpec {
	return &llmtest.UsageSpec{InputTokens: in, OutputTokens: out}
}

func reply(text string, in, out int) llmtest.Turn {
	t := llmtest.Reply(text)
	t.Usage = usage(in, out)
	return t
}

func call(id, name, input string, in, out int) llmtest.Turn {
	return llmtest.Turn{Blocks: []llmtest.Block{{Type: "tool_use", ID: id, Name: name, Input: json.RawMessage(input)}}, Usage: usage(in, out)}
}

// initResponse is the answer to an initialize without hooks.
func initResponse(mode string) string {
	return `{"commands":"<array>","agents":"<array>","output_style":"default","available_output_styles":"<array>","user_output_styles_dir":"<string>",` +
		`"models":"<array>","account":{"tokenSource":"none","apiKeySource":"ANTHROPIC_API_KEY","apiProvider":"firstParty"},` +
		`"pid":"<number>","claude_code_version":"<string>","current_permission_mode":` + q(mode) + `,"session_state":"idle",` +
		`"hook_on_failure_supported":true,"feedback_mode":{"kind":"disabled"},"analytics_disabled":true,"remote_control_auto_enable":false,` +
		`"remote_control_auto_connect_default":false,"remote_control_available":false,"remote_control_auto_on_by_default":false,` +
		`"ide_rc_auto_enable_gate":false,"fast_mode_state":"off","fast_mode_disabled_reason":"not_supported","capabilities":[]}`
}

// initResponseHooks is the answer to an initialize that registers hooks.
func initResponseHooks(mode string) string {
	return strings.Replace(initResponse(mode), `"session_state":"idle",`, `"session_state":"idle","hooks_applied":true,`, 1)
}

const echoTool = "mcp__sdk-tools__echo"

// sdkMCPArgs configures the SDK-hosted server "sdk-tools".
var sdkMCPArgs = []string{"--mcp-config", `{"mcpServers":{"sdk-tools":{"type":"sdk","name":"sdk-tools"}}}`}

const echoServers = `[{"name":"sdk-tools","status":"connected"}]`

func TestMultiTurnConversationRunsOneTurnPerUserMessage(t *testing.T) {
	srv := server(t, reply("First answer.", 100, 10), reply("Second answer.", 150, 20))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.expect(initOK("init-1", initResponse("default")))

	c.user("Say something.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, textBlock("First answer."), 100))
	c.expect(resultLine(resultSpec{result: "First answer.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))

	// Blank, whitespace-only and CRLF lines are ignored; a CRLF user line
	// is read like any other.
	c.write("\r\n   \n\t\n")
	c.write(`{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"And again."}]},"parent_tool_use_id":null}` + "\r\n")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_002", opus, textBlock("Second answer."), 150))
	c.expect(resultLine(resultSpec{result: "Second answer.", stop: "end_turn", turns: 1, in: 150, out: 20, modelIn: 250, modelOut: 30, terminal: "completed"}))
	c.expect(stateLine("idle"))

	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d after the input ended", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 3 {
		t.Fatalf("the second turn must carry the whole conversation: %d requests", len(reqs))
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "And again.") {
		t.Errorf("second request's last user message = %q", got)
	}
}

func TestInterruptStopsTheRunningTurnAndTheSessionGoesOn(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("A story that goes on and on. ", 20))},
		Usage: usage(100, 10), Delay: llmtest.Duration(100 * time.Millisecond)}
	srv := server(t, slow, reply("Fine, I stopped.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--include-partial-messages")

	c.user("Tell me a long story.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_001","type":"message","role":"assistant",` +
		`"model":"claude-opus-5-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":1,` +
		`"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}},"parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>"}`)
	c.request("int-1", `{"subtype":"interrupt"}`)
	interrupted := `{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":"<number>","duration_api_ms":"<number>",` +
		`"num_turns":"<number>","stop_reason":null,"session_id":"<session>","total_cost_usd":"<number>","usage":"<any>","modelUsage":"<any>",` +
		`"permission_denials":[],"terminal_reason":"aborted_streaming","api_error_status":null,"errors":["interrupted by user"],"result_index":"<number>","uuid":"<uuid>"` + resultExtras + `}`
	c.expectSkipping([]string{"stream_event"}, controlOK("int-1", `{}`))
	// As Claude Code does, the message the interruption leaves in the
	// conversation comes as a user line before the result.
	c.expectSkipping([]string{"stream_event"}, interruptedLine("[Request interrupted by user]"))
	c.expectSkipping([]string{"stream_event"}, interrupted)
	c.expect(stateLine("idle"))

	c.user("Stop, please.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expectSkipping([]string{"stream_event"}, assistantLine("msg_002", opus, textBlock("Fine, I stopped."), 120))
	c.expectSkipping([]string{"stream_event"}, `{"type":"result","subtype":"success","is_error":false,"duration_ms":"<number>",`+
		`"duration_api_ms":"<number>","num_turns":1,"result":"Fine, I stopped.","stop_reason":"end_turn","session_id":"<session>",`+
		`"total_cost_usd":"<number>","usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5,`+
		`"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","output_tokens_details":{"thinking_tokens":0},"inference_geo":"","iterations":[],"speed":"standard",`+
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"fallback_credit":null},"modelUsage":"<any>","permission_denials":[],`+
		`"terminal_reason":"completed","api_error_status":null,"result_index":"<number>","uuid":"<uuid>"`+resultExtras+`}`)
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestCanUseToolAllowsWithChangedInputAndDenies(t *testing.T) {
	srv := server(t,
		call("toolu_1", echoTool, `{"text":"original"}`, 100, 10),
		call("toolu_2", echoTool, `{"text":"secret"}`, 110, 10),
		reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.expect(initOK("init-1", initResponse("default")))

	c.user("Echo something.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"original"}`), 100))
	c.expect(stateLine("requires_action"))
	c.expect(canUseTool("ask1", echoTool, "toolu_1", `{"text":"original"}`))
	c.answer(c.get("ask1"), `{"behavior":"allow","updatedInput":{"text":"changed"},"toolUseID":"toolu_1"}`)
	c.expect(stateLine("running"))
	c.expect(toolResultLine("toolu_1", "echo: changed", false, `[{"type":"text","text":"echo: changed"}]`))

	c.expect(assistantLine("msg_002", opus, toolUseBlock("toolu_2", echoTool, `{"text":"secret"}`), 110))
	c.expect(stateLine("requires_action"))
	c.expect(canUseTool("ask2", echoTool, "toolu_2", `{"text":"secret"}`))
	c.answer(c.get("ask2"), `{"behavior":"deny","message":"Not that one.","toolUseID":"toolu_2"}`)
	c.expect(stateLine("running"))
	c.expect(toolResultLine("toolu_2", "Not that one.", true, q("Error: Not that one.")))

	c.expect(assistantLine("msg_003", opus, textBlock("Done."), 120))
	c.expect(resultLine(resultSpec{result: "Done.", stop: "end_turn", turns: 3, in: 330, out: 25, terminal: "completed",
		denials: `[{"tool_name":"` + echoTool + `","tool_use_id":"toolu_2","tool_input":{"text":"secret"}}]`}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}

	calls := mcp.toolCalls()
	if len(calls) != 1 {
		t.Fatalf("tools/call sent %d times, want once (the denied call must not run): %v", len(calls), calls)
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	json.Unmarshal([]byte(calls[0]), &p)
	if p.Name != "echo" || string(p.Arguments) != `{"text":"changed"}` {
		t.Errorf("tools/call params = %s, want echo with the input the SDK changed", calls[0])
	}
	if got := srv.Requests()[1].ToolResults(); len(got) != 1 || got[0].ResultText() != "echo: changed" {
		t.Errorf("the model was sent %+v", got)
	}
}

func TestSDKHostedMCPToolIsCalledThroughMCPMessages(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"hi"}`, 100, 10), reply("It said hi.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--allowedTools", echoTool)...)

	c.user("Use the echo tool.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"hi"}`), 100))
	c.expect(toolResultLine("toolu_1", "echo: hi", false, `[{"type":"text","text":"echo: hi"}]`))
	c.expect(assistantLine("msg_002", opus, textBlock("It said hi."), 120))
	c.expect(resultLine(resultSpec{result: "It said hi.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed"}))
	c.expect(stateLine("idle"))

	c.request("st-1", `{"subtype":"mcp_status"}`)
	c.expect(controlOK("st-1", `{"mcpServers":[{"name":"sdk-tools","status":"connected","serverInfo":{"name":"sdk-tools","version":"1.0.0"},`+
		`"scope":"<string>","tools":[{"name":"`+echoTool+`"}]}]}`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}

	// Every exchange with the SDK-hosted server went through mcp_message
	// requests naming it.
	m := newMatcher(sessionID)
	var methods []string
	for _, line := range mcp.lines {
		if err := m.match(`{"type":"control_request","request_id":"<string>","request":{"subtype":"mcp_message","server_name":"sdk-tools","message":"<any>"}}`, line); err != nil {
			t.Error(err)
		}
		var v struct {
			Request struct {
				Message struct {
					Method string `json:"method"`
				} `json:"message"`
			} `json:"request"`
		}
		json.Unmarshal([]byte(line), &v)
		methods = append(methods, v.Request.Message.Method)
	}
	// The MCP client's handshake (initialize, then its notification and
	// tools/list), then the one call the model made.
	pos := map[string]int{}
	for i, m := range methods {
		pos[m] = i + 1
	}
	for _, m := range []string{"initialize", "notifications/initialized", "tools/list", "tools/call"} {
		if pos[m] == 0 {
			t.Errorf("no %s among the mcp_message requests %v", m, methods)
		}
	}
	if pos["initialize"] > pos["tools/list"] || methods[len(methods)-1] != "tools/call" {
		t.Errorf("mcp_message requests out of order: %v", methods)
	}
}

func TestSDKHookCallbackBlocksATool(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"forbidden"}`, 100, 10), reply("Understood.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio", "--include-hook-events")...)
	c.request("init-1", `{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"`+echoTool+`","hookCallbackIds":["hook_0"],"timeout":30}]}}`)
	c.expect(initOK("init-1", initResponseHooks("default")))

	c.user("Echo the forbidden word.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"forbidden"}`), 100))
	c.expect(`{"type":"system","subtype":"hook_started","hook_id":"<$hid>","hook_name":"PreToolUse:` + echoTool + `","hook_event":"PreToolUse","session_id":"<session>","uuid":"<uuid>"}`)
	c.expect(hookCallback("cb1", "hook_0", sb.Dir, echoTool, "toolu_1", `{"text":"forbidden"}`, "default"))
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"echo is blocked by policy"}}`
	c.answer(c.get("cb1"), deny)
	c.expect(`{"type":"system","subtype":"hook_response","hook_id":"<$hid>","hook_name":"PreToolUse:` + echoTool + `","hook_event":"PreToolUse",` +
		`"output":` + q(deny) + `,"stdout":` + q(deny) + `,"stderr":"","exit_code":0,"outcome":"success","session_id":"<session>","uuid":"<uuid>"}`)
	// The hook decided: no can_use_tool question, and the tool never ran.
	c.expect(toolResultLine("toolu_1", "<~echo is blocked by policy>", true, q("<~echo is blocked by policy>")))
	c.expect(assistantLine("msg_002", opus, textBlock("Understood."), 120))
	c.expect(resultLine(resultSpec{result: "Understood.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed",
		denials: `[{"tool_name":"` + echoTool + `","tool_use_id":"toolu_1","tool_input":{"text":"forbidden"}}]`}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if calls := mcp.toolCalls(); len(calls) != 0 {
		t.Errorf("the blocked tool ran: %v", calls)
	}
}

func TestSetPermissionModeAndSetModelApplyFromTheNextTurn(t *testing.T) {
	srv := server(t,
		reply("One.", 100, 10),
		call("toolu_1", echoTool, `{"text":"x"}`, 110, 10),
		reply("Two.", 120, 5),
		reply("Three.", 130, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)

	c.user("One?")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, textBlock("One."), 100))
	c.expect(resultLine(resultSpec{result: "One.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))

	c.request("m-1", `{"subtype":"set_model","model":"sonnet"}`)
	c.expect(controlOK("m-1", `{}`))
	c.request("p-1", `{"subtype":"set_permission_mode","mode":"dontAsk"}`)
	c.expect(controlOK("p-1", `{"mode":"dontAsk"}`))
	c.expect(modeStatusLine("dontAsk"))
	c.request("p-2", `{"subtype":"set_permission_mode","mode":"sideways"}`)
	c.expect(controlErr("p-2", `set_permission_mode: unknown permission mode "sideways" (want default, acceptEdits, plan, auto, bypassPermissions or dontAsk; manual means default)`))

	// dontAsk: the call that would need a question is denied without one.
	c.user("Two?")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: sonnet, mode: "dontAsk", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_002", sonnet, toolUseBlock("toolu_1", echoTool, `{"text":"x"}`), 110))
	c.expect(toolResultLine("toolu_1", "<string>", true, `"<string>"`))
	c.expect(assistantLine("msg_003", sonnet, textBlock("Two."), 120))
	c.expect(resultLine(resultSpec{result: "Two.", stop: "end_turn", turns: 2, in: 230, out: 15, terminal: "completed",
		models:  map[string][2]int{opus: {100, 10}, sonnet: {230, 15}},
		denials: `[{"tool_name":"` + echoTool + `","tool_use_id":"toolu_1","tool_input":{"text":"x"}}]`}))
	c.expect(stateLine("idle"))

	c.request("t-1", `{"subtype":"set_max_thinking_tokens","max_thinking_tokens":2048}`)
	c.expect(controlOK("t-1", `{}`))
	c.request("m-2", `{"subtype":"set_model","model":null}`)
	c.expect(controlOK("m-2", `{}`))
	c.user("Three?")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "dontAsk", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_004", opus, textBlock("Three."), 130))
	c.expect(resultLine(resultSpec{result: "Three.", stop: "end_turn", turns: 1, in: 130, out: 5, terminal: "completed",
		models: map[string][2]int{opus: {230, 15}, sonnet: {230, 15}}}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}

	reqs := srv.Requests()
	models := []string{reqs[0].Model, reqs[1].Model, reqs[2].Model, reqs[3].Model}
	if strings.Join(models, " ") != strings.Join([]string{opus, sonnet, sonnet, opus}, " ") {
		t.Errorf("request models = %v", models)
	}
	// Opus 5.5 refuses budgets: a budget turns adaptive thinking on.
	if string(reqs[3].Thinking) != `{"type":"adaptive"}` {
		t.Errorf("after set_max_thinking_tokens the request's thinking is %s, want adaptive", reqs[3].Thinking)
	}
	if len(mcp.toolCalls()) != 0 {
		t.Error("the call denied by dontAsk ran")
	}
}

func TestMalformedInputIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	srv := server(t, reply("Still here.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)

	c.request("bad-1", `{"subtype":"set_model","model":5}`)
	c.expect(controlErr("bad-1", `set_model: "model" must be a string or null, not 5`))
	c.request("bad-2", `{"subtype":"warp_drive"}`)
	c.expect(controlErr("bad-2", `unsupported control request subtype "warp_drive"`))
	c.request("bad-3", `"not an object"`)
	c.expect(controlErr("bad-3", `input line 3: control_request bad-3: "request" is not an object`))
	c.request("bad-4", `{"mode":"plan"}`)
	c.expect(controlErr("bad-4", `input line 4: control_request bad-4: no string "subtype"`))
	c.request("bad-5", `{"subtype":"set_permission_mode"}`)
	c.expect(controlErr("bad-5", `set_permission_mode: "mode" must be a string (default, acceptEdits, plan, auto, bypassPermissions, dontAsk)`))
	c.request("bad-6", `{"subtype":"set_max_thinking_tokens","max_thinking_tokens":-3}`)
	c.expect(controlErr("bad-6", `set_max_thinking_tokens: "max_thinking_tokens" must be a whole number of tokens or null, not -3`))
	c.request("bad-7", `{"subtype":"stop_task","task_id":"task-9"}`)
	c.expect(controlErr("bad-7", `<~task-9>`))
	c.request("bad-8", `{"subtype":"initialize","systemPrompt":7}`)
	c.expect(controlErr("bad-8", `initialize: systemPrompt must be a string or a list of strings`))
	c.request("ok-1", `{"subtype":"mcp_status"}`)
	c.expect(controlOK("ok-1", `{"mcpServers":[]}`))
	// Lines that cannot be answered are reported on stderr and skipped.
	c.send(`{"type":"control_request","request":{"subtype":"interrupt"}}`)
	c.send(`{this is not json`)
	c.send(`{"type":"teleport"}`)
	// A user message that cannot start a turn still gets a result.
	c.send(`{"type":"user","message":{"role":"user","content":42}}`)
	c.expect(`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":0,"duration_api_ms":0,"num_turns":0,` +
		`"stop_reason":null,"session_id":"<session>","total_cost_usd":0,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,` +
		`"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},` +
		`"service_tier":"standard","output_tokens_details":{"thinking_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"fallback_credit":null},"modelUsage":{},` +
		`"permission_denials":[],"terminal_reason":"error","api_error_status":null,` +
		`"errors":["input line 13: user message: message content must be a string or an array of content blocks"],"result_index":"<number>","uuid":"<uuid>"` + resultExtras + `}`)

	c.user("Are you still there?")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, textBlock("Still here."), 100))
	c.expect(resultLine(resultSpec{result: "Still here.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.request("ctx-1", `{"subtype":"get_context_usage"}`)
	c.expect(controlOK("ctx-1", `{"categories":"<any>",`+
		`"totalTokens":110,"maxTokens":1000000,"rawMaxTokens":1000000,"percentage":0.01,"model":"claude-opus-5-5","isAutoCompactEnabled":"<any>","autoCompactThreshold":"<number>",`+
		`"memoryFiles":[],"mcpTools":[],"agents":[],"gridRows":[],"apiUsage":{"input_tokens":100,"output_tokens":10,`+
		`"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}`))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	stderr := c.stderrText()
	for _, want := range []string{"input line 10: control_request without a string request_id", "input line 11: invalid JSON",
		`input line 12: unknown message type "teleport"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestEndOfInputFinishesTheTurnAndExits(t *testing.T) {
	t.Run("one-shot query without a final newline", func(t *testing.T) {
		srv := server(t, reply("Only answer.", 100, 10))
		sb := e2etest.NewSandbox(t, srv.URL)
		c := start(t, sb, nil)
		c.write(`{"type":"user","session_id":"","message":{"role":"user","content":"Just once."},"parent_tool_use_id":null}`)
		c.closeInput()
		c.expect(stateLine("running"))
		c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
		c.expect(assistantLine("msg_001", opus, textBlock("Only answer."), 100))
		c.expect(resultLine(resultSpec{result: "Only answer.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
		c.expect(stateLine("idle"))
		if code := c.wait(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	})
	t.Run("input closed while a permission question waits", func(t *testing.T) {
		srv := server(t, call("toolu_1", echoTool, `{"text":"x"}`, 100, 10), reply("Nobody answered.", 120, 5))
		sb := e2etest.NewSandbox(t, srv.URL)
		mcp := &fakeMCP{name: "sdk-tools"}
		c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)
		c.user("Echo x.")
		c.expect(stateLine("running"))
		c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
		c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"x"}`), 100))
		c.expect(stateLine("requires_action"))
		c.expect(canUseTool("ask1", echoTool, "toolu_1", `{"text":"x"}`))
		c.closeInput()
		c.expect(stateLine("running"))
		c.expect(toolResultLine("toolu_1", "<string>", true, `"<string>"`))
		c.expect(assistantLine("msg_002", opus, textBlock("Nobody answered."), 120))
		c.expect(resultLine(resultSpec{result: "Nobody answered.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed",
			denials: `[{"tool_name":"` + echoTool + `","tool_use_id":"toolu_1","tool_input":{"text":"x"}}]`}))
		c.expect(stateLine("idle"))
		if code := c.wait(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
	})
}

func TestJSONSchemaGivesStructuredOutput(t *testing.T) {
	schema := `{"type":"object","properties":{"answer":{"type":"integer"}},"required":["answer"]}`
	// As in Claude Code, the call ends the turn (the model is not asked
	// again) and the result text is the output as JSON.
	t.Run("the model calls StructuredOutput", func(t *testing.T) {
		srv := server(t, call("toolu_1", "StructuredOutput", `{"answer":42}`, 100, 10), reply("Done.", 120, 5))
		sb := e2etest.NewSandbox(t, srv.URL)
		c := start(t, sb, nil, "--json-schema", schema)
		c.user("What is the answer?")
		c.expect(stateLine("running"))
		c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: "StructuredOutput"}))
		c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", "StructuredOutput", `{"answer":42}`), 100))
		c.expect(toolResultLine("toolu_1", "<string>", false, `"<string>"`))
		c.expect(resultLine(resultSpec{result: `{"answer":42}`, stop: "tool_use", turns: 2, in: 100, out: 10, terminal: "completed",
			structured: `{"answer":42}`}))
		c.expect(stateLine("idle"))
		c.closeInput()
		if code := c.wait(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1: the StructuredOutput call ends the turn", n)
		}
		var sent bool
		for _, name := range srv.Requests()[0].ToolNames() {
			sent = sent || name == "StructuredOutput"
		}
		if !sent {
			t.Error("the StructuredOutput tool was not offered to the model")
		}
	})
	t.Run("the model never does", func(t *testing.T) {
		turns := []llmtest.Turn{}
		for i := 0; i < 6; i++ {
			turns = append(turns, reply("Forty-two.", 100, 10))
		}
		srv := server(t, turns...)
		sb := e2etest.NewSandbox(t, srv.URL)
		c := start(t, sb, nil, "--json-schema", schema)
		c.user("What is the answer?")
		c.expect(stateLine("running"))
		c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: "StructuredOutput"}))
		for i := 1; i <= 6; i++ {
			c.expect(assistantLine("msg_00"+string(rune('0'+i)), opus, textBlock("Forty-two."), 100))
		}
		c.expect(resultLine(resultSpec{subtype: "error_max_structured_output_retries", stop: "end_turn", turns: 6, in: 600, out: 60,
			terminal: "completed", errors: `["the model did not give structured output after 5 reminders"]`}))
		c.expect(stateLine("idle"))
		c.closeInput()
		if code := c.wait(); code != 0 {
			t.Fatalf("exit code %d", code)
		}
		if n := len(srv.Requests()); n != 6 {
			t.Errorf("%d requests, want 6 (one answer and five reminders)", n)
		}
	})
}

func TestMaxBudgetRefusesTurnsOnceSpent(t *testing.T) {
	srv := server(t, reply("Expensive answer.", 1000, 100))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--max-budget-usd", "0.001")
	c.user("First.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, textBlock("Expensive answer."), 1000))
	c.expect(resultLine(resultSpec{result: "Expensive answer.", stop: "end_turn", turns: 1, in: 1000, out: 100, terminal: "completed"}))
	c.expect(stateLine("idle"))

	c.user("Second.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(resultLine(resultSpec{subtype: "error_max_budget_usd", turns: 0, in: 0, out: 0, modelIn: 1000, modelOut: 100,
		terminal: "budget_exhausted", errors: `["the session already reached its maximum budget ($0.001)"]`}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1: the second turn must not call the model", n)
	}
}

func TestSubAgentMessagesNameTheirAgentCall(t *testing.T) {
	srv := server(t,
		call("toolu_a", "Agent", `{"description":"greet","prompt":"Say hi.","subagent_type":"general-purpose"}`, 100, 10),
		reply("Hi from the sub-agent.", 50, 5),
		reply("It said hi.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.user("Delegate a greeting.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: "Agent"}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_a", "Agent", `{"description":"greet","prompt":"Say hi.","subagent_type":"general-purpose"}`), 100))
	// The sub-agent's own message carries the Agent call's id.
	sub := strings.Replace(assistantLine("msg_002", "<string>", textBlock("Hi from the sub-agent."), 50),
		`"parent_tool_use_id":null`, `"parent_tool_use_id":"toolu_a"`, 1)
	c.expect(sub)
	c.expect(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"<any>"}]},` +
		`"parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>","timestamp":"<timestamp>","tool_use_result":"<any>",` +
		`"tool_result_meta":[{"id":"toolu_a","permission_decision":{"decision":"accept","source":"config","reason_type":"mode"}}]}`)
	c.expect(assistantLine("msg_003", opus, textBlock("It said hi."), 120))
	c.expect(resultLine(resultSpec{result: "It said hi.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed",
		models: map[string][2]int{opus: {270, 20}}}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestInterruptWithdrawsAPendingPermissionQuestion(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"x"}`, 100, 10), reply("Stopped.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)
	c.user("Echo x.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"x"}`), 100))
	c.expect(stateLine("requires_action"))
	c.expect(canUseTool("ask1", echoTool, "toolu_1", `{"text":"x"}`))
	c.request("int-1", `{"subtype":"interrupt"}`)
	// The question is withdrawn (the SDK must not answer it), the call is
	// answered as interrupted, and the turn ends.
	c.expectAnyOrder(controlOK("int-1", `{}`), `{"type":"control_cancel_request","request_id":"<$ask1>"}`, stateLine("running"),
		toolResultLine("toolu_1", "<string>", true, `"<string>"`))
	c.expect(interruptedLine("[Request interrupted by user for tool use]"))
	c.expect(`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":"<number>","duration_api_ms":"<number>",` +
		// The question can come before the response finished streaming, so
		// the stop reason may not have arrived yet. num_turns counts the
		// prompt and the interrupted call's result.
		`"num_turns":2,"stop_reason":"<any>","session_id":"<session>","total_cost_usd":"<number>","usage":"<any>","modelUsage":"<any>",` +
		`"permission_denials":"<array>","terminal_reason":"aborted_tools","api_error_status":null,"errors":["interrupted by user"],"result_index":"<number>","uuid":"<uuid>"` + resultExtras + `}`)
	c.expect(stateLine("idle"))
	// A late answer to the withdrawn question changes nothing.
	c.answer(c.get("ask1"), `{"behavior":"allow"}`)
	c.user("Never mind.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_002", opus, textBlock("Stopped."), 120))
	c.expect(resultLine(resultSpec{result: "Stopped.", stop: "end_turn", turns: 1, in: 120, out: 5, anyModelUsage: true, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if len(mcp.toolCalls()) != 0 {
		t.Error("the interrupted call ran")
	}
}

func TestSignalEndsTheTurnWithACompleteResultLine(t *testing.T) {
	slow := llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(strings.Repeat("Slowly. ", 40))}, Usage: usage(100, 10),
		Delay: llmtest.Duration(100 * time.Millisecond)}
	srv := server(t, slow)
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--include-partial-messages")
	c.user("Take your time.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expectSkipping(nil, `{"type":"stream_event","event":"<any>","parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>"}`)
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	c.expectSkipping([]string{"stream_event"}, interruptedLine("[Request interrupted by user]"))
	c.expectSkipping([]string{"stream_event"}, `{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":"<number>",`+
		`"duration_api_ms":"<number>","num_turns":"<number>","stop_reason":null,"session_id":"<session>","total_cost_usd":"<number>",`+
		`"usage":"<any>","modelUsage":"<any>","permission_denials":[],"terminal_reason":"aborted_streaming","api_error_status":null,"errors":["<string>"],"result_index":"<number>","uuid":"<uuid>"`+resultExtras+`}`)
	c.expect(stateLine("idle"))
	if code := c.wait(); code == 0 {
		t.Error("exit code 0 after a signal stopped the turn")
	}
}

func TestMaxTurnsEndsTheTurnWithErrorMaxTurns(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"a"}`, 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--allowedTools", echoTool, "--max-turns", "1")...)
	c.user("Echo, then echo again.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"a"}`), 100))
	c.expect(toolResultLine("toolu_1", "echo: a", false, `[{"type":"text","text":"echo: a"}]`))
	// One model response, but num_turns counts the prompt and the tool
	// result, as Claude Code's does.
	c.expect(resultLine(resultSpec{subtype: "error_max_turns", stop: "tool_use", turns: 2, in: 100, out: 10, terminal: "max_turns",
		errors: `["<string>"]`}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// TestMCPToggleTurnsAServerOffAndOn: mcp_toggle (the SDK's
// toggleMcpServer) takes a server's tools out of the next turn and brings
// them back, and mcp_status shows each state.
func TestMCPToggleTurnsAServerOffAndOn(t *testing.T) {
	srv := server(t, reply("one", 100, 1), reply("two", 100, 1), reply("three", 100, 1))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, &fakeMCP{name: "sdk-tools"}, sdkMCPArgs...)
	turn := func(prompt, answer string) {
		t.Helper()
		c.user(prompt)
		for {
			line := c.next()
			if strings.Contains(line, `"type":"result"`) {
				if !strings.Contains(line, `"result":"`+answer+`"`) {
					t.Fatalf("result = %s, want %q", line, answer)
				}
				break
			}
		}
		c.expect(stateLine("idle"))
	}
	hasEcho := func(i int) bool { return slices.Contains(srv.Requests()[i].ToolNames(), echoTool) }

	turn("first", "one")
	c.request("off", `{"subtype":"mcp_toggle","serverName":"sdk-tools","enabled":false}`)
	c.expect(controlOK("off", `{}`))
	c.request("st-1", `{"subtype":"mcp_status"}`)
	c.expect(controlOK("st-1", `{"mcpServers":[{"name":"sdk-tools","status":"disabled","serverInfo":{"name":"sdk-tools","version":"1.0.0"},"error":"disabled for this session","scope":"<string>"}]}`))
	c.request("bad", `{"subtype":"mcp_toggle","serverName":"nope","enabled":true}`)
	c.expect(controlErr("bad", `mcp_toggle: no MCP server named "nope"`))
	c.request("bad-2", `{"subtype":"mcp_toggle","serverName":"sdk-tools"}`)
	c.expect(controlErr("bad-2", `mcp_toggle: "enabled" must be true or false`))
	turn("second", "two")

	c.request("on", `{"subtype":"mcp_toggle","serverName":"sdk-tools","enabled":true}`)
	c.expect(controlOK("on", `{}`))
	connected := false
	for i := 0; i < 100 && !connected; i++ {
		id := fmt.Sprintf("poll-%d", i)
		c.request(id, `{"subtype":"mcp_status"}`)
		connected = strings.Contains(c.next(), `"status":"connected"`)
		if !connected {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !connected {
		t.Fatal("the server did not connect again after mcp_toggle enabled it")
	}
	turn("third", "three")
	if !hasEcho(0) || hasEcho(1) || !hasEcho(2) {
		t.Errorf("echo tool offered per turn = %v %v %v, want true false true", hasEcho(0), hasEcho(1), hasEcho(2))
	}
}

// TestClearStartsANewSession: "/clear" sent as a prompt starts a new
// conversation under a new session id, announced as Claude Code does for
// SDK clients: a conversation_reset line naming the new id, then a single
// init line under it (not one under the old id first); the next turn
// carries nothing of the old one, and each conversation has its own
// transcript.
func TestClearStartsANewSession(t *testing.T) {
	srv := server(t, reply("First answer.", 100, 5), reply("Fresh answer.", 50, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	type line struct {
		Type      string `json:"type"`
		Subtype   string `json:"subtype"`
		SessionID string `json:"session_id"`
		Result    string `json:"result"`
		IsError   bool   `json:"is_error"`
		NewID     string `json:"new_conversation_id"`
		Trigger   string `json:"trigger"`
	}
	until := func(typ string) []line {
		t.Helper()
		var seen []line
		for {
			var l line
			raw := c.next()
			if err := json.Unmarshal([]byte(raw), &l); err != nil {
				t.Fatalf("bad line %s: %v", raw, err)
			}
			seen = append(seen, l)
			if l.Type == typ {
				return seen
			}
		}
	}
	c.user("Remember the word avocado.")
	until("result")
	c.user("/clear")
	lines := until("result")
	var inits, resets []line
	for _, l := range lines {
		if l.Type == "system" && l.Subtype == "init" {
			inits = append(inits, l)
		}
		if l.Type == "conversation_reset" {
			if len(inits) > 0 {
				t.Errorf("conversation_reset came after the init line: %+v", lines)
			}
			resets = append(resets, l)
		}
	}
	res := lines[len(lines)-1]
	if len(inits) != 1 || inits[0].SessionID == sessionID || inits[0].SessionID == "" {
		t.Fatalf("init lines of /clear: %+v; want one, under a new session id", inits)
	}
	newID := inits[0].SessionID
	if len(resets) != 1 || resets[0].NewID != newID || resets[0].SessionID != newID || resets[0].Trigger != "clear" {
		t.Errorf("conversation_reset lines of /clear: %+v; want one naming %s, under it, trigger clear", resets, newID)
	}
	if res.IsError || res.Subtype != "success" || res.SessionID != newID {
		t.Errorf("result of /clear = %+v, want success under %s", res, newID)
	}
	c.user("What word?")
	if r := until("result"); r[len(r)-1].SessionID != newID || r[len(r)-1].Result != "Fresh answer." {
		t.Errorf("turn after /clear ended %+v", r[len(r)-1])
	}
	if idle := c.next(); !strings.Contains(idle, `"state":"idle"`) || !strings.Contains(idle, newID) {
		t.Errorf("after the turn: %s, want the new session going idle", idle)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (/clear does not call the model)", len(reqs))
	}
	for _, m := range reqs[1].Messages {
		for _, b := range m.Content {
			if strings.Contains(b.Text, "avocado") || strings.Contains(b.Text, "First answer") {
				t.Errorf("the turn after /clear still carried the old conversation: %q", b.Text)
			}
		}
	}
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	var ids []string
	for _, p := range sb.Transcripts(t) {
		ids = append(ids, strings.TrimSuffix(filepath.Base(p), ".jsonl"))
	}
	slices.Sort(ids)
	want := []string{sessionID, newID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("transcripts %v, want %v", ids, want)
	}
}

// TestRewindFilesPutsEditsBack: with file checkpointing on (the SDK's
// enableFileCheckpointing), rewind_files previews and then undoes the
// edits made since a user message, named by the uuid the client gave it.
func TestRewindFilesPutsEditsBack(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	notes := sb.Write(t, "notes.txt", "one\ntwo\n")
	made := filepath.Join(sb.Dir, "made.txt")
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": notes})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Edit", map[string]any{"file_path": notes, "old_string": "two", "new_string": "TWO\nthree"})),
		reply("Edited.", 100, 5),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Write", map[string]any{"file_path": made, "content": "new\n"})),
		reply("Written.", 100, 5))
	sb.Env = append(sb.Env, "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true")
	c := start(t, sb, nil, "--permission-mode", "acceptEdits")
	turn := func(uuid, prompt string) {
		t.Helper()
		c.send(`{"type":"user","uuid":"` + uuid + `","session_id":"","message":{"role":"user","content":` + q(prompt) + `},"parent_tool_use_id":null}`)
		for !strings.Contains(c.next(), `"type":"result"`) {
		}
		c.next() // idle
	}
	turn("11111111-1111-4111-8111-111111111111", "edit the notes")
	turn("22222222-2222-4222-8222-222222222222", "write a file")
	if data, _ := os.ReadFile(notes); string(data) != "one\nTWO\nthree\n" {
		t.Fatalf("the edit did not happen: %q (requests %d)", data, len(srv.Requests()))
	}

	c.request("dry", `{"subtype":"rewind_files","user_message_id":"11111111-1111-4111-8111-111111111111","dry_run":true}`)
	c.expect(controlOK("dry", `{"canRewind":true,"filesChanged":[`+q(made)+`,`+q(notes)+`],"insertions":1,"deletions":3}`))
	if _, err := os.Stat(made); err != nil {
		t.Fatalf("dry run changed files: %v", err)
	}
	c.request("late", `{"subtype":"rewind_files","user_message_id":"22222222-2222-4222-8222-222222222222"}`)
	c.expect(controlOK("late", `{"canRewind":true,"filesChanged":[`+q(made)+`],"insertions":0,"deletions":1}`))
	if _, err := os.Stat(made); !os.IsNotExist(err) {
		t.Errorf("made.txt survived the rewind: %v", err)
	}
	if data, _ := os.ReadFile(notes); string(data) != "one\nTWO\nthree\n" {
		t.Errorf("rewinding the second message touched the first one's edit: %q", data)
	}
	c.request("all", `{"subtype":"rewind_files","user_message_id":"11111111-1111-4111-8111-111111111111"}`)
	c.expect(controlOK("all", `{"canRewind":true,"filesChanged":[`+q(notes)+`],"insertions":1,"deletions":2}`))
	if data, _ := os.ReadFile(notes); string(data) != "one\ntwo\n" {
		t.Errorf("notes after rewind = %q", data)
	}
	c.request("unknown", `{"subtype":"rewind_files","user_message_id":"nope"}`)
	c.expect(controlOK("unknown", `{"canRewind":false,"error":"no file checkpoint for user message nope","insertions":0,"deletions":0}`))
}

// Without file checkpointing, rewind_files says so instead of pretending.
func TestRewindFilesNeedsCheckpointing(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.request("r", `{"subtype":"rewind_files","user_message_id":"11111111-1111-4111-8111-111111111111"}`)
	c.expect(controlOK("r", `{"canRewind":false,"error":"file checkpointing is not enabled (start the session with enableFileCheckpointing)","insertions":0,"deletions":0}`))
}
