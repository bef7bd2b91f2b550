package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"reins/internal/fsutil"
)

// DefaultKeyHelperTimeout bounds one run of the apiKeyHelper command.
const DefaultKeyHelperTimeout = 30 * time.Second

// KeyHelper runs the apiKeyHelper command, whose standard output is the
// API key. The lead calls Key at start and again when the key is refused.
type KeyHelper struct {
	Command string
	Source  Source
	File    string
	// Dir is the folder the command runs in.
	Dir string
	// Env is the command's environment (nil means the process's).
	Env []string
	// Timeout bounds one run (0 means DefaultKeyHelperTimeout).
	Timeout time.Duration
}

// Key runs the command and returns its trimmed output. It fails when the
// command fails, prints nothing, or runs past the timeout or ctx.
func (h *KeyHelper) Key(ctx context.Context) (string, error) {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultKeyHelperTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, Shell(), "-c", h.Command)
	cmd.Dir = h.Dir
	cmd.Env = h.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	KillGroupOnCancel(cmd)
	err := cmd.Run()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("apiKeyHelper (%s): timed out after %s", h.File, timeout)
		}
		return "", fmt.Errorf("apiKeyHelper (%s): %w", h.File, ctx.Err())
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("apiKeyHelper (%s) failed: %s", h.File, msg)
	}
	key := strings.TrimSpace(stdout.String())
	if key == "" {
		return "", fmt.Errorf("apiKeyHelper (%s) printed no key", h.File)
	}
	return key, nil
}

// Shell is the shell that runs hook and helper commands: bash (on PATH or
// where it is usually installed), else /bin/sh.
func Shell() string {
	if p := fsutil.FindBash(); p != "" {
		return p
	}
	if _, err := os.Stat("/bin/sh"); err == nil {
		return "/bin/sh"
	}
	return "sh"
}
