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
	"time"
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
	p := &Pending{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.snap = Take(ctx, dir, o)
	}()
	return p
}

// Wait blocks until the snapshot is taken and returns it.
func (p *Pending) Wait() Snapshot {
	<-p.done
	return p.snap
}

// Take returns a snapshot of the repository holding dir. A folder outside
// any repository returns the zero Snapshot without running git.
func Take(ctx context.Context, dir string, o Options) Snapshot {
	if !insideRepo(dir, o.Env) {
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
		wg                     sync.WaitGroup
		branch, refs, st, logs string
		errB, errR, errS, errL error
	)
	wg.Go(func() { branch, errB = r.run(ctx, "branch", "--show-current") })
	wg.Go(func() {
		refs, errR = r.run(ctx, "for-each-ref", "--format=%(refname) %(symref)",
			"refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master")
	})
	wg.Go(func() { st, errS = r.run(ctx, "status", "--short") })
	wg.Go(func() {
		logs, errL = r.run(ctx, "log", "--oneline", "--no-decorate", "--no-color", fmt.Sprintf("-n%d", CommitCount))
	})
	wg.Wait()

	if errL != nil && strings.Contains(errL.Error(), "does not have any commits") {
		errL = nil // a new repository: no commits yet is not a failure
	}
	s := Snapshot{IsRepo: true, statusFailed: errS != nil}
	s.Errs = appendErr(s.Errs, errB, errR, errS, errL)
	s.Branch = strings.TrimSpace(branch)
	if errB == nil && s.Branch == "" {
		// Detached HEAD: name the commit instead. Rare, so not worth a
		// fourth parallel command on every start.
		h, err := r.run(ctx, "rev-parse", "--short", "HEAD")
		s.Detached = strings.TrimSpace(h)
		s.Errs = appendErr(s.Errs, err)
	}
	s.MainBranch = mainBranch(refs)
	s.Status, s.StatusTruncated = cut(strings.TrimRight(st, "\n"), StatusLimit)
	if errL == nil {
		for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				s.Commits = append(s.Commits, l)
			}
		}
	}
	return s
}

func appendErr(errs []error, add ...error) []error {
	for _, e := range add {
		if e != nil {
			errs = append(errs, e)
		}
	}
	return errs
}

// insideRepo looks for a .git entry in dir or a parent, or a GIT_DIR in
// the environment.
func insideRepo(dir string, env []string) bool {
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") && len(kv) > len("GIT_DIR=") {
			return true
		}
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// mainBranch picks the main branch from for-each-ref output lines
// "<refname> <symref target>".
func mainBranch(out string) string {
	var haveMain, haveMaster bool
	for _, line := range strings.Split(out, "\n") {
		ref, target, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch ref {
		case "refs/remotes/origin/HEAD":
			if b, ok := strings.CutPrefix(target, "refs/remotes/origin/"); ok && b != "" {
				return b
			}
		case "refs/heads/main":
			haveMain = true
		case "refs/heads/master":
			haveMaster = true
		}
	}
	switch {
	case haveMain:
		return "main"
	case haveMaster:
		return "master"
	}
	return ""
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
	full := append([]string{"--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off"}, args...)
	cmd := exec.CommandContext(ctx, r.o.Git, full...)
	cmd.Dir = r.dir
	env := r.o.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_MESSAGES=C")
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
