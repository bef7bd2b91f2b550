package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// Read-only git commands that print tracked files are refused when a
// Read deny rule covers one: "git show HEAD:secrets/key", "git grep",
// "git log -p" (or --unified=1, which implies it) and a git grep of the
// top of the work tree from a subfolder ("-- ':/'") printed the committed
// secret. A git diff that shows only src/config.go, the one file changed,
// and a git grep of the project while the denied .env is untracked
// (gitignored) still run.
func TestQA9GitReadsDoNotPrintDeniedFiles(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "git show HEAD:secrets/key"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "git grep -n TOPSECRET"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "git log -p"})),
		llmtest.Calls(llmtest.ToolUse("toolu_4", "Bash", map[string]string{"command": "git -C src grep -n TOPSECRET -- ':/'"})),
		llmtest.Calls(llmtest.ToolUse("toolu_5", "Bash", map[string]string{"command": "git grep -n API_KEY -- src"})),
		llmtest.Calls(llmtest.ToolUse("toolu_6", "Bash", map[string]string{"command": "git diff"})),
		llmtest.Calls(llmtest.ToolUse("toolu_7", "Bash", map[string]string{"command": "git log --unified=1"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "secrets/key", "TOPSECRET=hunter2\n")
	sb.Write(t, ".env", "API_KEY=ALSOSECRET\n")
	sb.Write(t, ".gitignore", ".env\n")
	sb.Write(t, "src/config.go", "// reads API_KEY from the environment\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "secrets", "src", ".gitignore"}, {"commit", "-q", "-m", "init"}} {
		runGit(t, sb.Dir, args...)
	}
	sb.Write(t, "src/config.go", "// reads API_KEY from the environment\n// CHANGED-LINE\n")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./secrets/**)", "Read(./.env)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "where is the key?", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1,toolu_2,toolu_3,toolu_4,toolu_7" {
		t.Errorf("permission_denials = %v, want the show, the greps of the repository, the log -p and the log --unified", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "ALSOSECRET") {
			t.Fatalf("a denied file reached the model: %s", b)
		}
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if b, _ := json.Marshal(last.Messages); !strings.Contains(string(b), "reads API_KEY from the environment") {
		t.Errorf("the git grep of src did not run: %s", b)
	}
	if b, _ := json.Marshal(last.Messages); !strings.Contains(string(b), "+// CHANGED-LINE") {
		t.Errorf("the git diff, which does not show the unchanged secrets/key, did not run: %s", b)
	}
}

// A .env committed by mistake and then removed from the index (git rm
// --cached, gitignored) is still in the history: "git log -p" is refused
// under Read(./.env), as it prints the old commit, and so is the show of
// the commit that removes it; "git grep" of the work tree, which no longer
// holds it, and "git show" of a later commit that does not touch it run.
func TestQA9GitLogDoesNotPrintARemovedDeniedFile(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "git log -p"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "git show HEAD~1"})),
		llmtest.Calls(llmtest.ToolUse("toolu_3", "Bash", map[string]string{"command": "git grep -n API_KEY"})),
		llmtest.Calls(llmtest.ToolUse("toolu_4", "Bash", map[string]string{"command": "git show"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".env", "API_KEY=hunter2\n")
	sb.Write(t, "src/config.go", "// reads API_KEY from the environment\n")
	git := func(args ...string) { t.Helper(); runGit(t, sb.Dir, args...) }
	git("init", "-q")
	git("add", ".env", "src")
	git("commit", "-q", "-m", "init")
	git("rm", "-q", "--cached", ".env")
	sb.Write(t, ".gitignore", ".env\n")
	git("add", ".gitignore")
	git("commit", "-q", "-m", "untrack .env")
	sb.Write(t, "src/config.go", "// reads API_KEY from the environment\n// SHOWN-LINE\n")
	git("commit", "-q", "-a", "-m", "change src")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./.env)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "where is the key?", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1,toolu_2" {
		t.Errorf("permission_denials = %v, want the log -p and the show of the commit that removes .env", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "hunter2") {
			t.Fatalf("the denied .env reached the model: %s", b)
		}
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if b, _ := json.Marshal(last.Messages); !strings.Contains(string(b), "reads API_KEY from the environment") {
		t.Errorf("the git grep did not run: %s", b)
	}
	if b, _ := json.Marshal(last.Messages); !strings.Contains(string(b), "+// SHOWN-LINE") {
		t.Errorf("the git show of the last commit, which does not touch .env, did not run: %s", b)
	}
}

// "git --git-dir=nested/.git --work-tree=nested show HEAD:secret" reads
// the nested repository's secret, which Read(./nested/secret) denies, and
// so does the same with GIT_DIR and GIT_WORK_TREE; before, both were
// judged against the outer folder and printed the file.
func TestQA9GitDirOptionsDoNotBypassReadDeny(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "git --git-dir=nested/.git --work-tree=nested show HEAD:secret"})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "GIT_DIR=nested/.git GIT_WORK_TREE=nested git show HEAD:secret"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "nested/secret", "hunter2\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "secret"}, {"commit", "-q", "-m", "init"}} {
		runGit(t, sb.Dir+"/nested", args...)
	}
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./nested/secret)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "show the secret", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1,toolu_2" {
		t.Errorf("permission_denials = %v, want both git shows", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "hunter2") {
			t.Fatalf("the denied file reached the model: %s", b)
		}
	}
}

// "git stash show -p" prints the stashed change to a denied tracked file
// whole; it is refused under Read(./secrets/**).
func TestQA9GitStashShowDoesNotPrintDeniedFiles(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "git stash show -p"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "secrets/key", "old\n")
	git := func(args ...string) { t.Helper(); runGit(t, sb.Dir, args...) }
	git("init", "-q")
	git("add", "secrets")
	git("commit", "-q", "-m", "init")
	sb.Write(t, "secrets/key", "hunter2\n")
	git("stash", "-q")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./secrets/**)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "what is stashed?", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1" {
		t.Errorf("permission_denials = %v, want the stash show", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "hunter2") {
			t.Fatalf("the denied file reached the model: %s", b)
		}
	}
}

// "git grep --recurse-submodules" searches a submodule's tracked files:
// with Read(./vendor/lib/token) it is refused, as it printed the token.
func TestQA9GitGrepOfSubmodulesDoesNotPrintDeniedFiles(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "git grep --recurse-submodules -n TOKEN"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	lib := sb.Write(t, "../lib/token", "TOKEN=hunter2\n")
	git := func(dir string, args ...string) {
		t.Helper()
		runGit(t, dir, append([]string{"-c", "protocol.file.allow=always"}, args...)...)
	}
	libDir := strings.TrimSuffix(lib, "/token")
	git(libDir, "init", "-q")
	git(libDir, "add", "token")
	git(libDir, "commit", "-q", "-m", "init")
	git(sb.Dir, "init", "-q")
	git(sb.Dir, "submodule", "-q", "add", libDir, "vendor/lib")
	sb.Write(t, ".claude/settings.json", `{"permissions": {"deny": ["Read(./vendor/lib/token)"]}}`)
	ids := printDenials(t, sb.Run(t, "", "-p", "find the token", "--output-format", "json"))
	if strings.Join(ids, ",") != "toolu_1" {
		t.Errorf("permission_denials = %v, want the git grep", ids)
	}
	for _, r := range srv.Requests() {
		if b, _ := json.Marshal(r.Messages); strings.Contains(string(b), "hunter2") {
			t.Fatalf("the denied file reached the model: %s", b)
		}
	}
}
