package bash

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"reins/internal/fsutil"
	"reins/internal/llm"
	"reins/internal/shell"
	"reins/internal/task"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "Bash"

// Limits and defaults.
const (
	DefaultTimeout  = 2 * time.Minute
	MaxTimeout      = 10 * time.Minute
	MaxResultChars  = 30_000
	DefaultCapture  = 1 << 20 // bytes of output kept per stream
	progressAfter   = 2 * time.Second
	progressEvery   = time.Second
	defaultGrace    = 2 * time.Second
	progressTailLen = 1000
)

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

// Config holds the Bash tool's dependencies and settings. The zero value
// works: the process's folder and environment, bash from PATH, and no
// background tasks.
type Config struct {
	// Cwd is the folder the first command runs in; "" means the
	// process's working folder.
	Cwd string
	// Env is the environment of the first command; nil means
	// os.Environ(). GIT_EDITOR=true is added when it is not set, so git
	// never waits for an editor.
	Env []string
	// Shell is the bash to run; "" means "bash" looked up on PATH.
	Shell string
	// Tasks receives commands run with run_in_background; nil makes such
	// calls fail with an error for the model.
	Tasks *task.Registry
	// DefaultTimeout and MaxTimeout bound a call; zero means 2 and 10
	// minutes (EnvTimeouts reads Claude Code's variables for them). A
	// DefaultTimeout above MaxTimeout raises MaxTimeout to it.
	DefaultTimeout, MaxTimeout time.Duration
	// MaxResultChars is the longest result the model gets whole; a
	// longer one is saved to a file and the model gets a preview. 0 means
	// MaxResultChars (EnvMaxOutput reads Claude Code's variable for it).
	MaxResultChars int
	// CaptureBytes is how much output is kept per stream before the
	// middle is left out; 0 means DefaultCapture.
	CaptureBytes int
	// ProgressAfter is when progress events start; 0 means 2 seconds.
	ProgressAfter time.Duration
	// Grace is the time between SIGTERM and SIGKILL on cancel; 0 means 2
	// seconds.
	Grace time.Duration
	// StateDir holds the small per-call state files; "" means the
	// system's temporary folder.
	StateDir string
	// OutputDir is where the whole output of a command that printed more
	// than CaptureBytes and a quarter of it is saved; "" means an
	// "output" folder in StateDir.
	OutputDir string
	// OnCwd, when set, is called after a command changed the working
	// folder, with the call's context and the new folder, before the
	// call returns.
	OnCwd func(ctx context.Context, dir string)
	// WorkDirs, when set, returns the session's working folders (the
	// launch folder, --add-dir and additionalDirectories folders). A
	// command that leaves the shell outside all of them has the shell
	// put back in Cwd, and its result ends "Shell cwd was reset to
	// Cwd", as in Claude Code. Nil lets the shell go anywhere.
	WorkDirs func() []string
	// ShellPrefix, when set, wraps every command, as
	// CLAUDE_CODE_SHELL_PREFIX does in Claude Code: bash runs
	// `<ShellPrefix> '<script>'`, the script (the command with what reins
	// adds around it) quoted as one word in $1, for a logging or auditing
	// wrapper that runs it with `exec bash -c "$1"`.
	ShellPrefix string
	// EnvFile, when set, is a shell script sourced in the command's own
	// shell before every command, as the user's CLAUDE_ENV_FILE is in
	// Claude Code (to keep a virtualenv active, say); what it prints is
	// discarded, and a missing file is skipped.
	EnvFile string
	// NoBackground turns background tasks off, as
	// CLAUDE_CODE_DISABLE_BACKGROUND_TASKS does in Claude Code: the schema
	// has no run_in_background and a running command cannot be moved to
	// the background (EnvNoBackground reads it).
	NoBackground bool
	// MaintainProjectDir sends the shell back to Cwd after every command,
	// without a note, as CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR does in
	// Claude Code (EnvMaintainProjectDir reads it).
	MaintainProjectDir bool
}

// Claude Code's variables for the shell: MaintainProjectDirEnv keeps it
// in the project folder, ShellPrefixEnv names a wrapper for every command
// and EnvFileEnv a script sourced before every command.
const (
	MaintainProjectDirEnv = "CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR"
	ShellPrefixEnv        = "CLAUDE_CODE_SHELL_PREFIX"
	EnvFileEnv            = "CLAUDE_ENV_FILE"
)

// assemble returns what bash runs for a command: the EnvFile sourced
// first, on the command's first line so that bash's line numbers still
// match the command, and wrap (wrapScript, or nothing) applied to both;
// then all of it handed to ShellPrefix as one quoted word.
func (t *Tool) assemble(command string, wrap func(string) string) string {
	if t.cfg.EnvFile != "" {
		f := shellQuote(t.cfg.EnvFile)
		command = "if [ -r " + f + " ]; then . " + f + " >/dev/null 2>&1; fi; " + command
	}
	if wrap != nil {
		command = wrap(command)
	}
	if p := strings.TrimSpace(t.cfg.ShellPrefix); p != "" {
		command = p + " " + shellQuote(command)
	}
	return command
}

// NoBackgroundEnv is Claude Code's variable that turns background tasks
// off.
const NoBackgroundEnv = "CLAUDE_CODE_DISABLE_BACKGROUND_TASKS"

// EnvNoBackground reports whether CLAUDE_CODE_DISABLE_BACKGROUND_TASKS is
// set to 1, true, yes or on (in any case).
func EnvNoBackground(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(NoBackgroundEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// ShellEnv is Claude Code's variable naming the shell for Bash commands.
const ShellEnv = "CLAUDE_CODE_SHELL"

// EnvShell reads CLAUDE_CODE_SHELL: the path of a bash to run commands
// with, or "" to find bash as usual. Claude Code also takes a zsh there;
// reins runs bash only, so a zsh, or a path that is no executable file,
// is ignored with a warning.
func EnvShell(getenv func(string) string) (path string, warnings []string) {
	v := strings.TrimSpace(getenv(ShellEnv))
	if v == "" {
		return "", nil
	}
	fi, err := os.Stat(v)
	switch {
	case err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0:
		return "", []string{fmt.Sprintf("%s=%s is not an executable file; Bash commands run with the bash found on PATH", ShellEnv, v)}
	case !strings.HasPrefix(filepath.Base(v), "bash"):
		return "", []string{fmt.Sprintf("%s=%s: reins runs Bash commands with bash only; using the bash found on PATH", ShellEnv, v)}
	}
	return v, nil
}

// EnvMaintainProjectDir reports whether CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR
// is set to 1, true, yes or on (in any case).
func EnvMaintainProjectDir(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(MaintainProjectDirEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Tool is the Bash tool. Construct it with New; it is safe for concurrent
// use.
type Tool struct {
	cfg    Config
	schema json.RawMessage // the input schema: without run_in_background under NoBackground

	mu  sync.Mutex // guards cwd, env and groups
	cwd string
	env []string
	// groups are the process groups of finished foreground commands that
	// left processes running ("server &"); Close ends them.
	groups map[int]bool
}

// keepGroup remembers a finished command's process group when some of
// its processes still run, and forgets groups whose processes all ended
// (so a number the system has since given to another group is never
// signalled).
func (t *Tool) keepGroup(pgid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for g := range t.groups {
		if !groupAlive(g) {
			delete(t.groups, g)
		}
	}
	if pgid > 0 && groupAlive(pgid) {
		if t.groups == nil {
			t.groups = map[int]bool{}
		}
		t.groups[pgid] = true
	}
}

// Close ends the processes that foreground commands left running in the
// background (a "sleep 30 &" or a "server &" in a command): SIGTERM to
// each group, then SIGKILL to what is left after the grace period. reins
// calls it as it exits, so nothing the model started outlives the
// session unless it was detached on purpose (setsid starts a group of its
// own). Background tasks (run_in_background) are the task registry's to
// stop.
func (t *Tool) Close() error {
	t.mu.Lock()
	var groups []int
	for g := range t.groups {
		if groupAlive(g) {
			groups = append(groups, g)
		}
	}
	t.groups = nil
	t.mu.Unlock()
	if len(groups) == 0 {
		return nil
	}
	for _, g := range groups {
		signalGroup(g, syscall.SIGTERM)
	}
	deadline := time.Now().Add(t.cfg.Grace)
	for _, g := range groups {
		for groupAlive(g) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if groupAlive(g) {
			signalGroup(g, syscall.SIGKILL)
		}
	}
	return nil
}

// New returns a Bash tool. It looks bash up once; a missing bash is
// reported when a command runs.
func New(cfg Config) *Tool {
	if cfg.Cwd == "" {
		cfg.Cwd, _ = os.Getwd()
	}
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	cfg.Env = setDefault(append([]string(nil), cfg.Env...), "GIT_EDITOR", "true")
	if cfg.Shell == "" {
		cfg.Shell = fsutil.FindBash()
		if cfg.Shell == "" {
			cfg.Shell = "bash" // the error names it
		}
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = DefaultTimeout
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = MaxTimeout
	}
	// A default beyond the largest timeout raises the largest.
	cfg.MaxTimeout = max(cfg.MaxTimeout, cfg.DefaultTimeout)
	if cfg.MaxResultChars <= 0 {
		cfg.MaxResultChars = MaxResultChars
	}
	if cfg.CaptureBytes <= 0 {
		cfg.CaptureBytes = DefaultCapture
	}
	if cfg.ProgressAfter <= 0 {
		cfg.ProgressAfter = progressAfter
	}
	if cfg.Grace <= 0 {
		cfg.Grace = defaultGrace
	}
	t := &Tool{cfg: cfg, cwd: cfg.Cwd, env: cfg.Env, schema: schema}
	if cfg.NoBackground {
		t.schema = tool.WithoutProperty(schema, "run_in_background")
	}
	return t
}

// Name implements tool.Tool.
func (*Tool) Name() string { return Name }

// Description implements tool.Tool. It gives the timeouts this tool
// applies.
func (t *Tool) Description() string {
	state := "Each call starts a fresh bash in the working folder and with the exported environment that the previous call ended with: `cd` and `export` carry over to later calls; unexported variables, functions, aliases and shell options do not. Even so, prefer absolute paths to changing folders."
	if t.cfg.MaintainProjectDir {
		state = "Each call starts a fresh bash in the project folder, " + t.cfg.Cwd + ", and with the exported environment that the previous call ended with: `export` carries over to later calls, but `cd` does not (the shell goes back to the project folder after every command); unexported variables, functions, aliases and shell options do not carry over either. Use absolute paths, or `cd` within the same command."
	}
	background := "- For long-running work (dev servers, watchers, long builds) set run_in_background. The call returns a task id at once; TaskOutput reads new output and TaskStop ends it. You are told when it finishes, so do not poll it in a loop, and do not add & yourself."
	if t.cfg.NoBackground {
		background = "- Background tasks are turned off in this session: every command runs in the foreground until it ends or times out, so do not start servers or watchers that never finish."
	}
	return strings.NewReplacer(
		"{state}", state,
		"{background}", background,
		"{default_timeout}", describeTimeout(t.cfg.DefaultTimeout),
		"{max_timeout}", describeTimeout(t.cfg.MaxTimeout),
		"{max_result}", strconv.Itoa(t.cfg.MaxResultChars),
	).Replace(strings.TrimSpace(description))
}

// describeTimeout gives d in milliseconds and in words, as in "120000 (2
// minutes)".
func describeTimeout(d time.Duration) string {
	ms := d.Milliseconds()
	switch {
	case d == time.Minute:
		return fmt.Sprintf("%d (1 minute)", ms)
	case d%time.Minute == 0:
		return fmt.Sprintf("%d (%d minutes)", ms, d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d (%d seconds)", ms, d/time.Second)
	}
	return strconv.FormatInt(ms, 10)
}

// Environment variables that set the timeouts, in milliseconds, as in
// Claude Code.
const (
	DefaultTimeoutEnv = "BASH_DEFAULT_TIMEOUT_MS"
	MaxTimeoutEnv     = "BASH_MAX_TIMEOUT_MS"
)

// MaxOutputEnv sets the longest Bash result, in characters, as in Claude
// Code; at most MaxOutputLimit.
const MaxOutputEnv = "BASH_MAX_OUTPUT_LENGTH"

// MaxOutputLimit is the largest BASH_MAX_OUTPUT_LENGTH honoured.
const MaxOutputLimit = 150_000

// EnvMaxOutput reads BASH_MAX_OUTPUT_LENGTH with getenv, for Config's
// MaxResultChars: zero when unset, at most MaxOutputLimit, and a warning
// for a value that is not a positive whole number (which is ignored).
func EnvMaxOutput(getenv func(string) string) (chars int, warnings []string) {
	v := strings.TrimSpace(getenv(MaxOutputEnv))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, []string{fmt.Sprintf("%s=%q is not a positive number of characters; it is ignored", MaxOutputEnv, v)}
	}
	return int(min(n, MaxOutputLimit)), nil
}

// EnvTimeouts reads BASH_DEFAULT_TIMEOUT_MS and BASH_MAX_TIMEOUT_MS with
// getenv, for Config's DefaultTimeout and MaxTimeout: zero where a
// variable is unset, and a warning for each value that is not a positive
// whole number of milliseconds (which is ignored).
func EnvTimeouts(getenv func(string) string) (def, max time.Duration, warnings []string) {
	read := func(name string) time.Duration {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0
		}
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 || ms > math.MaxInt64/int64(time.Millisecond) {
			warnings = append(warnings, fmt.Sprintf("%s=%q is not a positive number of milliseconds; it is ignored", name, v))
			return 0
		}
		return time.Duration(ms) * time.Millisecond
	}
	return read(DefaultTimeoutEnv), read(MaxTimeoutEnv), warnings
}

// InputSchema implements tool.Tool.
func (t *Tool) InputSchema() json.RawMessage { return t.schema }

// InterruptBehavior implements tool.Tool: a user message sent mid-turn
// stops the command.
func (*Tool) InterruptBehavior() tool.Interrupt { return tool.Cancel }

// MaxResultChars implements tool.Tool.
func (t *Tool) MaxResultChars() int { return t.cfg.MaxResultChars }

// Cwd returns the folder the next command starts in.
func (t *Tool) Cwd() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cwd
}

// Setenv sets NAME=value pairs in the environment the next command
// starts with (variables a SessionStart hook exported through
// CLAUDE_ENV_FILE).
func (t *Tool) Setenv(kvs ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	env := append([]string(nil), t.env...)
	for _, kv := range kvs {
		name, _, _ := strings.Cut(kv, "=")
		env = slices.DeleteFunc(env, func(x string) bool { return strings.HasPrefix(x, name+"=") })
		env = append(env, kv)
	}
	t.env = env
}

// Unsetenv removes variables from the environment the next command
// starts with (settings env entries a client took back).
func (t *Tool) Unsetenv(names ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.env = slices.DeleteFunc(append([]string(nil), t.env...), func(x string) bool {
		name, _, _ := strings.Cut(x, "=")
		return slices.Contains(names, name)
	})
}

// Env returns a copy of the environment the next command starts with.
func (t *Tool) Env() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.env...)
}

// Input is the tool's input.
type Input struct {
	Command                   string   `json:"command"`
	Timeout                   *float64 `json:"timeout,omitempty"`
	Description               string   `json:"description,omitempty"`
	RunInBackground           bool     `json:"run_in_background,omitempty"`
	DangerouslyDisableSandbox bool     `json:"dangerouslyDisableSandbox,omitempty"`
}

// Data is the structured result, with Claude Code's field names. Stdout
// holds stdout and stderr as the command interleaved them (they share one
// pipe); Stderr stays empty.
type Data struct {
	Stdout           string `json:"stdout"`
	Stderr           string `json:"stderr"`
	Interrupted      bool   `json:"interrupted"`
	IsImage          bool   `json:"isImage"`
	NoOutputExpected bool   `json:"noOutputExpected"`
	BackgroundTaskID string `json:"backgroundTaskId,omitempty"`
	// BackgroundedByUser is set when the user moved the running command
	// to the background (Ctrl+B, the SDK's background_tasks).
	BackgroundedByUser       bool   `json:"backgroundedByUser,omitempty"`
	ReturnCodeInterpretation string `json:"returnCodeInterpretation,omitempty"`
}

// Progress is the Data of the tool's progress events.
type Progress struct {
	Output             string  `json:"output"` // the most recent output
	ElapsedTimeSeconds float64 `json:"elapsedTimeSeconds"`
	TotalLines         int     `json:"totalLines"`
	TotalBytes         int64   `json:"totalBytes"`
}

func parseInput(raw json.RawMessage) (Input, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("bash input: %w", err)
	}
	return in, nil
}

// IsReadOnly implements tool.Tool with package shell's analysis.
func (*Tool) IsReadOnly(raw json.RawMessage) bool {
	in, err := parseInput(raw)
	return err == nil && shell.IsReadOnly(in.Command)
}

// IsConcurrencySafe implements tool.Tool: read-only commands may run side
// by side.
func (t *Tool) IsConcurrencySafe(raw json.RawMessage) bool { return t.IsReadOnly(raw) }

// Validate implements tool.Tool.
func (t *Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	in, err := parseInput(raw)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Command) == "" {
		return errors.New("command is empty; give the shell command to run")
	}
	if _, err := t.timeout(in); err != nil {
		return err
	}
	if in.RunInBackground && t.cfg.NoBackground {
		return errors.New("background tasks are turned off in this session (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS); run the command in the foreground")
	}
	if in.RunInBackground && t.cfg.Tasks == nil {
		return errors.New("run_in_background is not available in this session; run the command in the foreground")
	}
	return nil
}

func (t *Tool) timeout(in Input) (time.Duration, error) {
	if in.Timeout == nil {
		return t.cfg.DefaultTimeout, nil
	}
	ms := *in.Timeout
	max := t.cfg.MaxTimeout.Milliseconds()
	if math.IsNaN(ms) || ms <= 0 || ms > float64(max) {
		return 0, fmt.Errorf("timeout must be between 1 and %d milliseconds, got %v", max, ms)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// Call implements tool.Tool.
func (t *Tool) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	if err := t.Validate(ctx, c, raw); err != nil {
		return nil, err
	}
	in, _ := parseInput(raw)
	script, _ := shell.Parse(in.Command) // nil when bash will report the syntax error
	dir, env, note := t.start()
	if in.RunInBackground {
		return t.background(in, c.ID, dir, env, note)
	}
	timeout, _ := t.timeout(in)
	return t.foreground(ctx, c, in, script, dir, env, note, timeout, progress)
}

// start returns the folder and environment for the next command, falling
// back to the configured folder when the current one was removed.
func (t *Tool) start() (dir string, env []string, note string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if fi, err := os.Stat(t.cwd); err != nil || !fi.IsDir() {
		note = fmt.Sprintf("The working folder %s no longer exists; the command ran in %s.", t.cwd, t.cfg.Cwd)
		t.cwd = t.cfg.Cwd
	}
	return t.cwd, withPWD(t.env, t.cwd), note
}

func (t *Tool) foreground(ctx context.Context, c *tool.Call, in Input, script *shell.Script, dir string, env []string, note string, timeout time.Duration, progress func(tool.Progress)) (*tool.Result, error) {
	statePath := ""
	var wrap func(string) string
	if needsState(script) {
		if t.cfg.StateDir != "" {
			if err := os.MkdirAll(t.cfg.StateDir, 0o700); err != nil {
				return nil, fmt.Errorf("bash: create state folder: %w", err)
			}
		}
		stateFile, err := os.CreateTemp(t.cfg.StateDir, "reins-bash-*.state")
		if err != nil {
			return nil, fmt.Errorf("bash: create state file: %w", err)
		}
		statePath = stateFile.Name()
		stateFile.Close()
		wrap = func(cmd string) string { return wrapScript(cmd, statePath) }
	}
	shellScript := t.assemble(in.Command, wrap)

	errTimeout := fmt.Errorf("command timed out after %s", timeout)
	runCtx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()

	out := newCapture(t.cfg.CaptureBytes)
	movable := t.cfg.Tasks != nil && !t.cfg.NoBackground && c != nil && c.ID != ""
	// Output past the capture's head goes to a file too: a move hands all
	// of the output so far to the task, and a long output is saved whole.
	out.spillTo(t.cfg.StateDir)
	defer out.close()
	began := time.Now()
	stopProgress := t.progressLoop(out, began, progress)
	proc := t.launch(runSpec{
		shell: t.cfg.Shell, script: shellScript,
		// One writer for both streams: os/exec then gives the shell one
		// pipe for stdout and stderr, and the output keeps the order the
		// command wrote it in (two pipes read by two goroutines do not).
		dir: dir, env: env, stdout: out, stderr: out, grace: t.cfg.Grace,
	})
	remove := func() {}
	if movable {
		remove = t.cfg.Tasks.AddMovable(c.ID, func() bool { return t.moveToTask(runCtx, proc, in, c.ID, out, statePath) })
	}
	select {
	case <-proc.done:
	case <-proc.moved:
	case <-runCtx.Done():
	}
	moved := proc.settle()
	remove()
	stopProgress()
	if moved {
		return proc.movedResult(note), nil
	}
	if statePath != "" {
		defer os.Remove(statePath)
	}
	if runCtx.Err() != nil {
		proc.cancel(context.Cause(runCtx))
	}
	<-proc.done
	code, runErr := proc.code, proc.err
	if runErr != nil {
		return nil, runErr
	}
	timedOut := errors.Is(context.Cause(runCtx), errTimeout)
	interrupted := runCtx.Err() != nil
	if !interrupted && statePath != "" {
		if reset := t.applyState(ctx, statePath); reset != "" {
			note = strings.TrimSpace(note + "\n" + reset)
		}
	}

	combined := strings.ToValidUTF8(out.combinedOutput(), "\uFFFD")
	data := &Data{
		Stdout: combined, Interrupted: interrupted, NoOutputExpected: noOutputExpected(script),
	}
	text := strings.TrimRight(combined, "\n")
	isErr := false
	var tail []string
	switch {
	case timedOut:
		isErr = true
		tail = append(tail, fmt.Sprintf("Command timed out after %s and was stopped.", timeout))
	case interrupted:
		tail = append(tail, "Command was interrupted.")
	case code != 0:
		if data.ReturnCodeInterpretation = interpretExit(script, code); data.ReturnCodeInterpretation == "" {
			// First, as Claude Code puts it: it stays in view when a
			// long output is cut or saved to a file with a preview.
			isErr = true
			text = strings.TrimSuffix(fmt.Sprintf("Exit code %d\n%s", code, text), "\n")
		} else if text == "" {
			tail = append(tail, data.ReturnCodeInterpretation)
		}
	}
	if note != "" {
		tail = append(tail, note)
	}
	if len(tail) > 0 {
		if text != "" {
			text += "\n"
		}
		text += strings.Join(tail, "\n")
	}
	if saved := t.saveWhole(out, c, text, code, isErr && !timedOut, tail); saved != "" {
		text = saved
	}
	res := &tool.Result{IsError: isErr, Data: data}
	if text != "" {
		res.Content = []llm.ContentBlock{llm.TextBlock(text)}
	}
	return res, nil
}

// saveWhole handles output longer than the capture keeps in memory,
// whose middle the result leaves out: it saves all of the output to a
// file in OutputDir and returns the result text that points there. A
// result that fits MaxResultChars keeps its head and tail, the note on
// what was left out naming the file; a longer one, which would be saved
// to a file anyway (without its middle), becomes the notice of a
// persisted result for the whole file, with a preview of its start, the
// exit code first and the notes after, as the short form puts them. It
// returns "" when the output was kept whole or could not be saved.
func (t *Tool) saveWhole(out *capture, c *tool.Call, text string, code int, exitFirst bool, notes []string) string {
	dir := t.cfg.OutputDir
	if dir == "" {
		dir = filepath.Join(t.cfg.StateDir, "output")
		if t.cfg.StateDir == "" {
			dir = filepath.Join(os.TempDir(), "reins-bash-output")
		}
	}
	name := "bash"
	if c != nil && c.ID != "" {
		name = c.ID
	}
	path, size, err := out.saveAll(dir, name)
	if err != nil || path == "" {
		return ""
	}
	if len(text) <= t.cfg.MaxResultChars {
		return strings.Replace(text, " bytes of output omitted] …",
			fmt.Sprintf(" bytes of output omitted here; all %d bytes are saved in %s] …", size, path), 1)
	}
	var preview string
	if f, err := os.Open(path); err == nil {
		head := make([]byte, 2*tool.PreviewBytes)
		n, _ := io.ReadFull(f, head)
		f.Close()
		preview = tool.Preview(strings.ToValidUTF8(string(head[:n]), "\uFFFD"), tool.PreviewBytes)
	}
	msg := tool.PersistedMessage(path, int(size), preview)
	if exitFirst {
		msg = fmt.Sprintf("Exit code %d\n", code) + msg
	}
	if len(notes) > 0 {
		msg += "\n" + strings.Join(notes, "\n")
	}
	return msg
}

// progressLoop emits progress from ProgressAfter on, every second, until
// the returned stop function is called (it waits for the goroutine).
func (t *Tool) progressLoop(out *capture, began time.Time, progress func(tool.Progress)) func() {
	if progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		timer := time.NewTimer(t.cfg.ProgressAfter)
		defer timer.Stop()
		select {
		case <-done:
			return
		case <-timer.C:
		}
		ticker := time.NewTicker(progressEvery)
		defer ticker.Stop()
		for {
			recent, lines, bytes := out.recent(progressTailLen)
			recent = strings.ToValidUTF8(recent, "")
			progress(tool.Progress{
				Message: lastLine(recent),
				Data: Progress{Output: recent, ElapsedTimeSeconds: time.Since(began).Round(time.Millisecond).Seconds(),
					TotalLines: lines, TotalBytes: bytes},
			})
			select {
			case <-done:
				return
			case <-ticker.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[len(s)-200:], "")
	}
	return s
}

// applyState adopts the folder and environment a command ended with. A
// folder outside the working folders is not adopted: the shell goes back
// to the configured folder, and the returned note says so.
func (t *Tool) applyState(ctx context.Context, statePath string) (note string) {
	st, ok := readState(statePath)
	if !ok {
		return ""
	}
	if fi, err := os.Stat(st.cwd); err != nil || !fi.IsDir() {
		return ""
	}
	switch {
	case t.cfg.MaintainProjectDir:
		st.cwd = t.cfg.Cwd // asked for: no note
	case t.cfg.WorkDirs != nil && !within(st.cwd, t.cfg.WorkDirs()):
		note = "Shell cwd was reset to " + t.cfg.Cwd
		st.cwd = t.cfg.Cwd
	}
	t.mu.Lock()
	changed := st.cwd != t.cwd
	t.cwd = st.cwd
	var dropped []string
	if st.hasEnv {
		t.env, dropped = nextEnv(st.env, t.env)
	}
	t.mu.Unlock()
	if len(dropped) > 0 {
		note = strings.TrimSpace(note + "\n" + fmt.Sprintf("Not kept for later commands: %s, too long to pass to a program in its environment (at most 128 KB a variable, 1 MB in all). Keep large values in a file instead.",
			strings.Join(dropped, ", ")))
	}
	if changed && t.cfg.OnCwd != nil {
		t.cfg.OnCwd(ctx, st.cwd)
	}
	return note
}

// within reports whether dir is one of roots or inside one, comparing
// the paths as given and with symbolic links resolved.
func within(dir string, roots []string) bool {
	forms := []string{filepath.Clean(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != forms[0] {
		forms = append(forms, real)
	}
	for _, r := range roots {
		rforms := []string{filepath.Clean(r)}
		if real, err := filepath.EvalSymlinks(r); err == nil && real != rforms[0] {
			rforms = append(rforms, real)
		}
		for _, d := range forms {
			for _, root := range rforms {
				if rel, err := filepath.Rel(root, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					return true
				}
			}
		}
	}
	return false
}

// background starts the command as a task and returns its id.
func (t *Tool) background(in Input, toolUseID, dir string, env []string, note string) (*tool.Result, error) {
	cmdText := in.Command
	script := t.assemble(cmdText, nil)
	tk, err := t.cfg.Tasks.Start(task.Spec{
		Kind:        task.KindShell,
		Description: in.Description,
		Command:     cmdText,
		ToolUseID:   toolUseID,
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			return runShell(ctx, runSpec{shell: t.cfg.Shell, script: script, dir: dir, env: env,
				stdout: out, stderr: out, grace: t.cfg.Grace})
		},
	})
	if err != nil {
		return nil, fmt.Errorf("start background command: %w", err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Command started in the background as task %s.", tk.ID())
	if p := tk.Info().OutputPath; p != "" {
		fmt.Fprintf(&sb, " Its output is also written to %s.", p)
	}
	fmt.Fprintf(&sb, " Use TaskOutput with task_id %q to read new output and TaskStop to end it; you will be told when it finishes.", tk.ID())
	if note != "" {
		sb.WriteString("\n" + note)
	}
	return &tool.Result{
		Content: []llm.ContentBlock{llm.TextBlock(sb.String())},
		Data:    &Data{BackgroundTaskID: tk.ID(), NoOutputExpected: false},
	}, nil
}
