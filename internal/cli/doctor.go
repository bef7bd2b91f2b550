package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"reins/internal/tui"
)

// doctorCommand is `reins doctor`: it sets a session up in the current
// folder as print mode would (settings, memory, plugins, MCP servers,
// credentials), without asking the model anything, and prints a line per
// check. It exits 1 when a check fails. The terminal UI's /doctor shows
// the same session checks.
func doctorCommand(env *Env, trusted func() bool) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the set-up here: settings, credentials, tools, plugins and MCP servers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			t := trusted()
			o := &Options{OutputFormat: "text", InputFormat: "text", NoPersist: true}
			a, err := newAppFor(ctx, env, o, frontDoctor, appHooks{Trusted: &t})
			if err != nil {
				return fmt.Errorf("doctor: setting a session up failed: %w", err)
			}
			defer a.close()
			a.waitMCP(ctx)
			checks := append(a.hostChecks(), a.doctorChecks(ctx)...)
			for i, c := range checks {
				if c.Name == "folder trusted" && !c.OK {
					// Not a fault: the terminal UI asks about it first.
					checks[i].OK, checks[i].Info = true, "not yet ("+c.Info+"): the terminal UI asks before its first session here"
				}
			}
			failed := 0
			for _, c := range checks {
				mark := "ok  "
				if !c.OK {
					mark, failed = "FAIL", failed+1
				}
				fmt.Fprintf(env.Stdout, "%s  %s: %s\n", mark, c.Name, c.Info)
			}
			for _, w := range a.startupWarnings() {
				fmt.Fprintf(env.Stdout, "      warning: %s\n", w)
			}
			if failed > 0 {
				fmt.Fprintf(env.Stdout, "%d of %d checks failed\n", failed, len(checks))
				return exitError{1}
			}
			fmt.Fprintf(env.Stdout, "all %d checks passed\n", len(checks))
			return nil
		},
	}
}

// hostChecks are the checks of what reins needs from the machine: its
// version, a key for the model, the config folder, and the programs the
// tools run.
func (a *app) hostChecks() []tui.Check {
	st := readAuthStatus(a.getenv, a.settings)
	key := tui.Check{Name: "API key", OK: st.LoggedIn, Info: "from " + st.APIKeySource}
	if !st.LoggedIn {
		key.Info = "none: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or apiKeyHelper in settings)"
	}
	checks := []tui.Check{{Name: "version", OK: true, Info: versionLine()}, key, a.configDirCheck()}
	for _, prog := range []string{"bash", "git", "rg"} {
		c := tui.Check{Name: prog, OK: true}
		if path, err := exec.LookPath(prog); err == nil {
			c.Info = path
		} else {
			c.Info = "not on PATH"
			switch prog {
			case "bash":
				c.OK = false
				c.Info += ": the Bash tool and hooks need it"
			case "git":
				c.Info += ": the git snapshot and worktrees are off"
			case "rg":
				c.Info += ": Grep and Glob use reins's own search (fine)"
			}
		}
		checks = append(checks, c)
	}
	return checks
}

// configDirCheck reports whether reins can record sessions: its config
// folder exists (or can be made) and takes files.
func (a *app) configDirCheck() tui.Check {
	c := tui.Check{Name: "config folder", Info: a.configDir}
	if err := os.MkdirAll(a.configDir, 0o700); err != nil {
		c.Info += ": " + err.Error()
		return c
	}
	f, err := os.CreateTemp(a.configDir, ".doctor-*")
	if err != nil {
		c.Info += ": not writable, sessions cannot be recorded: " + err.Error()
		return c
	}
	f.Close()
	os.Remove(f.Name())
	c.OK = true
	c.Info = filepath.Clean(a.configDir)
	return c
}

// selfUpdateCommands are `reins update` and `reins install`, which Claude
// Code users run out of habit: reins is one binary built from its source,
// so they say how to get a newer one instead of sending the word to the
// model as a prompt.
func selfUpdateCommands() []*cobra.Command {
	mk := func(use string) *cobra.Command {
		return &cobra.Command{
			Use:                use,
			Short:              "How to get a newer reins (it does not update itself)",
			DisableFlagParsing: true,
			RunE: func(*cobra.Command, []string) error {
				return fmt.Errorf("%s: reins does not update or install itself; it is one binary built from its source: fetch the newer source and run ./scripts/build.sh (this one is %s)", use, versionLine())
			},
		}
	}
	return []*cobra.Command{mk("update"), mk("install")}
}
