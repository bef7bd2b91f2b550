package bash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// maxArgScript is the longest command passed to bash as an argument;
// a longer one is passed in a file.
const maxArgScript = 64 << 10

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
	args := []string{"-c", spec.script}
	if len(spec.script) > maxArgScript {
		// Too long for one argument (Linux refuses over 128 KB: "argument
		// list too long"), as a command writing a large file through a
		// heredoc is: bash reads it from a file instead.
		f, err := os.CreateTemp("", "reins-command-*.sh")
		if err != nil {
			return -1, fmt.Errorf("save the %d-byte command for %s: %w", len(spec.script), spec.shell, err)
		}
		defer os.Remove(f.Name())
		_, werr := f.WriteString(spec.script)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return -1, fmt.Errorf("save the %d-byte command for %s: %w", len(spec.script), spec.shell, werr)
		}
		args = []string{f.Name()}
	}
	cmd := exec.CommandContext(ctx, spec.shell, args...)
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

	// spillDir, when spilling is on (spillTo), is where the output past
	// the kept head goes, so that divert can hand on all of it, not only
	// the head and tail kept in memory.
	spillDir string
	spilling bool
	spill    *os.File // created at the first byte past the head
	spilled  int64    // bytes in spill
	spillBad bool     // the spill file could not be made or written
}

// maxSpill caps the output a capture spills to disk (the task's output
// file has a cap of its own).
const maxSpill = 256 << 20

func newCapture(limit int) *capture {
	return &capture{combined: headTail{limit: limit}}
}

// spillTo makes the capture keep the output past its head in a file in
// dir ("" is the system's temporary folder) as well, for divert. Call it
// before the first write; close removes the file.
func (c *capture) spillTo(dir string) {
	c.spillDir, c.spilling = dir, true
}

// keepSpill writes p, output past the head, to the spill file.
func (c *capture) keepSpill(p []byte) {
	if !c.spilling || c.spillBad || c.spilled >= maxSpill || len(p) == 0 {
		return
	}
	if c.spill == nil {
		if c.spillDir != "" {
			os.MkdirAll(c.spillDir, 0o700)
		}
		f, err := os.CreateTemp(c.spillDir, "reins-bash-*.out")
		if err != nil {
			c.spillBad = true
			return
		}
		c.spill = f
	}
	n, err := c.spill.Write(p[:min(int64(len(p)), maxSpill-c.spilled)])
	c.spilled += int64(n)
	if err != nil {
		c.spillBad = true
	}
}

// close removes the spill file, if any.
func (c *capture) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spill != nil {
		c.spill.Close()
		os.Remove(c.spill.Name())
		c.spill = nil
	}
	c.spilling = false
}

// Write implements io.Writer.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.diverted != nil {
		return c.diverted.Write(p)
	}
	past := c.combined.write(p)
	c.keepSpill(past)
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
	c.writeAll(w)
	if after != nil {
		after()
	}
	c.diverted = w
	return kept
}

// writeAll writes the output so far to w: all of it when the capture
// spilled what its head could not hold, else what it kept (the head and
// tail, with a note where bytes were left out). c.mu is held.
func (c *capture) writeAll(w io.Writer) {
	h := &c.combined
	if c.spill == nil || c.spillBad {
		io.WriteString(w, h.String())
		return
	}
	w.Write(h.head)
	if _, err := c.spill.Seek(0, io.SeekStart); err != nil {
		io.WriteString(w, h.String()[len(h.head):])
		return
	}
	copied, _ := io.Copy(w, io.LimitReader(c.spill, c.spilled))
	rest := h.total - int64(len(h.head)) - copied // past what the file held
	if rest <= 0 {
		return
	}
	tail := h.tail
	if int64(len(tail)) > rest {
		tail = tail[int64(len(tail))-rest:]
	}
	if omitted := rest - int64(len(tail)); omitted > 0 {
		fmt.Fprintf(w, "\n\n… [%d bytes of output omitted] …\n\n", omitted)
	}
	w.Write(tail)
}

// saveAll writes all of the output to a new file in dir, named for name,
// when the capture kept only part of it in memory but spilled the rest,
// and returns the file's path and size; "" when all of the output was
// kept (or none of the rest could be spilled), so there is nothing more to
// give.
func (c *capture) saveAll(dir, name string) (string, int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.combined.cut() || c.spill == nil || c.spillBad {
		return "", 0, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", 0, fmt.Errorf("save the output: %w", err)
	}
	f, err := os.CreateTemp(dir, name+"-*.txt")
	if err != nil {
		return "", 0, fmt.Errorf("save the output: %w", err)
	}
	cw := &countWriter{w: f}
	c.writeAll(cw)
	err = cw.err
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", 0, fmt.Errorf("save the output to %s: %w", f.Name(), err)
	}
	return f.Name(), cw.n, nil
}

// countWriter counts what it passes on and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (cw *countWriter) Write(p []byte) (int, error) {
	if cw.err != nil {
		return 0, cw.err
	}
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	cw.err = err
	return n, err
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

// write keeps p and returns the part of it past the head.
func (h *headTail) write(p []byte) (past []byte) {
	h.total += int64(len(p))
	if room := h.limit - len(h.head); room > 0 {
		n := min(room, len(p))
		h.head = append(h.head, p[:n]...)
		p = p[n:]
	}
	if len(p) == 0 {
		return nil
	}
	past = p
	keep := max(h.limit/4, 1)
	h.tail = append(h.tail, p...)
	if len(h.tail) > 2*keep {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-keep:]...)
	}
	return past
}

// cut reports whether String leaves bytes out.
func (h *headTail) cut() bool {
	keep := max(h.limit/4, 1)
	return h.total > int64(len(h.head))+int64(min(len(h.tail), keep))
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
