package sdk_test

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The expected output lines, written from the protocol description
// (spec/anchors.md §3.4 and §4, spec/captures/cli-to-sdk.jsonl).

const opus = "claude-opus-5-5"

func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// stateLine is a system/session_state_changed line.
func stateLine(state string) string {
	return `{"type":"system","subtype":"session_state_changed","state":` + q(state) +
		`,"sdk_host_only":true,"session_id":"<session>","uuid":"<uuid>"}`
}

// modeStatusLine is the status line that follows a set_permission_mode
// answer (and announces other switches of mode).
func modeStatusLine(mode string) string {
	return `{"type":"system","subtype":"status","status":null,"permissionMode":` + q(mode) +
		`,"session_id":"<session>","uuid":"<uuid>"}`
}

// initSpec says what an init line holds.
type initSpec struct {
	cwd, model, mode string
	tools            string // names the tools must include ("a|b"), or "" for any
	mcp              string // a JSON array, or "" for []
}

func initLine(s initSpec) string {
	tools := `"<array>"`
	if s.tools != "" {
		tools = q("<has:" + s.tools + ">")
	}
	mcp := s.mcp
	if mcp == "" {
		mcp = `[]`
	}
	return `{"type":"system","subtype":"init","cwd":` + q(s.cwd) + `,"session_id":"<session>","tools":` + tools +
		`,"mcp_servers":` + mcp + `,"model":` + q(s.model) + `,"permissionMode":` + q(s.mode) +
		`,"slash_commands":"<array>","terminal_slash_commands":"<array>","apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"<string>","version":"<string>",` +
		`"output_style":"default","agents":"<array>","skills":"<array>","plugins":[],"capabilities":[],"analytics_disabled":true,` +
		`"product_feedback_disabled":true,"uuid":"<uuid>","memory_paths":{},"original_cwd":` + q(s.cwd) + `,"additional_directories":"<array>",` +
		`"fast_mode_state":"off","fast_mode_disabled_reason":"not_supported","per_turn_effort_active":"<any>","ultrathink_available":"<any>",` +
		`"ultrathink_typed_raises":"<any>","view_mode":"default"}`
}

// assistantLine is one assistant line carrying one content block.
func assistantLine(msgID, model, block string, inputTokens int) string {
	return `{"type":"assistant","message":{"id":` + q(msgID) + `,"type":"message","role":"assistant","model":` + q(model) +
		`,"content":[` + block + `],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":` + fmt.Sprint(inputTokens) +
		`,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0},"context_management":null},` +
		`"parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>","timestamp":"<timestamp>","request_id":"<any>"}`
}

func textBlock(text string) string { return `{"type":"text","text":` + q(text) + `}` }

func toolUseBlock(id, name, input string) string {
	return `{"type":"tool_use","id":` + q(id) + `,"name":` + q(name) + `,"input":` + input + `}`
}

// toolResultLine is the user line answering a tool call. result is the
// tool_use_result value ("" when the line has none).
func toolResultLine(id, content string, isError bool, result string) string {
	blk := `{"type":"tool_result","tool_use_id":` + q(id) + `,"content":` + q(content)
	if isError {
		blk += `,"is_error":true`
	}
	blk += `}`
	line := `{"type":"user","message":{"role":"user","content":[` + blk + `]},"parent_tool_use_id":null,` +
		`"session_id":"<session>","uuid":"<uuid>","timestamp":"<timestamp>"`
	if result != "" {
		line += `,"tool_use_result":` + result
	}
	// The permission decision, when the call got one (one answered as
	// interrupted while it waited has none).
	return line + `,"tool_result_meta?":"<array>"}`
}

// resultSpec says what a result line holds.
type resultSpec struct {
	subtype    string // "" means success
	result     string // the final text (success only)
	stop       string // stop_reason; "" means null
	turns      int
	in, out    int               // this turn's usage
	model      string            // the modelUsage key ("" means opus)
	modelIn    int               // the model's session input tokens (0 means in)
	modelOut   int               // and output tokens (0 means out)
	models     map[string][2]int // several models: id → session {in, out}
	denials    string            // JSON array; "" means []
	terminal   string            // terminal_reason
	errors     string            // JSON array of error texts (error subtypes)
	structured string            // structured_output JSON, "" for none
	// anyModelUsage accepts any modelUsage (earlier turns' counts depend
	// on timing).
	anyModelUsage bool
}

// resultExtras are the members of a result line after its uuid: fast mode,
// sub-agent and queue counts, the usage since the last result, and the
// latencies of a turn that sent a request.
const resultExtras = `,"fast_mode_state":"off","fast_mode_disabled_reason":"not_supported","subagent_stats":"<any>","safety_stops":0,` +
	`"queued_turn_count":"<number>","model_usage_since_last_result":"<any>","ttft_ms?":"<number>","ttft_stream_ms?":"<number>",` +
	`"time_to_request_ms?":"<number>","first_content_frame_ms?":"<number>"`

func resultLine(r resultSpec) string {
	sub, isErr := r.subtype, "true"
	if sub == "" {
		sub, isErr = "success", "false"
	}
	var b strings.Builder
	b.WriteString(`{"type":"result","subtype":` + q(sub) + `,"is_error":` + isErr +
		`,"duration_ms":"<number>","duration_api_ms":"<number>","num_turns":` + fmt.Sprint(r.turns))
	if sub == "success" {
		b.WriteString(`,"result":` + q(r.result))
	}
	stop := "null"
	if r.stop != "" {
		stop = q(r.stop)
	}
	b.WriteString(`,"stop_reason":` + stop + `,"session_id":"<session>","total_cost_usd":"<number>"`)
	b.WriteString(fmt.Sprintf(`,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":%d,`+
		`"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard",`+
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null}`, r.in, r.out))
	models := r.models
	if models == nil {
		mi, mo := r.modelIn, r.modelOut
		if mi == 0 {
			mi = r.in
		}
		if mo == 0 {
			mo = r.out
		}
		model := r.model
		if model == "" {
			model = opus
		}
		models = map[string][2]int{}
		if mi > 0 || mo > 0 {
			models[model] = [2]int{mi, mo}
		}
	}
	var mu []string
	for id, n := range models {
		window, maxOut := 200000, 64000
		if id == opus {
			window, maxOut = 1000000, 128000
		}
		mu = append(mu, fmt.Sprintf(`%s:{"inputTokens":%d,"outputTokens":%d,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,`+
			`"webSearchRequests":0,"costUSD":"<number>","contextWindow":%d,"maxOutputTokens":%d,"thinkingTokens":0,`+
			`"cacheCreationEphemeral5mInputTokens":0,"cacheCreationEphemeral1hInputTokens":0,"canonicalModel":%s,"provider":"firstParty","costBasis":"list"}`,
			q(id), n[0], n[1], window, maxOut, q(id)))
	}
	if r.anyModelUsage {
		b.WriteString(`,"modelUsage":"<any>"`)
	} else {
		b.WriteString(`,"modelUsage":{` + strings.Join(mu, ",") + `}`)
	}
	den := r.denials
	if den == "" {
		den = "[]"
	}
	b.WriteString(`,"permission_denials":` + den + `,"terminal_reason":` + q(r.terminal) + `,"api_error_status":null`)
	if r.structured != "" {
		b.WriteString(`,"structured_output":` + r.structured)
	}
	if r.errors != "" {
		b.WriteString(`,"errors":` + r.errors)
	}
	b.WriteString(`,"result_index":"<number>","uuid":"<uuid>"` + resultExtras + `}`)
	return b.String()
}

// controlOK is the control_response answering request id with body.
func controlOK(id, body string) string {
	return `{"type":"control_response","response":{"subtype":"success","request_id":` + q(id) + `,"response":` + body + `}}`
}

// initOK is the control_response answering initialize request id with
// body: it also lists the questions pending (none).
func initOK(id, body string) string {
	return `{"type":"control_response","response":{"subtype":"success","request_id":` + q(id) + `,"response":` + body +
		`,"pending_permission_requests":[],"pending_user_dialog_requests":[]}}`
}

// controlErr is an error control_response for request id.
func controlErr(id, msg string) string {
	return `{"type":"control_response","response":{"subtype":"error","request_id":` + q(id) + `,"error":` + q(msg) + `}}`
}

// canUseTool is a can_use_tool request for a tool no rule allows: it
// offers a rule allowing the tool, and gives a reason. Its id is captured
// as capture.
func canUseTool(capture, tool, id, input string) string {
	return `{"type":"control_request","request_id":"<$` + capture + `>","request":{"subtype":"can_use_tool","tool_name":` + q(tool) +
		`,"display_name":` + q(displayName(tool)) + `,"input":` + input + `,"permission_suggestions":[{"type":"addRules","rules":[{"toolName":` + q(tool) + `}],` +
		`"behavior":"allow","destination":"localSettings"}],"tool_use_id":` + q(id) +
		`,"decision_reason":"<string>"}}`
}

// displayName is the display_name of a tool that has no title: an MCP
// tool's own name with a capital first letter, a built-in tool's name.
func displayName(tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		if _, remote, ok := strings.Cut(rest, "__"); ok {
			return strings.ToUpper(remote[:1]) + remote[1:]
		}
	}
	return tool
}

// hookCallback is a PreToolUse hook_callback request.
func hookCallback(capture, callback, cwd, tool, id, input, mode string) string {
	return `{"type":"control_request","request_id":"<$` + capture + `>","request":{"subtype":"hook_callback","callback_id":` + q(callback) +
		`,"input":{"session_id":"<session>","transcript_path":"<string>","cwd":` + q(cwd) + `,"prompt_id":"<string>","permission_mode":` + q(mode) +
		`,"hook_event_name":"PreToolUse","tool_name":` + q(tool) + `,"tool_input":` + input + `,"tool_use_id":` + q(id) +
		`},"tool_use_id":` + q(id) + `}}`
}
