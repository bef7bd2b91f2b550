package bash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// runSpec is one bash process to run.
type runSpec struct {
	shell  string
	script string
	dir    string
	env    []string
	stdout io.Writer
	stderr io.Writer
	// grace is how long the group has between SIGTERM and SIGKILL when
	// the context ends, and how long Wait waits for output pipes held
	// open by background children once bash has exited.
	grace time.Duration
	// started, when set, receives the process group id once bash runs.
	started func(pgid int)
}

// runShell runs spec until bash exits or ctx ends. On ctx's end the whole
// process group gets SIGTERM, then SIGKILL after the grace period, and
// whatever is left of the group is killed before runShell returns. The
// exit code is bash's, or 128+n when a signal n ended it.
func runShell(ctx context.Context, spec runSpec) (int, error) {
	cmd := exec.CommandContext(ctx, spec.shell, "-c", spec.script)
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	cmd.Stdout = spec.stdout
	cmd.Stderr = spec.stderr
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error {
		return signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = spec.grace
	if err := cmd.Start(); err != nil {
		return -1, fmt.Errorf("start %s in %s: %w", spec.shell, spec.dir, err)
	}
	pgid := cmd.Process.Pid
	if spec.started != nil {
		spec.started(pgid)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		// Sweep the group: children that ignored SIGTERM, or that bash
		// left behind when it was killed.
		signalGroup(pgid, syscall.SIGKILL)
	}
	code := exitCode(cmd)
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.As(err, &exitErr), errors.Is(err, exec.ErrWaitDelay):
		return code, nil
	case ctx.Err() != nil:
		return code, nil
	}
	return code, fmt.Errorf("run %s: %w", spec.shell, err)
}

func exitCode(cmd *exec.Cmd) int {
	ps := cmd.ProcessState
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// capture collects a command's output: stdout and stderr share one pipe,
// so the capture holds them interleaved exactly as the command wrote
// them. It keeps the first bytes and a rolling tail once past its limit.
// Safe for concurrent use.
type capture struct {
	mu       sync.Mutex
	combined headTail
	lines    int
	// diverted, once set (divert), receives every later write instead.
	diverted io.Writer
}

func newCapture(limit int) *capture {
	return &capture{combined: headTail{limit: limit}}
}

// Write implements io.Writer.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.diverted != nil {
		return c.diverted.Write(p)
	}
	c.combined.write(p)
	for _, b := range p {
		if b == '\n' {
			c.lines++
		}
	}
	return len(p), nil
}

// divert writes the output kept so far to w, then sends every later
// write to w instead of keeping it; after runs once w had the output so
// far and before any later write reaches w. It returns the output kept
// up to then.
func (c *capture) divert(w io.Writer, after func()) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.combined.String()
	io.WriteString(w, kept)
	if after != nil {
		after()
	}
	c.diverted = w
	return kept
}

// combinedOutput returns the combined output kept.
func (c *capture) combinedOutput() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.combined.String()
}

// recent returns the last n bytes of combined output, the number of lines
// and bytes so far.
func (c *capture) recent(n int) (string, int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.combined.last(n), c.lines, c.combined.total
}

// headTail keeps the first limit bytes and the last limit/4 bytes of a
// stream.
type headTail struct {
	limit int
	head  []byte
	tail  []byte
	total int64
}

func (h *headTail) write(p []byte) {
	h.total += int64(len(p))
	if room := h.limit - len(h.head); room > 0 {
		n := min(room, len(p))
		h.head = append(h.head, p[:n]...)
		p = p[n:]
	}
	if len(p) == 0 {
		return
	}
	keep := max(h.limit/4, 1)
	h.tail = append(h.tail, p...)
	if len(h.tail) > 2*keep {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-keep:]...)
	}
}

// String returns the kept output, with a note where bytes were left out.
func (h *headTail) String() string {
	if len(h.tail) == 0 {
		return string(h.head)
	}
	keep := max(h.limit/4, 1)
	tail := h.tail
	if len(tail) > keep {
		tail = tail[len(tail)-keep:]
	}
	omitted := h.total - int64(len(h.head)) - int64(len(tail))
	if omitted <= 0 {
		return string(h.head) + string(tail)
	}
	return fmt.Sprintf("%s\n\n… [%d bytes of output omitted] …\n\n%s", h.head, omitted, tail)
}

// last returns up to n of the most recent bytes kept.
func (h *headTail) last(n int) string {
	if len(h.tail) > 0 {
		return string(h.tail[max(0, len(h.tail)-n):])
	}
	return string(h.head[max(0, len(h.head)-n):])
}
