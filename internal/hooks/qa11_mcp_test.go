package hooks

import (
	"encoding/json"
	"reflect"
	"testing"
)

// An Elicitation hook is told what the MCP server asks, with Claude
// Code's field names, and matched by the server's name; an
// ElicitationResult hook is told the answer (no content key when there
// is none).
func TestElicitationHookInputs(t *testing.T) {
	in := Input{Event: Elicitation, SessionID: "s", MCPServerName: "db", Message: "Which table?", Mode: "form",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"t":{"type":"string"}}}`)}
	var got map[string]any
	if err := json.Unmarshal(in.JSON(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"session_id": "s", "transcript_path": "", "cwd": "", "hook_event_name": "Elicitation",
		"mcp_server_name": "db", "message": "Which table?", "mode": "form",
		"requested_schema": map[string]any{"type": "object", "properties": map[string]any{"t": map[string]any{"type": "string"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Elicitation input %v\nwant %v", got, want)
	}
	if in.MatchValue() != "db" {
		t.Errorf("matched against %q; want the server's name", in.MatchValue())
	}
	res := Input{Event: ElicitationResult, MCPServerName: "db", Mode: "form", Action: "cancel"}
	got = nil
	if err := json.Unmarshal(res.JSON(), &got); err != nil {
		t.Fatal(err)
	}
	if got["action"] != "cancel" || got["mcp_server_name"] != "db" || got["mode"] != "form" {
		t.Errorf("ElicitationResult input %v", got)
	}
	if _, ok := got["content"]; ok {
		t.Errorf("a cancel has a content key: %v", got)
	}
}

// A hook may answer in the user's place (hookSpecificOutput action and
// content); a hook that declines is not overruled by one that accepts;
// an unknown action is warned about and ignored.
func TestElicitationHookAnswers(t *testing.T) {
	accept := `{"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", "content": {"t": "users"}}}`
	r := Aggregate(Elicitation, []Output{{Name: "a", Stdout: accept}})
	if r.Elicitation == nil || r.Elicitation.Action != "accept" || r.Elicitation.Content["t"] != "users" {
		t.Fatalf("answer %+v; want accept with the content", r.Elicitation)
	}
	r = Aggregate(ElicitationResult, []Output{
		{Name: "d", Stdout: `{"hookSpecificOutput": {"hookEventName": "ElicitationResult", "action": "decline"}}`},
		{Name: "a", Stdout: `{"hookSpecificOutput": {"hookEventName": "ElicitationResult", "action": "accept", "content": {}}}`},
	})
	if r.Elicitation == nil || r.Elicitation.Action != "decline" {
		t.Errorf("answer %+v; want the decline to hold", r.Elicitation)
	}
	r = Aggregate(Elicitation, []Output{{Name: "x", Stdout: `{"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "maybe"}}`}})
	if r.Elicitation != nil || len(r.Errors) != 1 {
		t.Errorf("unknown action: answer %+v, errors %q; want none and one warning", r.Elicitation, r.Errors)
	}
	r = Aggregate(Elicitation, []Output{{Name: "no", ExitCode: 2, Stderr: "not here"}})
	if !r.Block {
		t.Errorf("exit 2: %+v; want a block (the caller declines)", r)
	}
}
