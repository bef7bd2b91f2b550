package hooks

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func ok(stdout string) Output { return Output{Name: "h", Stdout: stdout} }

func TestAggregate(t *testing.T) {
	tests := []struct {
		name string
		ev   Event
		outs []Output
		want Result
	}{
		{"nothing", PreToolUse, nil, Result{}},
		{"exit 0 plain stdout is ignored for tool events", PreToolUse, []Output{ok("hello")}, Result{}},
		{"exit 0 plain stdout is context for UserPromptSubmit", UserPromptSubmit, []Output{ok("today is Monday\n")},
			Result{AdditionalContext: []string{"today is Monday"}}},
		{"exit 0 plain stdout is context for SessionStart", SessionStart, []Output{ok("branch main")},
			Result{AdditionalContext: []string{"branch main"}}},
		{"exit 2 blocks with stderr", PreToolUse, []Output{{Name: "h", ExitCode: 2, Stderr: "no rm please\n", Stdout: `{"continue": false}`}},
			Result{Block: true, Reason: "no rm please"}},
		{"exit 2 without stderr still blocks", Stop, []Output{{Name: "check.sh", ExitCode: 2}},
			Result{Block: true, Reason: `Stop hook "check.sh" blocked this (exit 2) without a message`}},
		{"two blocks join", Stop, []Output{{Name: "a", ExitCode: 2, Stderr: "tests fail"}, {Name: "b", ExitCode: 2, Stderr: "lint fails"}},
			Result{Block: true, Reason: "tests fail\nlint fails"}},
		{"other exit codes are user errors", PostToolUse, []Output{{Name: "h", ExitCode: 1, Stderr: "oops"}},
			Result{Errors: []string{`PostToolUse hook "h" failed with exit code 1: oops`}}},
		{"timeout is a user error", Notification, []Output{{Name: "slow", TimedOut: true, ExitCode: -1}},
			Result{Errors: []string{`Notification hook "slow" timed out after 0s and was stopped`}}},
		{"continue false stops", PostToolUse, []Output{ok(`{"continue": false, "stopReason": "enough", "systemMessage": "hi"}`)},
			Result{Stop: true, StopReason: "enough", SystemMessages: []string{"hi"}}},
		{"suppressOutput", PostToolUse, []Output{ok(`{"suppressOutput": true}`)}, Result{SuppressOutput: true}},
		{"pre deny wins over allow", PreToolUse, []Output{
			ok(`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "fine"}}`),
			ok(`{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "not on main"}}`),
			ok(`{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "hmm"}}`)},
			Result{Decision: DecisionDeny, DecisionReason: "not on main"}},
		{"pre ask beats allow", PreToolUse, []Output{
			ok(`{"hookSpecificOutput": {"permissionDecision": "allow"}}`),
			ok(`{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "check"}}`)},
			Result{Decision: DecisionAsk, DecisionReason: "check"}},
		{"legacy approve and block", PreToolUse, []Output{ok(`{"decision": "approve", "reason": "ok"}`), ok(`{"decision": "block", "reason": "bad"}`)},
			Result{Decision: DecisionDeny, DecisionReason: "bad"}},
		{"updatedInput merges in order", PreToolUse, []Output{
			ok(`{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls", "timeout": 5}}}`),
			ok(`{"hookSpecificOutput": {"updatedInput": {"command": "ls -la"}}}`)},
			Result{Decision: DecisionAllow, UpdatedInput: json.RawMessage(`{"command":"ls -la","timeout":5}`)}},
		{"additionalContext", PostToolUse, []Output{ok(`{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "file is generated"}}`)},
			Result{AdditionalContext: []string{"file is generated"}}},
		{"post decision block", PostToolUse, []Output{ok(`{"decision": "block", "reason": "formatting is off"}`)},
			Result{Block: true, Reason: "formatting is off"}},
		{"stop block needs a reason", Stop, []Output{ok(`{"decision": "block"}`)},
			Result{Errors: []string{`Stop hook "h" said decision "block" without the required reason; ignored`}}},
		{"stop block with reason", SubagentStop, []Output{ok(`{"decision": "block", "reason": "run the tests"}`)},
			Result{Block: true, Reason: "run the tests"}},
		{"prompt block", UserPromptSubmit, []Output{ok(`{"decision": "block", "reason": "no secrets in prompts"}`)},
			Result{Block: true, Reason: "no secrets in prompts"}},
		{"wrong event name is ignored", PreToolUse, []Output{ok(`{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}`)},
			Result{Errors: []string{`PreToolUse hook "h" answered for event "PostToolUse"; its hookSpecificOutput is ignored`}}},
		{"broken JSON is an error", PreToolUse, []Output{ok(`{"decision": `)},
			Result{Errors: []string{`PreToolUse hook "h" printed output that is not valid hook JSON: unexpected EOF`}}},
		{"unknown decision", PreToolUse, []Output{ok(`{"hookSpecificOutput": {"permissionDecision": "maybe"}}`)},
			Result{Errors: []string{`PreToolUse hook "h" gave an unknown permissionDecision "maybe"; ignored`}}},
		{"permission request deny beats allow", PermissionRequest, []Output{
			ok(`{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "nope", "interrupt": true}}}`),
			ok(`{"hookSpecificOutput": {"decision": {"behavior": "allow"}}}`)},
			Result{Permission: &PermissionAnswer{Behavior: "deny", Message: "nope", Interrupt: true}}},
		{"permission request allow with input", PermissionRequest, []Output{
			ok(`{"hookSpecificOutput": {"decision": {"behavior": "allow", "updatedInput": {"x": 1}}}}`)},
			Result{Permission: &PermissionAnswer{Behavior: "allow", UpdatedInput: json.RawMessage(`{"x": 1}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Aggregate(tt.ev, tt.outs)
			got.Outputs = nil
			tt.want.Event = tt.ev
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Aggregate =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestAggregateIsPure(t *testing.T) {
	outs := []Output{ok(`{"hookSpecificOutput": {"updatedInput": {"a": 1}}}`), {Name: "x", ExitCode: 2, Stderr: "no"}}
	a, b := Aggregate(PreToolUse, outs), Aggregate(PreToolUse, outs)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same outputs gave different results")
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		matcher, value string
		want           bool
	}{
		{"", "Bash", true},
		{"*", "mcp__x__y", true},
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"Edit|Write", "Write", true},
		{"Edit|Write", "MultiEdit", false},
		{"Notebook.*", "NotebookEdit", true},
		{"^Notebook.*", "XNotebookEdit", false},
		{"mcp__memory__.*", "mcp__memory__create", true},
		{"mcp__memory__.*", "mcp__github__x", false},
		{"startup|resume", "resume", true},
		{"(unclosed", "(unclosed", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.matcher, tt.value); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.matcher, tt.value, got, tt.want)
		}
	}
}

func TestInputJSONFieldsPerEvent(t *testing.T) {
	common := []string{"cwd", "hook_event_name", "permission_mode", "session_id", "transcript_path"}
	tests := []struct {
		in   Input
		want []string
	}{
		{Input{Event: PreToolUse, ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`), ToolUseID: "t1"},
			[]string{"tool_input", "tool_name", "tool_use_id"}},
		{Input{Event: PostToolUse, ToolName: "Bash", ToolUseID: "t1", ToolResponse: map[string]any{"stdout": "x"}},
			[]string{"tool_input", "tool_name", "tool_response", "tool_use_id"}},
		{Input{Event: PostToolUseFailure, ToolName: "Bash", Error: "boom", IsInterrupt: true},
			[]string{"error", "is_interrupt", "tool_input", "tool_name"}},
		{Input{Event: PermissionRequest, ToolName: "Bash", PermissionSuggestions: []any{}},
			[]string{"permission_suggestions", "tool_input", "tool_name"}},
		{Input{Event: UserPromptSubmit, Prompt: "hi"}, []string{"prompt"}},
		{Input{Event: Notification, Message: "m", Title: "t", NotificationType: "permission_prompt"},
			[]string{"message", "notification_type", "title"}},
		{Input{Event: Stop}, []string{"stop_hook_active", "session_crons"}},
		{Input{Event: SubagentStart, AgentID: "a1", AgentType: "explorer"}, []string{"agent_id", "agent_type"}},
		{Input{Event: SubagentStop, AgentID: "a1", AgentType: "explorer", AgentTranscriptPath: "/t", StopHookActive: true, LastAssistantMessage: "done"},
			[]string{"agent_id", "agent_transcript_path", "agent_type", "last_assistant_message", "stop_hook_active"}},
		{Input{Event: PreCompact, Trigger: "manual"}, []string{"custom_instructions", "trigger"}},
		{Input{Event: SessionStart, Source: "startup", Model: "m"}, []string{"model", "source"}},
		{Input{Event: SessionEnd, Reason: "other"}, []string{"reason"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.in.Event), func(t *testing.T) {
			in := tt.in
			in.SessionID, in.TranscriptPath, in.Cwd, in.PermissionMode = "s", "/t.jsonl", "/p", "default"
			var m map[string]any
			if err := json.Unmarshal(in.JSON(), &m); err != nil {
				t.Fatal(err)
			}
			want := append(append([]string{}, common...), tt.want...)
			var got []string
			for k := range m {
				got = append(got, k)
			}
			if !sameSet(got, want) {
				t.Errorf("keys = %v, want %v", got, want)
			}
			if m["hook_event_name"] != string(in.Event) {
				t.Errorf("hook_event_name = %v", m["hook_event_name"])
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestStopHookActiveIsAlwaysSent(t *testing.T) {
	in := Input{Event: Stop}
	if !strings.Contains(string(in.JSON()), `"stop_hook_active":false`) {
		t.Errorf("JSON = %s", in.JSON())
	}
}
