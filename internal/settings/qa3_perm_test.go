package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A mistake in one field of permissions, hooks or env drops that field (or
// entry) only: the deny rules beside a mistyped allow list or defaultMode
// still apply, and the warning points at the field that was wrong.
func TestQAPermsOneBadFieldKeepsTheRestOfTheKey(t *testing.T) {
	e := newEnv(t)
	file := e.write(filepath.Join(e.project, ".claude", "settings.json"), `{
  "permissions": {
    "deny": ["Read(./secrets/**)", 7],
    "ask": "Bash(git push:*)",
    "allow": "Bash(npm test)",
    "defaultMode": "acceptEdit",
    "additionalDirectories": ["../shared"]
  },
  "env": {"GOOD": "1", "BAD": {"x": 1}, "NUM": 3},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]},
      {"matcher": "Edit", "hooks": "lint.sh"}
    ],
    "Stop": {"hooks": []}
  }
}`)
	s, w := e.load(e.opts())
	var rules []string
	for _, r := range s.Rules {
		rules = append(rules, string(r.Behavior)+" "+r.Text)
	}
	want := []string{"deny Read(./secrets/**)", "ask Bash(git push:*)"}
	if !slices.Equal(rules, want) {
		t.Errorf("rules = %q, want %q", rules, want)
	}
	if s.DefaultMode != "" {
		t.Errorf("defaultMode = %q, want the unknown mode ignored", s.DefaultMode)
	}
	if len(s.AdditionalDirectories) != 1 || s.AdditionalDirectories[0].Path != filepath.Join(filepath.Dir(e.project), "shared") {
		t.Errorf("additionalDirectories = %v", s.AdditionalDirectories)
	}
	if s.Env["GOOD"] != "1" || s.Env["NUM"] != "3" {
		t.Errorf("env = %v, want GOOD and NUM kept", s.Env)
	}
	if _, ok := s.Env["BAD"]; ok {
		t.Errorf("env = %v, want BAD dropped", s.Env)
	}
	if got := s.Hooks["PreToolUse"]; len(got) != 1 || got[0].Matcher != "Bash" {
		t.Errorf("PreToolUse hooks = %+v, want the Bash entry kept", got)
	}
	wantWarn := map[string]string{
		"3:36":  "permissions.deny[1]",
		"4:12":  "permissions.ask",
		"5:14":  "permissions.allow",
		"6:20":  `unknown mode "acceptEdit"`,
		"9:31":  "env.BAD",
		"13:36": "hooks.PreToolUse[1]",
		"15:13": "hooks.Stop",
	}
	if len(w) != len(wantWarn) {
		t.Errorf("warnings = %v, want %d", w, len(wantWarn))
	}
	for _, x := range w {
		pos := fmt.Sprintf("%d:%d", x.Line, x.Column)
		if x.File != file || !strings.Contains(x.Message, wantWarn[pos]) || wantWarn[pos] == "" {
			t.Errorf("unexpected warning %s", x)
		}
	}
}

// A hook entry written without the nested "hooks" list (the command
// straight in the matcher entry) runs nothing, and says so.
func TestQAPermsHookEntryWithoutHooksListIsWarned(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "type": "command", "command": "guard.sh"}]}}`)
	s, w := e.load(e.opts())
	if len(s.Hooks["PreToolUse"]) != 0 {
		t.Errorf("hooks = %+v", s.Hooks)
	}
	if len(w) != 1 || !strings.Contains(w[0].Message, `PreToolUse entry has no "hooks" list`) {
		t.Errorf("warnings = %v", w)
	}
}

// Each permission rule knows where it is written, so that a rule that
// does not parse (or never matches) can be reported at its line and
// column, also in a permissions object that had to be repaired.
func TestQAPermsRulesCarryTheirPosition(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{
  "permissions": {
    "allow": [
      "Bash(npm test)",
      "Bash(ls"
    ],
    "deny": [3, "Read(./.env)"]
  }
}`)
	s, _ := e.load(e.opts())
	got := map[string]string{}
	for _, r := range s.Rules {
		got[r.Text] = fmt.Sprintf("%d:%d", r.Line, r.Column)
	}
	want := map[string]string{"Bash(npm test)": "4:7", "Bash(ls": "5:7", "Read(./.env)": "7:17"}
	for text, pos := range want {
		if got[text] != pos {
			t.Errorf("rule %s at %s, want %s", text, got[text], pos)
		}
	}
}

// A settings file that is a symlink (into a dotfiles repository) is
// updated where it points; the link is kept.
func TestQAPermsAddRulesWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"model": "opus"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "proj", ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := AddRules(link, Allow, []string{"Bash(make *)"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	data, err := os.ReadFile(real)
	if err != nil || !strings.Contains(string(data), `"Bash(make *)"`) || !strings.Contains(string(data), `"opus"`) {
		t.Errorf("linked file = %s (%v)", data, err)
	}
}

// Saving a rule keeps the rest of the file as the user wrote it: the
// keys' order, and commands with && and > unescaped.
func TestQAPermsAddRulesKeepsOrderAndText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.local.json")
	if err := os.WriteFile(path, []byte(`{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "cd \"$CLAUDE_PROJECT_DIR\" && make fmt > /dev/null"}]}]},
  "permissions": {"deny": ["Read(./.env)"], "allow": ["Bash(npm test)"]}
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddRules(path, Allow, []string{"Bash(make lint && make test)"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	got := string(data)
	if strings.Contains(got, `\u0026`) || strings.Contains(got, `\u003e`) {
		t.Errorf("the file was escaped:\n%s", got)
	}
	for _, want := range []string{`make fmt > /dev/null`, `"Bash(make lint && make test)"`} {
		if !strings.Contains(got, want) {
			t.Errorf("file lacks %s:\n%s", want, got)
		}
	}
	order := []string{`"$schema"`, `"model"`, `"hooks"`, `"permissions"`, `"deny"`, `"allow"`, `"Bash(npm test)"`, `"Bash(make lint`}
	last := -1
	for _, k := range order {
		i := strings.Index(got, k)
		if i < last {
			t.Errorf("%s moved:\n%s", k, got)
		}
		last = i
	}
}

// A null in a higher source does not wipe what lower sources set: the
// user's env, model and defaultMode survive a project file that writes
// null for them, and the top-level nulls are warned about.
func TestQAPermsNullDoesNotWipeLowerSources(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"env": {"A": "1"}, "model": "opus", "permissions": {"defaultMode": "acceptEdits"}}`)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{"env": null, "model": null, "permissions": {"defaultMode": null}}`)
	s, w := e.load(e.opts())
	if s.Env["A"] != "1" || s.Model != "opus" || s.DefaultMode != "acceptEdits" {
		t.Errorf("env %v model %q defaultMode %q; want the user's", s.Env, s.Model, s.DefaultMode)
	}
	if len(w) != 2 || !strings.Contains(w[0].Message, "setting env is null") || !strings.Contains(w[1].Message, "setting model is null") {
		t.Errorf("warnings = %v", w)
	}
}
