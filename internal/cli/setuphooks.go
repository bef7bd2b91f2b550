package cli

import (
	"context"
	"fmt"
	"strings"

	"reins/internal/hooks"
	"reins/internal/llm"
)

// setupTrigger is the Setup hooks' matcher value the flags ask for: "init"
// (--init, --init-only), "maintenance" (--maintenance), or "" when
// neither is given.
func setupTrigger(o *Options) string {
	switch {
	case o.Init || o.InitOnly:
		return "init"
	case o.Maintenance:
		return "maintenance"
	}
	return ""
}

// setupHooks runs the Setup hooks when --init or --maintenance asks for
// them (print mode; the terminal UI does not fire them, as Claude Code's
// does not). Like SessionStart hooks, they may write CLAUDE_ENV_FILE for
// the session's Bash commands, and their additionalContext reaches the
// model before the first prompt; they cannot block.
func (a *app) setupHooks(ctx context.Context) {
	trigger := setupTrigger(a.opts)
	if trigger == "" || !a.hookRun.Has(hooks.Setup) {
		return
	}
	envFile, cleanup := a.hookEnvFile(hooks.Setup)
	defer cleanup()
	r := a.hookRun.Run(ctx, a.hookInput(hooks.Setup, func(h *hooks.Input) {
		h.Trigger = trigger
		if envFile != "" {
			h.Env = []string{"CLAUDE_ENV_FILE=" + envFile}
		}
	}))
	a.reportObserved(r)
	if envFile != "" {
		a.applyHookEnv(ctx, hooks.Setup, envFile)
	}
	if len(r.AdditionalContext) > 0 {
		a.sess.AppendMessage(llm.NewUserText("<system-reminder>\nSetup hook context:\n"+strings.Join(r.AdditionalContext, "\n")+"\n</system-reminder>"), true)
	}
}

// runInitOnly is --init-only: the Setup hooks ("init") and the
// SessionStart hooks ("startup") run, and reins exits without a
// conversation or any output of its own (hook errors go to stderr). No
// API key is needed.
func runInitOnly(ctx context.Context, env *Env, o *Options) error {
	o.NoPersist = true
	// Set up as for a check: no model is needed (nor asked), and the
	// folder counts as trusted, as for print mode.
	trusted := true
	h := appHooks{Trusted: &trusted, Notify: func(level, text string) {
		if level != "info" {
			fmt.Fprintf(env.Stderr, "reins: %s: %s\n", level, text)
		}
	}}
	a, err := newAppFor(ctx, env, o, frontDoctor, h)
	if err != nil {
		return err
	}
	defer a.close()
	a.setupHooks(ctx)
	a.sessionStartContext(ctx, "startup")
	return nil
}
