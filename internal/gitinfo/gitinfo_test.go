package gitinfo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/fastpath"
)

// needGit returns the git executable, failing under CI when it is missing.
func needGit(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git is required under CI: %v", err)
		}
		t.Skipf("git not installed: %v", err)
	}
	return p
}

// gitEnv isolates test repositories from the user's git configuration.
func gitEnv(t *testing.T) []string {
	home := t.TempDir()
	return append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
}

func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository on branch main with n commits.
func newRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, "init", "-q", "-b", "main")
	for i := range n {
		name := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(name, []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, env, "add", "f.txt")
		git(t, dir, env, "commit", "-q", "-m", "commit number "+string(rune('A'+i)))
	}
	return dir, env
}

func TestTakeOutsideRepoRunsNoGit(t *testing.T) {
	dir := t.TempDir()
	// A git that does not exist proves no process is started.
	s := Take(context.Background(), dir, Options{Git: filepath.Join(dir, "no-such-git"), Env: []string{}})
	if s.IsRepo || len(s.Errs) != 0 || s.Text() != "" {
		t.Fatalf("snapshot of a plain folder = %+v, text %q; want zero", s, s.Text())
	}
}

func TestTakeReadsBranchStatusAndCommits(t *testing.T) {
	dir, env := newRepo(t, 7)
	if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, env, "checkout", "-q", "-b", "feature")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s := Take(context.Background(), sub, Options{Env: env})
	if len(s.Errs) != 0 {
		t.Fatalf("errors: %v", s.Errs)
	}
	if !s.IsRepo || s.Branch != "feature" || s.MainBranch != "main" {
		t.Errorf("IsRepo=%v Branch=%q MainBranch=%q; want true feature main", s.IsRepo, s.Branch, s.MainBranch)
	}
	// Paths are relative to the folder the snapshot was taken in.
	if want := " M ../f.txt\n?? ../new.txt"; s.Status != want {
		t.Errorf("Status = %q, want %q", s.Status, want)
	}
	if len(s.Commits) != CommitCount {
		t.Fatalf("got %d commits, want %d: %q", len(s.Commits), CommitCount, s.Commits)
	}
	if !strings.HasSuffix(s.Commits[0], " commit number G") || !strings.HasSuffix(s.Commits[4], " commit number C") {
		t.Errorf("commits not newest first: %q", s.Commits)
	}
}

func TestTakeMainBranchPrefersOriginHead(t *testing.T) {
	dir, env := newRepo(t, 1)
	git(t, dir, env, "branch", "-m", "main", "trunk")
	git(t, dir, env, "update-ref", "refs/remotes/origin/trunk", "HEAD")
	git(t, dir, env, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	git(t, dir, env, "branch", "master")
	s := Take(context.Background(), dir, Options{Env: env})
	if s.MainBranch != "trunk" {
		t.Errorf("MainBranch = %q, want trunk (origin/HEAD)", s.MainBranch)
	}
}

func TestTakeDetachedHead(t *testing.T) {
	dir, env := newRepo(t, 2)
	git(t, dir, env, "checkout", "-q", "--detach", "HEAD~1")
	short := git(t, dir, env, "rev-parse", "--short", "HEAD")
	s := Take(context.Background(), dir, Options{Env: env})
	if s.Branch != "" || s.Detached != short {
		t.Errorf("Branch=%q Detached=%q; want \"\" and %q", s.Branch, s.Detached, short)
	}
	if !strings.Contains(s.Text(), "HEAD detached at "+short) {
		t.Errorf("text does not name the detached commit:\n%s", s.Text())
	}
}

func TestTakeCutsLongStatusWithNote(t *testing.T) {
	dir, env := newRepo(t, 1)
	for i := range 200 {
		name := filepath.Join(dir, strings.Repeat("u", 20)+string(rune('a'+i%26))+strings.Repeat("v", i%7)+"-"+itoa(i))
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := Take(context.Background(), dir, Options{Env: env})
	if !s.StatusTruncated || len(s.Status) > StatusLimit || strings.HasSuffix(s.Status, "\n") {
		t.Fatalf("truncated=%v len=%d; want cut at a line end within %d", s.StatusTruncated, len(s.Status), StatusLimit)
	}
	if !strings.HasPrefix(s.Status, "?? ") || !strings.Contains(s.Text(), "cut at 2000 characters") {
		t.Errorf("text lacks the truncation note:\n%s", s.Text())
	}
}

func TestTakeUnbornRepo(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, "init", "-q", "-b", "main")
	s := Take(context.Background(), dir, Options{Env: env})
	if !s.IsRepo || s.Branch != "main" || len(s.Commits) != 0 {
		t.Errorf("unborn repo snapshot = %+v", s)
	}
	if s.Status != "" || !strings.Contains(s.Text(), "(clean)") {
		t.Errorf("unborn repo text:\n%s", s.Text())
	}
}

func TestTakeTimeoutReturnsPromptly(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(dir, "slow-git")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s := Take(context.Background(), dir, Options{Git: slow, Timeout: 100 * time.Millisecond})
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("Take took %v despite a 100ms timeout", el)
	}
	if !s.IsRepo || len(s.Errs) == 0 || !errors.Is(s.Errs[0], context.DeadlineExceeded) {
		t.Fatalf("want IsRepo with deadline errors, got %+v", s)
	}
	if !strings.Contains(s.Text(), "(unknown: git status failed)") {
		t.Errorf("status of a failed snapshot should read unknown:\n%s", s.Text())
	}
}

func TestStartWaitMatchesTake(t *testing.T) {
	dir, env := newRepo(t, 1)
	p := Start(context.Background(), dir, Options{Env: env})
	got := p.Wait()
	want := Take(context.Background(), dir, Options{Env: env})
	if got.Text() != want.Text() {
		t.Errorf("Start/Wait text\n%s\nTake text\n%s", got.Text(), want.Text())
	}
}

// TestStartTakesTheEarlySnapshotOnce checks that the snapshot init
// started is handed to the first Start for the same folder with default
// options, and only to it.
func TestStartTakesTheEarlySnapshotOnce(t *testing.T) {
	dir := t.TempDir()
	pre := &Pending{done: make(chan struct{})}
	close(pre.done)
	early.dir = dir
	early.p.Store(pre)
	t.Cleanup(func() { early.dir = ""; early.p.Store(nil) })

	if p := Start(context.Background(), dir, Options{Timeout: time.Second}); p == pre {
		t.Error("Start with its own timeout took the early snapshot")
	}
	if p := Start(context.Background(), filepath.Join(dir, "sub"), Options{}); p == pre {
		t.Error("Start for another folder took the early snapshot")
	}
	if p := Start(context.Background(), dir, Options{}); p != pre {
		t.Error("the first Start with default options did not take the early snapshot")
	}
	if p := Start(context.Background(), dir, Options{}); p == pre {
		t.Error("a second Start took the early snapshot again")
	}
}

func TestTextGolden(t *testing.T) {
	s := Snapshot{IsRepo: true, Branch: "feature", MainBranch: "main",
		Status: " M a.go\n?? b.go", Commits: []string{"abc1234 Second", "def5678 First"}}
	want := `This is the state of the git repository when the session started. It is not updated as you work; run git yourself for current facts.
Current branch: feature
Main branch (the usual target of pull requests): main

Status:
 M a.go
?? b.go

Recent commits:
abc1234 Second
def5678 First`
	if got := s.Text(); got != want {
		t.Errorf("Text() =\n%s\nwant\n%s", got, want)
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
		cut   bool
	}{
		{"short", 10, "short", false},
		{"aaaa\nbbbb\ncccc", 12, "aaaa\nbbbb", true},
		{"aaaaaaaaaa\nb", 8, "aaaaaaaa", true},
		{"ééééé", 5, "éé", true}, // never splits a UTF-8 sequence
	} {
		got, c := cut(tc.in, tc.limit)
		if got != tc.want || c != tc.cut {
			t.Errorf("cut(%q, %d) = %q, %v; want %q, %v", tc.in, tc.limit, got, c, tc.want, tc.cut)
		}
	}
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

func TestBranchLine(t *testing.T) {
	for line, want := range map[string]struct {
		branch   string
		detached bool
	}{
		"## main...origin/main [ahead 1]": {"main", false},
		"## feature/x":                    {"feature/x", false},
		"## No commits yet on trunk":      {"trunk", false},
		"## HEAD (no branch)":             {"", true},
	} {
		b, d := branchLine(line)
		if b != want.branch || d != want.detached {
			t.Errorf("branchLine(%q) = %q, %v", line, b, d)
		}
	}
}

func TestEarlyGitArgsMatchTheSnapshot(t *testing.T) {
	want := fmt.Sprintf("-n%d", CommitCount)
	if got := fastpath.GitLogArgs[len(fastpath.GitLogArgs)-1]; got != want {
		t.Errorf("fastpath log args end with %q, want %q", got, want)
	}
}

// loggingGit is a git wrapper that appends each subcommand it runs to a
// log file, so a test can see which processes a snapshot started.
func loggingGit(t *testing.T, real string) (wrapper, logFile string) {
	t.Helper()
	d := t.TempDir()
	logFile = filepath.Join(d, "calls")
	wrapper = filepath.Join(d, "git")
	script := "#!/bin/sh\nfor a; do case $a in status|log|rev-parse) echo $a >> '" + logFile + "';; esac; done\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper, logFile
}

func TestTakeReadsCommitsWithoutGitLog(t *testing.T) {
	dir, env := newRepo(t, 7)
	git(t, dir, env, "gc", "-q") // packed objects, as in a cloned repository
	want := strings.Split(git(t, dir, env, "log", "--oneline", "--no-decorate", "-n5"), "\n")
	wrapper, logFile := loggingGit(t, needGit(t))
	s := Take(context.Background(), dir, Options{Git: wrapper, Env: env})
	if len(s.Errs) != 0 {
		t.Fatalf("errors: %v", s.Errs)
	}
	if strings.Join(s.Commits, "\n") != strings.Join(want, "\n") {
		t.Errorf("commits = %q, want git log's %q", s.Commits, want)
	}
	calls, _ := os.ReadFile(logFile)
	if got := strings.Fields(string(calls)); len(got) != 0 {
		t.Errorf("git ran %q; want no git process for a clean repository at the top", got)
	}
}

func TestTakeFallsBackToGitLog(t *testing.T) {
	dir, env := newRepo(t, 3)
	// A setting the commit reader does not interpret sends it to git log.
	git(t, dir, env, "config", "core.abbrev", "12")
	want := strings.Split(git(t, dir, env, "log", "--oneline", "--no-decorate", "-n5"), "\n")
	wrapper, logFile := loggingGit(t, needGit(t))
	s := Take(context.Background(), dir, Options{Git: wrapper, Env: env})
	if strings.Join(s.Commits, "\n") != strings.Join(want, "\n") || len(want[0]) < 13 {
		t.Errorf("commits = %q, want git log's %q", s.Commits, want)
	}
	calls, _ := os.ReadFile(logFile)
	if !strings.Contains(string(calls), "log") {
		t.Errorf("git ran %q; want a git log fallback", calls)
	}
}

// forceGitEnv is env with a variable that makes the status reader
// decline (GIT_TEST_* variables may change git's behaviour) while git
// itself ignores it.
func forceGitEnv(env []string) []string {
	return append(env[:len(env):len(env)], "GIT_TEST_REINS_STATUS_READER_OFF=1")
}

func TestTakeAtTopRunsNoGit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string, env []string)
	}{
		{"clean", func(t *testing.T, dir string, env []string) {}},
		{"changes", func(t *testing.T, dir string, env []string) {
			os.WriteFile(filepath.Join(dir, "f.txt"), []byte("changed"), 0o644)
			os.WriteFile(filepath.Join(dir, "new.txt"), []byte("n"), 0o644)
			os.MkdirAll(filepath.Join(dir, "newdir"), 0o755)
			os.WriteFile(filepath.Join(dir, "newdir", "x"), []byte("x"), 0o644)
		}},
		{"detached", func(t *testing.T, dir string, env []string) {
			git(t, dir, env, "checkout", "-q", "--detach", "HEAD~1")
		}},
		{"staged on another branch", func(t *testing.T, dir string, env []string) {
			git(t, dir, env, "checkout", "-q", "-b", "feature")
			os.WriteFile(filepath.Join(dir, "f.txt"), []byte("staged"), 0o644)
			git(t, dir, env, "add", "f.txt")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, env := newRepo(t, 3)
			tc.setup(t, dir, env)
			wrapper, logFile := loggingGit(t, needGit(t))
			got := Take(context.Background(), dir, Options{Git: wrapper, Env: env})
			calls, _ := os.ReadFile(logFile)
			if c := strings.Fields(string(calls)); len(c) != 0 {
				t.Errorf("git ran %q; want no process", c)
			}
			// The same snapshot through git: identical text and fields.
			want := Take(context.Background(), dir, Options{Env: forceGitEnv(env)})
			if len(got.Errs) != 0 || len(want.Errs) != 0 {
				t.Fatalf("errors: native %v, git %v", got.Errs, want.Errs)
			}
			if got.Text() != want.Text() || got.Branch != want.Branch || got.Detached != want.Detached {
				t.Errorf("native snapshot\n%s\n(branch %q detached %q)\ngit snapshot\n%s\n(branch %q detached %q)",
					got.Text(), got.Branch, got.Detached, want.Text(), want.Branch, want.Detached)
			}
		})
	}
}

func TestTakeUnbornAtTopMatchesGit(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	env := gitEnv(t)
	git(t, dir, env, "init", "-q", "-b", "trunk")
	os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("b"), 0o644)
	git(t, dir, env, "add", "a")
	got := Take(context.Background(), dir, Options{Env: env})
	want := Take(context.Background(), dir, Options{Env: forceGitEnv(env)})
	if got.Text() != want.Text() || got.Branch != "trunk" {
		t.Errorf("native snapshot\n%s\ngit snapshot\n%s", got.Text(), want.Text())
	}
}

func TestTakeFallsBackToGitStatus(t *testing.T) {
	dir, env := newRepo(t, 2)
	// A path with a space is quoted by git: the reader declines.
	os.WriteFile(filepath.Join(dir, "a b.txt"), []byte("x"), 0o644)
	wrapper, logFile := loggingGit(t, needGit(t))
	s := Take(context.Background(), dir, Options{Git: wrapper, Env: env})
	calls, _ := os.ReadFile(logFile)
	if got := strings.Fields(string(calls)); len(got) != 1 || got[0] != "status" {
		t.Errorf("git ran %q; want one git status", got)
	}
	if s.Status != `?? "a b.txt"` || s.Branch != "main" {
		t.Errorf("Status = %q, Branch = %q; want git's quoted line on main", s.Status, s.Branch)
	}
}
