package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// Runner runs the shell command of a !`cmd` line in dir. A command that
// ran and failed is a RunResult with a non-zero ExitCode; err is for a
// command that could not run at all (or ctx ending).
type Runner interface {
	Run(ctx context.Context, dir, command string) (RunResult, error)
}

// RunResult is what a command printed and how it exited.
type RunResult struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// ShellRunner runs commands with "bash -c" (or "sh -c" when bash is not
// installed), stopping the whole process group when ctx ends or Timeout
// passes. The zero value is ready to use.
type ShellRunner struct {
	// Timeout bounds one command (0: two minutes).
	Timeout time.Duration
	// Env is the environment (nil: the process's own).
	Env []string
	// MaxBytes caps what is kept of each output stream (0: 1 MiB).
	MaxBytes int
}

// Run implements Runner.
func (s ShellRunner) Run(ctx context.Context, dir, command string) (RunResult, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	shell, err := exec.LookPath("bash")
	if err != nil {
		shell = "/bin/sh"
	}
	cmd := exec.CommandContext(ctx, shell, "-c", command)
	cmd.Dir = dir
	cmd.Env = s.Env
	limit := s.MaxBytes
	if limit <= 0 {
		limit = 1 << 20
	}
	stdout, stderr := &capped{max: limit}, &capped{max: limit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 2 * time.Second
	killGroup(cmd)
	err = cmd.Run()
	res := RunResult{Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		return res, fmt.Errorf("run %q: %w", command, context.Cause(ctx))
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
		if res.ExitCode < 0 {
			res.ExitCode = 1
		}
	case err != nil:
		return res, fmt.Errorf("run %q: %w", command, err)
	}
	return res, nil
}

// capped keeps the first max bytes written and counts the rest.
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room > len(p) {
		room = len(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

func (c *capped) String() string {
	if c.dropped > 0 {
		return c.buf.String() + fmt.Sprintf("\n[%d more bytes not kept]", c.dropped)
	}
	return c.buf.String()
}
