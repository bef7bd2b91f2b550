package hooks

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A hook that prints JSON with a field of the wrong type is told which
// field and what it must be, in the hook's terms (not "Go struct field
// hookJSON.decision of type string").
func TestHookJSONOfTheWrongTypeNamesTheField(t *testing.T) {
	cases := map[string]string{
		`{"decision": 5}`:    `field decision must be a string, not a JSON number`,
		`{"continue": "no"}`: `field continue must be true or false, not a JSON string`,
		`{"hookSpecificOutput": {"permissionDecision": true}}`:  `field hookSpecificOutput.permissionDecision must be a string, not a JSON bool`,
		`{"hookSpecificOutput": "allow"}`:                       `field hookSpecificOutput must be an object, not a JSON string`,
		`{"hookSpecificOutput": {"decision": {"behavior": 1}}}`: `field hookSpecificOutput.decision.behavior must be a string, not a JSON number`,
	}
	for stdout, want := range cases {
		r := Aggregate(PreToolUse, []Output{{Name: "check", Stdout: stdout}})
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], want) || strings.Contains(r.Errors[0], "Go ") {
			t.Errorf("%s: errors %q, want one containing %q", stdout, r.Errors, want)
		}
		if r.Decision != "" || r.Block {
			t.Errorf("%s: the bad output decided %q (block %v)", stdout, r.Decision, r.Block)
		}
	}
}

// FuzzAggregate feeds arbitrary hook output through Aggregate: it never
// panics, a blocking exit always blocks, and its messages are valid text.
func FuzzAggregate(f *testing.F) {
	for _, s := range []string{
		"", "plain text", "{", `{"decision":"block","reason":"no"}`, `{"decision": 5}`,
		`{"continue": false, "stopReason": "halt", "systemMessage": "hi"}`,
		`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "r", "updatedInput": {"a": 1}}}`,
		`{"hookSpecificOutput": {"decision": {"behavior": "allow", "updatedInput": [1]}}}`,
		`{"a":1} trailing`, "{\"decision\":\"approve\"}\n{}",
		`{"hookSpecificOutput": {"worktreePath": "/w", "watchPaths": ["/a", 3], "sessionTitle": "t", "initialUserMessage": "m"}}`,
		"noise\n\x1b[32m/tmp/wt\x1b[0m\n", `{"hookSpecificOutput": {"permissionDecision": "defer"}}`,
	} {
		for _, code := range []int{0, 1, 2} {
			f.Add(s, "stderr text", code, uint8(0))
		}
	}
	events := []Event{PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop, SubagentStop, PermissionRequest, Notification,
		WorktreeCreate, WorktreeRemove, Setup, FileChanged, CwdChanged}
	f.Fuzz(func(t *testing.T, stdout, stderr string, code int, ev uint8) {
		event := events[int(ev)%len(events)]
		r := Aggregate(event, []Output{{Name: "h", Stdout: stdout, Stderr: stderr, ExitCode: code}})
		if code == 2 && event != PermissionRequest && !r.Block {
			t.Errorf("exit 2 did not block: %+v", r)
		}
		if utf8.ValidString(stdout) && utf8.ValidString(stderr) {
			for _, e := range r.Errors {
				if !utf8.ValidString(e) {
					t.Errorf("error message is not valid UTF-8: %q", e)
				}
			}
		}
	})
}
