package task

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A resumed session runs with the task folder of the run that recorded
// it. A new task must not take the id of one of that run's tasks: the
// conversation already names that id, and its output file was truncated
// (the earlier task's output lost) when the counter started at 1 again.
func TestNewTaskAfterResumeKeepsEarlierRunsIDAndOutput(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "bash_1.output")
	if err := os.WriteFile(old, []byte("earlier run's output\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &Registry{Dir: dir}
	defer closeRegistry(t, r)
	tk, err := r.Start(Spec{Run: func(ctx context.Context, out io.Writer) (int, error) {
		io.WriteString(out, "new\n")
		return 0, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, tk)
	if tk.ID() != "bash_2" {
		t.Errorf("new task id %s, want bash_2 (bash_1 was the earlier run's)", tk.ID())
	}
	if data, _ := os.ReadFile(old); string(data) != "earlier run's output\n" {
		t.Errorf("the earlier run's output file now holds %q", data)
	}
	if got := r.Earlier("bash_1"); got != old {
		t.Errorf("Earlier(bash_1) = %q, want %s", got, old)
	}
	if got := r.Earlier("bash_2"); got != "" {
		t.Errorf("Earlier(bash_2) = %q for a task of this run", got)
	}
}
