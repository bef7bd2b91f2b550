package hooks

import (
	"context"
	"strings"
	"testing"

	"reins/internal/settings"
)

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
