package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// awaitControl reads lines until a control request of subtype comes and
// returns it; mcp_message requests are answered on the way.
func awaitControl(c *client, subtype string) string {
	c.t.Helper()
	for {
		line := c.next()
		if c.autoAnswer(line) {
			continue
		}
		var v struct {
			Type    string `json:"type"`
			Request struct {
				Subtype string `json:"subtype"`
			} `json:"request"`
		}
		if json.Unmarshal([]byte(line), &v) == nil && v.Type == "control_request" && v.Request.Subtype == subtype {
			return line
		}
	}
}

// awaitType reads lines until one of type typ comes and returns it.
func awaitType(c *client, typ string) string {
	c.t.Helper()
	for {
		line := c.next()
		if c.autoAnswer(line) {
			continue
		}
		if kindIn(line, []string{typ}) {
			return line
		}
	}
}

// finish closes the input, reads what is left and returns the exit code.
func finish(c *client) int {
	c.t.Helper()
	c.closeInput()
	for range c.lines {
	}
	<-c.exited
	return c.code
}

// requestID is the request_id of a control request line.
func requestID(t *testing.T, line string) string {
	t.Helper()
	var v struct {
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil || v.RequestID == "" {
		t.Fatalf("not a control request: %s", line)
	}
	return v.RequestID
}

// A can_use_tool request says, as Claude Code's does, how a host should
// name the tool (display_name) and what the call does (description: a
// shell command's description or else the command, the file a file tool
// works on, relative to the working folder inside it); blocked_path is
// there only when a shell command reaches outside the working folders.
// reins sent neither name nor description, and blocked_path null, or the
// file tools' own path.
func TestQA11CanUseToolNamesAndDescribesTheCall(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(outside, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	in := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	cases := []struct {
		id, tool, input string
		fields          string // the keys between input and permission_suggestions
		blocked         string // blocked_path, or "" for none
	}{
		{"toolu_1", "Bash", in(map[string]string{"command": "touch made.txt", "description": "Make a file"}), `"description":"Make a file"`, ""},
		{"toolu_2", "Write", in(map[string]string{"file_path": filepath.Join(sb.Dir, "sub", "new.txt"), "content": "x\n"}),
			`"description":` + q(filepath.Join("sub", "new.txt")), ""},
		{"toolu_3", "Read", in(map[string]string{"file_path": outside}), `"description":` + q(outside), ""},
		{"toolu_4", "Bash", in(map[string]string{"command": "cat " + outside}), `"description":` + q("cat "+outside), outside},
	}
	for _, tc := range cases {
		srv.Add(call(tc.id, tc.tool, tc.input, 100, 5))
	}
	srv.Add(reply("Done.", 100, 5))
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.user("Go.")
	for _, tc := range cases {
		blocked := ""
		if tc.blocked != "" {
			blocked = `,"blocked_path":` + q(tc.blocked)
		}
		want := `{"type":"control_request","request_id":"<$ask>","request":{"subtype":"can_use_tool","tool_name":` + q(tc.tool) +
			`,"display_name":` + q(tc.tool) + `,"input":` + tc.input + `,` + tc.fields + `,"permission_suggestions":"<any>"` + blocked +
			`,"decision_reason":"<string>","tool_use_id":` + q(tc.id) + `}}`
		line := awaitControl(c, "can_use_tool")
		if err := newMatcher(sessionID).match(want, line); err != nil {
			t.Errorf("%s %s: %v", tc.id, tc.tool, err)
		}
		c.answer(requestID(t, line), `{"behavior":"deny","message":"Not now."}`)
	}
	awaitType(c, "result")
	if code := finish(c); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// An MCP tool's can_use_tool display_name is the title its server gave
// it, as in Claude Code; it has no description.
func TestQA11CanUseToolDisplaysAnMCPToolByItsTitle(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"hi"}`, 100, 10), reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools", title: "Echo Back"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.user("Echo something.")
	line := awaitControl(c, "can_use_tool")
	want := strings.Replace(canUseTool("ask1", echoTool, "toolu_1", `{"text":"hi"}`), `"display_name":"Echo"`, `"display_name":"Echo Back"`, 1)
	if err := newMatcher(sessionID).match(want, line); err != nil {
		t.Error(err)
	}
	c.answer(requestID(t, line), `{"behavior":"allow","updatedInput":{"text":"hi"}}`)
	awaitType(c, "result")
	if code := finish(c); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// A deny answer with interrupt set is the user stopping everything: the
// model gets reins's standard rejection rather than the host's message,
// and the line reports the call as rejected by the user
// (non_execution_kind "user-rejected", as Claude Code reports it). reins
// passed the host's message on and called it a permission rule.
func TestQA11InterruptingDenyGivesTheStandardRejection(t *testing.T) {
	srv := server(t, call("toolu_1", "Bash", `{"command":"touch made.txt"}`, 100, 5), reply("Should not be asked.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.user("Go.")
	line := awaitControl(c, "can_use_tool")
	c.answer(requestID(t, line), `{"behavior":"deny","message":"Host words for the model.","interrupt":true}`)
	res := awaitType(c, "user")
	var u struct {
		Message struct {
			Content []struct {
				Content string `json:"content"`
				IsError bool   `json:"is_error"`
			} `json:"content"`
		} `json:"message"`
		Meta json.RawMessage `json:"tool_result_meta"`
	}
	if err := json.Unmarshal([]byte(res), &u); err != nil || len(u.Message.Content) != 1 {
		t.Fatalf("not a tool result line: %s", res)
	}
	if got := u.Message.Content[0]; strings.Contains(got.Content, "Host words") || !strings.Contains(got.Content, "rejected") || !got.IsError {
		t.Errorf("tool result %+v, want the standard rejection as an error", got)
	}
	if got, want := string(u.Meta), `[{"id":"toolu_1","non_execution_kind":"user-rejected"}]`; got != want {
		t.Errorf("tool_result_meta %s, want %s", got, want)
	}
	awaitType(c, "result")
	if code := finish(c); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err == nil {
		t.Error("the rejected command ran")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1: the turn stops", n)
	}
}

// hook_callback requests of events without a tool call carry an id of
// their own (a fresh UUID each), as Claude Code's do, and Stop's input
// lists the session's scheduled prompts (session_crons: none in reins).
// reins sent tool_use_id null and no session_crons.
func TestQA11HookCallbacksOfNonToolEventsCarryAnID(t *testing.T) {
	srv := server(t, reply("Hi.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	c.request("init-1", `{"subtype":"initialize","hooks":{"UserPromptSubmit":[{"matcher":null,"hookCallbackIds":["ups"]}],"Stop":[{"matcher":null,"hookCallbackIds":["stop"]}]}}`)
	c.user("Hello.")
	common := `"session_id":"<session>","transcript_path":"<string>","cwd":` + q(sb.Dir) + `,"prompt_id":"<$prompt>","permission_mode":"default"`
	ups := awaitControl(c, "hook_callback")
	if err := c.m.match(`{"type":"control_request","request_id":"<string>","request":{"subtype":"hook_callback","callback_id":"ups",`+
		`"input":{`+common+`,"hook_event_name":"UserPromptSubmit","prompt":"Hello.","source?":"<string>"},"tool_use_id":"<uuid>"}}`, ups); err != nil {
		t.Error(err)
	}
	c.answer(requestID(t, ups), `{}`)
	stop := awaitControl(c, "hook_callback")
	if err := c.m.match(`{"type":"control_request","request_id":"<string>","request":{"subtype":"hook_callback","callback_id":"stop",`+
		`"input":{`+common+`,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Hi.","background_tasks":[],"session_crons":[]},`+
		`"tool_use_id":"<uuid>"}}`, stop); err != nil {
		t.Error(err)
	}
	c.answer(requestID(t, stop), `{}`)
	id := func(line string) string {
		var v struct {
			Request struct {
				ToolUseID string `json:"tool_use_id"`
			} `json:"request"`
		}
		json.Unmarshal([]byte(line), &v)
		return v.Request.ToolUseID
	}
	if id(ups) == id(stop) {
		t.Errorf("both callbacks carry the id %s; each should have its own", id(ups))
	}
	awaitType(c, "result")
	if code := finish(c); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
