package gitinfo

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// emptyTreeID is the id of git's empty tree.
const emptyTreeID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// requireGit fails under CI when git is missing and skips otherwise.
func requireGit(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("git is required under CI: %v", err)
		}
		tb.Skipf("git not installed: %v", err)
	}
}

// logRepo is a scratch repository whose git runs isolated from the
// user's configuration, with a clock for commit dates.
type logRepo struct {
	tb    testing.TB
	dir   string
	env   []string
	clock int64 // date of the next commit, in Unix seconds
}

func newLogRepo(tb testing.TB, initArgs ...string) *logRepo {
	tb.Helper()
	requireGit(tb)
	home := tb.TempDir()
	r := &logRepo{tb: tb, dir: tb.TempDir(), clock: 1767225600}
	r.env = append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "LC_ALL=C")
	r.git(append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	return r
}

func (r *logRepo) gitDir() string { return filepath.Join(r.dir, ".git") }

// gitIn runs git in dir with extra environment, failing the test on
// error, and returns its output.
func (r *logRepo) gitIn(dir string, extra []string, stdin string, args ...string) string {
	r.tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(r.env), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		r.tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

func (r *logRepo) git(args ...string) string {
	r.tb.Helper()
	return strings.TrimSpace(r.gitIn(r.dir, nil, "", args...))
}

// commitIn commits msg verbatim (no file change) in dir at the clock's
// date, then advances the clock by a minute.
func (r *logRepo) commitIn(dir, msg string) {
	r.tb.Helper()
	date := fmt.Sprintf("%d +0000", r.clock)
	r.clock += 60
	r.gitIn(dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, msg,
		"commit", "-q", "--allow-empty", "--allow-empty-message", "--cleanup=verbatim", "-F", "-")
}

func (r *logRepo) commit(msg string) {
	r.tb.Helper()
	r.commitIn(r.dir, msg)
}

func (r *logRepo) commits(n int, format string) {
	r.tb.Helper()
	for i := range n {
		r.commit(fmt.Sprintf(format, i+1))
	}
}

// gitLog is the reference: git log's lines in dir, without newlines.
func (r *logRepo) gitLog(dir string, n int) []string {
	r.tb.Helper()
	out := r.gitIn(dir, nil, "", "log", "--oneline", "--no-decorate", "--no-color", "-n"+strconv.Itoa(n))
	lines := strings.Split(out, "\n")
	return lines[:len(lines)-1]
}

// check compares recentCommitsEnv with git log for several counts.
func (r *logRepo) check(dir, gitDir string) {
	r.tb.Helper()
	for _, n := range []int{1, 2, 5, 12} {
		got, err := recentCommitsEnv(gitDir, n, r.env)
		if err != nil {
			r.tb.Fatalf("recentCommits(-n%d): %v", n, err)
		}
		if want := r.gitLog(dir, n); !slices.Equal(got, want) {
			r.tb.Fatalf("recentCommits(-n%d):\n got %q\nwant %q", n, got, want)
		}
	}
}

// packedTypes counts the pack entries of each type, read with the
// package's own index and header readers.
func packedTypes(t *testing.T, gitDir string) map[int]int {
	t.Helper()
	s, err := openObjectStore(filepath.Join(gitDir, "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	types := map[int]int{}
	for _, p := range s.packs {
		if err := p.openPack(); err != nil {
			t.Fatal(err)
		}
		for i := range p.count {
			off, err := p.offset(i)
			if err != nil {
				t.Fatal(err)
			}
			h, _, err := p.readEntry(off)
			if err != nil {
				t.Fatal(err)
			}
			types[h.typ]++
		}
	}
	return types
}

// deltifiedCommits counts the commits `git verify-pack -v` lists with a
// delta depth.
func deltifiedCommits(t *testing.T, r *logRepo) int {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.idx"))
	n := 0
	for _, f := range idx {
		for line := range strings.SplitSeq(r.git("verify-pack", "-v", f), "\n") {
			if fields := strings.Fields(line); len(fields) == 7 && fields[1] == "commit" {
				n++
			}
		}
	}
	return n
}

// midxPacks checks how many packs the repository and its
// multi-pack-index have.
func midxPacks(t *testing.T, r *logRepo, covered, all int) {
	t.Helper()
	s, err := openObjectStore(filepath.Join(r.gitDir(), "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if s.midx == nil || len(s.midx.packs) != covered || len(s.packs) != all {
		t.Fatalf("multi-pack-index %+v over %d packs: want %d of %d", s.midx, len(s.packs), covered, all)
	}
}

func deltaFriendlyMessage(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Change number %d of the series\n\n", i)
	for j := range 30 {
		fmt.Fprintf(&b, "This paragraph line %d repeats so that the commits look alike and git deltifies them.\n", j)
	}
	fmt.Fprintf(&b, "Signed-off-by: number %d\n", i)
	return b.String()
}

func TestRecentCommitsMatchesGitLog(t *testing.T) {
	cases := []struct {
		name  string
		build func(t *testing.T, r *logRepo) (dir, gitDir string)
	}{
		{"linear loose", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(8, "commit number %d")
			if packs, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.pack")); len(packs) != 0 {
				t.Fatalf("want only loose objects, have packs %v", packs)
			}
			return r.dir, r.gitDir()
		}},
		{"linear after gc", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(8, "commit number %d")
			r.git("gc", "-q")
			if loose := r.git("count-objects"); !strings.HasPrefix(loose, "0 objects") {
				t.Fatalf("want everything packed, count-objects says %q", loose)
			}
			return r.dir, r.gitDir()
		}},
		{"deltified by offset", func(t *testing.T, r *logRepo) (string, string) {
			for i := range 12 {
				r.commit(deltaFriendlyMessage(i))
			}
			r.git("repack", "-adf", "-q", "--depth=50", "--window=250")
			if deltifiedCommits(t, r) == 0 || packedTypes(t, r.gitDir())[objOfsDelta] == 0 {
				t.Fatal("repack made no commit delta")
			}
			return r.dir, r.gitDir()
		}},
		{"deltified by id", func(t *testing.T, r *logRepo) (string, string) {
			for i := range 12 {
				r.commit(deltaFriendlyMessage(i))
			}
			r.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adf", "-q", "--depth=50", "--window=250")
			if deltifiedCommits(t, r) == 0 || packedTypes(t, r.gitDir())[objRefDelta] == 0 {
				t.Fatal("repack made no commit delta by id")
			}
			return r.dir, r.gitDir()
		}},
		{"merge with interleaved dates", func(t *testing.T, r *logRepo) (string, string) {
			r.commit("base")
			r.git("branch", "feature")
			for i := range 4 {
				r.commit(fmt.Sprintf("main %d", i))
				r.git("checkout", "-q", "feature")
				r.commit(fmt.Sprintf("feature %d", i))
				r.git("checkout", "-q", "main")
			}
			r.gitIn(r.dir, []string{"GIT_COMMITTER_DATE=1767300000 +0000"}, "", "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
			r.commit("after merge")
			return r.dir, r.gitDir()
		}},
		{"octopus merge with equal and skewed dates", func(t *testing.T, r *logRepo) (string, string) {
			r.commit("base")
			for _, b := range []string{"a", "b", "c"} {
				r.git("checkout", "-q", "-b", b, "main")
				for i := range 3 {
					r.clock = 1767225600 + 120 // many equal dates across branches
					r.commit(fmt.Sprintf("%s %d", b, i))
				}
			}
			r.git("checkout", "-q", "main")
			r.clock = 1767225000 // a merge older than its parents
			r.commit("on main before the merge")
			r.gitIn(r.dir, []string{"GIT_COMMITTER_DATE=1767225000 +0000"}, "", "merge", "-q", "--no-ff", "-m", "octopus", "a", "b", "c")
			return r.dir, r.gitDir()
		}},
		{"messages", func(t *testing.T, r *logRepo) (string, string) {
			for _, m := range []string{
				"subject only",
				"first line\nsecond line of the first paragraph\n\nbody text\n",
				"\n\n  leading blank lines and spaces  \n\nbody",
				"trailing white space   \t\n",
				"crlf line\r\nnext line\r\n\r\nbody\r\n",
				"",
				"   \n\t\n",
				"unicode: h\u00e9llo w\u00f6rld \u2713",
				"tab\tinside\fform feed\vvertical tab",
				"no newline at the end",
			} {
				r.commit(m)
			}
			return r.dir, r.gitDir()
		}},
		{"raw commits", func(t *testing.T, r *logRepo) (string, string) {
			r.commit("base")
			for _, msg := range []string{"\nbefore\x00after\n", "\n", "\n\n\nthree blank lines\n", "\nno blank line follows"} {
				head := r.git("rev-parse", "HEAD")
				raw := fmt.Sprintf("tree %s\nparent %s\nauthor t <t@example.com> %d +0000\ncommitter t <t@example.com> %d +0000\n%s",
					emptyTreeID, head, r.clock, r.clock, msg)
				r.clock += 60
				id := strings.TrimSpace(r.gitIn(r.dir, nil, raw, "hash-object", "-t", "commit", "-w", "--stdin", "--literally"))
				r.git("update-ref", "refs/heads/main", id)
			}
			return r.dir, r.gitDir()
		}},
		{"detached head", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(8, "commit number %d")
			r.git("checkout", "-q", "--detach", "HEAD~3")
			return r.dir, r.gitDir()
		}},
		{"worktree", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(3, "main %d")
			wt := filepath.Join(t.TempDir(), "wt")
			r.git("worktree", "add", "-q", "-b", "side", wt)
			r.commitIn(wt, "in the worktree 1")
			r.commitIn(wt, "in the worktree 2")
			r.check(r.dir, r.gitDir())
			gitDir := strings.TrimSpace(r.gitIn(wt, nil, "", "rev-parse", "--absolute-git-dir"))
			if _, err := os.Stat(filepath.Join(gitDir, "commondir")); err != nil {
				t.Fatalf("worktree git folder %s: %v", gitDir, err)
			}
			return wt, gitDir
		}},
		{"packed refs only", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(6, "commit number %d")
			r.git("tag", "-a", "-m", "annotated", "v1")
			r.git("pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(r.gitDir(), "refs", "heads", "main")); err == nil {
				t.Fatal("refs/heads/main is still loose")
			}
			return r.dir, r.gitDir()
		}},
		{"symbolic ref chain", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(3, "commit number %d")
			r.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
			r.git("symbolic-ref", "HEAD", "refs/heads/alias")
			return r.dir, r.gitDir()
		}},
		{"shallow clone", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(8, "commit number %d")
			dst := filepath.Join(t.TempDir(), "clone")
			r.git("clone", "-q", "--depth", "3", "file://"+r.dir, dst)
			if _, err := os.Stat(filepath.Join(dst, ".git", "shallow")); err != nil {
				t.Fatalf("clone is not shallow: %v", err)
			}
			return dst, filepath.Join(dst, ".git")
		}},
		{"multi-pack-index and a pack outside it", func(t *testing.T, r *logRepo) (string, string) {
			importHistory(t, r, 1<<14-20, 3) // 16373 objects: below 2^14
			r.git("multi-pack-index", "write")
			r.commits(12, "outside the multi-pack-index %d")
			r.git("repack", "-d", "-q")
			midxPacks(t, r, 1, 2)
			if id, _, _ := strings.Cut(r.gitLog(r.dir, 1)[0], " "); len(id) != 8 {
				t.Fatalf("git abbreviates to %q: want 8 digits once the outside pack counts", id)
			}
			return r.dir, r.gitDir()
		}},
		{"multi-pack-index over every pack", func(t *testing.T, r *logRepo) (string, string) {
			importHistory(t, r, 9000, 3)
			r.commits(2, "second pack %d")
			r.git("repack", "-d", "-q")
			r.git("multi-pack-index", "write")
			midxPacks(t, r, 2, 2)
			if id, _, _ := strings.Cut(r.gitLog(r.dir, 1)[0], " "); len(id) != 7 {
				t.Fatalf("git abbreviates to %q: want 7 digits, the packs counted once", id)
			}
			return r.dir, r.gitDir()
		}},
		{"loose and packed mixed", func(t *testing.T, r *logRepo) (string, string) {
			r.commits(4, "packed %d")
			r.git("gc", "-q")
			r.commits(3, "loose %d")
			return r.dir, r.gitDir()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newLogRepo(t)
			dir, gitDir := tc.build(t, r)
			r.check(dir, gitDir)
		})
	}
}

func TestRecentCommitsEmptyRepoIsNil(t *testing.T) {
	t.Parallel()
	r := newLogRepo(t)
	got, err := recentCommitsEnv(r.gitDir(), 5, r.env)
	if err != nil || got != nil {
		t.Fatalf("recentCommits on a new repository = %q, %v; want nil, nil", got, err)
	}
	cmd := exec.Command("git", "log", "--oneline", "-n5")
	cmd.Dir, cmd.Env = r.dir, r.env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "does not have any commits") {
		t.Fatalf("git log on a new repository: %v %s; want the no-commits failure", err, out)
	}
}

// importHistory adds unreferenced blobs and then commits on main,
// each changing one file, in one pack.
func importHistory(tb testing.TB, r *logRepo, blobs, commits int) {
	tb.Helper()
	var s strings.Builder
	for i := range blobs {
		c := fmt.Sprintf("%d\n", i) // short: fast-import tries no delta
		fmt.Fprintf(&s, "blob\ndata %d\n%s\n", len(c), c)
	}
	for i := range commits {
		msg := fmt.Sprintf("imported commit %d\n\nwith a body\n", i)
		c := fmt.Sprintf("content %d\n", i)
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter t <t@example.com> %d +0000\ndata %d\n%s\nM 644 inline f.txt\ndata %d\n%s\n",
			r.clock, len(msg), msg, len(c), c)
		r.clock += 60
	}
	r.gitIn(r.dir, nil, s.String(), "fast-import", "--quiet")
}

func TestRecentCommitsAbbrevGrowsWithPackedObjects(t *testing.T) {
	t.Parallel()
	r := newLogRepo(t)
	importHistory(t, r, 1<<14, 20) // 16384 blobs + 20 commits, trees, blobs: 2^14 <= count
	r.check(r.dir, r.gitDir())
	got, err := recentCommitsEnv(r.gitDir(), 1, r.env)
	if err != nil {
		t.Fatal(err)
	}
	if id, _, _ := strings.Cut(got[0], " "); len(id) != 8 {
		t.Fatalf("abbreviation %q: want 8 digits for more than 2^14 objects", id)
	}
}

// TestRecentCommitsAbbrevCollision makes a commit whose first 7 hex
// digits equal a blob's, so both readers must lengthen the abbreviation:
// first with the blob loose, then with it packed.
func TestRecentCommitsAbbrevCollision(t *testing.T) {
	t.Parallel()
	r := newLogRepo(t)
	r.commit("base")
	head := r.git("rev-parse", "HEAD")
	hash := func(typ, body string) [20]byte {
		return sha1.Sum([]byte(fmt.Sprintf("%s %d\x00%s", typ, len(body), body)))
	}
	prefix := func(id [20]byte) uint32 { return binary.BigEndian.Uint32(id[:4]) >> 4 } // 7 hex digits
	blobs := map[uint32]string{}
	for i := range 1 << 15 {
		c := fmt.Sprintf("candidate %d\n", i)
		blobs[prefix(hash("blob", c))] = c
	}
	var commit, blob string
	for k := 0; blob == ""; k++ {
		commit = fmt.Sprintf("tree %s\nparent %s\nauthor t <t@example.com> %d +0000\ncommitter t <t@example.com> %d +0000\n\ncollide %d\n",
			emptyTreeID, head, r.clock, r.clock, k)
		blob = blobs[prefix(hash("commit", commit))]
	}
	blobID := strings.TrimSpace(r.gitIn(r.dir, nil, blob, "hash-object", "-w", "--stdin"))
	id := strings.TrimSpace(r.gitIn(r.dir, nil, commit, "hash-object", "-t", "commit", "-w", "--stdin"))
	r.git("update-ref", "refs/heads/main", id)
	if blobID[:7] != id[:7] {
		t.Fatalf("no collision: blob %s, commit %s", blobID, id)
	}
	r.check(r.dir, r.gitDir())
	if got := r.gitLog(r.dir, 1)[0]; strings.Index(got, " ") < 8 {
		t.Fatalf("git log %q: want a lengthened abbreviation", got)
	}
	r.gitIn(r.dir, nil, blobID+"\n", "pack-objects", "-q", filepath.Join(r.gitDir(), "objects", "pack", "pack"))
	r.git("prune-packed")
	if _, err := os.Stat(filepath.Join(r.gitDir(), "objects", blobID[:2], blobID[2:])); err == nil {
		t.Fatal("the blob is still loose")
	}
	r.check(r.dir, r.gitDir())
}

func TestRecentCommitsUnsupported(t *testing.T) {
	cases := []struct {
		name  string
		init  []string
		setup func(t *testing.T, r *logRepo) []string // returns extra env
		want  string                                  // in the error
	}{
		{"core.abbrev in the repository", nil, func(t *testing.T, r *logRepo) []string {
			r.git("config", "core.abbrev", "12")
			return nil
		}, "core.abbrev"},
		{"core.abbrev in ~/.gitconfig", nil, func(t *testing.T, r *logRepo) []string {
			home := t.TempDir()
			writeRepoFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = x\n[core]\n\tAbbrev = 10 ; a comment\n")
			return []string{"HOME=" + home}
		}, "core.abbrev"},
		{"core.abbrev in the XDG config", nil, func(t *testing.T, r *logRepo) []string {
			xdg := t.TempDir()
			writeRepoFile(t, filepath.Join(xdg, "git", "config"), "[core] abbrev = 9\n")
			return []string{"XDG_CONFIG_HOME=" + xdg}
		}, "core.abbrev"},
		{"sha256", []string{"--object-format=sha256"}, nil, "objectformat"},
		{"alternates", nil, func(t *testing.T, r *logRepo) []string {
			other := newLogRepo(t)
			other.commit("elsewhere")
			writeRepoFile(t, filepath.Join(r.gitDir(), "objects", "info", "alternates"), filepath.Join(other.gitDir(), "objects")+"\n")
			return nil
		}, "alternates"},
		{"replace ref", nil, func(t *testing.T, r *logRepo) []string {
			r.git("replace", "HEAD~1", "HEAD~2")
			return nil
		}, "refs/replace"},
		{"packed replace ref", nil, func(t *testing.T, r *logRepo) []string {
			r.git("replace", "HEAD~1", "HEAD~2")
			r.git("pack-refs", "--all")
			return nil
		}, "refs/replace"},
		{"grafts", nil, func(t *testing.T, r *logRepo) []string {
			writeRepoFile(t, filepath.Join(r.gitDir(), "info", "grafts"), r.git("rev-parse", "HEAD")+"\n")
			return nil
		}, "grafts"},
		{"log output encoding", nil, func(t *testing.T, r *logRepo) []string {
			r.git("config", "i18n.logOutputEncoding", "ISO-8859-1")
			return nil
		}, "logoutputencoding"},
		{"show signature", nil, func(t *testing.T, r *logRepo) []string {
			r.git("config", "log.showSignature", "true")
			return nil
		}, "showsignature"},
		{"include", nil, func(t *testing.T, r *logRepo) []string {
			r.git("config", "include.path", "other.config")
			return nil
		}, "include"},
		{"commit encoding header", nil, func(t *testing.T, r *logRepo) []string {
			r.gitIn(r.dir, nil, "caf\xe9\n", "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "--allow-empty", "-F", "-")
			return nil
		}, "encoding"},
		{"multi-pack-index turned off", nil, func(t *testing.T, r *logRepo) []string {
			r.git("gc", "-q")
			r.git("multi-pack-index", "write")
			r.git("config", "core.multiPackIndex", "false")
			return nil
		}, "multipackindex"},
		{"pack without index", nil, func(t *testing.T, r *logRepo) []string {
			r.git("gc", "-q")
			idx, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.idx"))
			for _, f := range idx {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			return nil
		}, "has no index"},
		{"pack only in the multi-pack-index", nil, func(t *testing.T, r *logRepo) []string {
			r.git("gc", "-q")
			r.git("multi-pack-index", "write")
			idx, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.idx"))
			for _, f := range idx {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			return nil // git 2.39 fails too ("index unavailable"); the caller's git log reports it
		}, "only in the multi-pack-index"},
		{"object directory in the environment", nil, func(t *testing.T, r *logRepo) []string {
			return []string{"GIT_OBJECT_DIRECTORY=" + filepath.Join(r.gitDir(), "objects")}
		}, "GIT_OBJECT_DIRECTORY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newLogRepo(t, tc.init...)
			r.commits(3, "commit %d")
			var extra []string
			if tc.setup != nil {
				extra = tc.setup(t, r)
			}
			_, err := recentCommitsEnv(r.gitDir(), 5, append(slices.Clip(r.env), extra...))
			if !errors.Is(err, errUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("recentCommits = %v; want errUnsupported naming %q", err, tc.want)
			}
		})
	}
}

func writeRepoFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecentCommitsDamagedRepository breaks objects and files in ways a
// crash or a bad disk could, and wants an error naming the problem (not
// errUnsupported, not a panic).
func TestRecentCommitsDamagedRepository(t *testing.T) {
	cases := []struct {
		name   string
		packed bool
		damage func(t *testing.T, r *logRepo)
		want   string
	}{
		{"garbage loose commit", false, func(t *testing.T, r *logRepo) {
			id := r.git("rev-parse", "HEAD")
			name := filepath.Join(r.gitDir(), "objects", id[:2], id[2:])
			os.Chmod(name, 0o644)
			writeRepoFile(t, name, "not zlib at all")
		}, "read object"},
		{"truncated pack", true, func(t *testing.T, r *logRepo) {
			packs, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.pack"))
			os.Chmod(packs[0], 0o644)
			if err := os.Truncate(packs[0], 40); err != nil {
				t.Fatal(err)
			}
		}, "pack"},
		{"flipped pack bytes", true, func(t *testing.T, r *logRepo) {
			packs, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.pack"))
			data, err := os.ReadFile(packs[0])
			if err != nil {
				t.Fatal(err)
			}
			for i := 12; i < len(data)-20; i += 7 {
				data[i] ^= 0x5a
			}
			os.Chmod(packs[0], 0o644)
			writeRepoFile(t, packs[0], string(data))
		}, "pack"},
		{"short index", true, func(t *testing.T, r *logRepo) {
			idx, _ := filepath.Glob(filepath.Join(r.gitDir(), "objects", "pack", "*.idx"))
			os.Chmod(idx[0], 0o644)
			if err := os.Truncate(idx[0], 1100); err != nil {
				t.Fatal(err)
			}
		}, "pack index"},
		{"bad HEAD", false, func(t *testing.T, r *logRepo) {
			writeRepoFile(t, filepath.Join(r.gitDir(), "HEAD"), "nonsense\n")
		}, "HEAD"},
		{"missing parent", false, func(t *testing.T, r *logRepo) {
			id := r.git("rev-parse", "HEAD~1")
			if err := os.Remove(filepath.Join(r.gitDir(), "objects", id[:2], id[2:])); err != nil {
				t.Fatal(err)
			}
		}, "not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newLogRepo(t)
			r.commits(4, "commit %d")
			if tc.packed {
				r.git("gc", "-q")
			}
			tc.damage(t, r)
			_, err := recentCommitsEnv(r.gitDir(), 5, r.env)
			if err == nil || errors.Is(err, errUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("recentCommits = %v; want an error naming %q", err, tc.want)
			}
		})
	}
}

// TestPackFind looks up every id of a pack, ids between them and ids
// outside them, with the narrowing steps forced, and compares the place
// and neighbours with a scan of the sorted ids.
func TestPackFind(t *testing.T) {
	r := newLogRepo(t)
	importHistory(t, r, 3000, 5)
	s, err := openObjectStore(filepath.Join(r.gitDir(), "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if len(s.packs) != 1 {
		t.Fatalf("want one pack, have %d", len(s.packs))
	}
	p := s.packs[0]
	var ids []oid
	for i := range p.count {
		o, err := p.nthID(i)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o)
	}
	probes := []oid{{}, {0xff, 0xff, 0xff, 0xff}}
	for _, o := range ids {
		probes = append(probes, o)
		o[hashLen-1]++ // usually between two ids
		probes = append(probes, o)
	}
	for _, window := range []uint32{1, 2, 7, findWindow} {
		p.window, p.places = window, nil
		for _, id := range probes {
			pl, err := p.find(id)
			if err != nil {
				t.Fatal(err)
			}
			pos, found := slices.BinarySearchFunc(ids, id, func(a, b oid) int { return bytes.Compare(a[:], b[:]) })
			var near []oid
			switch {
			case found && pos+1 < len(ids):
				near = append(near, ids[pos+1])
			case !found && pos < len(ids):
				near = append(near, ids[pos])
			}
			if pos > 0 {
				near = append(near, ids[pos-1])
			}
			if pl.pos != uint32(pos) || pl.found != found || !slices.Equal(pl.near, near) {
				t.Fatalf("window %d: find(%s) = %d %v %v; want %d %v %v", window, id, pl.pos, pl.found, pl.near, pos, found, near)
			}
		}
	}
}

func TestApplyDelta(t *testing.T) {
	base := []byte("0123456789abcdefghij")
	big := bytes.Repeat([]byte("x"), 0x10000)
	cases := []struct {
		name  string
		base  []byte
		delta []byte
		want  string // "" with err
		err   string
	}{
		{"copy and insert", base, []byte{20, 7, 0x91, 2, 3, 4, 'X', 'Y', 'Z', 'W'}, "234XYZW", ""},
		{"copy with zero offset bytes", base, []byte{20, 4, 0x90, 4}, "0123", ""},
		{"copy size 0 means 0x10000", big, []byte{0x80, 0x80, 4, 0x80, 0x80, 4, 0x80}, string(big), ""},
		{"base size mismatch", base, []byte{19, 1, 1, 'a'}, "", "base of 19"},
		{"copy outside the base", base, []byte{20, 5, 0x91, 18, 5}, "", "outside a base"},
		{"insert cut short", base, []byte{20, 5, 5, 'a'}, "", "cut short"},
		{"reserved op", base, []byte{20, 1, 0}, "", "reserved"},
		{"result shorter than declared", base, []byte{20, 5, 1, 'a'}, "", "declared 5"},
		{"result longer than declared", base, []byte{20, 1, 2, 'a', 'b'}, "", "past the result size"},
		{"declared size above the limit", base, []byte{20, 0xff, 0xff, 0xff, 0xff, 0x7f}, "", "above the limit"},
		{"truncated header", base, []byte{0x80}, "", "bad base size"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyDelta(tc.base, tc.delta, 1<<20)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("applyDelta = %q, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("applyDelta = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestCommitSubject(t *testing.T) {
	head := "tree " + emptyTreeID + "\nauthor a <a> 1 +0000\ncommitter a <a> 1 +0000\n"
	cases := []struct{ msg, want string }{
		{"\nsubject\n", "subject"},
		{"\nline one\nline two\n\nbody\n", "line one line two"},
		{"\n\n \t\n  indented  \t\n", "  indented"},
		{"\ncr\r\nlf\r\n\r\nbody", "cr lf"},
		{"\nbefore\x00after\n", "before"},
		{"", ""},
		{"\n", ""},
		{"\nno newline", "no newline"},
	}
	for _, tc := range cases {
		if got := commitSubject([]byte(head + tc.msg)); got != tc.want {
			t.Errorf("commitSubject(%q) = %q; want %q", tc.msg, got, tc.want)
		}
	}
}

func TestParseCommitDates(t *testing.T) {
	head := "tree " + emptyTreeID + "\nparent " + emptyTreeID + "\n"
	cases := []struct {
		rest string
		want uint64
		err  bool
	}{
		{"author a <a> 5 +0000\ncommitter c <c> 1767225600 +0100\n\nm\n", 1767225600, false},
		{"committer c <c> 7 +0000\n\nm\n", 0, false}, // no author line: git reads 0
		{"author a <a> 5 +0000\ncommitter c> <c> 7 +0000\n\nm\n", 0, true},
		{"author a <a> 5 +0000\ncommitter c <c> -7 +0000\n\nm\n", 0, true},
		{"author a <a> 5 +0000\ncommitter c <c> 7 +0000\n", 0, true}, // nothing after the line
	}
	for _, tc := range cases {
		c, err := parseCommit([]byte(head + tc.rest))
		switch {
		case tc.err && !errors.Is(err, errUnsupported):
			t.Errorf("parseCommit(%q) = %v; want errUnsupported", tc.rest, err)
		case !tc.err && (err != nil || c.date != tc.want || len(c.parents) != 1):
			t.Errorf("parseCommit(%q) = %+v, %v; want date %d and one parent", tc.rest, c, err, tc.want)
		}
	}
}

func TestDefaultAbbrev(t *testing.T) {
	for _, tc := range []struct {
		count uint64
		want  int
	}{{0, 7}, {1, 7}, {8191, 7}, {16383, 7}, {16384, 8}, {65535, 8}, {65536, 9}, {1 << 20, 11}} {
		if got := defaultAbbrev(tc.count); got != tc.want {
			t.Errorf("defaultAbbrev(%d) = %d; want %d", tc.count, got, tc.want)
		}
	}
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789abcdefghij"), []byte{20, 7, 0x91, 2, 3, 4, 'X', 'Y', 'Z', 'W'})
	f.Add([]byte("abc"), []byte{3, 0x80, 0x80, 4, 0x80})
	f.Add([]byte{}, []byte{0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		const limit = 1 << 16
		out, err := applyDelta(base, delta, limit)
		if err != nil {
			return
		}
		size, rest, ok := deltaVarint(delta)
		if ok {
			size, _, ok = deltaVarint(rest)
		}
		if !ok || uint64(len(out)) != size || len(out) > limit {
			t.Fatalf("applyDelta gave %d bytes; delta declared %d (limit %d)", len(out), size, limit)
		}
	})
}

func FuzzParseEntryHeader(f *testing.F) {
	f.Add([]byte{0x95, 0x0a}, int64(100))                       // commit of 165 bytes
	f.Add([]byte{0xe5, 0x01, 0x85, 0x01}, int64(4000))          // offset delta
	f.Add(append([]byte{0x75}, make([]byte, 20)...), int64(12)) // id delta
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, int64(12))
	f.Fuzz(func(t *testing.T, buf []byte, off int64) {
		if off < 0 {
			return
		}
		h, n, err := parseEntryHeader(buf, off)
		if err != nil {
			return
		}
		if n > len(buf) || h.dataOff != off+int64(n) {
			t.Fatalf("header length %d of %d bytes, data at %d", n, len(buf), h.dataOff)
		}
		if h.typ == objOfsDelta && (h.baseOff < 0 || h.baseOff >= off) {
			t.Fatalf("delta base at %d for an entry at %d", h.baseOff, off)
		}
	})
}

func FuzzInflateLoose(f *testing.F) {
	f.Add([]byte("commit 3\x00abc"), true)
	f.Add([]byte("blob 0\x00"), true)
	f.Add([]byte("tree 99999999999\x00"), true)
	f.Add([]byte("x\x9c\x01"), false)
	f.Fuzz(func(t *testing.T, data []byte, compress bool) {
		if compress {
			var b bytes.Buffer
			zw := zlib.NewWriter(&b)
			zw.Write(data)
			zw.Close()
			data = b.Bytes()
		}
		s := &objectStore{}
		typ, content, err := s.inflateLoose(bytes.NewReader(data))
		if err != nil {
			return
		}
		if typ < objCommit || typ > objTag || len(content) > maxObjectSize {
			t.Fatalf("type %d, %d bytes", typ, len(content))
		}
	})
}

func FuzzParseMidx(f *testing.F) {
	var seed bytes.Buffer
	seed.WriteString("MIDX\x01\x01\x02\x00\x00\x00\x00\x01")
	pnam := "pack-1.idx\x00"
	start := uint64(12 + 3*12)
	for _, c := range []struct {
		id  string
		off uint64
	}{{"PNAM", start}, {"OIDF", start + uint64(len(pnam))}, {"\x00\x00\x00\x00", start + uint64(len(pnam)) + 1024}} {
		seed.WriteString(c.id)
		binary.Write(&seed, binary.BigEndian, c.off)
	}
	seed.WriteString(pnam)
	seed.Write(make([]byte, 1024))
	f.Add(seed.Bytes())
	f.Add([]byte("MIDX\x01\x01\xff\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseMidx(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		if m.count > 1<<32 || len(m.packs) > len(data) {
			t.Fatalf("%d objects in %d packs from %d bytes", m.count, len(m.packs), len(data))
		}
	})
}

func FuzzParseCommit(f *testing.F) {
	f.Add([]byte("tree " + emptyTreeID + "\nparent " + emptyTreeID + "\nauthor a <a> 1 +0000\ncommitter c <c> 2 +0000\n\nsubject\n\nbody\n"))
	f.Add([]byte("tree " + emptyTreeID + "\nauthor a <a> 1 +0000\ncommitter c <c> 2 +0000\nencoding latin1\n\n\n x \n"))
	f.Add([]byte("tree " + emptyTreeID + "\nparent 123\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCommit(data)
		if err != nil {
			return
		}
		if strings.Contains(c.subject, "\n") || len(c.subject) > len(data) {
			t.Fatalf("subject %q is not one line of the commit", c.subject)
		}
		if len(c.parents)*parentLineLen > len(data) {
			t.Fatalf("%d parents from %d bytes", len(c.parents), len(data))
		}
	})
}

// BenchmarkRecentCommits measures the reader against the git log process
// it replaces, on a packed repository of 2000 commits.
func BenchmarkRecentCommits(b *testing.B) {
	r := newLogRepo(b)
	importHistory(b, r, 0, 2000)
	r.git("gc", "-q")
	want := r.gitLog(r.dir, 5)
	b.Run("reader", func(b *testing.B) {
		for b.Loop() {
			got, err := recentCommitsEnv(r.gitDir(), 5, r.env)
			if err != nil || len(got) != 5 || got[0] != want[0] {
				b.Fatalf("recentCommits = %q, %v", got, err)
			}
		}
	})
	b.Run("git-log", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "--no-optional-locks", "log", "--oneline", "--no-decorate", "--no-color", "-n5")
			cmd.Dir, cmd.Env = r.dir, r.env
			if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), want[0]) {
				b.Fatalf("git log: %v", err)
			}
		}
	})
}
