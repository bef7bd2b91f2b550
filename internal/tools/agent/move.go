package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	agentdef "reins/internal/agent"
	"reins/internal/llm"
	"reins/internal/task"
	"reins/internal/tool"
)

// fgRun is a foreground sub-agent's run, which the user may move to the
// background while it works. It runs under a context of its own so that
// it can outlive the call once moved; until then the call stops it
// through cancel.
type fgRun struct {
	conv   agentdef.Conversation   // closed by the task once moved
	cancel context.CancelCauseFunc // stops the run
	done   chan struct{}           // closed once conv.Run returned
	// res and err are written before done is closed; read them after.
	res *agentdef.Result
	err error

	mu       sync.Mutex // guards the fields below
	moved    chan struct{}
	settled  bool       // the call answers: no move any more
	task     *task.Task // the task it moved to
	progress func(tool.Progress)
}

// launch runs conv in a goroutine, passing its events up as the call's
// progress until the run moves or the call answers.
func (t *Tool) launch(ctx context.Context, conv agentdef.Conversation, progress func(tool.Progress)) *fgRun {
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	r := &fgRun{conv: conv, cancel: cancel, done: make(chan struct{}), moved: make(chan struct{}), progress: progress}
	go func() {
		r.res, r.err = conv.Run(runCtx, r.emit)
		cancel(nil)
		close(r.done)
	}()
	return r
}

// emit passes the run's events to the call while it waits for the run,
// and its progress reports to the task once the run moved.
func (r *fgRun) emit(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, report := ev.(agentdef.Progress)
	switch {
	case r.task != nil:
		reportProgress(r.task, ev)
	case !r.settled && r.progress != nil && !report:
		r.progress(tool.Progress{Data: ev})
	}
}

// settle ends the run's chance to move and reports whether it moved.
func (r *fgRun) settle() (moved bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.task != nil {
		return true
	}
	r.settled = true
	return false
}

// moveToTask makes the running sub-agent a background agent task under
// its agent id: the task ends with the agent's answer (its output) and
// stopping the task stops the agent. It reports false when the run has
// ended, its call was stopped (callCtx is done), or no task could start.
func (t *Tool) moveToTask(callCtx context.Context, r *fgRun, spec agentdef.Spec) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.settled || r.task != nil || callCtx.Err() != nil {
		return false
	}
	select {
	case <-r.done:
		return false
	default:
	}
	ready := make(chan struct{})
	tk, err := t.cfg.Tasks.Start(task.Spec{ID: spec.AgentID, Kind: task.KindAgent, Description: spec.Description,
		ToolUseID: spec.ParentToolUseID, AgentType: spec.Definition.Name, Prompt: spec.Prompt,
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			defer r.conv.Close()
			<-ready
			select {
			case <-r.done:
			case <-ctx.Done():
				r.cancel(context.Cause(ctx))
				<-r.done
			}
			return finishTask(out, r.res, r.err)
		}})
	if err != nil {
		return false
	}
	r.task = tk
	if b, ok := r.conv.(agentdef.Backgrounder); ok {
		b.MovedToBackground()
	}
	close(ready)
	close(r.moved)
	return true
}

// movedResult answers the Agent call whose sub-agent moved to the
// background, shaped like a run_in_background launch.
func movedResult(spec agentdef.Spec, tk *task.Task) *tool.Result {
	msg := fmt.Sprintf("The user moved the %s agent to the background while it worked; it goes on as task %s. You will be told when it finishes, with its answer; carry on meanwhile and do not poll. TaskOutput (task_id %q) reads its output early and TaskStop ends it.",
		spec.Definition.Name, tk.ID(), tk.ID())
	return &tool.Result{
		Content: []llm.ContentBlock{llm.TextBlock(msg)},
		Data: &LaunchData{IsAsync: true, Status: "async_launched", AgentID: spec.AgentID, AgentType: spec.Definition.Name,
			Description: spec.Description, Prompt: spec.Prompt, OutputFile: tk.Info().OutputPath},
	}
}

// reportProgress records a background sub-agent's progress event on its
// task; other events are ignored.
func reportProgress(tk *task.Task, ev any) {
	if p, ok := ev.(agentdef.Progress); ok {
		tk.Report(task.Progress{ToolUses: p.ToolUses, LastTool: p.LastTool, Tokens: p.Tokens})
	}
}

// finishTask ends a background agent task: the agent's answer is its
// output, and a run that failed or was interrupted fails the task.
func finishTask(out io.Writer, res *agentdef.Result, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	io.WriteString(out, strings.TrimSpace(res.Text))
	if res.WorktreePath != "" {
		io.WriteString(out, "\n\n"+worktreeNote(res))
	}
	switch status(res) {
	case "failed":
		return 0, errors.New(errText(res.Err))
	case "interrupted":
		return 0, errors.New("interrupted before it finished")
	}
	return 0, nil
}
