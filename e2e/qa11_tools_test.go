package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR=1, set in the settings' env,
// sends the shell back to the project folder after every command, as in
// Claude Code: a cd lasts for its own command only.
func TestQA11MaintainProjectWorkingDirUndoesCdAfterEachCommand(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "sub/marker.txt", "x\n")
	sb.Write(t, ".claude/settings.json", `{"env": {"CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR": "1"}}`)
	srv.Add(
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "cd sub && ls"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "pwd"})),
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "look around", "--permission-mode", "bypassPermissions")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if got := reqs[1].ToolResults()[0].ResultText(); got != "marker.txt" {
		t.Errorf("cd sub && ls = %q, want marker.txt", got)
	}
	dir, _ := filepath.EvalSymlinks(sb.Dir)
	if got := reqs[2].ToolResults()[0].ResultText(); got != dir && got != sb.Dir {
		t.Errorf("pwd after cd = %q, want the project folder %s", got, dir)
	}
}

// Glob lists gitignored files unless CLAUDE_CODE_GLOB_NO_IGNORE=false
// (here in the settings' env) says to honour ignore files.
func TestQA11GlobListsIgnoredFilesUnlessTheSettingsSayNot(t *testing.T) {
	for _, tt := range []struct {
		settings string
		want     string
	}{
		{`{}`, "build/out.js\nsrc/app.js"},
		{`{"env": {"CLAUDE_CODE_GLOB_NO_IGNORE": "false"}}`, "src/app.js"},
	} {
		srv := server(t)
		sb := e2etest.NewSandbox(t, srv.URL)
		sb.Write(t, ".git/HEAD", "ref: refs/heads/main\n") // .gitignore counts in a repository
		sb.Write(t, ".gitignore", "build/\n")
		sb.Write(t, "src/app.js", "1\n")
		sb.Write(t, "build/out.js", "2\n")
		sb.Write(t, ".claude/settings.json", tt.settings)
		srv.Add(llmtest.Calls(llmtest.ToolUse("toolu_g", "Glob", map[string]any{"pattern": "**/*.js"})), llmtest.Reply("done"))
		r := sb.Run(t, "", "-p", "find the scripts", "--permission-mode", "bypassPermissions")
		if r.Code != 0 {
			t.Fatalf("code %d: %s", r.Code, r.Stderr)
		}
		got := srv.Requests()[1].ToolResults()[0].ResultText()
		lines := strings.Split(got, "\n")
		if strings.Join(slices.Sorted(slices.Values(lines)), "\n") != tt.want {
			t.Errorf("settings %s: Glob **/*.js = %q, want %q", tt.settings, got, tt.want)
		}
	}
}
