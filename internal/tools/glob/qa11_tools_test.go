package glob

import (
	"strings"
	"testing"
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
