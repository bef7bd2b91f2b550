package settings

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Managed policy may be split into drop-in files beside the base file
// (/etc/claude-code/managed-settings.d/*.json): they are merged over the
// base in name order, so a later name wins a scalar, arrays are pooled,
// and hidden or non-JSON files are left out.
func TestQA8ManagedDropInsMergeOverTheBaseInNameOrder(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	base := o.ManagedPaths[1]
	e.write(base, `{"model": "base-model", "cleanupPeriodDays": 5, "permissions": {"deny": ["Bash(rm:*)"]}}`)
	d := strings.TrimSuffix(base, ".json") + ".d"
	e.write(filepath.Join(d, "10-security.json"), `{"model": "ten-model", "permissions": {"deny": ["Read(./.env)"]}}`)
	e.write(filepath.Join(d, "90-override.json"), `{"model": "ninety-model"}`)
	e.write(filepath.Join(d, ".hidden.json"), `{"model": "hidden-model", "permissions": {"deny": ["WebFetch"]}}`)
	e.write(filepath.Join(d, "notes.txt"), `not json at all`)
	e.write(filepath.Join(e.home, ".claude", "settings.json"), `{"model": "user-model", "cleanupPeriodDays": 9}`)

	s, warns := e.load(o)
	if len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	if s.Model != "ninety-model" {
		t.Errorf("model = %q, want the last drop-in's ninety-model", s.Model)
	}
	if s.CleanupPeriodDays != 5 {
		t.Errorf("cleanupPeriodDays = %d, want the base file's 5 (no drop-in sets it)", s.CleanupPeriodDays)
	}
	var deny []string
	for _, r := range s.RulesFor(Deny) {
		if r.Source != SourcePolicy {
			t.Errorf("rule %s has source %s, want policy", r.Text, r.Source)
		}
		deny = append(deny, r.Text)
	}
	got := strings.Join(deny, " ")
	for _, want := range []string{"Bash(rm:*)", "Read(./.env)"} {
		if !strings.Contains(got, want) {
			t.Errorf("deny rules %q lack %s", got, want)
		}
	}
	if strings.Contains(got, "WebFetch") {
		t.Errorf("deny rules %q hold the hidden drop-in's rule", got)
	}
}

// A drop-in that does not parse stops the run like a broken base file:
// policy fails closed.
func TestQA8BrokenManagedDropInFailsClosed(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	d := strings.TrimSuffix(o.ManagedPaths[1], ".json") + ".d"
	bad := e.write(filepath.Join(d, "50-team.json"), `{"permissions": {"deny": [}`)
	_, _, err := Load(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("Load error = %v, want one naming %s", err, bad)
	}
}

// REINS_MANAGED_SETTINGS_DIR supplies the managed policy (base file and
// drop-ins) when none is installed at the default paths.
func TestQA8ManagedDirFromEnvironment(t *testing.T) {
	for _, p := range DefaultManagedPaths {
		for _, q := range []string{p, dropInDir(p)} {
			if _, err := os.Lstat(q); err == nil {
				t.Skipf("a managed policy is installed at %s", q)
			}
		}
	}
	e := newEnv(t)
	dir := filepath.Join(t.TempDir(), "policy")
	e.write(filepath.Join(dir, "managed-settings.json"), `{"permissions": {"disableBypassPermissionsMode": "disable"}}`)
	e.write(filepath.Join(dir, "managed-settings.d", "a.json"), `{"allowManagedPermissionRulesOnly": true, "permissions": {"allow": ["Bash(make:*)"]}}`)
	e.write(filepath.Join(e.project, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(npm test)"]}}`)
	o := e.opts()
	o.ManagedPaths = nil
	o.Getenv = func(k string) string {
		if k == ManagedDirEnv {
			return dir
		}
		return ""
	}
	s, warns := e.load(o)
	if len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	if !s.DisableBypassPermissions || !s.ManagedRulesOnly {
		t.Errorf("DisableBypassPermissions = %v, ManagedRulesOnly = %v; want both from the folder's policy", s.DisableBypassPermissions, s.ManagedRulesOnly)
	}
	allow := s.RulesFor(Allow)
	if len(allow) != 1 || allow[0].Text != "Bash(make:*)" || allow[0].Source != SourcePolicy {
		t.Errorf("allow rules = %+v, want only the managed Bash(make:*)", allow)
	}
}

// allowManagedPermissionRulesOnly and allowManagedHooksOnly are managed
// policy keys: written in a user or project file they do nothing, and the
// user is told so instead of believing the project is locked down.
func TestQA8ManagedOnlyKeysOutsidePolicyAreWarnedAbout(t *testing.T) {
	e := newEnv(t)
	file := e.write(filepath.Join(e.project, ".claude", "settings.json"), `{
  "allowManagedPermissionRulesOnly": true,
  "allowManagedHooksOnly": true,
  "permissions": {"allow": ["Bash(make:*)"]}
}`)
	s, warns := e.load(e.opts())
	if s.ManagedRulesOnly {
		t.Error("a project file set ManagedRulesOnly")
	}
	if len(s.RulesFor(Allow)) != 1 {
		t.Errorf("allow rules = %v, want the project's rule kept", s.RulesFor(Allow))
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{file + ":2:38: allowManagedPermissionRulesOnly counts in managed settings only", file + ":3:28: allowManagedHooksOnly counts in managed settings only"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", all, want)
		}
	}
}

// A settings.local.json that saving a rule creates is kept out of git, as
// Claude Code keeps it: its path goes into the repository's
// .git/info/exclude (once), so "don't ask again" rules are not committed
// by accident. A repository that ignores it already is left alone.
func TestQA8NewLocalSettingsFileIsExcludedFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	local := filepath.Join(repo, "app", ".claude", "settings.local.json")
	for range 2 {
		if err := AddRules(local, Allow, []string{"Bash(make:*)"}); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(ex), "/app/.claude/settings.local.json\n"); n != 1 {
		t.Errorf("exclude file holds the path %d times:\n%s", n, ex)
	}
	out, err := exec.Command("git", "-C", repo, "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "settings.local.json") {
		t.Errorf("git status still lists the file:\n%s", out)
	}

	// Ignored already by the project's .gitignore: nothing is added.
	repo2 := t.TempDir()
	if out, err := exec.Command("git", "-C", repo2, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(repo2, ".gitignore"), []byte("settings.local.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(repo2, ".git", "info", "exclude"))
	if err := AddRules(filepath.Join(repo2, ".claude", "settings.local.json"), Allow, []string{"Read"}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(repo2, ".git", "info", "exclude"))
	if !bytes.Equal(before, after) {
		t.Errorf("exclude file changed although .gitignore ignores the file:\n%s", after)
	}
}
