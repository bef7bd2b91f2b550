package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// managedInstalled reports whether a managed policy is installed on this
// machine, which would make reins ignore REINS_MANAGED_SETTINGS_DIR.
func managedInstalled(t *testing.T) {
	t.Helper()
	for _, p := range []string{"/etc/reins/managed-settings", "/etc/claude-code/managed-settings", "/Library/Application Support/ClaudeCode/managed-settings"} {
		for _, q := range []string{p + ".json", p + ".d"} {
			if _, err := os.Lstat(q); err == nil {
				t.Skipf("a managed policy is installed at %s", q)
			}
		}
	}
}

// printDenials runs a print-mode session and returns the tool_use ids
// of its permission_denials.
func printDenials(t *testing.T, r e2etest.Result) []string {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		PermissionDenials []struct {
			ToolName  string         `json:"tool_name"`
			ToolUseID string         `json:"tool_use_id"`
			ToolInput map[string]any `json:"tool_input"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("output is not one JSON object: %q", r.Stdout)
	}
	var ids []string
	for _, d := range res.PermissionDenials {
		if d.ToolName == "" || d.ToolInput == nil {
			t.Errorf("denial %+v lacks tool_name or tool_input", d)
		}
		ids = append(ids, d.ToolUseID)
	}
	return ids
}

// A managed policy split into drop-in files (managed-settings.d/*.json
// beside managed-settings.json, as Claude Code documents) applies whole:
// the base file's allow rule, a drop-in's deny rule and another drop-in's
// allowManagedPermissionRulesOnly, which sets the project's allow rules
// aside.
func TestQA8ManagedDropInsApplyInPrintMode(t *testing.T) {
	managedInstalled(t)
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch base.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "touch proj.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "touch denied.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	policy := filepath.Join(t.TempDir(), "policy")
	for name, body := range map[string]string{
		"managed-settings.json":                 `{"permissions": {"allow": ["Bash(touch base.txt)", "Bash(touch denied.txt)"]}}`,
		"managed-settings.d/10-security.json":   `{"permissions": {"deny": ["Bash(touch denied.txt)"]}}`,
		"managed-settings.d/20-rules-only.json": `{"allowManagedPermissionRulesOnly": true}`,
	} {
		p := filepath.Join(policy, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sb.Env = append(sb.Env, "REINS_MANAGED_SETTINGS_DIR="+policy)
	sb.Write(t, ".claude/settings.json", `{"permissions": {"allow": ["Bash(touch proj.txt)"]}}`)

	ids := printDenials(t, sb.Run(t, "", "-p", "make files", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_2,toolu_3" {
		t.Errorf("permission_denials = %v, want the project-allowed and the drop-in-denied touch", ids)
	}
	for name, want := range map[string]bool{"base.txt": true, "proj.txt": false, "denied.txt": false} {
		_, err := os.Stat(filepath.Join(sb.Dir, name))
		if (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", name, err == nil, want)
		}
	}
}

// apiKeyHelper is asked again once its key is older than
// CLAUDE_CODE_API_KEY_HELPER_TTL_MS (Claude Code's refresh interval,
// five minutes by default), not only after a 401: a rotating short-lived
// key reaches the later requests of a long session.
func TestQA8APIKeyHelperRefreshesAfterItsTTL(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo one"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	var env []string
	for _, e := range sb.Env {
		if !strings.HasPrefix(e, "ANTHROPIC_API_KEY=") {
			env = append(env, e)
		}
	}
	sb.Env = append(env, "CLAUDE_CODE_API_KEY_HELPER_TTL_MS=1")
	counter := filepath.Join(sb.Home, "count")
	helper := filepath.Join(sb.Home, "key.sh")
	if err := os.WriteFile(helper, []byte("#!/bin/sh\nn=$(cat \""+counter+"\" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > \""+counter+"\"\necho sk-rotating-$n\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(sb.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"apiKeyHelper": "`+helper+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	first, last := reqs[0].Header.Get("X-Api-Key"), reqs[len(reqs)-1].Header.Get("X-Api-Key")
	data, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	latest := "sk-rotating-" + strings.TrimSpace(string(data))
	if first == last || last != latest {
		t.Errorf("keys sent: first %q, last %q; want the last request to carry the helper's latest key %q", first, last, latest)
	}
	// Claude Code sends the helper's key as Authorization: Bearer too,
	// for gateways that read that header.
	if got := reqs[len(reqs)-1].Header.Get("Authorization"); got != "Bearer "+latest {
		t.Errorf("Authorization = %q, want Bearer %s", got, latest)
	}
}

// A key from ANTHROPIC_API_KEY is used as it is, even with an
// apiKeyHelper configured and its refresh interval passed: the helper
// is not run, and the key is not sent as a bearer token.
func TestQA8EnvironmentKeyIsNotReplacedByTheHelper(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "echo one"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_API_KEY_HELPER_TTL_MS=1")
	ran := filepath.Join(sb.Home, "ran")
	settings := filepath.Join(sb.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"apiKeyHelper": "touch `+ran+`; echo sk-helper"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for i, req := range srv.Requests() {
		if k, a := req.Header.Get("X-Api-Key"), req.Header.Get("Authorization"); k != "sk-test" || a != "" {
			t.Errorf("request %d: x-api-key %q, Authorization %q; want the environment's key alone", i, k, a)
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the apiKeyHelper ran although ANTHROPIC_API_KEY was set")
	}
}

// The attribution setting asks the model to end its commit messages and
// pull request descriptions with the given text; an empty text (here the
// project's "pr": "") asks for none, and the objects of several files
// merge key by key. A mistyped attribution is named in a warning.
func TestQA8AttributionSettingReachesTheSystemPrompt(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	user := filepath.Join(sb.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte(`{"attribution": {"commit": "Co-Authored-By: Pair Bot <bot@example.com>", "pr": "Made with a robot"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, ".claude/settings.json", `{"attribution": {"pr": ""}}`)
	r := sb.Run(t, "", "-p", "commit it")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sys := srv.Requests()[0].SystemText()
	if !strings.Contains(sys, "commit message") || !strings.Contains(sys, "Co-Authored-By: Pair Bot <bot@example.com>") {
		t.Errorf("system prompt lacks the commit attribution:\n%s", sys)
	}
	if strings.Contains(sys, "Made with a robot") {
		t.Errorf("system prompt asks for the PR text the project turned off")
	}

	srv.Add(llmtest.Reply("ok"))
	sb.Write(t, ".claude/settings.json", `{"attribution": {"commit": 1}}`)
	r = sb.Run(t, "", "-p", "again")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "attribution") {
		t.Errorf("stderr %q does not name the mistyped attribution", r.Stderr)
	}
}

// cleanupPeriodDays: 0 keeps every transcript, as Claude Code's settings
// schema reads it ("0 to disable cleanup"); reins took it for unset and
// deleted transcripts older than the default 30 days.
func TestQA8CleanupPeriodZeroKeepsOldTranscripts(t *testing.T) {
	for _, tc := range []struct {
		settings string
		kept     bool
	}{{`{"cleanupPeriodDays": 0}`, true}, {`{}`, false}} {
		srv := server(t, llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		old := filepath.Join(sb.ConfigDir, "projects", "-old-project", "11111111-1111-4111-8111-111111111111.jsonl")
		if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(old, []byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		then := time.Now().Add(-90 * 24 * time.Hour)
		for _, p := range []string{old, filepath.Dir(old)} {
			if err := os.Chtimes(p, then, then); err != nil {
				t.Fatal(err)
			}
		}
		user := filepath.Join(sb.Home, ".claude", "settings.json")
		if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(user, []byte(tc.settings), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
			t.Fatalf("code %d: %s", r.Code, r.Stderr)
		}
		_, err := os.Stat(old)
		if kept := err == nil; kept != tc.kept {
			t.Errorf("settings %s: the 90-day-old transcript kept = %v, want %v", tc.settings, kept, tc.kept)
		}
	}
}

// permissions.additionalDirectories widen the working folders, and the
// system prompt names them beside --add-dir ones, so the model knows it
// may work there; a listed folder that does not exist is left out. Only
// --add-dir folders were named.
func TestQA8SettingsAdditionalDirectoriesAreNamedInThePrompt(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	shared := filepath.Join(filepath.Dir(sb.Dir), "shared")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, ".claude/settings.json", `{"permissions": {"additionalDirectories": ["../shared", "../missing"]}}`)
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sys := srv.Requests()[0].SystemText()
	if !strings.Contains(sys, "Additional working folder: "+shared) {
		t.Errorf("system prompt does not name %s:\n%s", shared, sys)
	}
	if strings.Contains(sys, "missing") {
		t.Errorf("system prompt names the folder that does not exist")
	}
}

// A recursive grep of the project is refused when a Read deny rule covers
// a file in it (Read(./.env) keeps .env out of Grep, and it must not come
// back through grep -r); a grep of a folder without such files runs.
func TestQA8RecursiveGrepDoesNotReadDeniedFiles(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "grep -rn API_KEY ."})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "grep -rn API_KEY src"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".env", "API_KEY=TOPSECRET\n")
	sb.Write(t, "src/config.go", "// reads API_KEY from the environment\n")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./.env)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "where is the key used?", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1" {
		t.Errorf("permission_denials = %v, want the grep of the project only", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "TOPSECRET") {
			t.Fatalf("the denied .env reached the model: %s", b)
		}
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if b, _ := json.Marshal(last.Messages); !strings.Contains(string(b), "reads API_KEY from the environment") {
		t.Errorf("the grep of src did not run: %s", b)
	}
}

// The language setting asks the model to reply in that language, and
// includeGitInstructions: false leaves the git workflow section and the
// git status snapshot out of the system prompt (both were read and had no
// effect).
func TestQA8LanguageAndGitInstructionsSettings(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if out, err := exec.Command("git", "-C", sb.Dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sys := srv.Requests()[0].SystemText()
	if !strings.Contains(sys, "When asked to commit") || !strings.Contains(sys, "gitStatus:") {
		t.Fatalf("the default prompt lacks the git section or snapshot:\n%s", sys)
	}
	sb.Write(t, ".claude/settings.json", `{"language": "japanese", "includeGitInstructions": false}`)
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	sys = srv.Requests()[1].SystemText()
	if !strings.Contains(sys, "in japanese") {
		t.Errorf("system prompt does not ask for japanese:\n%s", sys)
	}
	if strings.Contains(sys, "When asked to commit") || strings.Contains(sys, "gitStatus:") {
		t.Errorf("system prompt keeps the git section or snapshot:\n%s", sys)
	}
}

// A managed-only key written in project settings is named on stderr as
// having no effect there.
func TestQA8ManagedOnlyKeyInProjectSettingsIsWarnedAbout(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	file := sb.Write(t, ".claude/settings.json", `{"allowManagedPermissionRulesOnly": true}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if want := file + ":1:37: allowManagedPermissionRulesOnly counts in managed settings only"; !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr %q lacks %q", r.Stderr, want)
	}
}

// --dangerously-skip-permissions refused by disableBypassPermissionsMode
// names the settings file that disables it, so the user knows where the
// policy lives.
func TestQA8BypassRefusalNamesTheFile(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	file := sb.Write(t, ".claude/settings.local.json", `{"permissions": {"disableBypassPermissionsMode": "disable"}}`)
	r := sb.Run(t, "", "-p", "hi", "--dangerously-skip-permissions")
	if r.Code == 0 || !strings.Contains(r.Stderr, "disableBypassPermissionsMode in "+file) {
		t.Errorf("code %d, stderr %q; want a refusal naming %s", r.Code, r.Stderr, file)
	}
}

// A "don't ask again" answer that creates .claude/settings.local.json in
// a git repository keeps that personal file out of commits, as Claude
// Code does: git status does not offer it.
func TestQA8SavedLocalRulesAreNotOfferedToGit(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "touch made.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if out, err := exec.Command("git", "-C", sb.Dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PermissionRequest\", \"decision\": {\"behavior\": \"allow\", \"updatedPermissions\": [{\"type\": \"addRules\", \"rules\": [{\"toolName\": \"Bash\", \"ruleContent\": \"touch:*\"}], \"behavior\": \"allow\", \"destination\": \"localSettings\"}]}}}'"}]}]}}`)
	if r := sb.Run(t, "", "-p", "make a file"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, ".claude", "settings.local.json")); err != nil {
		t.Fatalf("the rule was not saved: %v", err)
	}
	out, err := exec.Command("git", "-C", sb.Dir, "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "settings.local.json") || !strings.Contains(string(out), ".claude/settings.json") {
		t.Errorf("git status = %q; want settings.json offered and settings.local.json not", out)
	}
}
