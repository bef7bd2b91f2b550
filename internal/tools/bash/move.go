package bash

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"reins/internal/llm"
	"reins/internal/task"
	"reins/internal/tool"
)

// fgState is where a foreground command is: running, moved to the
// background, or ended (finished, or no longer movable because its call
// is answering).
type fgState int

const (
	fgRunning fgState = iota
	fgMoved
	fgEnded
)

// fgProcess is the bash process of a foreground command. It runs under a
// context of its own rather than the call's, so that it can outlive the
// call once the user moved it to the background; until then the call
// stops it through cancel.
type fgProcess struct {
	cancel context.CancelCauseFunc // stops the process
	done   chan struct{}           // closed once runShell returned
	// code, err and pgid are written by the process goroutine before
	// done is closed; read them only after done.
	code int
	err  error
	pgid int

	mu    sync.Mutex // guards the fields below
	state fgState
	moved chan struct{} // closed when the command moved to a task
	task  *task.Task    // the task it moved to
	kept  string        // its output up to the move
}

// launch starts spec's bash process in a goroutine.
func (t *Tool) launch(spec runSpec) *fgProcess {
	ctx, cancel := context.WithCancelCause(context.Background())
	p := &fgProcess{cancel: cancel, done: make(chan struct{}), moved: make(chan struct{})}
	spec.started = func(id int) { p.pgid = id }
	go func() {
		p.code, p.err = runShell(ctx, spec)
		t.keepGroup(p.pgid)
		cancel(nil)
		close(p.done)
	}()
	return p
}

// settle ends the command's chance to move and reports whether it has
// moved already.
func (p *fgProcess) settle() (moved bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state == fgMoved {
		return true
	}
	p.state = fgEnded
	return false
}

// moveToTask makes the running command a background task: the output so
// far and everything it writes later go to the task, which ends when the
// process does (or stops it when the task is stopped), and the call
// returns at once. It reports false when the command is no longer running,
// its call was stopped or timed out (callCtx is done), or no task could
// start.
func (t *Tool) moveToTask(callCtx context.Context, p *fgProcess, in Input, toolUseID string, out *capture, statePath string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != fgRunning || callCtx.Err() != nil {
		return false
	}
	select {
	case <-p.done:
		return false // finished; its call answers with the whole result
	default:
	}
	ready := make(chan struct{})
	tk, err := t.cfg.Tasks.Start(task.Spec{
		Kind: task.KindShell, Description: in.Description, Command: in.Command, ToolUseID: toolUseID,
		Run: func(ctx context.Context, _ io.Writer) (int, error) {
			<-ready // the output so far is in the task
			select {
			case <-p.done:
			case <-ctx.Done():
				p.cancel(context.Cause(ctx))
				<-p.done
			}
			if statePath != "" {
				// A moved command's folder and environment are not
				// adopted, as with run_in_background.
				os.Remove(statePath)
			}
			return p.code, p.err
		},
	})
	if err != nil {
		return false
	}
	// The model reads the output so far in the call's result, so
	// TaskOutput starts after it.
	p.kept = strings.ToValidUTF8(out.divert(tk, tk.MarkRead), "\uFFFD")
	close(ready)
	p.task = tk
	p.state = fgMoved
	close(p.moved)
	return true
}

// movedResult is the call's result once its command moved to the
// background: the output so far and where the rest goes, shaped like a
// run_in_background result.
func (p *fgProcess) movedResult(note string) *tool.Result {
	id := p.task.ID()
	var sb strings.Builder
	fmt.Fprintf(&sb, "The user moved this command to the background while it ran; it goes on as task %s.", id)
	if path := p.task.Info().OutputPath; path != "" {
		fmt.Fprintf(&sb, " All of its output is written to %s.", path)
	}
	fmt.Fprintf(&sb, " Use TaskOutput with task_id %q to read new output and TaskStop to end it; you will be told when it finishes.", id)
	if kept := strings.TrimRight(p.kept, "\n"); kept != "" {
		fmt.Fprintf(&sb, "\nOutput so far:\n%s", kept)
	} else {
		sb.WriteString("\nIt had printed nothing yet.")
	}
	if note != "" {
		sb.WriteString("\n" + note)
	}
	return &tool.Result{
		Content: []llm.ContentBlock{llm.TextBlock(sb.String())},
		Data:    &Data{Stdout: p.kept, BackgroundTaskID: id, BackgroundedByUser: true},
	}
}
