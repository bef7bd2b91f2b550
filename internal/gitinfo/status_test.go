package gitinfo

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// statusRepo is a scratch repository for comparing nativeStatus with
// git status. Its git runs isolated from the user's configuration.
type statusRepo struct {
	t    testing.TB
	dir  string
	home string
	env  []string
}

func newStatusRepo(t testing.TB) *statusRepo {
	t.Helper()
	requireGit(t)
	home := t.TempDir()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &statusRepo{t: t, dir: dir, home: home}
	r.env = append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME=", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "LC_ALL=C")
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *statusRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitMayFail runs git and returns its output whatever the exit status.
func (r *statusRepo) gitMayFail(args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (r *statusRepo) write(path, content string) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) mkdir(path string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Join(r.dir, filepath.FromSlash(path)), 0o755); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) remove(path string) {
	r.t.Helper()
	if err := os.RemoveAll(filepath.Join(r.dir, filepath.FromSlash(path))); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) chmod(path string, mode os.FileMode) {
	r.t.Helper()
	if err := os.Chmod(filepath.Join(r.dir, filepath.FromSlash(path)), mode); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) symlink(target, path string) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	os.Remove(full)
	if err := os.Symlink(target, full); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) setTime(path string, when time.Time) {
	r.t.Helper()
	if err := os.Chtimes(filepath.Join(r.dir, filepath.FromSlash(path)), when, when); err != nil {
		r.t.Fatal(err)
	}
}

func (r *statusRepo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
}

// settle dates every file of the work tree a minute back and refreshes
// the index, so that its entries are clean by their stat data alone.
func (r *statusRepo) settle() {
	r.t.Helper()
	past := time.Now().Add(-time.Minute)
	filepath.WalkDir(r.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			os.Chtimes(p, past, past)
		}
		return nil
	})
	r.git("update-index", "-q", "--really-refresh")
}

// gitStatus is what git prints for the snapshot's status command.
func (r *statusRepo) gitStatus() string {
	r.t.Helper()
	return r.git("--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off", "status", "--short")
}

func (r *statusRepo) native() (string, error) {
	return nativeStatus(context.Background(), filepath.Join(r.dir, ".git"), r.dir, r.env)
}

// check fails the test unless nativeStatus prints exactly what git does.
func (r *statusRepo) check(t *testing.T) {
	t.Helper()
	got, err := r.native()
	want := r.gitStatus()
	if err != nil {
		t.Fatalf("nativeStatus: %v; git prints:\n%s", err, want)
	}
	if got != want {
		t.Fatalf("nativeStatus printed\n%s\ngit status --short printed\n%s", got, want)
	}
}

// checkDeclines fails the test unless nativeStatus declines.
func (r *statusRepo) checkDeclines(t *testing.T) {
	t.Helper()
	got, err := r.native()
	if !errors.Is(err, errUnsupported) {
		t.Fatalf("nativeStatus = %q, %v; want an errUnsupported decline (git prints %q)", got, err, r.gitStatus())
	}
}

// baseRepo is a repository with a committed tree of a few files.
func baseRepo(t *testing.T) *statusRepo {
	r := newStatusRepo(t)
	r.write("README", "readme\n")
	r.write("a.txt", "alpha\n")
	r.write("src/main.go", "package main\n")
	r.write("src/util/u.go", "package util\n")
	r.write("docs/guide.md", "# guide\n")
	r.commit("base")
	return r
}

func TestNativeStatusMatchesGit(t *testing.T) {
	past := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		name  string
		setup func(r *statusRepo)
	}{
		{"clean", func(r *statusRepo) {}},
		{"clean settled", func(r *statusRepo) { r.settle() }},
		{"modified unstaged", func(r *statusRepo) { r.write("a.txt", "alpha changed\n") }},
		{"modified same size", func(r *statusRepo) { r.settle(); r.write("a.txt", "ALPHA\n") }},
		{"staged", func(r *statusRepo) { r.write("a.txt", "staged\n"); r.git("add", "a.txt") }},
		{"staged then modified", func(r *statusRepo) {
			r.write("src/main.go", "package main // 1\n")
			r.git("add", "src/main.go")
			r.write("src/main.go", "package main // 2\n")
		}},
		{"added", func(r *statusRepo) { r.write("new.txt", "new\n"); r.git("add", "new.txt") }},
		{"added then modified", func(r *statusRepo) {
			r.write("src/new.go", "package main\n")
			r.git("add", "src/new.go")
			r.write("src/new.go", "package main // more\n")
		}},
		{"added then deleted", func(r *statusRepo) {
			r.write("n.txt", "n\n")
			r.git("add", "n.txt")
			r.remove("n.txt")
		}},
		{"deleted staged", func(r *statusRepo) { r.git("rm", "-q", "docs/guide.md") }},
		{"deleted unstaged", func(r *statusRepo) { r.remove("docs/guide.md") }},
		{"deleted folder", func(r *statusRepo) { r.remove("src") }},
		{"removed from index only", func(r *statusRepo) { r.git("rm", "-q", "--cached", "a.txt") }},
		{"exec bit", func(r *statusRepo) { r.chmod("a.txt", 0o755) }},
		{"exec bit staged", func(r *statusRepo) { r.chmod("a.txt", 0o755); r.git("add", "a.txt") }},
		{"exec bit ignored by fileMode false", func(r *statusRepo) {
			r.git("config", "core.fileMode", "false")
			r.chmod("a.txt", 0o755)
		}},
		{"symlink added", func(r *statusRepo) { r.symlink("a.txt", "link"); r.git("add", "link") }},
		{"symlink changed", func(r *statusRepo) {
			r.symlink("a.txt", "link")
			r.commit("link")
			r.symlink("README", "link")
		}},
		{"symlink to file type change", func(r *statusRepo) {
			r.symlink("a.txt", "link")
			r.commit("link")
			r.remove("link")
			r.write("link", "now a file\n")
		}},
		{"file to symlink type change", func(r *statusRepo) { r.symlink("README", "a.txt") }},
		{"file to symlink type change staged", func(r *statusRepo) { r.symlink("README", "a.txt"); r.git("add", "a.txt") }},
		{"symlinked folder hides tracked files", func(r *statusRepo) {
			r.remove("src")
			r.symlink("docs", "src")
		}},
		{"folder where a file was", func(r *statusRepo) {
			r.remove("a.txt")
			r.write("a.txt/inner", "x\n")
		}},
		{"untracked top and nested", func(r *statusRepo) {
			r.write("u.txt", "u\n")
			r.write("src/u.go", "package main\n")
			r.write("src/util/deep/x.go", "package deep\n")
		}},
		{"untracked folder collapsed", func(r *statusRepo) {
			r.write("newdir/a", "a\n")
			r.write("newdir/sub/b", "b\n")
		}},
		{"untracked symlink", func(r *statusRepo) { r.symlink("nowhere", "dangling") }},
		{"empty folder", func(r *statusRepo) { r.mkdir("empty"); r.mkdir("deep/er/still") }},
		{"folder of only ignored files", func(r *statusRepo) {
			r.write(".gitignore", "*.log\n")
			r.write("logs/a.log", "x\n")
			r.write("logs/b/c.log", "x\n")
			r.write("src/d.log", "x\n")
		}},
		{"negated rules", func(r *statusRepo) {
			r.write(".gitignore", "*.log\n!keep.log\n")
			r.write("x.log", "x\n")
			r.write("keep.log", "k\n")
			r.write("src/keep.log", "k\n")
			r.write("src/y.log", "y\n")
		}},
		{"negation in a deeper file", func(r *statusRepo) {
			r.write(".gitignore", "*.tmp\n")
			r.write("src/.gitignore", "!special.tmp\n")
			r.write("src/special.tmp", "s\n")
			r.write("src/other.tmp", "o\n")
			r.write("special.tmp", "t\n")
		}},
		{"ignored folder cannot be re-included", func(r *statusRepo) {
			r.write(".gitignore", "build/\n!build/keep\n")
			r.write("build/keep", "k\n")
			r.write("build/out", "o\n")
		}},
		{"directory-only and anchored patterns", func(r *statusRepo) {
			r.write(".gitignore", "out/\n/top.txt\nsrc/gen\ncache\n")
			r.write("out/x", "x\n")
			r.write("src/out", "file named out\n")
			r.write("top.txt", "t\n")
			r.write("src/top.txt", "t\n")
			r.write("src/gen/g.go", "g\n")
			r.write("docs/gen/g.go", "g\n")
			r.write("cache", "file\n")
			r.write("src/cache/c", "c\n")
		}},
		{"double asterisk", func(r *statusRepo) {
			r.write(".gitignore", "**/tmp\nlogs/**\na/**/z.txt\n**/*.bak\n")
			r.write("tmp/x", "x\n")
			r.write("src/util/tmp/y", "y\n")
			r.write("logs/today/l", "l\n")
			r.write("a/z.txt", "z\n")
			r.write("a/b/c/z.txt", "z\n")
			r.write("a/b/c/y.txt", "y\n")
			r.write("src/x.bak", "b\n")
		}},
		{"classes, escapes and spaces", func(r *statusRepo) {
			r.write(".gitignore", "f[0-9].txt\ng[!a-c].txt\n\\#hash\n\\!bang\ntrail.txt   \nh?.txt\n# comment\n\n*.[oa]\n")
			for _, n := range []string{"f1.txt", "fx.txt", "ga.txt", "gd.txt", "#hash", "!bang", "trail.txt", "h1.txt", "h12.txt", "x.o", "y.a", "z.c"} {
				r.write(n, n)
			}
		}},
		{"info exclude", func(r *statusRepo) {
			r.write(".git/info/exclude", "secret*\n")
			r.write("secret.txt", "s\n")
			r.write("src/secret.go", "s\n")
			r.write("public.txt", "p\n")
		}},
		{"gitignore beats info exclude", func(r *statusRepo) {
			r.write(".git/info/exclude", "*.gen\n")
			r.write(".gitignore", "!keep.gen\n")
			r.write("keep.gen", "k\n")
			r.write("drop.gen", "d\n")
		}},
		{"core.excludesFile via HOME", func(r *statusRepo) {
			os.MkdirAll(filepath.Join(r.home, ".config", "git"), 0o755)
			os.WriteFile(filepath.Join(r.home, ".config", "git", "ignore"), []byte("*.swp\n"), 0o644)
			r.write("a.txt.swp", "s\n")
			r.write("src/.main.go.swp", "s\n")
		}},
		{"core.excludesFile setting", func(r *statusRepo) {
			os.WriteFile(filepath.Join(r.home, "myignore"), []byte("*.orig\n"), 0o644)
			r.git("config", "core.excludesFile", "~/myignore")
			r.write("a.txt.orig", "o\n")
			r.write("b.rej", "r\n")
		}},
		{"nested repository", func(r *statusRepo) {
			r.mkdir("vendor/lib")
			cmd := exec.Command("git", "init", "-q", filepath.Join(r.dir, "vendor", "lib"))
			cmd.Env = r.env
			if out, err := cmd.CombinedOutput(); err != nil {
				r.t.Fatalf("git init: %v %s", err, out)
			}
			r.write("vendor/lib/file", "f\n")
			r.write("src/inner/.git/HEAD", "ref: refs/heads/main\n")
			r.mkdir("src/inner/.git/objects")
			r.mkdir("src/inner/.git/refs")
		}},
		{"touched but unchanged", func(r *statusRepo) {
			r.settle()
			r.setTime("a.txt", time.Now())
			r.setTime("src/util/u.go", past)
		}},
		{"racily clean file modified", func(r *statusRepo) {
			// Recorded with an mtime at or after the index's own: only
			// the content can tell.
			r.git("config", "core.trustctime", "false")
			future := time.Now().Add(time.Hour).Truncate(time.Second)
			r.write("a.txt", "aaaa\n")
			r.setTime("a.txt", future)
			r.git("add", "a.txt")
			r.write("a.txt", "bbbb\n")
			r.setTime("a.txt", future)
		}},
		{"stat-clean file trusted", func(r *statusRepo) {
			// git believes matching stat data; so must the reader.
			r.git("config", "core.trustctime", "false")
			old := past.Truncate(time.Second)
			r.write("a.txt", "cccc\n")
			r.setTime("a.txt", old)
			r.git("add", "a.txt")
			r.write("a.txt", "dddd\n")
			r.setTime("a.txt", old)
		}},
		{"index version 4", func(r *statusRepo) {
			r.git("update-index", "--index-version", "4")
			r.write("src/util/u.go", "package util // v4\n")
			r.write("src/util/v.go", "package util\n")
			r.git("add", "src/util/v.go")
		}},
		{"index version 3", func(r *statusRepo) {
			r.git("update-index", "--index-version", "3")
			r.write("x", "x\n")
		}},
		{"missing index", func(r *statusRepo) { r.remove(".git/index") }},
		{"detached head", func(r *statusRepo) {
			r.write("b.txt", "b\n")
			r.commit("second")
			r.git("checkout", "-q", "--detach", "HEAD~1")
			r.write("c.txt", "c\n")
		}},
		{"packed objects", func(r *statusRepo) {
			r.git("gc", "-q")
			r.write("src/main.go", "package main // packed\n")
			r.git("add", "src/main.go")
		}},
		{"utf-8 names", func(r *statusRepo) {
			r.write("héllo.txt", "h\n")
			r.write("日本/語.txt", "j\n")
			r.commit("utf")
			r.write("héllo.txt", "changed\n")
			r.write("naïve.txt", "n\n")
		}},
		{"sort order of dots and slashes", func(r *statusRepo) {
			r.write("a-b", "x\n")
			r.write("a.b", "x\n")
			r.write("a/b", "x\n")
			r.write("a0", "x\n")
			r.git("add", "a.b", "a/b")
			r.write("src-x/f", "f\n")
			r.write("src.x", "f\n")
		}},
		{"untracked gitignore itself", func(r *statusRepo) {
			r.write("d/.gitignore", "*\n")
			r.write("d/x", "x\n")
			r.write("e/.gitignore", "x\n")
			r.write("e/x", "x\n")
		}},
		{"tracked files under an ignored folder", func(r *statusRepo) {
			r.write(".gitignore", "docs/\n")
			r.write("docs/new.md", "n\n")
			r.write("docs/guide.md", "# changed guide\n")
		}},
		{"crlf content without conversion", func(r *statusRepo) {
			r.write("win.txt", "a\r\nb\r\n")
			r.commit("crlf")
			r.write("win.txt", "a\r\nc\r\n")
		}},
		{"gitattributes without conversion", func(r *statusRepo) {
			r.write(".gitattributes", "*.png binary\n")
			r.commit("attrs")
			r.write("a.txt", "alpha 2\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := baseRepo(t)
			tc.setup(r)
			r.check(t)
		})
	}
}

func TestNativeStatusUnbornHead(t *testing.T) {
	r := newStatusRepo(t)
	r.check(t)
	r.write("a.txt", "a\n")
	r.write("dir/b.txt", "b\n")
	r.write("dir/c.txt", "c\n")
	r.check(t)
	r.git("add", "a.txt", "dir/b.txt")
	r.write("a.txt", "changed\n")
	r.check(t)
}

func TestNativeStatusSkipsTreesByCacheTree(t *testing.T) {
	r := newStatusRepo(t)
	for i := range 40 {
		for j := range 5 {
			r.write("pkg"+itoa(i)+"/f"+itoa(j)+".go", "package p\n// "+itoa(i*j)+"\n")
		}
	}
	r.commit("many")
	r.settle()
	r.check(t)
	// One staged change invalidates the cache-tree nodes on its way up
	// only; the other folders are skipped.
	r.write("pkg7/f1.go", "package p // staged\n")
	r.git("add", "pkg7/f1.go")
	r.write("pkg9/f2.go", "package p // unstaged\n")
	r.check(t)
	ix, _, err := readIndexFile(filepath.Join(r.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ix.cacheTree["pkg7"]; ok {
		t.Errorf("cache-tree node pkg7 should be invalid after staging a change in it")
	}
	if _, ok := ix.cacheTree["pkg8"]; !ok {
		t.Errorf("cache-tree node pkg8 should be valid; nodes: %d", len(ix.cacheTree))
	}
}

func TestNativeStatusDeclines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(r *statusRepo)
	}{
		{"staged rename candidate", func(r *statusRepo) { r.git("mv", "a.txt", "b.txt") }},
		{"merge conflict", func(r *statusRepo) {
			r.git("checkout", "-q", "-b", "other")
			r.write("a.txt", "other side\n")
			r.commit("other")
			r.git("checkout", "-q", "main")
			r.write("a.txt", "main side\n")
			r.commit("main")
			r.gitMayFail("merge", "-q", "other")
		}},
		{"submodule gitlink", func(r *statusRepo) {
			sub := newStatusRepo(r.t)
			sub.write("s", "s\n")
			sub.commit("sub")
			r.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub.dir, "sub")
		}},
		{"split index", func(r *statusRepo) { r.git("update-index", "--split-index") }},
		{"sparse checkout", func(r *statusRepo) {
			r.git("sparse-checkout", "set", "--no-cone", "/src/")
		}},
		{"path with a space", func(r *statusRepo) { r.write("with space.txt", "x\n") }},
		{"path with a quote", func(r *statusRepo) { r.write(`q"uote`, "x\n") }},
		{"filter attribute", func(r *statusRepo) {
			r.write(".gitattributes", "*.txt filter=lfs\n")
			r.commit("attrs")
		}},
		{"eol attribute", func(r *statusRepo) { r.write(".git/info/attributes", "* eol=crlf\n") }},
		{"autocrlf with a CR to hash", func(r *statusRepo) {
			r.git("config", "core.autocrlf", "true")
			r.write("a.txt", "alph\r\n") // same size: hashed
		}},
		{"show untracked all", func(r *statusRepo) { r.git("config", "status.showUntrackedFiles", "all") }},
		{"ignore case", func(r *statusRepo) { r.git("config", "core.ignoreCase", "true") }},
		{"renames setting", func(r *statusRepo) { r.git("config", "status.renames", "false") }},
		{"assume unchanged", func(r *statusRepo) { r.git("update-index", "--assume-unchanged", "a.txt") }},
		{"intent to add", func(r *statusRepo) { r.write("n", "n\n"); r.git("add", "-N", "n") }},
		{"worktree elsewhere", func(r *statusRepo) { r.git("config", "core.worktree", "/tmp") }},
		{"include", func(r *statusRepo) { r.git("config", "include.path", "other") }},
		{"character class pattern", func(r *statusRepo) { r.write(".gitignore", "[[:digit:]]*\n") }},
		{"gitfile in untracked folder", func(r *statusRepo) { r.write("w/.git", "gitdir: /nowhere\n") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := baseRepo(t)
			tc.setup(r)
			r.checkDeclines(t)
		})
	}
}

// copyTree copies the regular files below src into dst.
func copyTree(tb testing.TB, src, dst string) int {
	tb.Helper()
	n := 0
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkStatus measures nativeStatus against the git status process
// it replaces, on a copy of $GOROOT/src/net/http committed into a
// repository whose index is refreshed (the usual state at start-up),
// with one modified and one untracked file.
func BenchmarkStatus(b *testing.B) {
	r := newStatusRepo(b)
	src := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	files := copyTree(b, src, r.dir)
	r.commit("net/http")
	r.settle()
	r.write("server.go", "changed\n")
	r.write("notes.txt", "untracked\n")
	want := r.gitStatus()
	b.Logf("%d files; status:\n%s", files, want)
	b.Run("native", func(b *testing.B) {
		for b.Loop() {
			got, err := r.native()
			if err != nil || got != want {
				b.Fatalf("nativeStatus = %q, %v; want %q", got, err, want)
			}
		}
	})
	b.Run("git-status", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off", "status", "--short")
			cmd.Dir, cmd.Env = r.dir, r.env
			if out, err := cmd.Output(); err != nil || string(out) != want {
				b.Fatalf("git status: %q, %v", out, err)
			}
		}
	})
}

// TestNativeStatusStopsWhenTheContextEnds: a walk that outlives the
// snapshot's deadline gives up instead of holding start-up.
func TestNativeStatusStopsWhenTheContextEnds(t *testing.T) {
	r := newStatusRepo(t)
	r.write("a.txt", "a\n")
	r.git("add", "a.txt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := nativeStatus(ctx, filepath.Join(r.dir, ".git"), r.dir, r.env); !errors.Is(err, context.Canceled) {
		t.Errorf("nativeStatus with an ended context = %v, want context.Canceled", err)
	}
}
