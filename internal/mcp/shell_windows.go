//go:build windows

package mcp

import (
	"context"
	"os/exec"
)

// shellCommand runs line in the shell.
func shellCommand(ctx context.Context, line string) *exec.Cmd {
	return exec.CommandContext(ctx, "cmd", "/C", line)
}
