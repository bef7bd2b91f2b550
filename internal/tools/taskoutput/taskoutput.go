package taskoutput

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"reins/internal/llm"
	"reins/internal/task"
	"reins/internal/tool"
)

// Tool names.
const (
	OutputName = "TaskOutput"
	StopName   = "TaskStop"
	// KillShellName is an older name of TaskStop that models may still use.
	KillShellName = "KillShell"
)

// Wait limits of TaskOutput.
const (
	DefaultWait = 30 * time.Second
	MaxWait     = 10 * time.Minute
)

var (
	//go:embed output_description.md
	outputDescription string
	//go:embed stop_description.md
	stopDescription string
	//go:embed output_schema.json
	outputSchema []byte
	//go:embed stop_schema.json
	stopSchema []byte
)

// TaskData is a task as the structured results show it, with Claude
// Code's field names.
type TaskData struct {
	TaskID      string `json:"task_id"`
	TaskType    string `json:"task_type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	Output      string `json:"output"`
	ExitCode    *int   `json:"exitCode,omitempty"`
	Error       string `json:"error,omitempty"`
}

// OutputData is TaskOutput's structured result.
type OutputData struct {
	// RetrievalStatus is "success" (the task finished, or block was
	// false and it had), "timeout" (still running after the wait) or
	// "not_ready" (still running and block was false).
	RetrievalStatus string   `json:"retrieval_status"`
	Task            TaskData `json:"task"`
}

// OutputInput is TaskOutput's input.
type OutputInput struct {
	TaskID  string   `json:"task_id"`
	Block   *bool    `json:"block,omitempty"`
	Timeout *float64 `json:"timeout,omitempty"`
}

// Output is the TaskOutput tool. Construct it with NewOutput.
type Output struct {
	tool.Defaults
	tasks *task.Registry
}

// NewOutput returns the TaskOutput tool over the session's task registry
// (required).
func NewOutput(tasks *task.Registry) *Output {
	if tasks == nil {
		panic("taskoutput.NewOutput: nil task registry")
	}
	return &Output{tasks: tasks}
}

// Name implements tool.Tool.
func (*Output) Name() string { return OutputName }

// Description implements tool.Tool.
func (*Output) Description() string { return strings.TrimSpace(outputDescription) }

// InputSchema implements tool.Tool.
func (*Output) InputSchema() json.RawMessage { return outputSchema }

// IsReadOnly implements tool.Tool.
func (*Output) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe implements tool.Tool.
func (*Output) IsConcurrencySafe(json.RawMessage) bool { return true }

// InterruptBehavior implements tool.Tool: a user message ends the wait.
func (*Output) InterruptBehavior() tool.Interrupt { return tool.Cancel }

// Validate implements tool.Tool.
func (o *Output) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	in, err := parseOutput(raw)
	if err != nil {
		return err
	}
	_, err = findTask(o.tasks, in.TaskID, "task_id")
	return err
}

func parseOutput(raw json.RawMessage) (OutputInput, error) {
	var in OutputInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("TaskOutput input: %w", err)
	}
	if in.Timeout != nil {
		ms := *in.Timeout
		if math.IsNaN(ms) || ms < 0 || ms > float64(MaxWait.Milliseconds()) {
			return in, fmt.Errorf("timeout must be between 0 and %d milliseconds, got %v", MaxWait.Milliseconds(), ms)
		}
	}
	return in, nil
}

// findTask looks id up and names the field and the known tasks when it is
// not there.
func findTask(reg *task.Registry, id, field string) (*task.Task, error) {
	if strings.TrimSpace(id) == "" {
		return nil, fmt.Errorf("%s is empty; give the id of a background task, such as \"bash_1\"", field)
	}
	if t, ok := reg.Get(id); ok {
		return t, nil
	}
	if p := reg.Earlier(id); p != "" {
		return nil, fmt.Errorf("%s %q was a background task of an earlier run of this session, which ended when that run did (the session was resumed since); what it wrote is in %s", field, id, p)
	}
	var known []string
	for _, i := range reg.List() {
		known = append(known, fmt.Sprintf("%s (%s)", i.ID, i.Status))
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("%s %q does not match any background task; none were started in this session", field, id)
	}
	return nil, fmt.Errorf("%s %q does not match any background task; known tasks: %s", field, id, strings.Join(known, ", "))
}

// Call implements tool.Tool.
func (o *Output) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	in, err := parseOutput(raw)
	if err != nil {
		return nil, err
	}
	t, err := findTask(o.tasks, in.TaskID, "task_id")
	if err != nil {
		return nil, err
	}
	block := in.Block == nil || *in.Block
	wait := DefaultWait
	if in.Timeout != nil {
		wait = time.Duration(*in.Timeout * float64(time.Millisecond))
	}
	retrieval := "success"
	if block {
		wctx, cancel := context.WithTimeout(ctx, wait)
		werr := t.Wait(wctx)
		cancel()
		if werr != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			retrieval = "timeout"
		}
	} else if t.Info().Status == task.Running {
		retrieval = "not_ready"
	}
	out, dropped := t.ReadNew()
	info := t.Info()
	if info.Status != task.Running {
		o.tasks.MarkAnnounced(info.ID)
	}
	data := &OutputData{RetrievalStatus: retrieval, Task: taskData(info, out)}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(render(info, out, dropped, retrieval))}, Data: data}, nil
}

func taskData(info task.Info, out string) TaskData {
	return TaskData{
		TaskID: info.ID, TaskType: taskType(info.Kind), Status: string(info.Status),
		Description: info.Description, Output: strings.ToValidUTF8(out, "\uFFFD"), ExitCode: info.ExitCode, Error: info.Err,
	}
}

// taskType maps a task kind to the names Claude Code uses.
func taskType(k task.Kind) string {
	switch k {
	case task.KindShell:
		return "local_bash"
	case task.KindAgent:
		return "local_agent"
	}
	return string(k)
}

func render(info task.Info, out string, dropped int64, retrieval string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<task_id>%s</task_id>\n<status>%s</status>\n", info.ID, info.Status)
	if info.ExitCode != nil && info.Status != task.Running {
		fmt.Fprintf(&sb, "<exit_code>%d</exit_code>\n", *info.ExitCode)
	}
	if info.Err != "" {
		fmt.Fprintf(&sb, "<error>%s</error>\n", info.Err)
	}
	switch retrieval {
	case "timeout":
		sb.WriteString("The task is still running; the wait ended before it finished.\n")
	case "not_ready":
		sb.WriteString("The task is still running.\n")
	}
	if dropped > 0 {
		fmt.Fprintf(&sb, "(%d earlier bytes of output were dropped before they could be read", dropped)
		if info.OutputPath != "" {
			fmt.Fprintf(&sb, "; the full output is in %s", info.OutputPath)
		}
		sb.WriteString(")\n")
	}
	out = strings.TrimRight(strings.ToValidUTF8(out, "\uFFFD"), "\n")
	if out == "" {
		sb.WriteString("(no new output)")
	} else {
		sb.WriteString("<output>\n" + out + "\n</output>")
	}
	return sb.String()
}

// StopInput is TaskStop's input; shell_id is KillShell's older field.
type StopInput struct {
	TaskID  string `json:"task_id,omitempty"`
	ShellID string `json:"shell_id,omitempty"`
}

func (in StopInput) id() (string, string) {
	if in.TaskID != "" || in.ShellID == "" {
		return in.TaskID, "task_id"
	}
	return in.ShellID, "shell_id"
}

// StopData is TaskStop's structured result.
type StopData struct {
	Message  string `json:"message"`
	TaskID   string `json:"task_id"`
	TaskType string `json:"task_type"`
	Command  string `json:"command,omitempty"`
}

// Stop is the TaskStop tool. Construct it with NewStop.
type Stop struct {
	tool.Defaults
	tasks *task.Registry
	// StopWait is how long Call waits for the task to end after asking it
	// to stop; 0 means 5 seconds.
	StopWait time.Duration
}

// NewStop returns the TaskStop tool over the session's task registry
// (required).
func NewStop(tasks *task.Registry) *Stop {
	if tasks == nil {
		panic("taskoutput.NewStop: nil task registry")
	}
	return &Stop{tasks: tasks}
}

// Name implements tool.Tool.
func (*Stop) Name() string { return StopName }

// Aliases returns older names the model may call this tool by.
func (*Stop) Aliases() []string { return []string{KillShellName} }

// Description implements tool.Tool.
func (*Stop) Description() string { return strings.TrimSpace(stopDescription) }

// InputSchema implements tool.Tool.
func (*Stop) InputSchema() json.RawMessage { return stopSchema }

// Validate implements tool.Tool.
func (s *Stop) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	_, err := s.find(raw)
	return err
}

func (s *Stop) find(raw json.RawMessage) (*task.Task, error) {
	var in StopInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("TaskStop input: %w", err)
	}
	id, field := in.id()
	t, err := findTask(s.tasks, id, field)
	if err != nil {
		return nil, err
	}
	if info := t.Info(); info.Status != task.Running {
		return nil, fmt.Errorf("task %s is not running (it %s); there is nothing to stop", id, finishedWords(info))
	}
	return t, nil
}

func finishedWords(info task.Info) string {
	switch info.Status {
	case task.Completed:
		return "completed"
	case task.Killed:
		return "was already stopped"
	}
	return "failed"
}

// Call implements tool.Tool.
func (s *Stop) Call(ctx context.Context, c *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	t, err := s.find(raw)
	if err != nil {
		return nil, err
	}
	if !t.StopFor(task.ErrStoppedByModel) {
		return nil, fmt.Errorf("task %s finished before it could be stopped", t.ID())
	}
	wait := s.StopWait
	if wait <= 0 {
		wait = 5 * time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	werr := t.Wait(wctx)
	cancel()
	info := t.Info()
	s.tasks.MarkAnnounced(info.ID)
	label := info.Command
	if label == "" {
		label = info.Description
	}
	msg := fmt.Sprintf("Stopped task %s (%s).", info.ID, label)
	if werr != nil {
		msg = fmt.Sprintf("Asked task %s (%s) to stop; it has not ended yet.", info.ID, label)
	}
	return &tool.Result{
		Content: []llm.ContentBlock{llm.TextBlock(msg)},
		Data:    &StopData{Message: msg, TaskID: info.ID, TaskType: taskType(info.Kind), Command: info.Command},
	}, nil
}
