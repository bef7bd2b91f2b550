package gitinfo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"reins/internal/fastpath"
)

// StatusLimit is the most characters of `git status --short` a snapshot
// keeps.
const StatusLimit = 2000

// CommitCount is how many recent commits a snapshot lists.
const CommitCount = 5

// DefaultTimeout bounds the whole snapshot when Options.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// Options configures Take. The zero value is usable.
type Options struct {
	// Git is the git executable (default "git", looked up in PATH).
	Git string
	// Timeout bounds all the git commands together (default
	// DefaultTimeout).
	Timeout time.Duration
	// Env, when non-nil, is the environment of the git commands
	// (default: this process's environment). GIT_OPTIONAL_LOCKS=0 and
	// GIT_TERMINAL_PROMPT=0 are always added.
	Env []string
}

// Snapshot is the state of a repository at one moment. The zero value
// means "not a repository".
type Snapshot struct {
	// IsRepo reports whether the folder is inside a git work tree.
	IsRepo bool
	// Branch is the current branch, "" when HEAD is detached.
	Branch string
	// Detached is the abbreviated commit HEAD points at when it is
	// detached.
	Detached string
	// MainBranch is the branch pull requests usually target: origin's
	// default branch, else main or master when one exists.
	MainBranch string
	// Status is the output of `git status --short`, cut to StatusLimit
	// characters.
	Status string
	// StatusTruncated reports that Status was cut.
	StatusTruncated bool
	// Commits are the last CommitCount commits, one "<hash> <subject>"
	// line each, newest first.
	Commits []string
	// Errs are the failures of individual commands (a timeout, git
	// missing). The fields they would have filled are empty.
	Errs []error

	statusFailed bool // Status is empty because git status failed
}

// Pending is a snapshot being taken.
type Pending struct {
	done chan struct{}
	snap Snapshot
}

// Start begins taking a snapshot of dir in the background. Call Wait for
// the result; the work stops when ctx is cancelled or the timeout passes.
func Start(ctx context.Context, dir string, o Options) *Pending {
	if o.Git == "" && o.Timeout == 0 && o.Env == nil && dir == early.dir {
		if p := early.p.Swap(nil); p != nil {
			return p
		}
	}
	p := &Pending{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.snap = Take(ctx, dir, o)
	}()
	return p
}

// early is the snapshot init started, for the first Start in the same
// folder with default options to take. dir is written once, by init.
var early struct {
	dir string
	p   atomic.Pointer[Pending]
}

// init starts the snapshot of a print or SDK run at the top of a plain
// work tree (fastpath.EarlyNativeDir) while the rest of the program
// initialises: reading the index and walking the tree takes a few
// milliseconds, which then overlap start-up instead of delaying the first
// request. The snapshot is bounded by DefaultTimeout like any other.
func init() {
	if dir := fastpath.EarlyNativeDir(); dir != "" {
		early.dir = dir
		early.p.Store(Start(context.Background(), dir, Options{}))
	}
}

// Wait blocks until the snapshot is taken and returns it.
func (p *Pending) Wait() Snapshot {
	<-p.done
	return p.snap
}

// Take returns a snapshot of the repository holding dir. A folder outside
// any repository returns the zero Snapshot without running git. It reads
// the recent commits and the main branch from the repository's files,
// and, when dir is the top of the work tree, the status too, because
// starting a process is most of the cost. git status (with the branch
// line) runs when dir is below the top or the status reader declines
// the repository, and git log only when the commit reader declines it.
func Take(ctx context.Context, dir string, o Options) Snapshot {
	gitDir, ok := findGitDir(dir, o.Env)
	if !ok {
		return Snapshot{}
	}
	if o.Git == "" {
		o.Git = "git"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	r := runner{dir: dir, o: o}
	var (
		wg         sync.WaitGroup
		st, logs   string
		errS, errL error
	)
	var (
		commits []string
		native  *nativeResult
	)
	wg.Go(func() {
		// At the top of a plain work tree the status is computed from
		// the repository's files, sparing a process; git status stays
		// the answer for everything that reader declines.
		if n, err := nativeSnapshot(ctx, dir, gitDir, o.Env); err == nil {
			native = &n
			if o.Git == "git" && o.Env == nil {
				fastpath.StopEarlyGit(dir, fastpath.GitStatusArgs)
			}
			return
		}
		st, errS = r.runFull(ctx, fastpath.GitStatusArgs)
	})
	wg.Go(func() {
		// Reading the commits from the files costs a fraction of a git
		// process; git log stays the answer for what the reader declines.
		var err error
		if commits, err = recentCommitsEnv(gitDir, CommitCount, o.Env); err != nil {
			commits = nil
			logs, errL = r.runFull(ctx, fastpath.GitLogArgs)
		}
	})
	wg.Wait()

	if errL != nil && strings.Contains(errL.Error(), "does not have any commits") {
		errL = nil // a new repository: no commits yet is not a failure
	}
	s := Snapshot{IsRepo: true, statusFailed: errS != nil}
	s.Errs = appendErr(s.Errs, errS, errL)
	head, rest, _ := strings.Cut(st, "\n")
	switch {
	case native != nil:
		s.Branch, s.Detached, rest = native.branch, native.detached, native.status
	case errS == nil:
		var detached bool
		s.Branch, detached = branchLine(head)
		if detached {
			// Detached HEAD: name the commit instead. Rare, so not worth a
			// third command on every start.
			h, err := r.run(ctx, "rev-parse", "--short", "HEAD")
			s.Detached = strings.TrimSpace(h)
			s.Errs = appendErr(s.Errs, err)
		}
	}
	s.MainBranch = mainBranchFromRefs(gitDir)
	s.Status, s.StatusTruncated = cut(strings.TrimRight(rest, "\n"), StatusLimit)
	s.Commits = commits
	if errL == nil && commits == nil {
		for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				s.Commits = append(s.Commits, l)
			}
		}
	}
	return s
}

// branchLine reads the "## ..." line of `git status --short --branch`:
// "## main...origin/main [ahead 1]", "## No commits yet on main" or
// "## HEAD (no branch)".
func branchLine(line string) (branch string, detached bool) {
	line = strings.TrimPrefix(strings.TrimSpace(line), "## ")
	switch {
	case strings.HasPrefix(line, "HEAD (no branch)"):
		return "", true
	case strings.HasPrefix(line, "No commits yet on "):
		return strings.TrimPrefix(line, "No commits yet on "), false
	case strings.HasPrefix(line, "Initial commit on "):
		return strings.TrimPrefix(line, "Initial commit on "), false
	}
	if b, _, ok := strings.Cut(line, "..."); ok {
		return b, false
	}
	b, _, _ := strings.Cut(line, " ")
	return b, false
}

// findGitDir finds the repository holding dir: its git folder (following
// a ".git" file of a worktree or submodule), or GIT_DIR.
func findGitDir(dir string, env []string) (string, bool) {
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_DIR="); ok && v != "" {
			return v, true
		}
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p, true
			}
			if data, err := os.ReadFile(p); err == nil {
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
					g = strings.TrimSpace(g)
					if !filepath.IsAbs(g) {
						g = filepath.Join(d, g)
					}
					return g, true
				}
			}
			return p, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// mainBranchFromRefs picks the main branch from the ref files: origin's
// HEAD when it names a branch, else main or master when one exists.
func mainBranchFromRefs(gitDir string) string {
	common := gitDir
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	if data, err := os.ReadFile(filepath.Join(common, "refs", "remotes", "origin", "HEAD")); err == nil {
		if b, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/remotes/origin/"); ok && b != "" {
			return b
		}
	}
	packed, _ := os.ReadFile(filepath.Join(common, "packed-refs"))
	has := func(ref string) bool {
		if _, err := os.Stat(filepath.Join(common, filepath.FromSlash(ref))); err == nil {
			return true
		}
		return bytes.Contains(packed, []byte(" "+ref+"\n"))
	}
	switch {
	case has("refs/heads/main"):
		return "main"
	case has("refs/heads/master"):
		return "master"
	}
	return ""
}

func appendErr(errs []error, add ...error) []error {
	for _, e := range add {
		if e != nil {
			errs = append(errs, e)
		}
	}
	return errs
}

// cut shortens s to at most limit bytes, at a line end when one is in
// the second half, never inside a UTF-8 sequence.
func cut(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	c := s[:limit]
	if i := strings.LastIndexByte(c, '\n'); i >= limit/2 {
		return c[:i], true
	}
	for limit > 0 && s[limit]&0xC0 == 0x80 {
		limit--
	}
	return s[:limit], true
}

type runner struct {
	dir string
	o   Options
}

func (r runner) run(ctx context.Context, args ...string) (string, error) {
	return r.runFull(ctx, append([]string{"--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off"}, args...))
}

// runFull runs git with the full argument list, or takes the output of
// the same command started while the program initialised.
func (r runner) runFull(ctx context.Context, full []string) (string, error) {
	args := full[5:] // after the common options, for messages
	if r.o.Git == "git" && r.o.Env == nil {
		if out, err, ok := fastpath.EarlyGit(ctx.Done(), r.dir, full); ok {
			if err != nil {
				return "", fmt.Errorf("git %s: %w", args[0], err)
			}
			return out, nil
		}
	}
	cmd := exec.CommandContext(ctx, r.o.Git, full...)
	cmd.Dir = r.dir
	env := r.o.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], fastpath.GitEnv...)
	cmd.WaitDelay = 200 * time.Millisecond
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		msg := strings.TrimSpace(errOut.String())
		if msg != "" && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return "", fmt.Errorf("git %s: %w: %s", args[0], err, firstLine(msg))
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return out.String(), nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
