package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"reins/internal/hooks"
	"reins/internal/settings"
)

// hookEnvFile makes the empty file SessionStart and CwdChanged hooks get
// as CLAUDE_ENV_FILE, where they append "export NAME=value" lines for the
// session's Bash commands. It returns "" when the file cannot be made, and
// a function that removes it.
func (a *app) hookEnvFile(ev hooks.Event) (string, func()) {
	f, err := os.CreateTemp("", "reins-hook-env-*.sh")
	if err != nil {
		a.notify("warning", fmt.Sprintf("%s hooks run without CLAUDE_ENV_FILE: %v", ev, err))
		return "", func() {}
	}
	f.Close()
	return f.Name(), func() { os.Remove(f.Name()) }
}

// hookEnvTimeout bounds sourcing the CLAUDE_ENV_FILE.
const hookEnvTimeout = 10 * time.Second

// applyHookEnv sources the CLAUDE_ENV_FILE the hooks of ev wrote
// and gives the variables it sets or changes to the session's Bash
// commands (the main thread's and the sub-agents' started later). The
// rest of reins does not see them, as in Claude Code.
func (a *app) applyHookEnv(ctx context.Context, ev hooks.Event, path string) {
	data, err := os.ReadFile(path)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, hookEnvTimeout)
	defer cancel()
	base := a.shellEnviron()
	cmd := exec.CommandContext(ctx, settings.Shell(), "-c", `. "$0" >/dev/null 2>&1; env -0`, path)
	cmd.Env = base
	cmd.Dir = a.cwd
	out, err := cmd.Output()
	if err != nil {
		a.notify("warning", fmt.Sprintf("CLAUDE_ENV_FILE written by a %s hook could not be read: %v", ev, err))
		return
	}
	var changed []string
	for _, kv := range strings.Split(string(out), "\x00") {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name == "_" || name == "SHLVL" || name == "PWD" || name == "OLDPWD" {
			continue
		}
		if !slices.Contains(base, kv) {
			changed = append(changed, kv)
		}
	}
	if len(changed) == 0 {
		return
	}
	a.shellMu.Lock()
	defer a.shellMu.Unlock()
	a.shellEnv = append(a.shellEnv, changed...)
	if a.shell != nil {
		a.shell.Setenv(changed...)
	}
}

// shellEnviron is the environment of a new Bash tool: environ plus what
// SessionStart hooks exported through CLAUDE_ENV_FILE.
func (a *app) shellEnviron() []string {
	a.shellMu.Lock()
	defer a.shellMu.Unlock()
	return append(a.withPluginBins(a.environ()), a.shellEnv...)
}
