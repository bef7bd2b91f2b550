package cli

import (
	"path/filepath"
	"time"

	"reins/internal/automode"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/permission"
)

// permissions builds the session's permission state, hook runner and
// gate from settings and flags.
func (a *app) permissions() error {
	o := a.opts
	var readDirs []string
	for _, c := range a.skillDirs() {
		readDirs = append(readDirs, c)
	}
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
	a.checker = permission.NewChecker(pol, permission.CheckerConfig{ProjectDir: a.cwd, UserDir: a.configDir})
	a.permMode = string(pol.Mode)
	hcfg := hooks.Config{Hooks: a.settings.Hooks, ProjectDir: a.cwd, Env: a.environ(), Notify: a.hooks.HookNotify}
	a.hookRun = hooks.New(hcfg)
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
			return hooks.Input{SessionID: id, TranscriptPath: a.store.TranscriptPath(a.cwd, id), Cwd: a.cwd}
		},
		Notify: a.notify,
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

// mode is the permission mode holder the plan tools and front ends use.
type modeHolder struct{ c *permission.Checker }

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

// skillDirs are the folders of skills the model may read from without
// asking.
func (a *app) skillDirs() []string {
	var out []string
	for _, root := range []string{filepath.Join(a.home, ".claude"), a.configDir, filepath.Join(a.cwd, ".claude"), filepath.Join(a.cwd, ".reins")} {
		out = append(out, filepath.Join(root, "skills"))
	}
	return out
}
