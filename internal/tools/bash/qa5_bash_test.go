package bash

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"reins/internal/task"
)

// A command that printed more than the capture keeps before it moved to
// the background still has all of its output in the task's output file
// (the result says the file holds all of it): the middle the capture left
// out of the call's result is not lost.
func TestMovedCommandKeepsOutputBeyondTheCaptureInItsFile(t *testing.T) {
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	stateDir := t.TempDir()
	b := newTool(t, Config{Tasks: reg, CaptureBytes: 1000, StateDir: stateDir})
	dir := b.Cwd()
	cmd := `for i in $(seq 1 2000); do echo "line $i"; done; touch started; while [ ! -e go ]; do sleep 0.02; done; echo after`
	done := startCall(t, b, "toolu_big", cmd)
	waitFor(t, "the command to start", exists(filepath.Join(dir, "started")))
	waitFor(t, "the call to be movable", func() bool { return reg.CanBackground("toolu_big") })
	if !reg.Background("toolu_big") {
		t.Fatal("Background moved nothing")
	}
	d := <-done
	if d.err != nil {
		t.Fatalf("Call: %v", d.err)
	}
	id := d.res.Data.(*Data).BackgroundTaskID
	if !strings.Contains(text(d.res), "bytes of output omitted") {
		t.Fatalf("result = %q, want the capture's shortened output", text(d.res))
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tk, _ := reg.Get(id)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tk.Wait(ctx); err != nil {
		t.Fatalf("task did not end: %v", err)
	}
	var want strings.Builder
	for i := 1; i <= 2000; i++ {
		want.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	want.WriteString("after\n")
	got, err := os.ReadFile(tk.Info().OutputPath)
	if err != nil || string(got) != want.String() {
		t.Fatalf("output file has %d bytes (%v), want all %d bytes of output exactly once; starts %q", len(got), err, want.Len(), string(got[:min(len(got), 200)]))
	}
	if n := tk.Info().OutputBytes; n != int64(want.Len()) {
		t.Fatalf("task counts %d bytes of output, want %d", n, want.Len())
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 0 {
		t.Fatalf("files left in the state folder: %v", left)
	}
}

// A default timeout above the largest raises the largest, so a call may
// ask for as long as the default.
func TestQA5DefaultTimeoutAboveTheLargestRaisesIt(t *testing.T) {
	def, max, warns := EnvTimeouts(envMap{DefaultTimeoutEnv: "900000", MaxTimeoutEnv: " "}.get)
	if def != 15*time.Minute || max != 0 || len(warns) != 0 {
		t.Fatalf("EnvTimeouts = %v, %v, %v; want 15m, 0 and no warning", def, max, warns)
	}
	b := newTool(t, Config{DefaultTimeout: def, MaxTimeout: max})
	if err := b.Validate(context.Background(), nil, input(t, map[string]any{"command": "true", "timeout": 900000})); err != nil {
		t.Fatalf("timeout 900000 with a 15-minute default: %v", err)
	}
	if !strings.Contains(b.Description(), "900000 (15 minutes) by default, at most 900000 (15 minutes)") {
		t.Fatalf("description does not give the timeouts:\n%s", b.Description())
	}
	for _, bad := range []string{"-5", "0", "1.5", "abc", "99999999999999999999"} {
		if d, _, w := EnvTimeouts(envMap{DefaultTimeoutEnv: bad}.get); d != 0 || len(w) != 1 || !strings.Contains(w[0], DefaultTimeoutEnv) {
			t.Errorf("EnvTimeouts(%q) = %v, %v; want it ignored with a warning that names the variable", bad, d, w)
		}
	}
}

type envMap map[string]string

func (m envMap) get(k string) string { return m[k] }

// BASH_MAX_OUTPUT_LENGTH is capped at 150000 characters, and a value that
// is no positive whole number is ignored with a warning naming it.
func TestQA5EnvMaxOutput(t *testing.T) {
	if n, w := EnvMaxOutput(envMap{MaxOutputEnv: "1000000"}.get); n != MaxOutputLimit || len(w) != 0 {
		t.Errorf("EnvMaxOutput(1000000) = %d, %v; want %d", n, w, MaxOutputLimit)
	}
	if n, w := EnvMaxOutput(envMap{}.get); n != 0 || len(w) != 0 {
		t.Errorf("EnvMaxOutput(unset) = %d, %v; want 0", n, w)
	}
	for _, bad := range []string{"0", "-1", "lots", "1e5"} {
		if n, w := EnvMaxOutput(envMap{MaxOutputEnv: bad}.get); n != 0 || len(w) != 1 || !strings.Contains(w[0], MaxOutputEnv) {
			t.Errorf("EnvMaxOutput(%q) = %d, %v; want it ignored with a warning", bad, n, w)
		}
	}
	if b := newTool(t, Config{MaxResultChars: 5000}); b.MaxResultChars() != 5000 || !strings.Contains(b.Description(), "longer than 5000 characters") {
		t.Errorf("MaxResultChars() = %d; description:\n%s", b.MaxResultChars(), b.Description())
	}
}

// A command that is not moved leaves no spilled output behind (only the
// whole output, saved in the state folder's output folder), and its
// result is the capture's usual head and tail.
func TestQA5UnmovedCommandLeavesNoSpillFile(t *testing.T) {
	reg := &task.Registry{Dir: t.TempDir()}
	defer closeTasks(t, reg)
	stateDir := t.TempDir()
	b := newTool(t, Config{Tasks: reg, CaptureBytes: 1000, StateDir: stateDir})
	d := <-startCall(t, b, "toolu_plain", "seq 1 5000")
	if d.err != nil || !strings.Contains(text(d.res), "bytes of output omitted") || !strings.HasSuffix(strings.TrimSpace(text(d.res)), "5000") {
		t.Fatalf("call = %v, %q", d.err, text(d.res))
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 1 || left[0].Name() != "output" {
		t.Fatalf("files left in the state folder: %v", left)
	}
	if n := len(reg.List()); n != 0 {
		t.Fatalf("%d tasks for a call that was not moved", n)
	}
}
