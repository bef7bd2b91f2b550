package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// TestTMUXIsBackForToolCommands: the binary takes TMUX out of its
// environment while its packages initialise (see fastpath.hideTMUX); the
// commands it runs for the model must still see it.
func TestTMUXIsBackForToolCommands(t *testing.T) {
	const tmux = "/tmp/reins-test-tmux-socket,4242,0"
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_t", "Bash", map[string]any{"command": `printf 'tmux=%s' "$TMUX"`})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "TMUX="+tmux)
	if r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 || len(reqs[1].ToolResults()) == 0 {
		t.Fatalf("%d requests, no tool result", len(reqs))
	}
	if got := reqs[1].ToolResults()[0].ResultText(); !strings.Contains(got, "tmux="+tmux) {
		t.Errorf("the Bash command saw %q, want TMUX=%s", got, tmux)
	}
}

// TestNoTmuxProbeWhileStarting runs reins on a terminal inside a
// (pretend) tmux session, with a tmux on PATH that records each call.
// Printing the help must not run it: a library's colour probe at start-up
// did, for 10-20 ms. The terminal UI then runs it exactly once, for its
// own colours, which shows the recording tmux is the one reins finds.
func TestNoTmuxProbeWhileStarting(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:9")
	bin := filepath.Join(sb.Home, "bin")
	calls := filepath.Join(sb.Home, "tmux-calls")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %q\necho 'RGB: [missing]'\n", calls)
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(sb.Env, "TMUX=/tmp/reins-test-tmux-socket,4242,0")
	for i, e := range env {
		if strings.HasPrefix(e, "PATH=") {
			env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(e, "PATH=")
		}
	}
	count := func() int {
		b, _ := os.ReadFile(calls)
		return strings.Count(string(b), "\n")
	}

	out := runOnTerminal(t, sb.Dir, env, "Usage", "--help")
	if !strings.Contains(out, "Usage") {
		t.Fatalf("no help on the terminal: %q", out)
	}
	if n := count(); n != 0 {
		t.Errorf("printing the help ran tmux %d times", n)
	}
	// The UI asks whether the folder is trusted; its first screen needs
	// the colours.
	runOnTerminal(t, sb.Dir, env, "trust")
	if n := count(); n != 1 {
		t.Errorf("the terminal UI ran tmux %d times, want once (for its colours)", n)
	}
}

// runOnTerminal runs reins with args on a new pseudo-terminal until its
// output contains want (or it exits), kills it, and returns the output.
func runOnTerminal(t *testing.T, dir string, env []string, want string, args ...string) string {
	t.Helper()
	master, slave, err := e2etest.OpenPTY(120, 40)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e2etest.Binary(t), args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	buf := make([]byte, 32<<10)
	master.SetReadDeadline(time.Now().Add(20 * time.Second))
	for !strings.Contains(strings.ToLower(out.String()), strings.ToLower(want)) {
		n, err := master.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	return out.String()
}
