package hooks

import (
	"context"
	"strings"
	"testing"

	"reins/internal/settings"
)

// A matcher that is not a plain name or list of names is a regular
// expression matched anywhere in the name, as in Claude Code: "^Bash"
// selects BashOutput, "Output$" selects BashOutput, a partial MCP name
// selects the tools it begins.
func TestQAPermsRegexMatchersAreUnanchored(t *testing.T) {
	for _, tt := range []struct {
		matcher, value string
		want           bool
	}{
		{"^Bash", "BashOutput", true},
		{"Output$", "BashOutput", true},
		{"mcp__github__(create|update)", "mcp__github__create_issue", true},
		{"mcp__github__(create|update)", "mcp__github__get_issue", false},
		{"^Write$", "TodoWrite", false},
		{"Bash", "BashOutput", false},
		{"Edit|Write", "MultiEdit", false},
	} {
		if got := Matches(tt.matcher, tt.value); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.matcher, tt.value, got, tt.want)
		}
	}
}

// A hook that crashes (killed by a signal) is reported as such, not as
// "exit code -1: no message".
func TestQAPermsHookKilledBySignalIsNamed(t *testing.T) {
	r := New(Config{ProjectDir: t.TempDir(), Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {{Matcher: "Bash", Hooks: []settings.HookSpec{{Type: "command", Command: "kill -SEGV $$"}}}},
	}})
	res := r.Run(context.Background(), Input{Event: PreToolUse, ToolName: "Bash"})
	if res.Block || res.Decision != DecisionNone {
		t.Errorf("a crashed hook decided: %+v", res)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "killed by a signal (segmentation fault)") {
		t.Errorf("errors = %q", res.Errors)
	}
}

// A hook that starts a background process (which keeps its output open)
// and prints a deny decision still denies: its exit and output count.
func TestQAPermsHookThatLeavesABackgroundProcessStillDecides(t *testing.T) {
	dir := t.TempDir()
	r := New(Config{ProjectDir: dir, Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {{Matcher: "Bash", Hooks: []settings.HookSpec{{Type: "command",
			Command: `sleep 4 & echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"frozen branch"}}'`}}}},
	}})
	res := r.Run(context.Background(), Input{Event: PreToolUse, ToolName: "Bash"})
	if res.Decision != DecisionDeny || res.DecisionReason != "frozen branch" || len(res.Errors) > 0 {
		t.Errorf("result = decision %q reason %q errors %q, want the hook's deny", res.Decision, res.DecisionReason, res.Errors)
	}
}

// Input.Env reaches the run's command hooks as environment variables and
// is not part of the JSON on stdin.
func TestQAPermsInputEnvReachesCommandHooksOnly(t *testing.T) {
	r := New(Config{ProjectDir: t.TempDir(), Hooks: map[string][]settings.HookMatcher{
		"SessionStart": {{Hooks: []settings.HookSpec{{Type: "command", Command: `input=$(cat); case "$input" in *EXTRA_ONE*) echo leaked;; *) echo "$EXTRA_ONE";; esac`}}}},
	}})
	res := r.Run(context.Background(), Input{Event: SessionStart, Source: "startup", Env: []string{"EXTRA_ONE=seen"}})
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0] != "seen" {
		t.Errorf("context = %q, want the variable seen and not sent on stdin", res.AdditionalContext)
	}
	res = r.Run(context.Background(), Input{Event: SessionStart, Source: "startup"})
	if len(res.AdditionalContext) != 0 {
		t.Errorf("a later run without Env still saw it: %q", res.AdditionalContext)
	}
}
