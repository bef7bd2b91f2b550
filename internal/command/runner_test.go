package command

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestShellRunnerReportsOutputAndStatus(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatalf("sh is needed: %v", err)
	}
	dir := t.TempDir()
	res, err := ShellRunner{}.Run(context.Background(), dir, "pwd; echo oops >&2; exit 3")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.TrimSpace(res.Stdout) == "" || !strings.HasSuffix(strings.TrimSpace(res.Stdout), dir[strings.LastIndex(dir, "/"):]) {
		t.Errorf("Stdout = %q, want the folder %s", res.Stdout, dir)
	}
	if res.Stderr != "oops\n" || res.ExitCode != 3 {
		t.Errorf("Stderr = %q, ExitCode = %d; want oops, 3", res.Stderr, res.ExitCode)
	}
}

func TestShellRunnerStopsTheProcessGroupOnTimeout(t *testing.T) {
	start := time.Now()
	_, err := ShellRunner{Timeout: 200 * time.Millisecond}.Run(context.Background(), t.TempDir(), "sleep 30 & sleep 30; wait")
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Errorf("Run error = %v, want a deadline error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %v after the timeout; the group was not killed", d)
	}
}

func TestShellRunnerCapsOutput(t *testing.T) {
	res, err := ShellRunner{MaxBytes: 4}.Run(context.Background(), t.TempDir(), "printf 0123456789")
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "0123\n[6 more bytes not kept]" {
		t.Errorf("Stdout = %q", res.Stdout)
	}
}
