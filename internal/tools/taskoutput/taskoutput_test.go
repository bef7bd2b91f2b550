package taskoutput

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
	"reins/internal/tool"
)

// fixture holds a registry with a running task that prints when told to,
// and a finished one.
type fixture struct {
	reg      *task.Registry
	running  *task.Task
	finished *task.Task
	say      chan string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{reg: &task.Registry{}, say: make(chan string)}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		f.reg.Close(ctx)
	})
	f.running, _ = f.reg.Start(task.Spec{Kind: task.KindShell, Description: "server", Command: "npm run dev",
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			for {
				select {
				case s := <-f.say:
					io.WriteString(out, s)
				case <-ctx.Done():
					return -1, nil
				}
			}
		}})
	f.finished, _ = f.reg.Start(task.Spec{Kind: task.KindShell, Description: "build", Command: "make",
		Run: func(ctx context.Context, out io.Writer) (int, error) {
			io.WriteString(out, "built\n")
			return 2, nil
		}})
	f.finished.Wait(context.Background())
	return f
}

func call(t *testing.T, tl tool.Tool, in string) (*tool.Result, error) {
	t.Helper()
	if err := tl.Validate(context.Background(), &tool.Call{}, json.RawMessage(in)); err != nil {
		return nil, err
	}
	return tl.Call(context.Background(), &tool.Call{}, json.RawMessage(in), nil)
}

func TestTaskOutput(t *testing.T) {
	f := newFixture(t)
	out := NewOutput(f.reg)

	// A finished task: its output, exit code and status, without waiting.
	res, err := call(t, out, `{"task_id":"bash_2"}`)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(*OutputData)
	if d.RetrievalStatus != "success" || d.Task.Status != "failed" || *d.Task.ExitCode != 2 || d.Task.Output != "built\n" || d.Task.TaskType != "local_bash" || d.Task.Description != "build" {
		t.Errorf("finished task data = %+v", d)
	}
	for _, want := range []string{"<status>failed</status>", "<exit_code>2</exit_code>", "<output>\nbuilt\n</output>"} {
		if !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("text lacks %q:\n%s", want, res.Content[0].Text)
		}
	}
	if got := f.reg.TakeFinished(); len(got) != 0 {
		t.Errorf("a task read with TaskOutput is still announced: %v", got)
	}

	// A running task without blocking: not ready, new output only.
	f.say <- "line 1\n"
	waitBytes(t, f.running, 7)
	res, _ = call(t, out, `{"task_id":"bash_1","block":false}`)
	d = res.Data.(*OutputData)
	if d.RetrievalStatus != "not_ready" || d.Task.Output != "line 1\n" || d.Task.Status != "running" || d.Task.ExitCode != nil {
		t.Errorf("non-blocking read = %+v", d)
	}
	res, _ = call(t, out, `{"task_id":"bash_1","block":false}`)
	if !strings.Contains(res.Content[0].Text, "(no new output)") {
		t.Errorf("second read = %q, want no new output", res.Content[0].Text)
	}

	// Blocking with a short timeout: timeout, with what came meanwhile.
	go func() { f.say <- "line 2\n" }()
	waitBytes(t, f.running, 14)
	start := time.Now()
	res, _ = call(t, out, `{"task_id":"bash_1","timeout":100}`)
	d = res.Data.(*OutputData)
	if d.RetrievalStatus != "timeout" || d.Task.Output != "line 2\n" || time.Since(start) < 100*time.Millisecond {
		t.Errorf("blocking read = %+v after %s", d, time.Since(start))
	}
}

func TestTaskOutputBlocksUntilFinished(t *testing.T) {
	reg := &task.Registry{}
	defer reg.Close(context.Background())
	release := make(chan struct{})
	tk, _ := reg.Start(task.Spec{Run: func(ctx context.Context, out io.Writer) (int, error) {
		<-release
		io.WriteString(out, "done\n")
		return 0, nil
	}})
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	res, err := call(t, NewOutput(reg), `{"task_id":"`+tk.ID()+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Data.(*OutputData); d.RetrievalStatus != "success" || d.Task.Status != "completed" || d.Task.Output != "done\n" {
		t.Errorf("data = %+v", d)
	}
}

func TestTaskOutputCancelledWait(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err := NewOutput(f.reg).Call(ctx, &tool.Call{}, json.RawMessage(`{"task_id":"bash_1"}`), nil)
	if err == nil {
		t.Error("a cancelled wait returned a result")
	}
}

func TestTaskStop(t *testing.T) {
	f := newFixture(t)
	st := NewStop(f.reg)
	res, err := call(t, st, `{"task_id":"bash_1"}`)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Data.(*StopData)
	if d.TaskID != "bash_1" || d.TaskType != "local_bash" || d.Command != "npm run dev" || !strings.Contains(d.Message, "Stopped task bash_1") {
		t.Errorf("data = %+v", d)
	}
	if s := f.running.Info().Status; s != task.Killed {
		t.Errorf("status = %s, want killed", s)
	}
	for _, i := range f.reg.TakeFinished() {
		if i.ID == "bash_1" {
			t.Errorf("a task stopped with TaskStop is still announced: %+v", i)
		}
	}
}

func TestTaskStopAcceptsShellID(t *testing.T) {
	f := newFixture(t)
	if _, err := call(t, NewStop(f.reg), `{"shell_id":"bash_1"}`); err != nil {
		t.Fatal(err)
	}
	if f.running.Info().Status != task.Killed {
		t.Error("shell_id did not stop the task")
	}
	if a := NewStop(f.reg).Aliases(); len(a) != 1 || a[0] != "KillShell" {
		t.Errorf("Aliases = %v", a)
	}
}

func TestErrorsNameTheField(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		tool tool.Tool
		in   string
		want string
	}{
		{NewOutput(f.reg), `{"task_id":""}`, "task_id is empty"},
		{NewOutput(f.reg), `{"task_id":"bash_9"}`, `task_id "bash_9" does not match any background task; known tasks: bash_1 (running), bash_2 (failed)`},
		{NewOutput(f.reg), `{"task_id":"bash_1","timeout":700000}`, "timeout must be between 0 and 600000"},
		{NewStop(f.reg), `{}`, "task_id is empty"},
		{NewStop(f.reg), `{"shell_id":"nope"}`, `shell_id "nope" does not match`},
		{NewStop(f.reg), `{"task_id":"bash_2"}`, "task bash_2 is not running (it failed)"},
		{NewOutput(&task.Registry{}), `{"task_id":"x"}`, "none were started in this session"},
	}
	for _, tt := range tests {
		_, err := call(t, tt.tool, tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want %q", tt.tool.Name(), tt.in, err, tt.want)
		}
	}
}

func TestSchemasAcceptTheirInputs(t *testing.T) {
	var s tool.Schemas
	reg := &task.Registry{}
	for _, c := range []struct {
		tl tool.Tool
		in string
		ok bool
	}{
		{NewOutput(reg), `{"task_id":"a","block":false,"timeout":1000}`, true},
		{NewOutput(reg), `{"block":true}`, false},
		{NewOutput(reg), `{"task_id":"a","extra":1}`, false},
		{NewStop(reg), `{"task_id":"a"}`, true},
		{NewStop(reg), `{"shell_id":"a"}`, true},
	} {
		err := s.Validate(c.tl.InputSchema(), json.RawMessage(c.in))
		if (err == nil) != c.ok {
			t.Errorf("%s schema on %s: %v", c.tl.Name(), c.in, err)
		}
	}
}

func waitBytes(t *testing.T, tk *task.Task, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for tk.Info().OutputBytes < n {
		if time.Now().After(deadline) {
			t.Fatalf("task never wrote %d bytes", n)
		}
		time.Sleep(time.Millisecond)
	}
}
