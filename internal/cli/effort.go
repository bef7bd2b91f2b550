package cli

import (
	"context"
	"fmt"
	"strings"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tui"
)

// effortEnv is Claude Code's environment variable for the effort level.
// It wins over every other source: the flag, /effort, agent frontmatter
// and settings.
const effortEnv = "CLAUDE_CODE_EFFORT_LEVEL"

// effortChoice is the session's effort level and where it came from.
type effortChoice struct {
	// Level is a level llm.ParseEffort accepts, "auto" or "" (the model's
	// default).
	Level string
	// Source names where Level came from: "CLAUDE_CODE_EFFORT_LEVEL" (which
	// /effort and the SDK may not change), "--effort", "agent <name>",
	// "settings effortLevel", or "" for the model's default.
	Source string
}

// fromEnv reports whether the level comes from the environment variable,
// which nothing in the session may override.
func (e effortChoice) fromEnv() bool { return e.Source == effortEnv }

// resolveEffort picks the session's effort level: CLAUDE_CODE_EFFORT_LEVEL,
// then --effort, then the frontmatter of the agent the main conversation
// runs as, then the effortLevel setting. A bad --effort is a usage error;
// a bad environment or settings value is reported and skipped.
func (a *app) resolveEffort() (effortChoice, error) {
	if v := a.getenv(effortEnv); strings.TrimSpace(v) != "" {
		lvl, err := llm.ParseEffort(v)
		if err == nil {
			return effortChoice{Level: lvl, Source: effortEnv}, nil
		}
		a.warn(fmt.Sprintf("%s: %v; ignored", effortEnv, err))
	}
	if v := a.opts.Effort; strings.TrimSpace(v) != "" {
		lvl, err := llm.ParseEffort(v)
		if err != nil {
			return effortChoice{}, usageError{"--effort: " + err.Error()}
		}
		return effortChoice{Level: lvl, Source: "--effort"}, nil
	}
	a.mu.Lock()
	def := a.mainAgent
	a.mu.Unlock()
	if def != nil && def.Effort != "" {
		return effortChoice{Level: def.Effort, Source: "agent " + def.Name}, nil
	}
	var v string
	if ok, err := a.settings.Get("effortLevel", &v); err != nil {
		a.warn(fmt.Sprintf("settings effortLevel: want a level name: %v; ignored", err))
	} else if ok && strings.TrimSpace(v) != "" {
		lvl, err := llm.ParseEffort(v)
		if err != nil {
			a.warn(fmt.Sprintf("settings effortLevel: %v; ignored", err))
		} else {
			return effortChoice{Level: lvl, Source: "settings effortLevel"}, nil
		}
	}
	return effortChoice{}, nil
}

// thinkingDisplay checks --thinking-display.
func thinkingDisplay(v string) (string, error) {
	switch v = strings.TrimSpace(v); v {
	case "", "summarized", "omitted":
		return v, nil
	}
	return "", usageError{fmt.Sprintf("--thinking-display must be summarized or omitted, not %q", v)}
}

// subagentEffort is the effort level a sub-agent runs at: the
// environment variable's when set, else the level its spec asks for (its
// call's, its definition's or its caller's).
func (a *app) subagentEffort(asked string) string {
	if a.effort.fromEnv() {
		return a.effort.Level
	}
	return asked
}

// effortLevels checks a model override's supportedEffortLevels, dropping
// (with a warning) the names that are no effort level. nil stays nil (the
// model keeps its levels).
func (a *app) effortLevels(model string, levels []string) []string {
	if levels == nil {
		return nil
	}
	out := []string{}
	for _, l := range levels {
		v, err := llm.ParseEffort(l)
		if err != nil || v == "" || v == llm.EffortAuto {
			a.warn(fmt.Sprintf("settings models.%s.supportedEffortLevels: %q is not an effort level; ignored", model, l))
			continue
		}
		out = append(out, v)
	}
	return out
}

// effortLockedBy names the environment setting that fixes the effort
// level, for /effort; "" when none does.
func (a *app) effortLockedBy() string {
	if !a.effort.fromEnv() {
		return ""
	}
	return effortEnv + "=" + strings.TrimSpace(a.getenv(effortEnv))
}

// cmdEffort is /effort [level] in print and SDK sessions (an SDK client
// sends it as a user message).
func (a *app) cmdEffort(_ context.Context, args string) (string, error) {
	return tui.EffortCommand(a.sess, a.effortLockedBy(), args)
}

// setEffort sets s's effort level for the SDK's apply_flag_settings
// ("" or "auto": the model's default). While CLAUDE_CODE_EFFORT_LEVEL is
// set the level stays the environment's, as it does over every other
// source.
func (a *app) setEffort(s *engine.Session, level string) error {
	lvl, err := llm.ParseEffort(level)
	if err != nil {
		return err
	}
	if a.effort.fromEnv() {
		return nil
	}
	if lvl == llm.EffortAuto {
		lvl = ""
	}
	s.SetEffort(lvl)
	return nil
}
