package sdk_test

import (
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// errorResult is the result line answering a user line that could not
// start a turn; its one error contains text.
func errorResult(text string) string {
	return `{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":0,"duration_api_ms":0,"num_turns":0,` +
		`"stop_reason":null,"session_id":"<session>","total_cost_usd":"<number>","usage":{"input_tokens":0,"cache_creation_input_tokens":0,` +
		`"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},` +
		`"service_tier":"standard","output_tokens_details":{"thinking_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"fallback_credit":null},"modelUsage":"<any>",` +
		`"permission_denials":[],"terminal_reason":"error","api_error_status":null,"errors":["<~` + text + `>"],"result_index":"<number>","uuid":"<uuid>"` + resultExtras + `}`
}

// A blank user message (an empty or white-space prompt string, or only
// blank text blocks) gets an error result and never reaches the model:
// the API refuses blank text blocks, and one kept in the conversation
// would make every later turn fail as well. The session goes on, and the
// next request holds no blank text.
func TestQA3BlankUserMessageGetsAnErrorAndTheSessionGoesOn(t *testing.T) {
	srv := server(t, reply("Hello back.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.user("")
	c.expect(errorResult("input line 1: user message: message content is blank"))
	c.user(" \n ")
	c.expect(errorResult("input line 2: user message: message content is blank"))
	c.send(`{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":""}]},"parent_tool_use_id":null}`)
	c.expect(errorResult("input line 3: user message: message content is blank"))

	c.user("Hello?")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, textBlock("Hello back."), 100))
	c.expect(resultLine(resultSpec{result: "Hello back.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || len(reqs[0].Messages) != 1 {
		t.Fatalf("%d requests; want one with one message", len(reqs))
	}
	for _, b := range reqs[0].Messages[0].Content {
		if b.Type == llm.BlockText && strings.TrimSpace(b.Text) == "" {
			t.Errorf("the request holds a blank text block: %+v", reqs[0].Messages[0].Content)
		}
	}
	if got := reqs[0].LastUserText(); !strings.Contains(got, "Hello?") {
		t.Errorf("last user text = %q", got)
	}
}

// When a PostToolUse hook callback adds context to the result of a
// command without output, the model is still told the command printed
// nothing, and gets the context after that; before, the context took the
// placeholder's place and read as the command's output.
func TestQA3HookContextFollowsTheNoOutputPlaceholder(t *testing.T) {
	srv := server(t, call("toolu_1", "Bash", `{"command":"touch made","description":"make a file"}`, 100, 10), reply("Made.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--allowedTools", "Bash(touch *)")
	c.request("init-1", `{"subtype":"initialize","hooks":{"PostToolUse":[{"matcher":"Bash","hookCallbackIds":["post_0"]}]}}`)
	c.expect(initOK("init-1", initResponseHooks("default")))
	c.user("Make the file.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", "Bash", `{"command":"touch made","description":"make a file"}`), 100))
	c.expect(`{"type":"control_request","request_id":"<$hook>","request":{"subtype":"hook_callback","callback_id":"post_0","input":"<any>","tool_use_id":"toolu_1"}}`)
	c.answer(c.get("hook"), `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"REMEMBER-THE-STYLE-GUIDE"}}`)
	c.expect(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[` +
		`{"type":"text","text":"(Bash completed with no output)"},{"type":"text","text":"REMEMBER-THE-STYLE-GUIDE"}]}]},` +
		`"parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>","timestamp":"<timestamp>","tool_use_result":"<any>",` +
		`"tool_result_meta":[{"id":"toolu_1","permission_decision":{"decision":"accept","source":"config","reason_type":"rule"}}]}`)
	c.expect(assistantLine("msg_002", opus, textBlock("Made."), 120))
	c.expect(resultLine(resultSpec{result: "Made.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || !strings.HasPrefix(res[0].ResultText(), "(Bash completed with no output)") ||
		!strings.Contains(res[0].ResultText(), "REMEMBER-THE-STYLE-GUIDE") {
		t.Errorf("tool results sent = %+v", res)
	}
}

// An initialize that sets the system prompt after a turn has started is
// refused with an error naming the fields; before, the session was rebuilt
// under the running turn and the next turn's request lost the first
// turn's answer.
func TestQA3SystemPromptAfterTheFirstTurnIsRefusedAndNothingIsLost(t *testing.T) {
	slow := reply("First answer.", 100, 10)
	slow.Delay = llmtest.Duration(50 * time.Millisecond)
	srv := server(t, slow, reply("Second answer.", 150, 20))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.user("One.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.request("init-1", `{"subtype":"initialize","hooks":null,"systemPrompt":"You are LATE-PROMPT."}`)
	c.expectAnyOrder(
		controlErr("init-1", "initialize: systemPrompt and appendSystemPrompt must come before the first user message"),
		assistantLine("msg_001", opus, textBlock("First answer."), 100))
	c.expect(resultLine(resultSpec{result: "First answer.", stop: "end_turn", turns: 1, in: 100, out: 10, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.user("Two.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_002", opus, textBlock("Second answer."), 150))
	c.expect(resultLine(resultSpec{result: "Second answer.", stop: "end_turn", turns: 1, in: 150, out: 20, modelIn: 250, modelOut: 30, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 3 {
		t.Fatalf("the second request must carry the first turn: %d requests, %d messages", len(reqs), len(reqs[len(reqs)-1].Messages))
	}
	if strings.Contains(reqs[1].SystemText(), "LATE-PROMPT") {
		t.Errorf("the refused system prompt was used")
	}
}

// A can_use_tool denial with interrupt:true ends the turn with an error
// that says so; before, the result's only error read "aborted_tools".
func TestQA3DenialWithInterruptSaysWhyTheTurnStopped(t *testing.T) {
	srv := server(t, call("toolu_1", "Bash", `{"command":"touch made","description":"make"}`, 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.user("Make it.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default"}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", "Bash", `{"command":"touch made","description":"make"}`), 100))
	c.expect(stateLine("requires_action"))
	c.expect(`{"type":"control_request","request_id":"<$ask>","request":"<any>"}`)
	c.answer(c.get("ask"), `{"behavior":"deny","message":"Stop right there.","interrupt":true}`)
	c.expect(stateLine("running"))
	// The model gets the standard rejection, not the host's message, as
	// Claude Code gives it (see TestQA11InterruptingDenyGivesTheStandardRejection).
	c.expect(toolResultLine("toolu_1", "<~rejected this tool call and stopped the turn>", true, `"<string>"`))
	c.expect(interruptedLine("[Request interrupted by user for tool use]"))
	c.expect(resultLine(resultSpec{subtype: "error_during_execution", stop: "tool_use", turns: 2, in: 100, out: 10, terminal: "aborted_tools",
		denials: `[{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"touch made","description":"make"}}]`,
		errors:  `["interrupted: a tool call was denied with a request to stop"]`}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// A client's cache_control on its message blocks does not reach the API
// beside reins's own breakpoints: the request keeps to the API's limit of
// four.
func TestQA3ClientCacheControlKeepsTheRequestWithinFourBreakpoints(t *testing.T) {
	srv := server(t, reply("A.", 100, 10), reply("B.", 120, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	for i, want := range []string{"A.", "B."} {
		c.send(`{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"one","cache_control":{"type":"ephemeral"}},` +
			`{"type":"text","text":"two","cache_control":{"type":"ephemeral"}}]},"parent_tool_use_id":null}`)
		c.expectSkipping([]string{"system", "assistant"}, `{"type":"result","subtype":"success","result":`+q(want)+`,"is_error":false,`+
			`"duration_ms":"<number>","duration_api_ms":"<number>","num_turns":1,"stop_reason":"end_turn","session_id":"<session>",`+
			`"total_cost_usd":"<number>","usage":"<any>","modelUsage":"<any>","permission_denials":[],"terminal_reason":"completed",`+
			`"api_error_status":null,"result_index":"<number>","uuid":"<uuid>"`+resultExtras+`}`)
		c.expect(stateLine("idle"))
		if n := strings.Count(string(srv.Requests()[i].Body), `"cache_control"`); n > 4 {
			t.Errorf("request %d has %d cache_control breakpoints; the API allows 4", i+1, n)
		}
	}
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
