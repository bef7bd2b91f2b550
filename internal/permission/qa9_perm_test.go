package permission

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitWorld is newWorld made a git repository: src/main.go, README.md
// and secrets/key committed, .env ignored and untracked, old/token
// committed and then removed, README.md changed and staged, src/main.go
// changed since.
func gitWorld(t *testing.T) *world {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	w := newWorld(t)
	if err := os.RemoveAll(filepath.Join(w.proj, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.proj, ".gitignore"), []byte(".env\nlink_*\n.bashrc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", w.proj, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(w.proj, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.proj, "old/token"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", "src/main.go", "README.md", "secrets/key", ".gitignore", "old/token")
	git("commit", "-q", "-m", "init")
	git("rm", "-q", "-r", "old")
	git("commit", "-q", "-m", "remove old")
	if err := os.WriteFile(filepath.Join(w.proj, "README.md"), []byte("staged"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "README.md")
	if err := os.WriteFile(filepath.Join(w.proj, "src/main.go"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// Read-only git commands that print the content of tracked files (git
// grep, log -p, diff, show, cat-file -p) count as reading the tracked
// files that Read deny and ask rules cover, as Read and Grep would refuse
// them: before, "git show HEAD:secrets/key" or "git log -p" printed a
// denied file. A denied file git does not track (a gitignored .env) does
// not stop them, and commands that print no content run.
func TestQA9GitReadsMeetReadDenyRules(t *testing.T) {
	w := gitWorld(t)
	sec := []string{"Read(./secrets/**)"}
	env := []string{"Read(./.env)"}
	for _, c := range []permCase{
		{name: "git grep over the repository", deny: sec, cmd: "git grep KEY", want: Deny, why: "secrets/key"},
		{name: "git grep -n -e", deny: sec, cmd: "git grep -n -e KEY", want: Deny},
		{name: "git grep of HEAD", deny: sec, cmd: "git grep KEY HEAD", want: Deny},
		{name: "git grep of a pathspec", deny: sec, cmd: "git grep KEY -- secrets", want: Deny},
		{name: "git grep of a tree", deny: []string{"Read(./secrets/key)"}, cmd: "git grep KEY HEAD:secrets", want: Deny, why: "secrets"},
		{name: "git grep of another tree", deny: sec, cmd: "git grep KEY HEAD:src", want: Allow},
		{name: "git grep of a top pathspec", deny: sec, cmd: "cd src && git grep KEY -- :/", want: Deny},
		{name: "git log -p of a magic pathspec", deny: sec, cmd: "git log -p -- ':(top)secrets'", want: Deny},
		{name: "git grep of another folder", deny: sec, cmd: "git grep KEY src", want: Allow},
		{name: "git grep -n of another folder", deny: sec, cmd: "git grep -n KEY src", want: Allow},
		{name: "git grep with an untracked denied file", deny: env, cmd: "git grep KEY", want: Allow},
		{name: "git grep --no-index walks the folder", deny: env, cmd: "git grep --no-index KEY", want: Deny, why: ".env"},
		{name: "git log -p", deny: sec, cmd: "git log -p", want: Deny, why: "secrets/key"},
		{name: "git log --patch of a path", deny: sec, cmd: "git log --patch -- secrets/key", want: Deny},
		{name: "git log -p of another path", deny: sec, cmd: "git log -p -- src", want: Allow},
		{name: "git log -p with an untracked denied file", deny: env, cmd: "git log -p", want: Allow},
		{name: "git log without patches", deny: sec, cmd: "git log --oneline -n 5", want: Allow},
		{name: "git diff of a changed denied file", deny: []string{"Read(./src/**)"}, cmd: "git diff", want: Deny, why: "main.go"},
		{name: "git diff --cached of a staged denied file", deny: []string{"Read(./README.md)"}, cmd: "git diff --cached", want: Deny},
		{name: "git diff with an unchanged denied file", deny: sec, cmd: "git diff", want: Allow},
		{name: "git diff --cached with an unchanged denied file", deny: []string{"Read(./src/**)"}, cmd: "git diff --staged", want: Allow},
		{name: "git diff HEAD~1", deny: sec, cmd: "git diff --cached HEAD", want: Deny},
		{name: "git diff --stat", deny: sec, cmd: "git diff --stat", want: Allow},
		{name: "git diff of a path", deny: sec, cmd: "git diff src/main.go", want: Allow},
		{name: "git show of the commit that removes a denied file", deny: []string{"Read(./old/**)"}, cmd: "git show", want: Deny, why: "old/token"},
		{name: "git show of a commit that does not touch the denied file", deny: sec, cmd: "git show HEAD", want: Allow},
		{name: "git show of the commit that adds it", deny: sec, cmd: "git show HEAD~1", want: Deny, why: "secrets/key"},
		{name: "git show of a blob", deny: sec, cmd: "git show HEAD~1:secrets/key HEAD", want: Deny},
		{name: "git show HEAD -- path", deny: sec, cmd: "git show HEAD~1 -- secrets", want: Deny},
		{name: "git show of a commit with a pathspec it does not touch", deny: sec, cmd: "git show HEAD -- secrets", want: Allow},
		{name: "git show --stat", deny: sec, cmd: "git show --stat HEAD", want: Allow},
		{name: "git show REV:path", deny: sec, cmd: "git show HEAD:secrets/key", want: Deny, why: "secrets/key"},
		{name: "git show :path from the index", deny: sec, cmd: "git --no-pager show :secrets/key", want: Deny},
		{name: "git show REV:path of another file", deny: sec, cmd: "git show HEAD:README.md", want: Allow},
		{name: "git cat-file -p REV:path", deny: sec, cmd: "git cat-file -p HEAD:secrets/key", want: Deny},
		{name: "git cat-file blob REV:path", deny: sec, cmd: "git cat-file blob main:secrets/key", want: Deny},
		{name: "git cat-file -p of another file", deny: sec, cmd: "git cat-file -p HEAD:src/main.go", want: Allow},
		{name: "git cat-file -p of a commit", deny: sec, cmd: "git cat-file -p HEAD~1", want: Allow},
		{name: "git cat-file -p of a tree named by a revision", deny: sec, cmd: "git cat-file -p HEAD~1^{tree}", want: Deny},
		{name: "git log -U1", deny: sec, cmd: "git log -U1", want: Deny},
		{name: "git cat-file -t", deny: sec, cmd: "git cat-file -t HEAD:secrets/key", want: Allow},
		{name: "git -C the project", deny: sec, cmd: "cd src && git -C .. log -p", want: Deny},
		{name: "git archive", allow: []string{"Bash(git archive:*)"}, deny: sec, cmd: "git archive --format=tar HEAD", want: Deny},
		{name: "git archive of another folder", allow: []string{"Bash(git archive:*)"}, deny: sec, cmd: "git archive --prefix p/ HEAD src", want: Allow},
		{name: "git log -p of a removed file", deny: []string{"Read(./old/**)"}, cmd: "git log -p", want: Deny, why: "old/token"},
		{name: "git show of an old commit", deny: []string{"Read(./old/**)"}, cmd: "git show HEAD~1", want: Deny},
		{name: "git grep of an old commit", deny: []string{"Read(./old/**)"}, cmd: "git grep KEY HEAD~1", want: Deny},
		{name: "git grep of the work tree with a removed file", deny: []string{"Read(./old/**)"}, cmd: "git grep KEY", want: Allow},
		{name: "git diff of the work tree with a removed file", deny: []string{"Read(./old/**)"}, cmd: "git diff", want: Allow},
		{name: "git stash show -p", deny: sec, cmd: "git stash show -p", want: Deny, why: "secrets/key"},
		{name: "git stash show --stat", deny: sec, cmd: "git stash show --stat stash@{0}", want: Allow},
		{name: "git stash show -p with an untracked denied file", deny: env, cmd: "git stash show -p", want: Allow},
		{name: "git stash show --include-untracked", deny: env, cmd: "git stash show -p --include-untracked", want: Deny},
		{name: "ask rule asks", ask: sec, cmd: "git log -p", want: Ask, why: "secrets/key"},
		{name: "no read rules", cmd: "git log -p", want: Allow},
		{name: "git status", deny: sec, cmd: "git status", want: Allow},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := w.policy(c)
			r := w.request(p, c)
			r.ResolveTrees(p, p.Cwd, p.Home)
			d := Decide(p, r)
			if d.Behavior != c.want {
				t.Fatalf("Decide = %s (%s), want %s", d.Behavior, d.Reason, c.want)
			}
			if c.why != "" && !strings.Contains(d.Reason, c.why) {
				t.Errorf("reason %q does not mention %q", d.Reason, c.why)
			}
		})
	}
}

// A git command given --git-dir and --work-tree (or GIT_DIR and
// GIT_WORK_TREE) reads that repository:
// "git --git-dir=nested/.git --work-tree=nested show HEAD:secret" is
// judged as reading nested/secret, not the outer repository's secret.
func TestQA9GitDirOptionsNameTheRepository(t *testing.T) {
	w := gitWorld(t)
	nested := filepath.Join(w.proj, "nested")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(nested, "secret"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "secret"}, {"commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", nested, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	for _, c := range []permCase{
		{deny: []string{"Read(./nested/secret)"}, cmd: "git --git-dir=nested/.git --work-tree=nested show HEAD:secret", want: Deny, why: "nested/secret"},
		{deny: []string{"Read(./nested/secret)"}, cmd: "git --git-dir nested/.git --work-tree nested log -p", want: Deny},
		{deny: []string{"Read(./nested/secret)"}, cmd: "GIT_DIR=nested/.git GIT_WORK_TREE=nested git show HEAD:secret", want: Deny, why: "nested/secret"},
	} {
		p := w.policy(c)
		r := w.request(p, c)
		r.ResolveTrees(p, p.Cwd, p.Home)
		if d := Decide(p, r); d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%s: Decide = %s (%s), want %s", c.cmd, d.Behavior, d.Reason, c.want)
		}
	}
}

// git grep --recurse-submodules searches the submodules' tracked files
// too: a denied file in a submodule refuses it, and a plain git grep,
// which leaves submodules out, runs.
func TestQA9GitGrepOfSubmodules(t *testing.T) {
	w := gitWorld(t)
	lib := filepath.Join(w.root, "lib")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "protocol.file.allow=always"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "token"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(lib, "init", "-q")
	git(lib, "add", "token")
	git(lib, "commit", "-q", "-m", "init")
	git(w.proj, "submodule", "-q", "add", lib, "vendor/lib")
	for _, c := range []permCase{
		{deny: []string{"Read(./vendor/lib/token)"}, cmd: "git grep --recurse-submodules KEY", want: Deny, why: "vendor/lib/token"},
		{deny: []string{"Read(./vendor/lib/token)"}, cmd: "git grep KEY", want: Allow},
	} {
		p := w.policy(c)
		r := w.request(p, c)
		r.ResolveTrees(p, p.Cwd, p.Home)
		if d := Decide(p, r); d.Behavior != c.want || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%s: Decide = %s (%s), want %s", c.cmd, d.Behavior, d.Reason, c.want)
		}
	}
}
