package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/permission"
	"reins/internal/session"
	"reins/internal/settings"
	"reins/internal/task"
	"reins/internal/trust"
	"reins/internal/tui"
)

// runInteractive starts the terminal UI: reins with no -p, with an
// optional first prompt as argument.
func runInteractive(ctx context.Context, env *Env, o *Options) error {
	colors := tui.DetectColors(env.Stdout, os.Environ())
	trusted, err := confirmTrust(ctx, env, colors)
	if err != nil {
		return err
	}
	if !trusted {
		fmt.Fprintln(env.Stderr, "reins: this folder is not trusted; nothing was read from it.")
		return exitError{1}
	}
	asker := tui.NewAsker()
	approve := func(ctx context.Context, servers []tui.MCPServerInfo) (map[string]tui.MCPChoice, error) {
		return tui.ConfirmMCPServers(ctx, tui.MCPApprovalOptions{Servers: servers, Input: env.Stdin, Output: env.Stdout,
			NoColor: env.Getenv("NO_COLOR") != "", ColorProfile: colors})
	}
	a, err := newAppFor(ctx, env, o, frontTUI, appHooks{Asker: asker, Notify: asker.Notice, Trusted: &trusted, ApproveMCP: approve})
	if err != nil {
		return err
	}
	defer a.close()
	u := newUISessions(a)
	a.sess = u.adopt(a.sess)
	// MCP servers connect in the background; their tools join at the
	// first turn that starts after they connected (DESIGN invariant 3).
	a.sessionStart(ctx)
	defer a.sessionEnd("prompt_input_exit")

	opts := tui.Options{
		Session:         a.sess,
		Asker:           asker,
		Mode:            modeHolder{c: a.checker},
		BypassAvailable: o.SkipPerms || o.AllowSkipPerms || a.permMode == "bypassPermissions",
		AutoAvailable:   a.checker.AutoAvailable(),
		// respectGitignore (default true) keeps ignored files out of @
		// completion.
		ListIgnoredFiles: !a.respectGitignore(),
		Commands:         tui.CommandRegistryChecked(a.commands, a.expander, a.mentioned, a.expansionHooks),
		Compactor:        u.compactor,
		Sessions:         u,
		NewSession:       u.fresh,
		EffortLockedBy:   a.effortLockedBy(),
		Checkpoints:      u.checkpoints,
		Permissions:      a.viewPermissions,
		Hooks:            a.viewHooks,
		Config:           a.viewConfig,
		MCP:              a.viewMCP,
		Plugins:          a.viewPlugins,
		ReloadPlugins:    a.reloadPlugins,
		Agents:           a.viewAgents,
		OutputStyles: func(context.Context) []tui.OutputStyle {
			var out []tui.OutputStyle
			for _, st := range a.outputStyles() {
				out = append(out, tui.OutputStyle{Name: st.Name, Description: st.Description})
			}
			return out
		},
		SetOutputStyle:    u.setOutputStyle,
		ActiveOutputStyle: func() string { return a.activeStyle().Name },
		Tasks:             a.viewTasks,
		Doctor:            a.doctorChecks,
		AddDir: func(dir string) error {
			if err := a.checker.Apply([]permission.Update{{Type: permission.UpdateAddDirectories,
				Directories: []string{dir}, Destination: permission.DestSession}}); err != nil {
				return err
			}
			a.notes.add(addedDirNote(dir))
			return nil
		},
		Prepare: func(ctx context.Context, text string) (engine.Input, string, error) {
			p, err := a.prepare(ctx, text, command.Interactive)
			if err != nil || !p.Run {
				return engine.Input{}, p.Output, err
			}
			return p.Input, "", nil
		},
		Resources:     a.mentionableResources,
		MemoryChanged: u.memoryChanged,
		Notices:       a.startupWarnings(),
		Prompt:        a.withInitialPrompt(strings.Join(o.Args, " ")),
		Cwd:           a.cwd,
		Version:       Version,
		KeySource:     a.keySource,
		HistoryFile:   filepath.Join(a.configDir, "history", session.Slug(a.cwd)+".jsonl"),
		StatusLine:    statusLineCommand(a.settings.Raw["statusLine"]),
		TranscriptPath: func(id string) string {
			if o.NoPersist {
				return ""
			}
			return a.store.TranscriptPath(a.cwd, id)
		},
		Notify:          notifyChannel(a.settings.Raw["preferredNotifChannel"]),
		BackgroundDone:  a.tasks.Changed(),
		BackgroundNotes: a.taskReminders,
		HookStatus:      a.hookStatus.current,
		CanBackground:   a.tasks.CanBackground,
		Background:      a.tasks.Background,
		OnIdle: func() {
			a.notification(ctx, "idle_prompt", "reins is waiting for your input")
		},
		NoColor:      a.getenv("NO_COLOR") != "",
		ColorProfile: colors,
		Getenv:       a.getenv,
		Input:        env.Stdin,
		Output:       env.Stdout,
		Logger:       a.logger,
	}
	if a.resumed != nil {
		opts.Resumed = a.sess.History()
	}
	// --resume without a session id, or with words naming none: choose
	// one from the list (filtered by the words).
	opts.PickResume = o.ResumeSet && strings.TrimSpace(o.Resume) == "" && !o.Continue || a.resumeSearch != ""
	opts.ResumeSearch = a.resumeSearch
	res, err := tui.Run(ctx, opts)
	if res != nil && res.Session != nil && len(res.Session.History()) > 0 && !o.NoPersist {
		// Claude Code's words, the command on a line of its own to copy.
		fmt.Fprintf(env.Stdout, "\nResume this session with:\nreins --resume %s\n", res.Session.ID())
	}
	return err
}

// confirmTrust asks, in a folder not trusted yet, whether its files may be
// trusted, and records the answer (the home folder only for this run).
func confirmTrust(ctx context.Context, env *Env, colors tui.Colors) (bool, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return false, fmt.Errorf("working folder: %w", err)
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	home, err := homeDir(env.Getenv)
	if err != nil {
		return false, err
	}
	store := &trust.Store{ConfigDir: session.ConfigDir(env.Getenv, home), ClaudeJSON: trust.ClaudeJSONPath(env.Getenv, home), Home: home}
	if ok, err := store.IsTrusted(cwd); err == nil && ok {
		return true, nil
	}
	yes, err := tui.ConfirmTrust(ctx, tui.TrustOptions{Dir: cwd, Home: filepath.Clean(cwd) == filepath.Clean(home),
		Input: env.Stdin, Output: env.Stdout, NoColor: env.Getenv("NO_COLOR") != "", ColorProfile: colors})
	if err != nil || !yes {
		return false, err
	}
	if _, err := store.Trust(cwd); err != nil {
		fmt.Fprintf(env.Stderr, "reins: could not record the trust decision: %v\n", err)
	}
	return true, nil
}

// uiSessions makes the sessions the terminal UI runs: the first one (with
// the checkpoint gate and a compactor), a fresh one for /clear, and a
// resumed one for /resume. Each records into its own transcript.
type uiSessions struct {
	a           *app
	base        engine.Config
	checkpoints *tui.Checkpoints
	compactor   tui.Compactor
	// cur is the writer of the session the UI runs now: the one left by
	// /clear or /resume is closed, so that the transcript it leaves is no
	// longer held (see session.Busy).
	cur *session.Writer
}

func newUISessions(a *app) *uiSessions {
	u := &uiSessions{a: a, checkpoints: &tui.Checkpoints{}, compactor: a.compactor, cur: a.writer}
	u.base = a.sess.Config()
	u.base.Gate = u.checkpoints.Gate(u.base.Gate)
	return u
}

// memoryChanged reads the memory files again after the UI wrote one ("#",
// /memory): the conversation's next request and every later one (/clear,
// /resume) carry them as they are now, as in Claude Code. They used to
// reach the model only in the next run of reins.
func (u *uiSessions) memoryChanged(s *engine.Session) {
	text := u.a.freshUserContext()
	u.base.UserContext = text
	s.SetUserContext(text)
}

// setOutputStyle switches s to another output style from its next
// request on; the sessions /clear and /resume start later have it too.
func (u *uiSessions) setOutputStyle(ctx context.Context, s *engine.Session, name string) (string, error) {
	msg, err := u.a.setOutputStyle(ctx, s, name)
	if err == nil && s != nil {
		u.base.System = s.Config().System
	}
	return msg, err
}

// build returns a session with the UI's configuration under id, and makes
// it the app's current session (hooks, tool results and sub-agent
// transcripts follow the session id).
func (u *uiSessions) build(id string, w *session.Writer) *engine.Session {
	u.a.switchSession(id)
	if u.cur != nil && u.cur != w {
		// A line recorded for the old session after this (a background
		// task's notice) opens its file again.
		u.cur.Close()
	}
	u.cur = w
	cfg := u.base
	cfg.SessionID = id
	cfg.Recorder = nil
	if w != nil {
		cfg.Recorder = w
	}
	return engine.New(cfg)
}

// adopt rebuilds the app's first session with the UI's gate and
// compactor, keeping its history (a resumed one).
func (u *uiSessions) adopt(s *engine.Session) *engine.Session {
	n := u.build(s.ID(), u.a.writer)
	if h := s.History(); len(h) > 0 {
		n.SetHistory(h)
		// Record on from where the resumed session's chain ends now
		// (after any repair entries the resume wrote).
		n.SetLastUUID(s.LastUUID())
	}
	return n
}

// writerFor opens the transcript of session id, unless persistence is off.
func (u *uiSessions) writerFor(id string) *session.Writer {
	a := u.a
	if a.opts.NoPersist {
		return nil
	}
	w := session.NewWriter(a.store.TranscriptPath(a.cwd, id))
	a.onClose(func() { w.Close() })
	return w
}

// fresh starts a new session for /clear: SessionEnd hooks run for the
// old session with reason "clear", the memory files are read again, then
// SessionStart hooks run with source "clear", whose context opens the new
// conversation.
func (u *uiSessions) fresh() (*engine.Session, error) {
	u.a.sessionEnd("clear")
	u.base.UserContext = u.a.newConversation()
	u.a.forgetState()
	id := uuid.NewString()
	s := u.build(id, u.writerFor(id))
	// Each hook is bounded by its own timeout.
	u.startHooks(context.Background(), s, "clear")
	return s, nil
}

// startHooks runs the SessionStart hooks for source and adds their
// context to s.
func (u *uiSessions) startHooks(ctx context.Context, s *engine.Session, source string) {
	if text := u.a.sessionStartContext(ctx, source); text != "" {
		s.AppendMessage(llm.NewUserText(text), true)
	}
}

// List returns the project's sessions, newest first.
func (u *uiSessions) List() ([]session.Info, error) {
	return u.a.store.List(u.a.cwd)
}

// Resume reopens a recorded session: its history, recording on into its
// transcript.
func (u *uiSessions) Resume(ctx context.Context, info session.Info) (*engine.Session, error) {
	// Another reins running the session: go on from its last finished
	// turn, on a branch of its own (as reins --resume does).
	busy := session.Busy(info.Path)
	load := session.Load
	if busy {
		load = session.LoadSettled
	}
	t, err := load(info.Path)
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", info.ID, err)
	}
	// Lines left out, links bridged, a copy made: say what and where,
	// once the list that called this has closed (the notices go through
	// the loop that waits for this call).
	var notes []string
	if busy {
		notes = append(notes, busyNote(info, "", !sameFile(info.Path, u.a.store.TranscriptPath(u.a.cwd, info.ID))))
	}
	for _, w := range t.Warnings {
		notes = append(notes, fmt.Sprintf("resume %s: %s: %s", info.ID, info.Path, w))
	}
	defer func() {
		go func() {
			for _, n := range notes {
				u.a.notify("warning", n)
			}
		}()
	}()
	// The conversation being left ends here (SessionEnd reason
	// "resume"), before the one resumed starts.
	u.a.sessionEnd("resume")
	id := info.ID
	if dst := u.a.store.TranscriptPath(u.a.cwd, id); !u.a.opts.NoPersist && !sameFile(info.Path, dst) {
		// A session Claude Code recorded (or one of another name): it
		// goes on in reins's own transcript, which gets the whole
		// history first; another transcript of that id is not touched.
		if _, err := os.Stat(dst); err == nil || !session.IsID(id) {
			id = uuid.NewString()
		}
		dst, _, err := u.a.store.Fork(info.Path, u.a.cwd, id)
		if err != nil {
			return nil, fmt.Errorf("resume %s: %w", info.ID, err)
		}
		notes = append(notes, u.a.continuedIn(t, dst, id))
		for _, r := range t.Repairs {
			r.SessionID = id
		}
	}
	u.base.UserContext = u.a.newConversation()
	w := u.writerFor(id)
	if w != nil && sameFile(w.Path(), info.Path) {
		// Held from now on, so a reins resuming it meanwhile knows (a
		// failure shows at the first line recorded).
		_ = w.Open()
	}
	s := u.build(id, w)
	items := make([]engine.HistoryItem, len(t.Items))
	for i, it := range t.Items {
		items[i] = engine.HistoryItem{UUID: it.UUID, Message: it.Message, Meta: it.Meta, Summary: it.Summary}
	}
	s.SetHistory(items)
	s.SetLastUUID(t.Leaf)
	if w != nil && len(t.Repairs) > 0 {
		for _, r := range t.Repairs {
			r.Version = Version // as every line this reins records
		}
		if err := t.WriteRepairs(w); err != nil {
			return nil, fmt.Errorf("resume %s: %w", info.ID, err)
		}
		s.SetLastUUID(t.Repairs[len(t.Repairs)-1].UUID)
	}
	if w != nil {
		keepTitleInView(s, w.Path(), t.CustomTitle)
	}
	u.a.restoreState(t)
	u.startHooks(ctx, s, "resume")
	return s, nil
}

// viewPermissions lists the permission rules in force (/permissions), or
// changes them: "/permissions allow|ask|deny RULE" adds a rule to
// .claude/settings.local.json, "/permissions remove allow|ask|deny RULE"
// drops it for this session.
func (a *app) viewPermissions(_ context.Context, args string) (string, error) {
	if f := strings.Fields(args); len(f) > 0 {
		return a.editPermissions(f)
	}
	p := a.checker.Policy()
	var b strings.Builder
	fmt.Fprintf(&b, "Mode: %s\n", p.Mode)
	if pre := a.checker.PrePlanMode(); pre != "" {
		fmt.Fprintf(&b, "Leaving plan mode returns to: %s\n", pre)
	}
	setAside := map[string]bool{}
	if p.Mode == permission.ModeAuto {
		for _, r := range a.checker.AutoSetAside() {
			setAside[r] = true
		}
	}
	switch {
	case p.AutoDisabled:
		fmt.Fprintf(&b, "Auto mode: unavailable (%s)\n", p.AutoDisabledBy)
	case p.Mode == permission.ModeAuto:
		b.WriteString("Auto mode: a classifier reviews what would ask (`reins auto-mode defaults` prints its built-in rules)")
		if p.ClassifyAllShell {
			b.WriteString("; classifyAllShell: every command goes to it")
		}
		b.WriteString("\n")
	}
	byBehavior := map[string][]string{}
	for _, r := range p.Rules {
		where := string(r.Source)
		if r.File != "" {
			where = r.File
		}
		line := fmt.Sprintf("%s  (%s)", r.Text, where)
		if r.Behavior == permission.Allow && r.Tool == "Bash" && (setAside[r.String()] || (p.Mode == permission.ModeAuto && p.ClassifyAllShell)) {
			line += "  set aside in auto mode: the classifier reviews these commands"
		}
		byBehavior[string(r.Behavior)] = append(byBehavior[string(r.Behavior)], line)
	}
	for _, beh := range []string{"allow", "ask", "deny"} {
		rules := byBehavior[beh]
		fmt.Fprintf(&b, "%s rules: %d\n", strings.ToUpper(beh[:1])+beh[1:], len(rules))
		for _, r := range rules {
			b.WriteString("  " + r + "\n")
		}
	}
	if len(p.WorkDirs) > 0 {
		b.WriteString("Working folders:\n")
		for _, d := range p.WorkDirs {
			b.WriteString("  " + d + "\n")
		}
	}
	b.WriteString("Add a rule with /permissions allow|ask|deny RULE (saved in .claude/settings.local.json); /permissions remove allow|ask|deny RULE drops one for this session.")
	return b.String(), nil
}

func (a *app) editPermissions(f []string) (string, error) {
	typ, dest := permission.UpdateAddRules, permission.DestLocal
	if f[0] == "remove" {
		typ, dest, f = permission.UpdateRemoveRules, permission.DestSession, f[1:]
	}
	if len(f) < 2 {
		return "", fmt.Errorf("usage: /permissions [remove] allow|ask|deny RULE, for example /permissions allow Bash(npm test *)")
	}
	beh := permission.Behavior(f[0])
	if beh != permission.Allow && beh != permission.Ask && beh != permission.Deny {
		return "", fmt.Errorf("%q is not allow, ask or deny", f[0])
	}
	rule := strings.Join(f[1:], " ")
	if err := a.checker.Apply([]permission.Update{{Type: typ, Rules: []string{rule}, Behavior: beh, Destination: dest}}); err != nil {
		return "", err
	}
	if typ == permission.UpdateRemoveRules {
		return fmt.Sprintf("Removed %s rule %s for this session.", beh, rule), nil
	}
	return fmt.Sprintf("Added %s rule %s (saved in .claude/settings.local.json).", beh, rule), nil
}

// viewHooks lists the configured hooks (/hooks).
func (a *app) viewHooks(context.Context, string) (string, error) {
	hs := map[string][]settings.HookMatcher{}
	for ev, ms := range a.settings.Hooks {
		hs[ev] = append(hs[ev], ms...)
	}
	if !a.pluginHooksOff() {
		ps, _ := a.loadedPlugins()
		for _, p := range ps {
			for ev, ms := range p.Hooks {
				for _, m := range ms {
					m.Source = settings.Source("plugin " + p.ID)
					hs[ev] = append(hs[ev], m)
				}
			}
		}
	}
	if len(hs) == 0 {
		return "No hooks are configured.", nil
	}
	events := make([]string, 0, len(hs))
	for ev := range hs {
		events = append(events, ev)
	}
	// In the order of the session's life (as Claude Code's /hooks lists
	// them), then any other names alphabetically.
	rank := func(ev string) int {
		if i := slices.Index(hooks.Events, hooks.Event(ev)); i >= 0 {
			return i
		}
		return len(hooks.Events)
	}
	sort.SliceStable(events, func(i, j int) bool {
		if ri, rj := rank(events[i]), rank(events[j]); ri != rj {
			return ri < rj
		}
		return events[i] < events[j]
	})
	var b strings.Builder
	for _, ev := range events {
		b.WriteString(ev + "\n")
		for _, m := range hs[ev] {
			matcher := m.Matcher
			if matcher == "" {
				matcher = "*"
			}
			for _, h := range m.Hooks {
				spec, _ := json.Marshal(h)
				fmt.Fprintf(&b, "  %s → %s  (%s)\n", matcher, spec, m.Source)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// viewAgents lists the sub-agent types the Agent tool can start, with
// where each is defined (/agents).
// viewTasks backs /tasks: the session's background tasks, newest last,
// and "/tasks stop ID" to stop a running one.
func (a *app) viewTasks(_ context.Context, args string) (string, error) {
	f := strings.Fields(args)
	switch {
	case len(f) == 2 && f[0] == "stop":
		if err := a.tasks.Stop(f[1]); err != nil {
			return "", err
		}
		return "Stopping " + f[1], nil
	case len(f) > 0:
		return "", fmt.Errorf("usage: /tasks, or /tasks stop ID (not %q)", args)
	}
	list := a.tasks.List()
	if len(list) == 0 {
		return "No background tasks.", nil
	}
	now := time.Now()
	var b strings.Builder
	for _, t := range list {
		what := t.Command
		if t.Kind == task.KindAgent {
			what = t.AgentType + ": " + t.Description
		} else if t.Description != "" {
			what += "  # " + t.Description
		}
		end := t.End
		if end.IsZero() {
			end = now
		}
		status := string(t.Status)
		if t.ExitCode != nil && t.Status != task.Running {
			status += fmt.Sprintf(" (exit %d)", *t.ExitCode)
		}
		fmt.Fprintf(&b, "%s  %s · %s\n  %s\n", t.ID, status, end.Sub(t.Start).Round(time.Second), what)
		if t.OutputPath != "" {
			b.WriteString("  output: " + t.OutputPath + "\n")
		}
	}
	b.WriteString("/tasks stop ID stops a running task.")
	return b.String(), nil
}

func (a *app) viewAgents(context.Context, string) (string, error) {
	cat := a.agentCatalog()
	if cat == nil {
		return "No sub-agents are available.", nil
	}
	var b strings.Builder
	for _, d := range cat.All() {
		from := string(d.Source)
		if d.Path != "" {
			path := d.Path
			if rel, err := filepath.Rel(a.cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
			from += ", " + path
		}
		fmt.Fprintf(&b, "%s  (%s)\n", d.Name, from)
		if desc := firstSentence(d.Description); desc != "" {
			b.WriteString("  " + desc + "\n")
		}
		var facts []string
		if d.Model != "" && d.Model != "inherit" {
			facts = append(facts, "model: "+d.Model)
		}
		if len(d.Tools) > 0 {
			facts = append(facts, "tools: "+strings.Join(d.Tools, ", "))
		}
		if len(d.DisallowedTools) > 0 {
			facts = append(facts, "disallowed: "+strings.Join(d.DisallowedTools, ", "))
		}
		if d.Effort != "" {
			facts = append(facts, "effort: "+d.Effort)
		}
		if d.Isolation != "" {
			facts = append(facts, "isolation: "+d.Isolation)
		}
		if len(facts) > 0 {
			b.WriteString("  " + strings.Join(facts, " · ") + "\n")
		}
	}
	b.WriteString("\nProject agents live in .claude/agents/<name>.md, your own in ~/.claude/agents/<name>.md.")
	return b.String(), nil
}

// firstSentence is the first line of s up to its first full stop, with
// "…" when something was left out.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	line, _, more := strings.Cut(s, "\n")
	if i := strings.Index(line, ". "); i >= 0 {
		line, more = line[:i+1], true
	}
	if more {
		line += " …"
	}
	return line
}

// viewConfig shows the settings files in force and the merged keys
// (/config).
func (a *app) viewConfig(context.Context, string) (string, error) {
	var b strings.Builder
	b.WriteString("Settings files, highest first:\n")
	for _, f := range a.settings.Files {
		fmt.Fprintf(&b, "  %-16s %s\n", f.Source, f.Path)
	}
	if len(a.settings.Files) == 0 {
		b.WriteString("  (none)\n")
	}
	keys := make([]string, 0, len(a.settings.Raw))
	for k := range a.settings.Raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		b.WriteString("Merged settings:\n")
	}
	for _, k := range keys {
		v := string(a.settings.Raw[k])
		if len(v) > 120 {
			v = v[:117] + "..."
		}
		fmt.Fprintf(&b, "  %s: %s\n", k, v)
	}
	active, available := a.styleNames()
	fmt.Fprintf(&b, "Output style: %s (available: %s; /output-style switches)\n", active, strings.Join(available, ", "))
	b.WriteString("Edit the files above to change settings; they apply to new sessions.")
	return b.String(), nil
}

// doctorChecks are the app's checks for /doctor: tools, MCP servers,
// plugins, settings warnings, trust.
func (a *app) doctorChecks(context.Context) []tui.Check {
	names := make([]string, 0, len(a.tools))
	for _, t := range a.tools {
		names = append(names, t.Name())
	}
	checks := []tui.Check{
		{Name: "built-in tools", OK: len(names) > 0, Info: fmt.Sprintf("%d: %s", len(names), strings.Join(names, ", "))},
		{Name: "settings", OK: len(a.startupWarnings()) == 0, Info: fmt.Sprintf("%d files, %d warnings", len(a.settings.Files), len(a.startupWarnings()))},
		{Name: "folder trusted", OK: a.trusted, Info: a.cwd},
	}
	if ps, errs := a.loadedPlugins(); len(ps)+len(errs) > 0 {
		var ids []string
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		info := fmt.Sprintf("%d loaded", len(ps))
		if len(ids) > 0 {
			info += ": " + strings.Join(ids, ", ")
		}
		if len(errs) > 0 {
			info += fmt.Sprintf("; %d error(s), see /plugin", len(errs))
		}
		checks = append(checks, tui.Check{Name: "plugins", OK: len(errs) == 0, Info: info})
	}
	if a.mcpm() != nil {
		for _, s := range a.mcpm().Status() {
			info := fmt.Sprintf("%s, %s, %d tools", s.Transport, s.State, len(s.Tools))
			if s.Err != "" {
				info += ": " + s.Err
			}
			checks = append(checks, tui.Check{Name: "MCP " + s.Name, OK: s.Err == "", Info: info})
		}
	}
	return checks
}

// statusLineCommand reads settings statusLine {"type":"command","command":...}.
func statusLineCommand(raw json.RawMessage) string {
	var sl struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &sl) != nil || (sl.Type != "" && sl.Type != "command") {
		return ""
	}
	return sl.Command
}

// notifyChannel maps preferredNotifChannel to the UI's notification.
func notifyChannel(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return "bell"
	}
	switch s {
	case "notifications_disabled":
		return "none"
	case "iterm2", "iterm2_with_bell", "kitty", "ghostty":
		return "osc9"
	}
	return "bell"
}

// respectGitignore is the respectGitignore setting (default true).
func (a *app) respectGitignore() bool {
	respect := true
	_, _ = a.settings.Get("respectGitignore", &respect)
	return respect
}
