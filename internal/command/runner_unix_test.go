//go:build linux

package command

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A command line runs in a session of its own, away from the terminal
// reins runs in: its session id is not reins's, and /dev/tty cannot be
// opened from it.
func TestShellRunnerRunsOutsideTheCallersSession(t *testing.T) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state ppid pgrp session ...
	after := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	own, err := strconv.Atoi(after[3])
	if err != nil {
		t.Fatal(err)
	}
	res, err := ShellRunner{}.Run(context.Background(), t.TempDir(),
		`read -r _ _ _ _ _ sid _ < /proc/self/stat; echo "$sid"; (: < /dev/tty) 2>/dev/null && echo tty || echo notty`)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	lines := strings.Fields(res.Stdout)
	if len(lines) != 2 {
		t.Fatalf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	if lines[0] == strconv.Itoa(own) {
		t.Errorf("the command ran in the caller's session %d", own)
	}
	if lines[1] != "notty" {
		t.Errorf("the command could open /dev/tty")
	}
}
