package fastpath

// This file imports only os and packages os needs anyway (io, sync):
// every import is initialised before the version answer (see the package
// doc).
import (
	"io"
	"os"
	"sync"
)

// GitStatusArgs and GitLogArgs are the git commands of the start-up
// snapshot (package gitinfo runs them, or takes them from here).
var (
	GitStatusArgs = []string{"--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off", "status", "--short", "--branch"}
	GitLogArgs    = []string{"--no-optional-locks", "-c", "color.ui=false", "-c", "core.quotepath=off", "log", "--oneline", "--no-decorate", "--no-color", "-n5"}
)

// GitEnv is added to the environment of the snapshot's git commands.
var GitEnv = []string{"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_MESSAGES=C"}

// gitJob is a git command started while the program initialises. Its
// goroutine owns every field but args, stop and done until done closes.
type gitJob struct {
	args     []string
	stop     chan struct{} // closed to kill the command
	stopOnce sync.Once
	done     chan struct{} // closed when out and err are set
	out      []byte
	err      error
}

// early holds the git commands started at init: written once by init,
// before any other goroutine of the program runs; read-only afterwards.
var early struct {
	dirs   []string // the working folder as given and with links resolved
	jobs   []*gitJob
	native string // the folder whose snapshot gitinfo may start at its init
}

// startEarlyGit starts the snapshot's git commands for a run that will
// need them soon and whose folder counts as trusted: print mode (-p) and
// the SDK protocol (--input-format). The interactive UI asks about trust
// first, so it runs git itself later. Running git now lets it work while
// the rest of the program initialises.
func startEarlyGit(args []string) {
	if !trustedRun(args) {
		return
	}
	dir, err := os.Getwd()
	if err != nil || !insideRepo(dir) {
		return
	}
	if nativeStatusLikely(dir) {
		// No process to start: package gitinfo reads the status from
		// the repository's files, beginning at its own initialiser.
		early.native = dir
		return
	}
	git := lookGit()
	if git == "" {
		return
	}
	early.dirs = []string{dir}
	env := append(os.Environ(), GitEnv...)
	// Only status: package gitinfo reads the recent commits from the
	// repository's files, and runs GitLogArgs itself when it cannot.
	early.jobs = append(early.jobs, startGit(git, dir, env, GitStatusArgs))
}

func trustedRun(args []string) bool {
	if len(args) > 0 && (args[0] == "" || args[0][0] != '-') {
		// A subcommand (mcp, sessions), or a prompt for the UI.
		return false
	}
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "-p", a == "--print", a == "--input-format", hasPrefix(a, "--input-format="):
			return true
		}
	}
	return false
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// nativeStatusLikely reports whether package gitinfo will most likely
// read the status from the repository's files: dir is the top of a plain
// work tree (a .git folder, not a worktree's .git file) and nothing in the
// environment moves the repository. Then an early git process would only
// compete with start-up for the CPU; when the reader does decline, gitinfo
// runs git itself, a little later.
func nativeStatusLikely(dir string) bool {
	if !nativeStatusOS || os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" || os.Getenv("GIT_INDEX_FILE") != "" {
		return false
	}
	fi, err := os.Lstat(dir + "/.git")
	if err != nil || !fi.IsDir() {
		return false
	}
	// A large index (gitinfo leaves more than 20,000 entries to git)
	// takes about 1.5 MB.
	if ix, err := os.Stat(dir + "/.git/index"); err == nil && ix.Size() > 1500<<10 {
		return false
	}
	// Content filters and line-ending conversion make the reader decline
	// (Git LFS repositories, for one); the top-level attributes files tell
	// most of those cases apart cheaply.
	for _, name := range []string{"/.gitattributes", "/.git/info/attributes"} {
		if mentionsConversion(dir + name) {
			return false
		}
	}
	return true
}

// mentionsConversion reports whether the attributes file at path names
// an attribute that converts content (filter, ident, eol, crlf,
// working-tree-encoding); the reader in package gitinfo declines those.
func mentionsConversion(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	b := buf[:n]
	for _, w := range []string{"filter", "ident", "eol", "crlf", "working-tree-encoding"} {
		for i := 0; i+len(w) <= len(b); i++ {
			if string(b[i:i+len(w)]) == w {
				return true
			}
		}
	}
	return false
}

// insideRepo looks for .git in dir or a parent (dir is absolute).
func insideRepo(dir string) bool {
	if os.Getenv("GIT_DIR") != "" {
		return true
	}
	for d := dir; ; {
		if _, err := os.Lstat(d + "/.git"); err == nil {
			return true
		}
		i := len(d) - 1
		for i > 0 && d[i] != '/' {
			i--
		}
		if i <= 0 {
			if d == "/" {
				return false
			}
			d = "/"
			continue
		}
		d = d[:i]
	}
}

// lookGit finds git in PATH.
func lookGit() string {
	path := os.Getenv("PATH")
	for start := 0; start <= len(path); {
		end := start
		for end < len(path) && path[end] != ':' {
			end++
		}
		if d := path[start:end]; d != "" {
			p := d + "/git"
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p
			}
		}
		start = end + 1
	}
	return ""
}

// startGit starts git with args in dir from a goroutine: spawning a
// process costs milliseconds, which the rest of package initialisation
// can use on another core.
func startGit(git, dir string, env, args []string) *gitJob {
	j := &gitJob{args: args, stop: make(chan struct{}), done: make(chan struct{})}
	go j.run(git, dir, env)
	return j
}

// run starts the command, collects its output and closes j.done.
func (j *gitJob) run(git, dir string, env []string) {
	defer close(j.done)
	select {
	case <-j.stop:
		j.err = ErrStopped
		return
	default:
	}
	r, w, err := os.Pipe()
	if err != nil {
		j.err = err
		return
	}
	er, ew, err := os.Pipe()
	if err != nil {
		r.Close()
		w.Close()
		j.err = err
		return
	}
	devnull, _ := os.Open(os.DevNull)
	proc, err := os.StartProcess(git, append([]string{"git"}, j.args...), &os.ProcAttr{
		Dir: dir, Env: env, Files: []*os.File{devnull, w, ew}})
	w.Close()
	ew.Close()
	if devnull != nil {
		devnull.Close()
	}
	if err != nil {
		r.Close()
		er.Close()
		j.err = err
		return
	}
	exited := make(chan struct{})
	defer close(exited)
	go func() {
		select {
		case <-j.stop:
			proc.Kill()
		case <-exited:
		}
	}()
	errOut := make(chan []byte, 1)
	go func() {
		b, _ := readAll(er)
		er.Close()
		errOut <- b
	}()
	out, rerr := readAll(r)
	r.Close()
	stderr := <-errOut
	st, werr := proc.Wait()
	j.out = out
	switch {
	case rerr != nil:
		j.err = rerr
	case werr != nil:
		j.err = werr
	case !st.Success():
		j.err = &exitError{st: st, stderr: firstLine(string(stderr))}
	}
}

// exitError is a git command that failed, with the first line it wrote
// to stderr.
type exitError struct {
	st     *os.ProcessState
	stderr string
}

func (e *exitError) Error() string {
	if e.stderr != "" {
		return e.st.String() + ": " + e.stderr
	}
	return e.st.String()
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// readAll reads f to its end.
func readAll(f *os.File) ([]byte, error) {
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if err == io.EOF {
				return buf, nil
			}
			return buf, err
		}
	}
}

// ErrStopped is returned by EarlyGit when done closed before the command
// ended (the command is killed).
var ErrStopped = stopped{}

type stopped struct{}

func (stopped) Error() string { return "stopped before it finished" }

// EarlyGit returns the output of the git command args when it was started
// at init in dir; ok is false when it was not. It waits for the command,
// killing it if done closes first.
func EarlyGit(done <-chan struct{}, dir string, args []string) (out string, err error, ok bool) {
	match := false
	for _, d := range early.dirs {
		match = match || d == dir
	}
	if !match {
		return "", nil, false
	}
	for _, j := range early.jobs {
		if !sameArgs(j.args, args) {
			continue
		}
		select {
		case <-j.done:
		case <-done:
			j.stopOnce.Do(func() { close(j.stop) })
			<-j.done
			return "", ErrStopped, true
		}
		return string(j.out), j.err, true
	}
	return "", nil, false
}

func sameArgs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// StopEarlyGit kills the git command args when it was started at init in
// dir, for a caller that found the answer another way; it does not wait
// for the command to end. It reports whether there was such a command.
func StopEarlyGit(dir string, args []string) bool {
	match := false
	for _, d := range early.dirs {
		match = match || d == dir
	}
	if !match {
		return false
	}
	for _, j := range early.jobs {
		if sameArgs(j.args, args) {
			j.stopOnce.Do(func() { close(j.stop) })
			return true
		}
	}
	return false
}

// EarlyNativeDir returns the working folder when this run will want the
// start-up git snapshot soon and package gitinfo will most likely read it
// from the repository's files (a trusted run at the top of a plain work
// tree), so gitinfo may start it while the program initialises; else "".
func EarlyNativeDir() string { return early.native }
