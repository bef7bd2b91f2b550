package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func waitDone(t *testing.T, tk *Task) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatalf("task %s did not finish: %v", tk.ID(), err)
	}
}

func closeRegistry(t *testing.T, r *Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestStatusFromOutcome(t *testing.T) {
	tests := []struct {
		name     string
		run      RunFunc
		stop     bool
		status   Status
		exitCode *int
		errText  string
	}{
		{"success", func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }, false, Completed, ptr(0), ""},
		{"non-zero exit", func(ctx context.Context, out io.Writer) (int, error) { return 3, nil }, false, Failed, ptr(3), ""},
		{"error", func(ctx context.Context, out io.Writer) (int, error) { return 0, errors.New("boom") }, false, Failed, ptr(0), "boom"},
		{"stopped", func(ctx context.Context, out io.Writer) (int, error) { <-ctx.Done(); return -1, ctx.Err() }, true, Killed, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Registry{}
			defer closeRegistry(t, r)
			tk, err := r.Start(Spec{Kind: KindShell, Description: tt.name, Run: tt.run})
			if err != nil {
				t.Fatal(err)
			}
			if tt.stop {
				if err := r.Stop(tk.ID()); err != nil {
					t.Fatalf("Stop: %v", err)
				}
			}
			waitDone(t, tk)
			info := tk.Info()
			if info.Status != tt.status || fmt.Sprint(deref(info.ExitCode)) != fmt.Sprint(deref(tt.exitCode)) || (info.ExitCode == nil) != (tt.exitCode == nil) || info.Err != tt.errText {
				t.Errorf("Info = status %s exit %v err %q; want %s %v %q", info.Status, deref(info.ExitCode), info.Err, tt.status, deref(tt.exitCode), tt.errText)
			}
			if info.End.IsZero() {
				t.Error("End not set")
			}
		})
	}
}

func ptr(i int) *int { return &i }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestReadNewReturnsOnlyNewOutput(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	step := make(chan struct{})
	tk, _ := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) {
		io.WriteString(out, "one\n")
		<-step
		io.WriteString(out, "two\n")
		<-step
		return 0, nil
	}})
	eventually(t, func() bool { _, n := tk.Output(); return tk.Info().OutputBytes == 4 && n == 0 })
	if got, _ := tk.ReadNew(); got != "one\n" {
		t.Errorf("first ReadNew = %q", got)
	}
	if got, _ := tk.ReadNew(); got != "" {
		t.Errorf("second ReadNew with nothing new = %q", got)
	}
	step <- struct{}{}
	eventually(t, func() bool { return tk.Info().OutputBytes == 8 })
	if got, _ := tk.ReadNew(); got != "two\n" {
		t.Errorf("third ReadNew = %q", got)
	}
	step <- struct{}{}
	waitDone(t, tk)
	if all, _ := tk.Output(); all != "one\ntwo\n" {
		t.Errorf("Output = %q", all)
	}
}

func TestOutputKeepsTheNewestBytes(t *testing.T) {
	r := &Registry{MaxOutput: 10}
	defer closeRegistry(t, r)
	tk, _ := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) {
		io.WriteString(out, "0123456789")
		io.WriteString(out, "abcdef")
		return 0, nil
	}})
	waitDone(t, tk)
	got, dropped := tk.ReadNew()
	if got != "6789abcdef" || dropped != 6 {
		t.Errorf("ReadNew = %q, dropped %d; want the last 10 bytes and 6 dropped", got, dropped)
	}
}

func TestOutputFileMirrorsOutput(t *testing.T) {
	dir := t.TempDir()
	r := &Registry{Dir: dir}
	defer closeRegistry(t, r)
	tk, _ := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) {
		io.WriteString(out, "logged\n")
		return 0, nil
	}})
	waitDone(t, tk)
	p := tk.Info().OutputPath
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "logged\n" {
		t.Errorf("output file %q = %q, %v", p, b, err)
	}
}

func TestTakeFinishedAnnouncesOnce(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	block := make(chan struct{})
	quick, _ := r.Start(Spec{Description: "quick", Run: func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }})
	slow, _ := r.Start(Spec{Description: "slow", Run: func(ctx context.Context, out io.Writer) (int, error) { <-block; return 1, nil }})
	third, _ := r.Start(Spec{Description: "read already", Run: func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }})
	waitDone(t, quick)
	waitDone(t, third)
	r.MarkAnnounced(third.ID())

	got := ids(r.TakeFinished())
	if got != quick.ID() {
		t.Errorf("TakeFinished = %q, want only %s", got, quick.ID())
	}
	if got := ids(r.TakeFinished()); got != "" {
		t.Errorf("second TakeFinished = %q, want nothing", got)
	}
	close(block)
	waitDone(t, slow)
	if got := ids(r.TakeFinished()); got != slow.ID() {
		t.Errorf("TakeFinished after slow ended = %q", got)
	}
}

func ids(infos []Info) string {
	var s []string
	for _, i := range infos {
		s = append(s, i.ID)
	}
	return strings.Join(s, ",")
}

func TestChangedSignalsFinish(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	ch := r.Changed()
	r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }})
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("Changed not signalled when a task finished")
	}
}

func TestIDsAreByKind(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	noop := func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }
	a, _ := r.Start(Spec{Kind: KindShell, Run: noop})
	b, _ := r.Start(Spec{Kind: KindAgent, Run: noop})
	c, _ := r.Start(Spec{Kind: KindShell, Run: noop})
	if a.ID() != "bash_1" || b.ID() != "agent_1" || c.ID() != "bash_2" {
		t.Errorf("ids = %s %s %s", a.ID(), b.ID(), c.ID())
	}
	if _, ok := r.Get("bash_2"); !ok {
		t.Error("Get(bash_2) not found")
	}
	if len(r.List()) != 3 {
		t.Errorf("List has %d tasks", len(r.List()))
	}
}

func TestGivenIDIsKeptAndMustBeUnique(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	noop := func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }
	a, err := r.Start(Spec{ID: "a0123456789abcdef", Kind: KindAgent, Run: noop})
	if err != nil || a.ID() != "a0123456789abcdef" {
		t.Fatalf("Start with ID = %v, %v", a, err)
	}
	if _, err := r.Start(Spec{ID: "a0123456789abcdef", Kind: KindAgent, Run: noop}); err == nil || !strings.Contains(err.Error(), "already in use") {
		t.Errorf("duplicate ID: err = %v", err)
	}
	b, _ := r.Start(Spec{Kind: KindAgent, Run: noop})
	if b.ID() != "agent_1" {
		t.Errorf("generated id after a given one = %s, want agent_1", b.ID())
	}
}

func TestStopErrors(t *testing.T) {
	r := &Registry{}
	defer closeRegistry(t, r)
	if err := r.Stop("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Stop(unknown) = %v, want ErrNotFound", err)
	}
	tk, _ := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }})
	waitDone(t, tk)
	if err := r.Stop(tk.ID()); !errors.Is(err, ErrFinished) {
		t.Errorf("Stop(finished) = %v, want ErrFinished", err)
	}
}

func TestCloseStopsEverythingAndRefusesNewTasks(t *testing.T) {
	r := &Registry{}
	var tasks []*Task
	for range 5 {
		tk, _ := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) { <-ctx.Done(); return -1, nil }})
		tasks = append(tasks, tk)
	}
	closeRegistry(t, r)
	for _, tk := range tasks {
		if s := tk.Info().Status; s != Killed {
			t.Errorf("%s status after Close = %s, want killed", tk.ID(), s)
		}
	}
	if r.Running() != 0 {
		t.Errorf("Running = %d after Close", r.Running())
	}
	if _, err := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) { return 0, nil }}); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close = %v, want ErrClosed", err)
	}
}

func TestCloseHonoursContext(t *testing.T) {
	r := &Registry{}
	release := make(chan struct{})
	r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) { <-release; return 0, nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := r.Close(ctx); err == nil {
		t.Error("Close returned nil while a task ignored its context")
	}
	close(release)
	closeRegistry(t, r)
}

func TestNotification(t *testing.T) {
	info := Info{ID: "bash_3", Kind: KindShell, Command: "npm test", Status: Failed, ExitCode: ptr(1), OutputPath: "/tmp/x/bash_3.output"}
	n := info.Notification()
	for _, want := range []string{"<task-id>bash_3</task-id>", "<status>failed</status>", `"npm test" failed with exit code 1`, `task_id "bash_3"`, "/tmp/x/bash_3.output"} {
		if !strings.Contains(n, want) {
			t.Errorf("Notification missing %q:\n%s", want, n)
		}
	}
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestObserveSeesStartAndEnd(t *testing.T) {
	seen := make(chan Info, 4)
	r := &Registry{Observe: func(i Info) { seen <- i }}
	defer closeRegistry(t, r)
	release := make(chan struct{})
	tk, err := r.Start(Spec{Kind: KindShell, Description: "d", ToolUseID: "toolu_1", Run: func(ctx context.Context, out io.Writer) (int, error) {
		<-release
		return 3, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	first := <-seen
	if first.ID != tk.ID() || first.Status != Running || first.ToolUseID != "toolu_1" {
		t.Errorf("start = %+v", first)
	}
	close(release)
	waitDone(t, tk)
	select {
	case last := <-seen:
		if last.Status != Failed || last.ExitCode == nil || *last.ExitCode != 3 || !strings.Contains(last.Summary(), "failed with exit code 3") {
			t.Errorf("end = %+v (%s)", last, last.Summary())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no end observed")
	}
}

func TestReportReachesObserveWhileRunning(t *testing.T) {
	seen := make(chan Info, 8)
	r := &Registry{Observe: func(i Info) { seen <- i }}
	defer closeRegistry(t, r)
	release := make(chan struct{})
	tk, err := r.Start(Spec{Kind: KindAgent, Run: func(ctx context.Context, out io.Writer) (int, error) {
		out.(*Task).Report(Progress{ToolUses: 1, LastTool: "Read", Tokens: 120})
		<-release
		return 0, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	<-seen // started
	if p := (<-seen).Progress; p == nil || p.ToolUses != 1 || p.LastTool != "Read" || p.Tokens != 120 {
		t.Errorf("progress = %+v", p)
	}
	close(release)
	waitDone(t, tk)
	<-seen // ended
	tk.Report(Progress{ToolUses: 2})
	select {
	case i := <-seen:
		t.Errorf("a finished task reported: %+v", i)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestQA10StopForGivesTheTaskItsCause: a task stopped for a reason sees
// it as its context's cause, so what it ran can tell who stopped it.
func TestQA10StopForGivesTheTaskItsCause(t *testing.T) {
	var r Registry
	causes := make(chan error, 1)
	tk, err := r.Start(Spec{Run: func(ctx context.Context, _ io.Writer) (int, error) {
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return 1, ctx.Err()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Stop(tk.ID()); err != nil {
		t.Fatal(err)
	}
	if got := <-causes; !errors.Is(got, ErrStoppedByUser) {
		t.Errorf("cause = %v, want ErrStoppedByUser", got)
	}
	r.Close(context.Background())
}
