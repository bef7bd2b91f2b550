package bash

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
	"reins/internal/tool"
)

// waitFor polls cond until it holds; the deadline only keeps a broken
// build from hanging, it asserts nothing about time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func exists(path string) func() bool {
	return func() bool { _, err := os.Stat(path); return err == nil }
}

type callDone struct {
	res *tool.Result
	err error
}

// startCall runs a Bash call with tool_use id in a goroutine.
func startCall(t *testing.T, b *Tool, id, cmd string) <-chan callDone {
	t.Helper()
	ch := make(chan callDone, 1)
	in := input(t, map[string]any{"command": cmd, "description": "wait for go"})
	go func() {
		res, err := b.Call(context.Background(), &tool.Call{ID: id}, in, nil)
		ch <- callDone{res, err}
	}()
	return ch
}

func closeTasks(t *testing.T, r *task.Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.Close(ctx); err != nil {
		t.Errorf("close registry: %v", err)
	}
}

func TestMovedCommandAnswersAtOnceAndGoesOnAsTask(t *testing.T) {
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	stateDir := t.TempDir()
	b := newTool(t, Config{Tasks: reg, StateDir: stateDir})
	dir := b.Cwd()
	// export makes the call use a state file, which the moved command
	// must not leave behind.
	cmd := `export MOVED=1; echo before; touch started; while [ ! -e go ]; do sleep 0.02; done; echo after`
	done := startCall(t, b, "toolu_1", cmd)
	waitFor(t, "the command to start", exists(filepath.Join(dir, "started")))
	waitFor(t, "the call to be movable", func() bool { return reg.CanBackground("toolu_1") })
	if reg.Background("toolu_other") {
		t.Fatal("Background of an unknown tool_use id reported a move")
	}
	if !reg.Background("toolu_1") {
		t.Fatal("Background(toolu_1) reported nothing moved")
	}
	d := <-done // the call answers while the command still waits for "go"
	if d.err != nil {
		t.Fatalf("Call: %v", d.err)
	}
	data, ok := d.res.Data.(*Data)
	if !ok || !data.BackgroundedByUser || data.BackgroundTaskID == "" {
		t.Fatalf("Data = %+v, want backgroundedByUser with a task id", d.res.Data)
	}
	txt := text(d.res)
	if !strings.Contains(txt, "before") || strings.Contains(txt, "after") || !strings.Contains(txt, data.BackgroundTaskID) {
		t.Fatalf("result = %q, want the output so far and the task id", txt)
	}
	if d.res.IsError {
		t.Fatalf("moved call answered with an error: %q", txt)
	}
	if reg.CanBackground("toolu_1") || reg.Background("") {
		t.Fatal("the moved call can still move")
	}

	tk, ok := reg.Get(data.BackgroundTaskID)
	if !ok {
		t.Fatalf("no task %s", data.BackgroundTaskID)
	}
	if st := tk.Info().Status; st != task.Running {
		t.Fatalf("task status right after the move = %s, want running", st)
	}
	if got := reg.TakeFinished(); len(got) != 0 {
		t.Fatalf("finished tasks before the command ended: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatalf("task did not end: %v", err)
	}
	info := tk.Info()
	if info.Status != task.Completed || info.ExitCode == nil || *info.ExitCode != 0 || info.ToolUseID != "toolu_1" {
		t.Fatalf("task = %+v, want completed with exit code 0 for toolu_1", info)
	}
	if newOut, _ := tk.ReadNew(); newOut != "after\n" {
		t.Fatalf("TaskOutput's new output = %q, want only what came after the move", newOut)
	}
	file, err := os.ReadFile(info.OutputPath)
	if err != nil || string(file) != "before\nafter\n" {
		t.Fatalf("output file = %q (%v), want all of the output", file, err)
	}
	fin := reg.TakeFinished()
	if len(fin) != 1 || fin[0].ID != info.ID || !strings.Contains(fin[0].Notification(), info.ID) {
		t.Fatalf("finished = %+v, want the moved task announced once", fin)
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 0 {
		t.Fatalf("state files left behind: %v", left)
	}
	if _, ok := os.LookupEnv("MOVED"); ok || strings.Contains(strings.Join(b.Env(), "\n"), "MOVED=") {
		t.Fatal("a moved command's export was adopted")
	}
}

func TestStoppingMovedCommandKillsIt(t *testing.T) {
	reg := &task.Registry{}
	defer closeTasks(t, reg)
	b := newTool(t, Config{Tasks: reg})
	dir := b.Cwd()
	done := startCall(t, b, "toolu_2", "touch started; sleep 300; touch survived")
	waitFor(t, "the command to start", exists(filepath.Join(dir, "started")))
	waitFor(t, "the call to be movable", func() bool { return reg.CanBackground("") })
	if !reg.Background("") {
		t.Fatal("Background(\"\") moved nothing")
	}
	d := <-done
	id := d.res.Data.(*Data).BackgroundTaskID
	if err := reg.Stop(id); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	tk, _ := reg.Get(id)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatalf("stopped task did not end: %v", err)
	}
	if st := tk.Info().Status; st != task.Killed {
		t.Fatalf("status = %s, want killed", st)
	}
	if exists(filepath.Join(dir, "survived"))() {
		t.Fatal("the command ran on after its task was stopped")
	}
}

func TestFinishedCommandDoesNotMove(t *testing.T) {
	reg := &task.Registry{}
	defer closeTasks(t, reg)
	b := newTool(t, Config{Tasks: reg})
	d := <-startCall(t, b, "toolu_3", "echo quick")
	if d.err != nil || strings.TrimSpace(text(d.res)) != "quick" {
		t.Fatalf("call = %v, %q", d.err, text(d.res))
	}
	if reg.CanBackground("toolu_3") || reg.Background("toolu_3") || reg.Background("") {
		t.Fatal("a finished call could move")
	}
	if n := len(reg.List()); n != 0 {
		t.Fatalf("%d tasks started for a finished call", n)
	}
}

func TestInterruptedCommandBeforeMoveIsStopped(t *testing.T) {
	reg := &task.Registry{}
	defer closeTasks(t, reg)
	b := newTool(t, Config{Tasks: reg})
	dir := b.Cwd()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan callDone, 1)
	go func() {
		res, err := b.Call(ctx, &tool.Call{ID: "toolu_4"}, input(t, map[string]any{"command": "touch started; sleep 300"}), nil)
		ch <- callDone{res, err}
	}()
	waitFor(t, "the command to start", exists(filepath.Join(dir, "started")))
	cancel()
	d := <-ch
	if d.err != nil || !d.res.Data.(*Data).Interrupted {
		t.Fatalf("call = %v, %+v; want an interrupted result", d.err, d.res)
	}
	if reg.Background("toolu_4") || len(reg.List()) != 0 {
		t.Fatal("an interrupted call moved to the background")
	}
}
