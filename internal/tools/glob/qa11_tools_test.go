package glob

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"reins/internal/tool"
)

// By default Glob lists gitignored files and dotfiles, as Claude Code's
// does; CLAUDE_CODE_GLOB_NO_IGNORE=false honours ignore files and
// CLAUDE_CODE_GLOB_HIDDEN=false leaves dotfiles out. Version-control
// folders stay out either way, and the description says what is left out.
func TestGlobListsIgnoredAndHiddenFilesUnlessTheEnvironmentSaysNot(t *testing.T) {
	dir := fixture(t, ".git/HEAD", ".gitignore", "a.go", "dist/e.go", ".hidden/h.go", "x.log")
	for _, tt := range []struct {
		env  map[string]string
		want string
		says string
	}{
		{nil, ".hidden/h.go\ndist/e.go\na.go", "files listed in .gitignore and hidden files are included"},
		{map[string]string{NoIgnoreEnv: "true", HiddenEnv: "1"}, ".hidden/h.go\ndist/e.go\na.go", "files listed in .gitignore and hidden files are included"},
		{map[string]string{NoIgnoreEnv: "false"}, ".hidden/h.go\na.go", "Files listed in .gitignore and version-control folders are left out"},
		{map[string]string{HiddenEnv: "0"}, "dist/e.go\na.go", "Hidden files and version-control folders are left out"},
		{map[string]string{NoIgnoreEnv: "no", HiddenEnv: "FALSE"}, "a.go", "hidden files and version-control folders are left out"},
	} {
		opts := EnvOptions(func(k string) string { return tt.env[k] })
		r, err := runWith(t, opts, dir, `{"pattern":"**/*.go"}`)
		if err != nil {
			t.Fatalf("%v: %v", tt.env, err)
		}
		if got := r.Content[0].Text; got != tt.want {
			t.Errorf("%v: **/*.go = %q, want %q", tt.env, got, tt.want)
		}
		if d := (&Tool{Options: opts}).Description(); !strings.Contains(d, tt.says) || strings.Contains(d, "{{") {
			t.Errorf("%v: description does not say %q:\n%s", tt.env, tt.says, d)
		}
	}
}

// A search that runs past its time limit (20 seconds, or
// CLAUDE_CODE_GLOB_TIMEOUT_SECONDS) answers with the files found by then
// and says it stopped early, instead of running on; one the user
// cancels still fails.
func TestGlobPastItsTimeLimitSaysItStoppedEarly(t *testing.T) {
	if o := EnvOptions(func(k string) string { return map[string]string{TimeoutEnv: "45"}[k] }); o.Timeout != 45*time.Second {
		t.Errorf("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS=45 gives %v", o.Timeout)
	}
	for _, bad := range []string{"0", "-3", "1.5", "soon"} {
		if o := EnvOptions(func(k string) string { return map[string]string{TimeoutEnv: bad}[k] }); o.Timeout != 0 {
			t.Errorf("CLAUDE_CODE_GLOB_TIMEOUT_SECONDS=%s gives %v, want the default", bad, o.Timeout)
		}
	}
	dir := fixture(t, "a.go", "src/b.go")
	r, err := runWith(t, Options{Timeout: time.Nanosecond}, dir, `{"pattern":"**/*.go"}`)
	if err != nil {
		t.Fatalf("a search past its limit failed: %v", err)
	}
	if got := r.Content[0].Text; !strings.Contains(got, "The search stopped after") || !r.Data.(*Output).Truncated {
		t.Errorf("result = %q, truncated %v; want the note that it stopped early", got, r.Data.(*Output).Truncated)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw := json.RawMessage(`{"pattern":"**/*.go"}`)
	if _, err := (&Tool{}).Call(ctx, &tool.Call{ID: "toolu_1", Name: Name, Cwd: dir}, raw, nil); err == nil {
		t.Error("a cancelled search did not fail")
	}
}
