package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// printResult runs reins -p with --output-format json and decodes the
// result object.
func printResult(t *testing.T, sb *e2etest.Sandbox, args ...string) (map[string]any, e2etest.Result) {
	t.Helper()
	r := sb.Run(t, "", append([]string{"--output-format", "json"}, args...)...)
	var res map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %q (stderr %q)", r.Stdout, r.Stderr)
	}
	return res, r
}

// An empty text block streamed before a tool call is not sent back: the
// API refuses a request holding one ("text content blocks must be
// non-empty"), so the turn after the call failed.
func TestEmptyTextBlockBeforeToolCallIsNotSentBack(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.Text(""), llmtest.Text(" \n"), llmtest.ToolUse("toolu_1", "Glob", map[string]any{"pattern": "*.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "list")
	if r.Code != 0 || res["result"] != "done" {
		t.Fatalf("code %d result %v stderr %q", r.Code, res["result"], r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	var asst *llm.Message
	for _, m := range reqs[1].Messages {
		if m.Role == llm.RoleAssistant {
			asst = m
		}
	}
	if asst == nil || len(asst.Content) != 1 || asst.Content[0].Type != llm.BlockToolUse {
		t.Fatalf("assistant message sent back = %+v, want the tool_use alone", asst)
	}
	// srv.AssertClean (at cleanup) fails on any empty text block sent.
}

// A response the API paused (stop_reason pause_turn, a long server tool
// run) is sent back as it is so the model goes on; the turn used to end
// there with an empty result.
func TestPauseTurnIsSentBackAndContinued(t *testing.T) {
	use := json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26"}}`)
	res0 := json.RawMessage(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://go.dev","title":"Go","encrypted_content":"abc"}]}`)
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{{Type: "raw", Raw: use}, {Type: "raw", Raw: res0}}, StopReason: "pause_turn"},
		llmtest.Reply("Go 1.26 is out."))
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "what is new in go?")
	if r.Code != 0 || res["result"] != "Go 1.26 is out." || res["stop_reason"] != "end_turn" {
		t.Fatalf("code %d result %v stop %v stderr %q", r.Code, res["result"], res["stop_reason"], r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the paused response sent back once)", len(reqs))
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if last.Role != llm.RoleAssistant || len(last.Content) != 2 {
		t.Fatalf("last message of the second request = %+v, want the paused assistant message", last)
	}
	// The server blocks go back untouched.
	for i, want := range []json.RawMessage{use, res0} {
		var a, b any
		json.Unmarshal(want, &a)
		json.Unmarshal(last.Content[i].Raw, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("block %d sent back as %s, want %s", i, last.Content[i].Raw, want)
		}
	}
}

// A model that keeps pausing does not make reins send the request
// forever: after MaxPauseResumes resumes the turn ends with an error.
func TestPauseTurnResumesAreBounded(t *testing.T) {
	var turns []llmtest.Turn
	for i := 0; i < 11; i++ {
		turns = append(turns, llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("searching")}, StopReason: "pause_turn"})
	}
	srv := server(t, turns...)
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "search")
	if r.Code == 0 || res["is_error"] != true || !strings.Contains(r.Stderr, "pause_turn") {
		t.Fatalf("code %d res %v stderr %q", r.Code, res, r.Stderr)
	}
	if n := len(srv.Requests()); n != 11 {
		t.Errorf("%d requests, want 11 (the first and ten resumes)", n)
	}
}

// A refusal is an error result, not a successful answer: scripts that
// check is_error (or the exit code) used to read a refusal as success.
func TestRefusalEndsTheTurnAsAnError(t *testing.T) {
	srv := server(t, llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("I can")}, StopReason: "refusal"})
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "something")
	if r.Code != 1 || res["is_error"] != true || res["stop_reason"] != "refusal" {
		t.Fatalf("code %d is_error %v stop %v", r.Code, res["is_error"], res["stop_reason"])
	}
	errs, _ := res["errors"].([]any)
	if len(errs) != 1 || !strings.Contains(errs[0].(string), "declined to respond") {
		t.Errorf("errors = %v", res["errors"])
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("%d requests, want 1 (a refusal is not retried)", len(srv.Requests()))
	}
}

// A refusal after a tool call: the call is answered, and the turn still
// ends as an error without another request.
func TestRefusalAfterToolCallAnswersTheCall(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Glob", map[string]any{"pattern": "*"})}, StopReason: "refusal"},
		llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "something")
	if r.Code != 1 || res["is_error"] != true {
		t.Fatalf("code %d res %v", r.Code, res)
	}
	if len(srv.Requests()) != 1 {
		t.Fatalf("%d requests, want 1", len(srv.Requests()))
	}
	// The transcript answers the call, so the session can be resumed.
	// srv.AssertClean checks the next request: no unanswered tool_use.
	if r := sb.Run(t, "", "--continue", "-p", "again"); r.Code != 0 || strings.TrimSpace(r.Stdout) != "ok" {
		t.Fatalf("--continue: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
}

// An answer cut off because the context window filled
// (model_context_window_exceeded) is not reported as a complete,
// successful answer: the conversation is compacted and the model asked to
// go on.
func TestContextWindowExceededCompactsAndContinues(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("The first half")}, StopReason: "model_context_window_exceeded"},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>The user asked for an essay; half was written.</summary>")}, Side: true},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text(" and the second half.")}, ResetPrefix: true})
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "write an essay")
	if r.Code != 0 || res["result"] != " and the second half." {
		t.Fatalf("code %d result %v stderr %q", r.Code, res["result"], r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (answer, summary, continuation)", len(reqs))
	}
}

// Without a way to make room, the cut-off answer ends the turn as an error.
func TestContextWindowExceededWithoutRoomIsAnError(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("The first half")}, StopReason: "model_context_window_exceeded"},
		llmtest.Turn{Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "prompt is too long: 210000 tokens > 200000 maximum"}, Side: true})
	sb := e2etest.NewSandbox(t, srv.URL)
	res, r := printResult(t, sb, "-p", "write an essay")
	if r.Code != 1 || res["is_error"] != true || !strings.Contains(r.Stderr, "context window") {
		t.Fatalf("code %d res %v stderr %q", r.Code, res, r.Stderr)
	}
}

// A thinking budget below the API's minimum (1024) is raised to it; the
// API refused the request ("budget_tokens: Input should be greater than
// or equal to 1024"). MAX_THINKING_TOKENS, as Claude Code users set it,
// turns thinking on like --max-thinking-tokens. (Budgets go to models
// that take them, such as Sonnet 4.5.)
func TestThinkingBudgetIsAtLeastTheAPIMinimum(t *testing.T) {
	srv := server(t, llmtest.Reply("a"), llmtest.Reply("b"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi", "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "500"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	sb.Env = append(sb.Env, "MAX_THINKING_TOKENS=4000")
	if r := sb.Run(t, "", "-p", "hi", "--model", "claude-sonnet-4-5"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	for i, want := range []int{1024, 4000} {
		var body struct {
			Thinking *struct {
				Type         string `json:"type"`
				BudgetTokens int    `json:"budget_tokens"`
			} `json:"thinking"`
			MaxTokens int `json:"max_tokens"`
		}
		if err := json.Unmarshal(srv.Requests()[i].Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Thinking == nil || body.Thinking.Type != "enabled" || body.Thinking.BudgetTokens != want || body.MaxTokens <= want {
			t.Errorf("request %d: thinking %+v max_tokens %d, want an enabled budget of %d below max_tokens", i, body.Thinking, body.MaxTokens, want)
		}
	}
}

// ANTHROPIC_BETAS adds beta values to every request's anthropic-beta
// header, sub-agents' included; CLAUDE_CODE_EXTRA_BODY's fields are merged
// into every request body, and one that is not a JSON object is reported
// and ignored. Both were ignored without a word.
func TestAnthropicBetasAndExtraBodyReachEveryRequest(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Agent", map[string]any{"description": "look", "prompt": "say hi", "subagent_type": "general-purpose"})),
		llmtest.Reply("hi from the agent"),
		llmtest.Reply("done"),
		llmtest.Reply("plain"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "ANTHROPIC_BETAS=beta-one-2025, beta-two-2026", `CLAUDE_CODE_EXTRA_BODY={"metadata":{"user_id":"u-42"}}`)
	if r := sb.Run(t, "", "-p", "go", "--betas", "cli-beta"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (main, agent, main)", len(reqs))
	}
	for i, rq := range reqs {
		h := rq.Header.Get("anthropic-beta")
		for _, want := range []string{"beta-one-2025", "beta-two-2026", "cli-beta"} {
			if !strings.Contains(h, want) {
				t.Errorf("request %d: anthropic-beta %q lacks %s", i, h, want)
			}
		}
		var body struct {
			Metadata struct {
				UserID string `json:"user_id"`
			} `json:"metadata"`
		}
		json.Unmarshal(rq.Body, &body)
		if body.Metadata.UserID != "u-42" {
			t.Errorf("request %d: metadata.user_id = %q, want the extra body's", i, body.Metadata.UserID)
		}
	}
	sb.Env = append(sb.Env, "CLAUDE_CODE_EXTRA_BODY=[1,2]")
	r := sb.Run(t, "", "-p", "again")
	if r.Code != 0 || !strings.Contains(r.Stderr, "CLAUDE_CODE_EXTRA_BODY") {
		t.Fatalf("code %d err %q, want a warning naming CLAUDE_CODE_EXTRA_BODY", r.Code, r.Stderr)
	}
}

// The --debug log has a line for each model request (model, attempt,
// request id), each failed attempt (status and error) and each response
// (stop reason and usage, cache tokens included); it only had the retry
// notes, so a slow or failing session could not be diagnosed from it.
func TestDebugLogRecordsRequestsAndResponses(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Fault: &llmtest.Fault{Status: 500, ErrorType: "api_error", Message: "boom"}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("ok")}, Usage: &llmtest.UsageSpec{InputTokens: 12, OutputTokens: 3, CacheReadInputTokens: 4000}})
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi", "--debug"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	files, _ := filepath.Glob(filepath.Join(sb.ConfigDir, "debug", "*.txt"))
	if len(files) != 1 {
		t.Fatalf("debug logs: %v", files)
	}
	data, _ := os.ReadFile(files[0])
	log := string(data)
	for _, want := range []string{
		`msg="model request failed"`, "status=500",
		`msg="model request"`, "request_id=req_001",
		`msg="model response"`, "stop_reason=end_turn", "cache_read=4000", "output_tokens=3",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("debug log lacks %q:\n%s", want, log)
		}
	}
}

// A tool call cut off at the output cap (stop_reason max_tokens in the
// middle of its input) is answered with an error that says so, and the
// requests after it get the escalated cap; with the default cap a large
// Write was cut off the same way on every attempt.
func TestToolCallCutAtOutputCapEscalatesTheCap(t *testing.T) {
	cut := `{"file_path":"/tmp/x.txt","content":"aaaa`
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{{Type: "tool_use", ID: "toolu_1", Name: "Write", RawInputJSON: &cut}}, StopReason: "max_tokens"},
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "write it"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if reqs[0].MaxTokens >= reqs[1].MaxTokens {
		t.Errorf("max_tokens %d then %d: the cap was not raised after the cut call", reqs[0].MaxTokens, reqs[1].MaxTokens)
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "output token limit") {
		t.Errorf("tool results = %+v, want an error naming the output token limit", res)
	}
}

// After a fallback to another model, the thinking blocks the first model
// wrote are not sent: their signatures are bound to it, and the fallback
// model refused every request that carried them ("Invalid signature in
// thinking block"). The first model's own requests keep them.
func TestFallbackModelIsNotSentTheFirstModelsThinking(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.Thinking("plan", "sig-opus"), llmtest.Block{Type: "redacted_thinking", Data: "enc-opus"},
			llmtest.ToolUse("toolu_1", "Glob", map[string]any{"pattern": "*"})),
		llmtest.Overloaded(), llmtest.Overloaded(), llmtest.Overloaded(),
		llmtest.Reply("from sonnet"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "go", "--model", "opus", "--fallback-model", "sonnet", "--max-thinking-tokens", "2000")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "from sonnet" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	thinking := func(rq *llmtest.Request) (n int) {
		for _, m := range rq.Messages {
			for _, b := range m.Content {
				if b.Type == llm.BlockThinking || b.Type == llm.BlockRedactedThinking {
					n++
				}
			}
		}
		return n
	}
	first, last := reqs[1], reqs[len(reqs)-1]
	if first.Model == last.Model {
		t.Fatalf("no fallback: models %s, %s", first.Model, last.Model)
	}
	if n := thinking(first); n != 2 {
		t.Errorf("the first model's next request has %d thinking blocks, want its 2", n)
	}
	if n := thinking(last); n != 0 {
		t.Errorf("the fallback model's request has %d thinking blocks of the first model, want none", n)
	}
	if uses := last.Messages[len(last.Messages)-2].ToolUses(); len(uses) != 1 {
		t.Errorf("the tool call was lost with the thinking: %+v", last.Messages[len(last.Messages)-2])
	}
}

// A stream that breaks after a tool call started lets that call finish
// (a command stopped half-way for a network failure left its work half
// done) and answers it with its real result; the turn still ends with the
// error and the request is not replayed. The call used to be killed and
// answered as if the user had interrupted it.
func TestStreamBreakAfterToolStartedLetsTheCallFinish(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "sleep 0.3; echo finished > marker.txt; echo wrote it"}),
			llmtest.Text(strings.Repeat("more words ", 30))},
			Fault: &llmtest.Fault{After: 12, Reset: true}},
		llmtest.Reply("carrying on"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "run it", "--dangerously-skip-permissions")
	if r.Code == 0 {
		t.Fatalf("code 0 after a broken stream; out %q", r.Stdout)
	}
	if data, err := os.ReadFile(filepath.Join(sb.Dir, "marker.txt")); err != nil || strings.TrimSpace(string(data)) != "finished" {
		t.Errorf("the started command did not finish: %q %v", data, err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1 (no replay)", n)
	}
	if r := sb.Run(t, "", "--continue", "-p", "go on"); r.Code != 0 {
		t.Fatalf("--continue: code %d err %q", r.Code, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), "wrote it") {
		t.Errorf("tool result sent = %+v, want the command's own output", res)
	}
}
