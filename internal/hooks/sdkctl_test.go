package hooks

import (
	"strings"
	"testing"

	"reins/internal/settings"
)

func TestSetCommandHooksReplacesOneSourcesCommandHooks(t *testing.T) {
	cmd := func(c string, src settings.Source) settings.HookMatcher {
		return settings.HookMatcher{Matcher: "Bash", Source: src, Hooks: []settings.HookSpec{{Type: "command", Command: c}}}
	}
	r := New(Config{ProjectDir: t.TempDir(), Hooks: map[string][]settings.HookMatcher{
		"PreToolUse": {cmd("echo user", settings.SourceUser), cmd("echo old-flag", settings.SourceFlag)},
	}})
	r.Add(Hook{Event: PreToolUse, Key: "sdk:hook_0", Name: "hook_0", Source: settings.SourceFlag})
	r.SetCommandHooks(settings.SourceFlag, map[string][]settings.HookMatcher{
		"PreToolUse":  {cmd("echo user", settings.SourceUser), cmd("echo new-flag", settings.SourceFlag)},
		"PostToolUse": {cmd("echo post", settings.SourceFlag)},
	})
	var names []string
	for _, h := range r.Matching(&Input{Event: PreToolUse, ToolName: "Bash"}) {
		names = append(names, h.Name)
	}
	want := "echo user,hook_0,echo new-flag"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("PreToolUse hooks %s, want %s", got, want)
	}
	if !r.Has(PostToolUse) {
		t.Error("the new flag layer's PostToolUse hook is missing")
	}
	if n := r.Remove(func(h Hook) bool { return h.Key == "sdk:hook_0" }); n != 1 || len(r.Matching(&Input{Event: PreToolUse, ToolName: "Bash"})) != 2 {
		t.Errorf("Remove dropped %d hooks, want the one callback", n)
	}
}
