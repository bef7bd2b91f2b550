package cli

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"reins/internal/automode"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/permission"
	"reins/internal/task"
)

// readDirs are the folders the model may read without asking: the
// skills' folders and those of the loaded plugins (a plugin's command
// may tell the model to read a guide under ${CLAUDE_PLUGIN_ROOT}).
// Writing there still asks.
func (a *app) readDirs() []string {
	dirs := slices.Clone(a.skillDirs())
	ps, _ := a.loadedPlugins()
	for _, p := range ps {
		dirs = append(dirs, p.Root)
		dirs = append(dirs, p.Skills...) // a skill folder named outside the root
	}
	return dirs
}

// permissions builds the session's permission state, hook runner and
// gate from settings and flags.
func (a *app) permissions() error {
	o := a.opts
	readDirs := a.readDirs()
	pol, warns, err := permission.NewPolicy(permission.Config{
		Settings:        a.settings,
		Mode:            o.PermissionMode,
		SkipPermissions: o.SkipPerms,
		AllowedTools:    o.AllowedTools,
		DisallowedTools: o.DisallowedTool,
		AddDirs:         o.AddDirs,
		Cwd:             a.cwd,
		Home:            a.home,
		SessionDirs:     []string{a.store.SessionDir(a.cwd, a.sessionID)},
		ReadDirs:        readDirs,
	})
	if err != nil {
		return usageError{err.Error()}
	}
	for _, w := range warns {
		a.warn(w.String())
	}
	a.checker = permission.NewChecker(pol, permission.CheckerConfig{ProjectDir: a.projDir, UserDir: a.configDir,
		OnMode: func(from, to permission.Mode) {
			if a.hooks.ModeChanged != nil {
				a.hooks.ModeChanged(from, to)
			}
			if to == permission.ModeAuto {
				a.announceAutoSetAside()
			}
		}})
	a.permMode = string(pol.Mode)
	if pol.Mode == permission.ModeAuto {
		if msg := autoSetAsideNote(a.checker); msg != "" {
			a.warn(msg)
		}
	}
	hcfg := hooks.Config{Hooks: a.settings.Hooks, ProjectDir: a.projDir, Environ: a.environ, Ask: a.askHookModel, If: a.hookIf, CallTool: a.callHookTool, RunAgent: a.runHookAgent, Notify: func(p hooks.Progress) {
		a.hookStatus.track(p)
		if a.hooks.HookNotify != nil {
			a.hooks.HookNotify(p)
		}
	}}
	hcfg.AllowedHTTPURLs = a.stringListSetting("allowedHttpHookUrls")
	hcfg.HTTPAllowedEnvVars = a.stringListSetting("httpHookAllowedEnvVars")
	hcfg.OnRewake = func() {
		// The front ends wait on the tasks' signal to announce them.
		if a.tasks != nil {
			a.tasks.Poke()
		}
	}
	a.hookRun = hooks.New(hcfg)
	// Async hooks may finish what they do, for a while.
	a.onClose(func() { a.hookRun.Close(asyncHookGrace) })
	a.setPluginHooks()
	a.autoGuard = &automode.Guard{}
	a.classifier = &automode.Classifier{
		Provider: a.provider,
		Model:    a.classifierModel,
		Rules:    automode.Resolve(a.settings.AutoMode),
		// Classifier calls count in the session's usage and cost.
		Account: func(model string, u llm.Usage, api time.Duration) {
			if s := a.current(); s != nil {
				s.AddUsage(model, u, api)
			}
		},
	}
	a.gate = engine.NewGate(engine.GateConfig{
		Permissions: a.checker,
		Hooks:       a.hookRun,
		Asker:       &a.asker,
		Classifier:  a.classifier,
		AutoGuard:   a.autoGuard,
		HookInput: func() hooks.Input {
			id := a.currentID()
			return hooks.Input{SessionID: id, TranscriptPath: a.store.TranscriptPath(a.cwd, id), Cwd: a.hookCwd(), PromptID: a.currentPromptID()}
		},
		Notify:          a.notify,
		BackgroundTasks: a.runningTasks,
		// "defer" is for the programs that run reins non-interactively.
		CanDefer: a.front == frontPrint || a.front == frontSDK,
	})
	return nil
}

// classifierModel is the model auto mode's classifier asks: the
// session's current model.
func (a *app) classifierModel() string {
	if s := a.current(); s != nil {
		return s.Model()
	}
	return a.model
}

// notify passes a message for the user to the front end, or to stderr.
func (a *app) notify(level, text string) {
	if a.hooks.Notify != nil {
		a.hooks.Notify(level, text)
		return
	}
	if a.front == frontPrint && a.opts.Verbose {
		a.env.Stderr.Write([]byte("reins: " + level + ": " + text + "\n"))
	}
}

// modeHolder is the permission mode holder the plan tools and the
// terminal UI use.
type modeHolder struct {
	c *permission.Checker
}

// Mode returns the current mode.
func (m modeHolder) Mode() string { return string(m.c.Mode()) }

// SetMode changes the mode.
func (m modeHolder) SetMode(s string) error {
	pm, err := permission.ParseMode(s)
	if err != nil {
		return err
	}
	return m.c.SetMode(pm)
}

// PrePlanMode is the mode leaving plan mode returns to ("" outside plan
// mode).
func (m modeHolder) PrePlanMode() string { return string(m.c.PrePlanMode()) }

// PlanEntries counts the session's entries into plan mode.
func (m modeHolder) PlanEntries() int { return m.c.PlanEntries() }

// LeavePlan returns from plan mode to the mode in force before it.
func (m modeHolder) LeavePlan() error { return m.c.LeavePlan() }

// announceAutoSetAside tells the user, after a switch into auto mode
// during the session (a key, set_permission_mode, an approval's setMode,
// the return from plan mode), which allow rules auto mode sets aside, as
// start-up does when the session starts in auto mode: in the terminal UI
// as a notice; in SDK mode on stderr with the start-up warning's words
// and as a system informational line (the Agent SDK's banner message),
// for clients that read only the stream; in print mode on stderr.
func (a *app) announceAutoSetAside() {
	msg := autoSetAsideNote(a.checker)
	if msg == "" {
		return
	}
	switch {
	case a.front == frontTUI:
		// The switch may come from the UI's own goroutine (Shift+Tab, the
		// plan approval), which a notice sent from it would wait for
		// forever; the send ends when the UI takes it or stops.
		go a.notify("info", msg)
	default:
		fmt.Fprintf(a.env.Stderr, "reins: warning: %s\n", msg)
		if a.hooks.Announce != nil {
			a.hooks.Announce("warning", msg)
		}
	}
}

// autoSetAsideNote says which allow rules auto mode sets aside ("" for
// none), so that a user who relies on them knows why such commands now
// go to the classifier.
func autoSetAsideNote(c *permission.Checker) string {
	rules := c.AutoSetAside()
	if len(rules) == 0 {
		return ""
	}
	return fmt.Sprintf("auto mode sets aside allow rules that let any code run, so its classifier reviews the commands they cover: %s", strings.Join(rules, ", "))
}

// skillDirs are the folders of skills the model may read from without
// asking.
func (a *app) skillDirs() []string {
	var out []string
	for _, root := range []string{filepath.Join(a.home, ".claude"), a.configDir, filepath.Join(a.projDir, ".claude"), filepath.Join(a.projDir, ".reins")} {
		out = append(out, filepath.Join(root, "skills"))
	}
	return out
}

// runningTasks are the session's background tasks still running, as Stop
// and SubagentStop hooks are told them.
func (a *app) runningTasks() []hooks.BackgroundTask {
	if a.tasks == nil {
		return nil
	}
	var out []hooks.BackgroundTask
	for _, t := range a.tasks.List() {
		if t.Status != task.Running {
			continue
		}
		bt := hooks.BackgroundTask{ID: t.ID, Type: "local_bash", Status: string(t.Status), Description: cmp.Or(t.Description, t.Command), Command: t.Command}
		if t.Kind == task.KindAgent {
			bt.Type, bt.Command, bt.AgentType = "local_agent", "", t.AgentType
		}
		out = append(out, bt)
	}
	return out
}
