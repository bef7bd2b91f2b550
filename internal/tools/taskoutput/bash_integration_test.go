package taskoutput

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
	"reins/internal/tool"
	"reins/internal/tools/bash"
)

// TestWithRealBackgroundCommand drives a real background command through
// Bash, TaskOutput and TaskStop.
func TestWithRealBackgroundCommand(t *testing.T) {
	reg := &task.Registry{}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		reg.Close(ctx)
	}()
	b := bash.New(bash.Config{Cwd: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}, Tasks: reg, StateDir: t.TempDir()})
	res, err := b.Call(context.Background(), &tool.Call{}, json.RawMessage(`{"command":"echo ready; while :; do sleep 0.05; done","run_in_background":true}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Data.(*bash.Data).BackgroundTaskID

	out := NewOutput(reg)
	var got string
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(got, "ready") && time.Now().Before(deadline) {
		r, err := out.Call(context.Background(), &tool.Call{}, json.RawMessage(`{"task_id":"`+id+`","block":false}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		got += r.Data.(*OutputData).Task.Output
		time.Sleep(20 * time.Millisecond)
	}
	if got != "ready\n" {
		t.Fatalf("output = %q", got)
	}
	r, err := NewStop(reg).Call(context.Background(), &tool.Call{}, json.RawMessage(`{"task_id":"`+id+`"}`), nil)
	if err != nil || !strings.HasPrefix(r.Content[0].Text, "Stopped task") {
		t.Fatalf("stop: %v %v", r, err)
	}
	tk, _ := reg.Get(id)
	if tk.Info().Status != task.Killed {
		t.Errorf("status = %s", tk.Info().Status)
	}
}
