package e2e

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// lineOf returns the first line of lines with the given type (and
// subtype, when not "").
func lineOf(t *testing.T, lines []map[string]any, typ, subtype string) map[string]any {
	t.Helper()
	for _, l := range lines {
		if l["type"] == typ && (subtype == "" || l["subtype"] == subtype) {
			return l
		}
	}
	t.Fatalf("no %s/%s line in %v", typ, subtype, lines)
	return nil
}

// asJSON re-encodes v for comparisons against a literal.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// zeroSubagentStats is subagent_stats of a result with no sub-agent, in
// the key order reins writes (json.Marshal of a map sorts keys).
const zeroSubagentStats = `{"by_type":{},"completed":0,"failed":0,"killed":{"parent":0,"system":0,"user":0},"max_depth":0,` +
	`"refused":{"budget":0,"concurrency_limit":0,"depth_limit":0},"requested":{"background":0,"foreground":0,"unset":0},` +
	`"spawned":0,"spawned_by_subagents":0,"started_in_background":0}`

// TestQA10StreamJSONResultHasClaudeCodesFields: the result line of
// -p --output-format stream-json carries the fields Claude Code 2.1.328
// adds: fast mode off (reins has none), subagent_stats in its shape,
// safety_stops, queued_turn_count, the latency fields in the order the
// turn reaches them, model_usage_since_last_result, and the API usage's
// thinking tokens, speed, region and iterations passed through.
func TestQA10StreamJSONResultHasClaudeCodesFields(t *testing.T) {
	final := map[string]any{"output_tokens_details": map[string]any{"thinking_tokens": 7},
		"speed": "fast", "inference_geo": "us", "iterations": []any{map[string]any{"input_tokens": 3}}}
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": "notes.txt"})},
			Usage: &llmtest.UsageSpec{InputTokens: 100, OutputTokens: 20, Final: final}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("Read it.")},
			Usage: &llmtest.UsageSpec{InputTokens: 120, OutputTokens: 10, Final: map[string]any{"output_tokens_details": map[string]any{"thinking_tokens": 2}}}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "hello\n")
	r := sb.Run(t, "", "-p", "read notes.txt", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	res := lines[len(lines)-1]
	if res["type"] != "result" {
		t.Fatalf("last line %v", res)
	}
	for k, want := range map[string]any{"fast_mode_state": "off", "fast_mode_disabled_reason": "not_supported",
		"safety_stops": 0.0, "queued_turn_count": 0.0} {
		if res[k] != want {
			t.Errorf("result %s = %#v, want %#v", k, res[k], want)
		}
	}
	if got := asJSON(t, res["subagent_stats"]); got != zeroSubagentStats {
		t.Errorf("subagent_stats = %s\nwant %s", got, zeroSubagentStats)
	}
	var ms []float64
	for _, k := range []string{"time_to_request_ms", "ttft_stream_ms", "first_content_frame_ms", "ttft_ms", "duration_ms"} {
		v, ok := res[k].(float64)
		if !ok {
			t.Fatalf("result %s = %#v, want a number", k, res[k])
		}
		ms = append(ms, v)
	}
	if !slices.IsSorted(ms) || ms[0] < 0 {
		t.Errorf("request, first stream event, first content block, first token, end at %v ms: want them in that order", ms)
	}
	mu, since := res["modelUsage"], res["model_usage_since_last_result"]
	if since == nil || !reflect.DeepEqual(mu, since) {
		t.Errorf("model_usage_since_last_result = %v, want the whole modelUsage %v (the only result)", since, mu)
	}
	for _, m := range mu.(map[string]any) {
		if m.(map[string]any)["thinkingTokens"] != 9.0 {
			t.Errorf("modelUsage thinkingTokens = %v, want 9", m.(map[string]any)["thinkingTokens"])
		}
	}
	usage := res["usage"].(map[string]any)
	if got := asJSON(t, usage["output_tokens_details"]); got != `{"thinking_tokens":9}` {
		t.Errorf("usage.output_tokens_details = %s, want the API's thinking tokens summed (9)", got)
	}
	if usage["speed"] != "fast" || usage["inference_geo"] != "us" {
		t.Errorf("usage speed %v inference_geo %v, want the API's fast and us", usage["speed"], usage["inference_geo"])
	}
	if got := asJSON(t, usage["iterations"]); got != `[{"input_tokens":3}]` {
		t.Errorf("usage.iterations = %s, want the API's", got)
	}
}

// TestQA10JSONResultLeavesOutUsageSinceLastResult: --output-format json
// writes the new result fields too, with usage defaults when the API
// reports none, but not model_usage_since_last_result (Claude Code's json
// result has none: it is the only result).
func TestQA10JSONResultLeavesOutUsageSinceLastResult(t *testing.T) {
	srv := server(t, llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatal(err)
	}
	if _, ok := res["model_usage_since_last_result"]; ok {
		t.Error("json result has model_usage_since_last_result")
	}
	if res["fast_mode_state"] != "off" || res["safety_stops"] != 0.0 || asJSON(t, res["subagent_stats"]) != zeroSubagentStats {
		t.Errorf("json result fast_mode_state %v safety_stops %v subagent_stats %v", res["fast_mode_state"], res["safety_stops"], res["subagent_stats"])
	}
	usage := res["usage"].(map[string]any)
	if got := asJSON(t, []any{usage["output_tokens_details"], usage["speed"], usage["inference_geo"], usage["iterations"], usage["service_tier"]}); got != `[{"thinking_tokens":0},"standard","",[],"standard"]` {
		t.Errorf("usage defaults = %s", got)
	}
	if _, ok := res["ttft_ms"].(float64); !ok {
		t.Errorf("json result ttft_ms = %v", res["ttft_ms"])
	}
	// A local command's json result has the same shape, and no latency:
	// it sent no request.
	r = sb.Run(t, "", "-p", "/cost", "--output-format", "json")
	res = nil
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || r.Code != 0 {
		t.Fatalf("/cost: %v code %d %s", err, r.Code, r.Stderr)
	}
	if _, ok := res["model_usage_since_last_result"]; ok {
		t.Error("/cost json result has model_usage_since_last_result")
	}
	if _, ok := res["ttft_ms"]; ok || res["fast_mode_state"] != "off" {
		t.Errorf("/cost json result ttft_ms %v fast_mode_state %v, want none and off", res["ttft_ms"], res["fast_mode_state"])
	}
}

// TestQA10InitLineHasClaudeCodesFields: the init line says what reins
// is: no analytics, no feedback, no fast mode, no auto-memory folder, no
// capability flags it does not implement, the default view, the folder it
// started in, the commands that need the terminal UI, and effort and
// ultrathink according to the model.
func TestQA10InitLineHasClaudeCodesFields(t *testing.T) {
	for _, tc := range []struct {
		model  string
		effort bool
	}{{"claude-opus-4-5", true}, {"haiku", false}} {
		srv := server(t, llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose", "--model", tc.model)
		if r.Code != 0 {
			t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
		}
		in := lineOf(t, decodeLines(t, r.Stdout), "system", "init")
		want := map[string]any{"analytics_disabled": true, "product_feedback_disabled": true, "fast_mode_state": "off",
			"fast_mode_disabled_reason": "not_supported", "view_mode": "default", "original_cwd": sb.Dir,
			"per_turn_effort_active": tc.effort, "ultrathink_available": tc.effort, "ultrathink_typed_raises": tc.effort}
		for k, v := range want {
			if in[k] != v {
				t.Errorf("%s: init %s = %#v, want %#v", tc.model, k, in[k], v)
			}
		}
		if got := asJSON(t, []any{in["capabilities"], in["memory_paths"]}); got != `[[],{}]` {
			t.Errorf("%s: init capabilities and memory_paths = %s, want [] and {}", tc.model, got)
		}
		term, _ := in["terminal_slash_commands"].([]any)
		slash, _ := in["slash_commands"].([]any)
		for _, name := range []string{"doctor", "exit", "clear"} {
			if !slices.Contains(term, any(name)) || !slices.Contains(slash, any(name)) {
				t.Errorf("%s: %s missing from terminal_slash_commands %v or slash_commands", tc.model, name, term)
			}
		}
		if slices.Contains(term, any("compact")) {
			t.Errorf("%s: terminal_slash_commands %v has compact, which works in print mode", tc.model, term)
		}
	}
}

// TestQA10SDKResultsCountUsageSinceTheLastOneAndQueuedTurns: over
// stream-json input, each result's model_usage_since_last_result holds
// only its own turn's usage while modelUsage keeps the session's, and
// queued_turn_count counts the user messages still waiting: the second
// prompt, sent while the first turn waits on a permission answer. The
// SDK init line leaves /clear out of terminal_slash_commands (it works
// there).
func TestQA10SDKResultsCountUsageSinceTheLastOneAndQueuedTurns(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch marker"})},
			Usage: &llmtest.UsageSpec{InputTokens: 100, OutputTokens: 10}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("first")}, Usage: &llmtest.UsageSpec{InputTokens: 200, OutputTokens: 20}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("second")}, Usage: &llmtest.UsageSpec{InputTokens: 1000, OutputTokens: 5}})
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb, "--permission-prompt-tool", "stdio")
	p.send(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize"}}`)
	p.next("control_response")
	p.send(`{"type":"user","message":{"role":"user","content":"one"},"parent_tool_use_id":null,"session_id":""}`)
	in := p.next("system")
	for in["subtype"] != "init" {
		in = p.next("system")
	}
	if term, _ := in["terminal_slash_commands"].([]any); slices.Contains(term, any("clear")) || !slices.Contains(term, any("doctor")) {
		t.Errorf("SDK init terminal_slash_commands = %v, want doctor and not clear", term)
	}
	ask := p.next("control_request")
	p.send(`{"type":"user","message":{"role":"user","content":"two"},"parent_tool_use_id":null,"session_id":""}`)
	id, _ := ask["request_id"].(string)
	p.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":{"behavior":"allow","updatedInput":{"command":"touch marker"}}}}`)
	first := p.next("result")
	second := p.next("result")
	p.finish()
	for _, k := range []string{"time_to_request_ms", "ttft_stream_ms", "first_content_frame_ms", "ttft_ms"} {
		if _, ok := second[k].(float64); !ok {
			t.Errorf("SDK result %s = %v, want a number", k, second[k])
		}
	}
	if first["queued_turn_count"] != 1.0 || second["queued_turn_count"] != 0.0 {
		t.Errorf("queued_turn_count = %v then %v, want 1 then 0", first["queued_turn_count"], second["queued_turn_count"])
	}
	counts := func(m any) (in, out float64) {
		for _, u := range m.(map[string]any) {
			mu := u.(map[string]any)
			in += mu["inputTokens"].(float64)
			out += mu["outputTokens"].(float64)
		}
		return
	}
	if i, o := counts(first["model_usage_since_last_result"]); i != 300 || o != 30 {
		t.Errorf("first result's usage since the last = %v in %v out, want 300 and 30", i, o)
	}
	if i, o := counts(second["model_usage_since_last_result"]); i != 1000 || o != 5 {
		t.Errorf("second result's usage since the last = %v in %v out, want 1000 and 5", i, o)
	}
	if i, o := counts(second["modelUsage"]); i != 1300 || o != 35 {
		t.Errorf("second result's modelUsage = %v in %v out, want the session's 1300 and 35", i, o)
	}
}

// TestQA10SubagentStatsCountAgentRuns: a result's subagent_stats counts
// the Agent tool's runs of the turn: one general-purpose agent asked to
// run in the foreground, which completed.
func TestQA10SubagentStatsCountAgentRuns(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Agent", map[string]any{"description": "look", "prompt": "say hi",
			"subagent_type": "general-purpose", "run_in_background": false})),
		llmtest.Reply("hi from the agent"),
		llmtest.Reply("The agent said hi."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "use an agent", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`"by_type":{}`, `"by_type":{"general-purpose":1}`, `"completed":0`, `"completed":1`,
		`"max_depth":0`, `"max_depth":1`, `"foreground":0`, `"foreground":1`, `"spawned":0`, `"spawned":1`).Replace(zeroSubagentStats)
	if got := asJSON(t, res["subagent_stats"]); got != want {
		t.Errorf("subagent_stats = %s\nwant %s", got, want)
	}
}

// toolResultMeta maps each tool result line's tool_use_id to its
// tool_result_meta entry, re-encoded.
func toolResultMeta(t *testing.T, lines []map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range lines {
		if l["type"] != "user" {
			continue
		}
		metas, _ := l["tool_result_meta"].([]any)
		for _, m := range metas {
			id, _ := m.(map[string]any)["id"].(string)
			out[id] = asJSON(t, m)
		}
	}
	return out
}

// TestQA10ToolResultMetaSaysWhatDecidedEachCall: in print mode each tool
// result line's tool_result_meta names what settled the call's
// permission, as Claude Code's do: the mode for a read, an allow or deny
// rule, a PreToolUse hook, and the mode for a write nobody could approve;
// refused calls are marked as not run by permission.
func TestQA10ToolResultMetaSaysWhatDecidedEachCall(t *testing.T) {
	sb := e2etest.NewSandbox(t, "")
	dir := sb.Dir
	srv := server(t,
		llmtest.Calls(
			llmtest.ToolUse("toolu_read", "Read", map[string]any{"file_path": filepath.Join(dir, "notes.txt")}),
			llmtest.ToolUse("toolu_allow", "Bash", map[string]any{"command": "touch made.txt"}),
			llmtest.ToolUse("toolu_deny", "Bash", map[string]any{"command": "rm notes.txt"}),
			llmtest.ToolUse("toolu_write", "Write", map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": "x"}),
			llmtest.ToolUse("toolu_hook", "Glob", map[string]any{"pattern": "*.txt"})),
		llmtest.Reply("done"))
	sb.BaseURL = srv.URL
	sb.Env = append(sb.Env, "ANTHROPIC_BASE_URL="+srv.URL)
	sb.Write(t, "notes.txt", "hello\n")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash(touch made.txt)"], "deny": ["Bash(rm:*)"]},
		"hooks": {"PreToolUse": [{"matcher": "Glob", "hooks": [{"type": "command",
		"command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no globs\"}}'"}]}]}}`)
	r := sb.Run(t, "", "-p", "do things", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
	}
	got := toolResultMeta(t, decodeLines(t, r.Stdout))
	want := map[string]string{
		"toolu_read":  `{"id":"toolu_read","permission_decision":{"decision":"accept","reason_type":"mode","source":"config"}}`,
		"toolu_allow": `{"id":"toolu_allow","permission_decision":{"decision":"accept","reason_type":"rule","source":"config"}}`,
		"toolu_deny":  `{"id":"toolu_deny","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","reason_type":"rule","source":"config"}}`,
		"toolu_write": `{"id":"toolu_write","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","reason_type":"mode","source":"config"}}`,
		"toolu_hook":  `{"id":"toolu_hook","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","reason_type":"hook","source":"hook"}}`,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("tool_result_meta of %s = %s\nwant %s", id, got[id], w)
		}
	}
}

// TestQA10ToolResultMetaCarriesTheSDKClientsAnswer: over the SDK
// protocol, a call the client allowed through can_use_tool is reported as
// the user's decision (user_temporary, or the client's own
// decisionClassification), and one it denied as user_reject, not run.
func TestQA10ToolResultMetaCarriesTheSDKClientsAnswer(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch one"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "touch two"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]any{"command": "touch three"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb, "--permission-prompt-tool", "stdio")
	p.send(`{"type":"user","message":{"role":"user","content":"go"},"parent_tool_use_id":null,"session_id":""}`)
	answers := []string{
		`{"behavior":"allow","updatedInput":{"command":"touch one"}}`,
		`{"behavior":"allow","updatedInput":{"command":"touch two"},"decisionClassification":"user_permanent"}`,
		`{"behavior":"deny","message":"not that one"}`,
	}
	var users []map[string]any
	for _, a := range answers {
		ask := p.next("control_request")
		id, _ := ask["request_id"].(string)
		p.send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":` + a + `}}`)
		users = append(users, p.next("user"))
	}
	p.next("result")
	p.finish()
	got := toolResultMeta(t, users)
	want := map[string]string{
		"toolu_1": `{"id":"toolu_1","permission_decision":{"decision":"accept","source":"user_temporary"}}`,
		"toolu_2": `{"id":"toolu_2","permission_decision":{"decision":"accept","source":"user_permanent"}}`,
		"toolu_3": `{"id":"toolu_3","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","source":"user_reject"}}`,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("tool_result_meta of %s = %s\nwant %s", id, got[id], w)
		}
	}
}

// TestQA10InitializeAnswerSaysWhatReinsLacks: the initialize answer
// carries the fields Claude Code's does where reins has a truthful value:
// built-in commands marked builtin, auto mode available on every model,
// no feedback, no analytics, no remote control, no fast mode and no
// capability flags.
func TestQA10InitializeAnswerSaysWhatReinsLacks(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	sb.Write(t, ".claude/commands/mine.md", "Do my thing.\n")
	p := startSDK(t, sb)
	p.send(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize"}}`)
	resp := p.next("control_response")
	p.finish()
	r := resp["response"].(map[string]any)["response"].(map[string]any)
	for k, want := range map[string]any{"analytics_disabled": true, "fast_mode_state": "off", "fast_mode_disabled_reason": "not_supported",
		"remote_control_available": false, "remote_control_auto_enable": false, "remote_control_auto_connect_default": false,
		"remote_control_auto_on_by_default": false} {
		if r[k] != want {
			t.Errorf("initialize %s = %#v, want %#v", k, r[k], want)
		}
	}
	if got := asJSON(t, []any{r["feedback_mode"], r["capabilities"]}); got != `[{"kind":"disabled"},[]]` {
		t.Errorf("initialize feedback_mode and capabilities = %s", got)
	}
	builtin := map[string]any{}
	for _, c := range r["commands"].([]any) {
		cm := c.(map[string]any)
		builtin[cm["name"].(string)] = cm["builtin"]
	}
	if builtin["compact"] != true || builtin["mine"] != nil {
		t.Errorf("builtin of compact %v and of the project's mine %v, want true and absent", builtin["compact"], builtin["mine"])
	}
	for _, m := range r["models"].([]any) {
		if mm := m.(map[string]any); mm["supportsAutoMode"] != true {
			t.Errorf("model %v supportsAutoMode = %v, want true", mm["value"], mm["supportsAutoMode"])
		}
	}
}

// TestQA10SubagentStatsCountABackgroundAgentTheUserStopped: over the SDK,
// the result of the turn that started a background agent counts it as
// spawned in the background, and the result of the turn that follows
// its end counts it as killed by the user, who stopped it with stop_task.
func TestQA10SubagentStatsCountABackgroundAgentTheUserStopped(t *testing.T) {
	srv := server(t,
		llmtest.Turn{MatchText: "start the helper", Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Agent", map[string]any{
			"description": "slow helper", "prompt": "SLOW-SUBTASK", "subagent_type": "general-purpose", "run_in_background": true})}},
		llmtest.Turn{MatchText: "SLOW-SUBTASK", Blocks: []llmtest.Block{llmtest.Text("still working on it, slowly")},
			Delay: llmtest.Duration(2 * time.Second)},
		llmtest.Turn{MatchText: "working in the background", Blocks: []llmtest.Block{llmtest.Text("Started.")}},
		llmtest.Turn{MatchText: "task-notification", Blocks: []llmtest.Block{llmtest.Text("It was stopped.")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb)
	p.send(`{"type":"user","message":{"role":"user","content":"start the helper"},"parent_tool_use_id":null,"session_id":""}`)
	var taskID string
	for taskID == "" {
		l := p.next("system")
		if l["subtype"] == "task_started" {
			taskID, _ = l["task_id"].(string)
		}
	}
	first := p.next("result")
	p.send(`{"type":"control_request","request_id":"stop-1","request":{"subtype":"stop_task","task_id":"` + taskID + `"}}`)
	second := p.next("result")
	p.finish()
	if got := first["subagent_stats"].(map[string]any); got["spawned"] != 1.0 || got["started_in_background"] != 1.0 ||
		got["requested"].(map[string]any)["background"] != 1.0 || got["by_type"].(map[string]any)["general-purpose"] != 1.0 {
		t.Errorf("first result's subagent_stats = %s, want one general-purpose agent started in the background", asJSON(t, got))
	}
	if got := second["subagent_stats"].(map[string]any); got["spawned"] != 0.0 || asJSON(t, got["killed"]) != `{"parent":0,"system":0,"user":1}` {
		t.Errorf("second result's subagent_stats = %s, want one agent killed by the user and none spawned", asJSON(t, got))
	}
}
