package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Kind says what a task runs.
type Kind string

// Task kinds.
const (
	KindShell Kind = "shell"
	KindAgent Kind = "agent"
)

// Status is where a task is in its life.
type Status string

// Task statuses. Every status but Running is final.
const (
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Killed    Status = "killed"
)

// DefaultMaxOutput is how many bytes of output a task keeps in memory by
// default; older output is dropped first.
const DefaultMaxOutput = 4 << 20

// maxFileOutput caps the output file of one task.
const maxFileOutput = 256 << 20

// Errors returned by the Registry.
var (
	ErrNotFound = errors.New("no such task")
	ErrFinished = errors.New("task has already finished")
	ErrClosed   = errors.New("task registry is closed")
	// ErrStoppedByUser and ErrStoppedByModel are the causes a stopped
	// task's context gives (context.Cause): the user asked (an SDK
	// stop_task, the terminal UI), or the model did (TaskStop). A task
	// stopped as the registry closes has ErrClosed.
	ErrStoppedByUser  = errors.New("stopped by the user")
	ErrStoppedByModel = errors.New("stopped by the model (TaskStop)")
)

// RunFunc does a task's work, writing its output to out (safe to use from
// several goroutines). It must return soon after ctx is cancelled. The
// exit code is recorded for shell tasks; an error or a non-zero code marks
// the task failed.
type RunFunc func(ctx context.Context, out io.Writer) (exitCode int, err error)

// Spec describes a task to start.
type Spec struct {
	// ID, when set, is the task's id (a background sub-agent keeps its
	// agent id); it must not be in use. Empty means the registry picks
	// one ("bash_1", "agent_2").
	ID          string
	Kind        Kind
	Description string
	// Command is the command line of a shell task, for display.
	Command string
	// ToolUseID is the tool call that started the task, if any.
	ToolUseID string
	// AgentType and Prompt describe an agent task: the agent's name and
	// what it was asked.
	AgentType, Prompt string
	Run               RunFunc
}

// Info is a snapshot of a task.
type Info struct {
	ID          string
	Kind        Kind
	Description string
	Command     string
	ToolUseID   string
	AgentType   string
	Prompt      string
	Status      Status
	Start, End  time.Time // End is zero while running
	ExitCode    *int      // nil while running and for tasks without one
	Err         string    // why a failed task failed
	// OutputPath is the file holding the task's output, "" when the
	// registry has no Dir.
	OutputPath string
	// OutputBytes is the total output written so far.
	OutputBytes int64
	// Progress is the latest report of a running agent task, nil before
	// the first.
	Progress *Progress
}

// Progress is what a running task reports of its work (an agent: the
// tool calls it made, the last one, the tokens of its context).
type Progress struct {
	ToolUses int
	LastTool string
	Tokens   int
}

// Registry holds a session's background tasks. Set the exported fields
// before the first Start; the zero value is ready to use.
type Registry struct {
	// Dir, when set, receives a copy of each task's output in
	// <Dir>/<id>.output.
	Dir string
	// MaxOutput is the bytes of output kept in memory per task; 0 means
	// DefaultMaxOutput.
	MaxOutput int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Observe, when set, learns of each task as it starts (Info.Status
	// Running) and once it has ended, with its snapshot. It is called from
	// Start's caller and from the task's goroutine; it must not block.
	Observe func(Info)

	wg sync.WaitGroup // one per task goroutine

	mu      sync.Mutex // guards the fields below
	tasks   map[string]*Task
	order   []string
	counter map[Kind]int
	closed  bool
	changed chan struct{}
	// movables are the foreground calls that may move to the background
	// (move.go).
	movables []*movable

	// moving is held while Background runs the move functions, so that
	// a call's remove (AddMovable) waits for a move in progress and no
	// move function runs after its call stopped being movable.
	moving sync.Mutex
}

func (r *Registry) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Changed is signalled (without blocking; at most one pending signal)
// whenever a task finishes, so a front end can wake up and let the engine
// announce it.
func (r *Registry) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changedLocked()
}

func (r *Registry) changedLocked() chan struct{} {
	if r.changed == nil {
		r.changed = make(chan struct{}, 1)
	}
	return r.changed
}

// Poke signals Changed though no task finished: something the front end
// announces along with the tasks' notifications (an async hook that asks
// to wake the model) is ready.
func (r *Registry) Poke() {
	r.mu.Lock()
	ch := r.changedLocked()
	r.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Start registers a task and runs spec.Run in a goroutine owned by the
// registry. It returns at once.
func (r *Registry) Start(spec Spec) (*Task, error) {
	if spec.Run == nil {
		return nil, errors.New("start task: no RunFunc")
	}
	if spec.Kind == "" {
		spec.Kind = KindShell
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, fmt.Errorf("start task: %w", ErrClosed)
	}
	if r.tasks == nil {
		r.tasks = map[string]*Task{}
		r.counter = map[Kind]int{}
	}
	id := spec.ID
	for id == "" {
		r.counter[spec.Kind]++
		id = fmt.Sprintf("%s_%d", prefix(spec.Kind), r.counter[spec.Kind])
		if r.earlierLocked(id) != "" {
			// An earlier run of this session (before a resume) had a
			// task of that id: its output file and the conversation's
			// mentions of it stay its own.
			id = ""
		}
	}
	if _, dup := r.tasks[id]; dup {
		r.mu.Unlock()
		return nil, fmt.Errorf("start task %s: the id is already in use", id)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	t := &Task{
		id: id, kind: spec.Kind, desc: spec.Description, command: spec.Command,
		toolUseID: spec.ToolUseID, agentType: spec.AgentType, prompt: spec.Prompt,
		start: r.now(), cancel: cancel, done: make(chan struct{}),
		max: r.MaxOutput, status: Running,
	}
	if t.max <= 0 {
		t.max = DefaultMaxOutput
	}
	if r.Dir != "" {
		if err := os.MkdirAll(r.Dir, 0o700); err == nil {
			p := filepath.Join(r.Dir, id+".output")
			if f, err := os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600); err == nil {
				t.file, t.path = f, p
			}
		}
	}
	t.observe = r.Observe
	r.tasks[id] = t
	r.order = append(r.order, id)
	r.wg.Add(1)
	r.mu.Unlock()
	if r.Observe != nil {
		r.Observe(t.Info())
	}

	go func() {
		defer r.wg.Done()
		code, err := spec.Run(ctx, t)
		t.finish(r.now(), code, err)
		cancel(nil)
		if r.Observe != nil {
			r.Observe(t.Info())
		}
		r.mu.Lock()
		ch := r.changedLocked()
		r.mu.Unlock()
		select {
		case ch <- struct{}{}:
		default:
		}
	}()
	return t, nil
}

// earlierLocked returns the output file an earlier run of the session
// left for task id, or "" when there is none or id is a task of this run.
func (r *Registry) earlierLocked(id string) string {
	if r.Dir == "" {
		return ""
	}
	if _, ok := r.tasks[id]; ok {
		return ""
	}
	p := filepath.Join(r.Dir, id+".output")
	if _, err := os.Lstat(p); err != nil {
		return ""
	}
	return p
}

// Earlier returns the output file of task id when an earlier run of the
// session (the process a resumed session was recorded by) started it,
// else "". Such a task ended with that process.
func (r *Registry) Earlier(id string) string {
	if strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.earlierLocked(id)
}

func prefix(k Kind) string {
	switch k {
	case KindShell:
		return "bash"
	case KindAgent:
		return "agent"
	}
	return strings.ToLower(string(k))
}

// Get returns the task with id.
func (r *Registry) Get(id string) (*Task, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tasks[id]
	return t, ok
}

// List returns a snapshot of every task in start order.
func (r *Registry) List() []Info {
	r.mu.Lock()
	ts := make([]*Task, 0, len(r.order))
	for _, id := range r.order {
		ts = append(ts, r.tasks[id])
	}
	r.mu.Unlock()
	out := make([]Info, len(ts))
	for i, t := range ts {
		out[i] = t.Info()
	}
	return out
}

// Stop asks the task to stop for the user (ErrStoppedByUser) and
// returns without waiting; use the task's Wait or Done to wait. Stopping
// a finished task is ErrFinished.
func (r *Registry) Stop(id string) error {
	t, ok := r.Get(id)
	if !ok {
		return fmt.Errorf("stop task %s: %w", id, ErrNotFound)
	}
	if !t.StopFor(ErrStoppedByUser) {
		return fmt.Errorf("stop task %s: %w", id, ErrFinished)
	}
	return nil
}

// TakeFinished returns the tasks that finished and were not announced
// yet, in start order, and marks them announced.
func (r *Registry) TakeFinished() []Info {
	r.mu.Lock()
	ts := make([]*Task, 0, len(r.order))
	for _, id := range r.order {
		ts = append(ts, r.tasks[id])
	}
	r.mu.Unlock()
	var out []Info
	for _, t := range ts {
		t.mu.Lock()
		take := t.status != Running && !t.announced
		if take {
			t.announced = true
		}
		t.mu.Unlock()
		if take {
			out = append(out, t.Info())
		}
	}
	return out
}

// MarkAnnounced records that the model already learned that the task
// finished (for example from TaskOutput), so TakeFinished skips it.
func (r *Registry) MarkAnnounced(id string) {
	if t, ok := r.Get(id); ok {
		t.mu.Lock()
		if t.status != Running {
			t.announced = true
		}
		t.mu.Unlock()
	}
}

// Running reports how many tasks are running.
func (r *Registry) Running() int {
	n := 0
	for _, i := range r.List() {
		if i.Status == Running {
			n++
		}
	}
	return n
}

// Close stops every running task, refuses new ones, and waits until every
// task goroutine has returned or ctx is done.
func (r *Registry) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	ts := make([]*Task, 0, len(r.tasks))
	for _, t := range r.tasks {
		ts = append(ts, t)
	}
	r.mu.Unlock()
	for _, t := range ts {
		t.StopFor(ErrClosed)
	}
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close task registry: %w", context.Cause(ctx))
	}
}

// Task is one background task. Its methods are safe for concurrent use.
type Task struct {
	id, desc, command string
	toolUseID         string
	agentType, prompt string
	kind              Kind
	start             time.Time
	cancel            context.CancelCauseFunc
	done              chan struct{} // closed when the RunFunc returned
	max               int

	observe func(Info) // the registry's Observe

	mu        sync.Mutex // guards the fields below
	status    Status
	end       time.Time
	exitCode  *int
	err       string
	stopped   bool
	progress  *Progress
	announced bool
	buf       []byte // the last max bytes of output
	total     int64  // bytes written in all
	read      int64  // offset (in total) up to which ReadNew returned output
	file      *os.File
	path      string
	fileBytes int64
}

// ID returns the task's id, e.g. "bash_1".
func (t *Task) ID() string { return t.id }

// Done is closed when the task has finished.
func (t *Task) Done() <-chan struct{} { return t.done }

// Wait waits until the task finished or ctx is done.
func (t *Task) Wait(ctx context.Context) error {
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Stop cancels the task's context. It reports false when the task had
// already finished.
func (t *Task) Stop() bool { return t.StopFor(nil) }

// StopFor is Stop giving cause as the context's cause (nil:
// context.Canceled).
func (t *Task) StopFor(cause error) bool {
	t.mu.Lock()
	running := t.status == Running
	if running {
		t.stopped = true
	}
	t.mu.Unlock()
	if running {
		t.cancel(cause)
	}
	return running
}

// Write appends output. It never fails; output beyond the in-memory limit
// drops the oldest bytes.
func (t *Task) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = slices.Clone(t.buf[over:])
	}
	if t.file != nil && t.fileBytes < maxFileOutput {
		n, _ := t.file.Write(p[:min(len(p), int(maxFileOutput-t.fileBytes))])
		t.fileBytes += int64(n)
	}
	return len(p), nil
}

func (t *Task) finish(end time.Time, code int, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.end = end
	switch {
	case t.stopped:
		t.status = Killed
	case err != nil:
		t.status = Failed
		t.err = err.Error()
	case code != 0:
		t.status = Failed
	default:
		t.status = Completed
	}
	if t.kind == KindShell && !(t.stopped && code < 0) {
		c := code
		t.exitCode = &c
	}
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
	close(t.done)
}

// Report records p as the task's latest progress and passes the snapshot
// to the registry's Observe. A finished task ignores it.
func (t *Task) Report(p Progress) {
	t.mu.Lock()
	if t.status != Running {
		t.mu.Unlock()
		return
	}
	t.progress = &p
	t.mu.Unlock()
	if t.observe != nil {
		t.observe(t.Info())
	}
}

// Info returns a snapshot of the task.
func (t *Task) Info() Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Info{
		ID: t.id, Kind: t.kind, Description: t.desc, Command: t.command,
		ToolUseID: t.toolUseID, AgentType: t.agentType, Prompt: t.prompt,
		Status: t.status, Progress: t.progress, Start: t.start, End: t.end, ExitCode: t.exitCode,
		Err: t.err, OutputPath: t.path, OutputBytes: t.total,
	}
}

// Output returns the output kept in memory and how many earlier bytes
// were dropped.
func (t *Task) Output() (string, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf), t.total - int64(len(t.buf))
}

// MarkRead counts the output written so far as read: the next ReadNew
// starts after it (a call moved to the background already gave the model
// its output up to the move).
func (t *Task) MarkRead() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read = t.total
}

// ReadNew returns the output written since the previous ReadNew (the
// first call returns everything kept) and how many bytes of that unread
// output were dropped before they could be read.
func (t *Task) ReadNew() (string, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	first := t.total - int64(len(t.buf)) // offset of buf[0]
	var dropped int64
	from := t.read
	if from < first {
		dropped = first - from
		from = first
	}
	out := string(t.buf[from-first:])
	t.read = t.total
	return out, dropped
}

// Summary is one sentence on how the task ended, such as
// `Background command "npm test" completed with exit code 0.`
func (i Info) Summary() string {
	what := "Background task"
	if i.Kind == KindShell {
		what = "Background command"
	}
	label := i.Description
	if label == "" {
		label = i.Command
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %q %s", what, label, i.Status)
	if i.ExitCode != nil && i.Status != Killed {
		fmt.Fprintf(&sb, " with exit code %d", *i.ExitCode)
	}
	if i.Err != "" {
		fmt.Fprintf(&sb, ": %s", i.Err)
	}
	sb.WriteString(".")
	return sb.String()
}

// Notification is the text that tells the model a background task
// finished.
func (i Info) Notification() string {
	var sb strings.Builder
	sb.WriteString("<task-notification>\n")
	fmt.Fprintf(&sb, "<task-id>%s</task-id>\n", i.ID)
	fmt.Fprintf(&sb, "<status>%s</status>\n", i.Status)
	fmt.Fprintf(&sb, "<summary>%s</summary>\n", i.Summary())
	fmt.Fprintf(&sb, "Read its output with TaskOutput (task_id %q).", i.ID)
	if i.OutputPath != "" {
		fmt.Fprintf(&sb, " The full output is also in %s.", i.OutputPath)
	}
	sb.WriteString("\n</task-notification>")
	return sb.String()
}
