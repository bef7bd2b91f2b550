package streamjson

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
)

// The shapes below are those of spec/captures/cli-to-sdk.jsonl.
func TestControlLinesHaveTheProtocolShapes(t *testing.T) {
	code := 2
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"success with body", NewControlSuccess("r1", map[string]any{"commands": []any{}}),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"commands":[]}}}`},
		{"success without body", NewControlSuccess("r2", nil),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r2","response":{}}}`},
		{"error", NewControlError("r3", "no such thing"),
			`{"type":"control_response","response":{"subtype":"error","request_id":"r3","error":"no such thing"}}`},
		{"request", NewControlRequest("q1", map[string]any{"subtype": "can_use_tool", "tool_name": "Bash"}),
			`{"type":"control_request","request_id":"q1","request":{"subtype":"can_use_tool","tool_name":"Bash"}}`},
		{"cancel", NewControlCancel("q1"), `{"type":"control_cancel_request","request_id":"q1"}`},
		{"session state", NewSessionState("s", StateRequiresAction),
			`{"sdk_host_only":true,"session_id":"s","state":"requires_action","subtype":"session_state_changed","type":"system","uuid":"U"}`},
		{"hook started", NewHookStarted("s", "h1", "hook_0", "PreToolUse"),
			`{"hook_event":"PreToolUse","hook_id":"h1","hook_name":"hook_0","session_id":"s","subtype":"hook_started","type":"system","uuid":"U"}`},
		{"hook response", NewHookResponse("s", "h1", "./check.sh", "PreToolUse", HookResult{Output: "bad", Stderr: "bad", ExitCode: &code, Outcome: "error"}),
			`{"exit_code":2,"hook_event":"PreToolUse","hook_id":"h1","hook_name":"./check.sh","outcome":"error","output":"bad","session_id":"s","stderr":"bad","stdout":"","subtype":"hook_response","type":"system","uuid":"U"}`},
	}
	uuidRE := regexp.MustCompile(`"uuid":"[0-9a-f-]{36}"`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			got := uuidRE.ReplaceAllString(string(b), `"uuid":"U"`)
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestWriterWritesEachLineWhole(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, Options{SessionID: "s-9"})
	if w.SessionID() != "s-9" {
		t.Errorf("SessionID = %q", w.SessionID())
	}
	w.Line(NewControlCancel("a"))
	w.Line(NewControlCancel("b"))
	if buf.String() != "{\"type\":\"control_cancel_request\",\"request_id\":\"a\"}\n{\"type\":\"control_cancel_request\",\"request_id\":\"b\"}\n" {
		t.Errorf("output %q", buf.String())
	}
}
