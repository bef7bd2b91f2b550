package hooks

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"reins/internal/settings"
)

// Exit 2 does not deny a permission (Claude Code does not honour it on
// PermissionRequest): no block, no answer, and a warning that says how to
// deny.
func TestPermissionRequestExit2DoesNotDeny(t *testing.T) {
	r := Aggregate(PermissionRequest, []Output{{Name: "deny.sh", ExitCode: 2, Stderr: "no"}})
	if r.Block || r.Permission != nil {
		t.Fatalf("result %+v, want neither a block nor a permission answer", r)
	}
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], `"behavior": "deny"`) || !strings.Contains(r.Errors[0], "deny.sh") {
		t.Errorf("errors %q, want one warning naming the hook and how to deny", r.Errors)
	}
}

// A hook that prints hook JSON decides by it whatever its exit code: a
// denial printed by a script that exits 1 still denies.
func TestNonZeroExitWithHookJSONDecides(t *testing.T) {
	r := Aggregate(PreToolUse, []Output{{Name: "h", ExitCode: 1, Stderr: "warn",
		Stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not on main"}}`}})
	if r.Decision != DecisionDeny || r.DecisionReason != "not on main" || len(r.Errors) != 0 {
		t.Errorf("result %+v, want the JSON's denial and no error", r)
	}
	// Without JSON it stays a non-blocking error.
	r = Aggregate(PreToolUse, []Output{{Name: "h", ExitCode: 1, Stderr: "warn", Stdout: "not json"}})
	if r.Decision != DecisionNone || len(r.Errors) != 1 {
		t.Errorf("result %+v, want one error and no decision", r)
	}
}

// Exit 2 with hook JSON blocks with the JSON's reason rather than stderr.
func TestExit2TakesTheJSONReason(t *testing.T) {
	r := Aggregate(PreToolUse, []Output{{Name: "h", ExitCode: 2, Stderr: "debug noise",
		Stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "use rg, not grep"}}`}})
	if !r.Block || r.Reason != "use rg, not grep" || r.Decision != DecisionNone {
		t.Errorf("result %+v, want a block with the JSON's reason (allow cannot override exit 2)", r)
	}
}

// Prompt and agent hooks on PermissionRequest are refused when loaded:
// Claude Code gives their answer no effect there (agent hooks are
// skipped), so they could neither allow nor deny.
func TestPromptHooksOnPermissionRequestAreRefused(t *testing.T) {
	for _, typ := range []string{"prompt", "agent"} {
		msg := settings.HookSpec{Type: typ, Prompt: "Is $ARGUMENTS safe?"}.Problem("PermissionRequest")
		if !strings.Contains(msg, "cannot allow or deny") || !strings.Contains(msg, "command hook") {
			t.Errorf("%s hook problem %q, want it to say the hook cannot decide and what to use", typ, msg)
		}
	}
	if msg := (settings.HookSpec{Type: "prompt", Prompt: "ok?"}).Problem("PreToolUse"); msg != "" {
		t.Errorf("PreToolUse prompt hook problem %q, want none", msg)
	}
}

// An asyncRewake hook that exits 2 leaves its report for TakeRewakes and
// calls OnRewake; a plain async hook's exit 2 wakes nothing.
func TestAsyncRewakeExit2IsKeptForTheModel(t *testing.T) {
	woken := make(chan struct{}, 4)
	cfg := specRunner(PostToolUse,
		settings.HookSpec{Type: "command", AsyncRewake: true, Command: `echo "2 tests fail" >&2; exit 2`},
		settings.HookSpec{Type: "command", Async: true, Command: `echo "plain async" >&2; exit 2`})
	cfg.ProjectDir = t.TempDir()
	cfg.OnRewake = func() { woken <- struct{}{} }
	r := New(cfg)
	res := r.Run(context.Background(), inputFor(PostToolUse))
	if res.Block || len(res.Outputs) != 0 {
		t.Errorf("the run's result %+v holds a background hook's output", res)
	}
	r.Close(time.Hour)
	if len(woken) != 1 {
		t.Errorf("OnRewake called %d times, want 1", len(woken))
	}
	got := r.TakeRewakes()
	if len(got) != 1 || !strings.Contains(got[0], "2 tests fail") || !strings.Contains(got[0], "PostToolUse") || strings.Contains(got[0], "plain async") {
		t.Fatalf("TakeRewakes = %q, want the asyncRewake hook's report only", got)
	}
	if again := r.TakeRewakes(); len(again) != 0 {
		t.Errorf("TakeRewakes again = %q, want nothing", again)
	}
}

// The new events send their own fields with Claude Code's names, and
// UserPromptExpansion matchers select on the command name while
// CwdChanged runs every hook.
func TestCwdChangedAndUserPromptExpansionInputs(t *testing.T) {
	cwd := Input{Event: CwdChanged, OldCwd: "/p", NewCwd: "/p/sub"}
	var m map[string]any
	_ = json.Unmarshal(cwd.JSON(), &m)
	if m["old_cwd"] != "/p" || m["new_cwd"] != "/p/sub" || m["hook_event_name"] != "CwdChanged" {
		t.Errorf("CwdChanged input %v", m)
	}
	exp := Input{Event: UserPromptExpansion, ExpansionType: "slash_command", CommandName: "deploy", CommandArgs: "prod",
		CommandSource: "project", Prompt: "/deploy prod"}
	m = nil
	_ = json.Unmarshal(exp.JSON(), &m)
	if m["expansion_type"] != "slash_command" || m["command_name"] != "deploy" || m["command_args"] != "prod" ||
		m["command_source"] != "project" || m["prompt"] != "/deploy prod" {
		t.Errorf("UserPromptExpansion input %v", m)
	}
	if exp.MatchValue() != "deploy" || CwdChanged.usesMatcher() {
		t.Errorf("match value %q, CwdChanged uses a matcher: %v", exp.MatchValue(), CwdChanged.usesMatcher())
	}
	r := Aggregate(UserPromptExpansion, []Output{{Name: "h", Stdout: "checklist v2"}})
	if len(r.AdditionalContext) != 1 || r.AdditionalContext[0] != "checklist v2" {
		t.Errorf("plain stdout of a UserPromptExpansion hook: %+v, want it as context", r)
	}
}

// A matcher that lists names with commas (and spaces) selects exactly
// those names, as Claude Code reads it; it used to be taken for a regular
// expression that selected nothing.
func TestMatcherListWithCommas(t *testing.T) {
	for _, tt := range []struct {
		matcher, value string
		want           bool
	}{
		{"Edit, Write", "Write", true},
		{"Edit,Write", "Edit", true},
		{"Edit, Write | Bash", "Bash", true},
		{"Edit, Write", "Read", false},
		{"Edit, Write", "Edit, Write", false},
		{"mcp__memory", "mcp__memory__create", false},
		{"mcp__.*", "mcp__memory__create", true},
		{"", "anything", true},
		{"*", "anything", true},
	} {
		if got := Matches(tt.matcher, tt.value); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.matcher, tt.value, got, tt.want)
		}
	}
}
