package fastpath

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestAnswerOnlyForVersionFlagsBeforeDashDash(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, VersionLine},
		{[]string{"-v"}, SDKVersionLine},
		{[]string{"-p", "hi", "--version"}, VersionLine},
		{[]string{"--", "--version"}, ""},
		{[]string{"-p", "what is -v"}, ""},
		{[]string{"--verbose"}, ""},
		{nil, ""},
	} {
		if got := Answer(tc.args); got != tc.want {
			t.Errorf("Answer(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestTrustedRunOnlyForPrintAndSDK(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-p", "hi"}, true},
		{[]string{"--print", "hi"}, true},
		{[]string{"--output-format", "stream-json", "--input-format", "stream-json"}, true},
		{[]string{"--input-format=stream-json"}, true},
		{[]string{"fix the bug"}, false},
		{[]string{}, false},
		{[]string{"mcp", "serve"}, false},
		{[]string{"--", "-p"}, false},
	} {
		if got := trustedRun(tc.args); got != tc.want {
			t.Errorf("trustedRun(%q) = %v", tc.args, got)
		}
	}
}

func TestStopEarlyGitKillsTheMatchingCommand(t *testing.T) {
	sleep := "/bin/sleep"
	if _, err := os.Stat(sleep); err != nil {
		t.Skipf("no %s: %v", sleep, err)
	}
	saved := early
	t.Cleanup(func() { early = saved })
	dir := t.TempDir()
	j := startGit(sleep, dir, os.Environ(), []string{"30"})
	early.dirs, early.jobs = []string{dir}, []*gitJob{j}

	if StopEarlyGit(t.TempDir(), []string{"30"}) {
		t.Errorf("StopEarlyGit stopped a command of another folder")
	}
	if StopEarlyGit(dir, []string{"31"}) {
		t.Errorf("StopEarlyGit stopped a command with other arguments")
	}
	start := time.Now()
	if !StopEarlyGit(dir, []string{"30"}) {
		t.Fatalf("StopEarlyGit found no command")
	}
	StopEarlyGit(dir, []string{"30"}) // a second call is harmless
	select {
	case <-j.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the command still runs 10s after StopEarlyGit")
	}
	if el := time.Since(start); el > 5*time.Second || j.err == nil {
		t.Errorf("command ended after %v with error %v; want killed at once", el, j.err)
	}
}

func TestNativeStatusLikelyOnlyAtTheTopOfAPlainWorkTree(t *testing.T) {
	top, linked, below := t.TempDir(), t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(top, ".git"), 0o755)
	os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: /elsewhere\n"), 0o644)
	if got := nativeStatusLikely(top); got != nativeStatusOS {
		t.Errorf("top of a work tree: %v, want %v", got, nativeStatusOS)
	}
	if nativeStatusLikely(linked) || nativeStatusLikely(below) {
		t.Error("a worktree's .git file or a folder without .git counted as the top")
	}
	lfs := t.TempDir()
	os.Mkdir(filepath.Join(lfs, ".git"), 0o755)
	os.WriteFile(filepath.Join(lfs, ".gitattributes"), []byte("*.psd filter=lfs diff=lfs merge=lfs -text\n"), 0o644)
	if nativeStatusLikely(lfs) {
		t.Error("a repository with a filter attribute counted as one the reader handles")
	}
	big := t.TempDir()
	os.Mkdir(filepath.Join(big, ".git"), 0o755)
	os.WriteFile(filepath.Join(big, ".git", "index"), make([]byte, 2<<20), 0o644)
	if nativeStatusLikely(big) {
		t.Error("a repository with a 2 MB index counted as one the reader handles")
	}
	t.Setenv("GIT_DIR", filepath.Join(top, ".git"))
	if nativeStatusLikely(top) {
		t.Error("GIT_DIR set: the reader declines, so git must start early")
	}
}

// TestEarlyNativeDirForATrustedRunAtTheTop checks that a print run at the
// top of a plain work tree names the folder for gitinfo's early snapshot
// and starts no git process, and that a run for the UI names nothing.
func TestEarlyNativeDirForATrustedRunAtTheTop(t *testing.T) {
	if !nativeStatusOS {
		t.Skip("no native status reader on this system")
	}
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(top, ".git"), 0o755)
	t.Chdir(top)
	saved := early
	t.Cleanup(func() { early = saved })

	early.native, early.jobs = "", nil
	startEarlyGit([]string{"hello"})
	if d := EarlyNativeDir(); d != "" {
		t.Errorf("a UI run named %q for the early snapshot", d)
	}
	startEarlyGit([]string{"-p", "hello"})
	if d := EarlyNativeDir(); d != top {
		t.Errorf("EarlyNativeDir() = %q, want %q", d, top)
	}
	if len(early.jobs) != 0 {
		t.Errorf("%d git processes started where the native reader applies", len(early.jobs))
	}
}
