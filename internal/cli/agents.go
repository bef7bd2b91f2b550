package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"reins/internal/agent"
	"reins/internal/command"
	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/filestate"
	"reins/internal/gitinfo"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/prompt"
	"reins/internal/session"
	"reins/internal/settings"
	"reins/internal/streamjson"
	"reins/internal/task"
	"reins/internal/tool"
	agenttool "reins/internal/tools/agent"
	"reins/internal/tools/bash"
	"reins/internal/tools/edit"
	"reins/internal/tools/glob"
	"reins/internal/tools/grep"
	"reins/internal/tools/notebook"
	"reins/internal/tools/plan"
	"reins/internal/tools/read"
	"reins/internal/tools/taskoutput"
	"reins/internal/tools/todo"
	"reins/internal/tools/write"
	"reins/internal/toolsearch"
	"reins/internal/worktree"
)

// agentTool is the main conversation's Agent tool: it starts sub-agents
// with the session's tools, permissions and background tasks.
func (a *app) agentTool() tool.Tool {
	sp := &agentSpawner{a: a, canAsk: true, pool: a.pool}
	return agenttool.New(agenttool.Config{
		Catalog:      a.agentCatalog,
		Spawner:      sp,
		Tasks:        a.tasks,
		NoBackground: bash.EnvNoBackground(a.getenv),
		ParentTools:  func() []string { return toolNames(a.pool()) },
		MaxDepth:     a.maxAgentDepth(),
		Resolve:      a.models.Resolve,
	})
}

// agentCatalog is the session's current agent catalog.
func (a *app) agentCatalog() *agent.Catalog {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.agents
}

// addAgents adds agent definitions given as JSON (the SDK initialize
// request's agents, in the --agents shape) to the session's catalog; they
// take effect at the next Agent call and listing.
func (a *app) addAgents(raw map[string]json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return fmt.Errorf("agents: %w", err)
	}
	defs, err := agent.ParseJSON(data, agent.SourceSDK)
	if err != nil {
		return err
	}
	for _, d := range defs {
		a.reportUnknownTools(d)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.agents == nil {
		a.agents = agent.NewCatalog(agent.Builtin()...)
	}
	a.agents = a.agents.With(defs...)
	return nil
}

// agentTypeVisible leaves out of the agent listing the types a deny rule
// ("Agent(Explore)", or the older "Task(Explore)") refuses outright.
func (a *app) agentTypeVisible(name string) bool {
	in, _ := json.Marshal(map[string]string{"subagent_type": name})
	d := a.checker.Check(agenttool.Name, in, true)
	return !(d.Behavior == permission.Deny && d.Rule != nil)
}

// subagentSearchOptions configures a sub-agent's deferred-tool search as
// the session's (the main conversation already reported bad settings).
func (a *app) subagentSearchOptions(model string) toolsearch.Options {
	if model == "" {
		model = a.model
	}
	o := toolsearch.Options{ContextWindow: a.models.Info(model).ContextWindow}
	if m, err := toolsearch.ModeFromEnv(a.getenv); err == nil {
		o.Mode = m
	}
	if w, err := toolsearch.WeightsFromEnv(a.getenv); err == nil {
		o.Weights = w
	}
	return o
}

// maxAgentDepth is how deep sub-agents nest: REINS_MAX_AGENT_DEPTH, else
// one level (sub-agents start no sub-agents of their own).
func (a *app) maxAgentDepth() int {
	if n := atoi(a.getenv("REINS_MAX_AGENT_DEPTH")); n > 0 {
		return n
	}
	return agent.DefaultMaxDepth
}

// taskReminders announces the main conversation's finished background
// tasks (shells and agents) at its next request.
func (a *app) taskReminders() []string {
	// asyncRewake hooks that exited 2 wake the model the same way.
	return append(agent.TaskReminders(a.tasks), a.hookRun.TakeRewakes()...)
}

func toolNames(ts []tool.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

// agentSpawner starts sub-agents of one conversation (the main one, or a
// sub-agent allowed to nest) on the engine. It is safe for concurrent use.
type agentSpawner struct {
	a *app
	// canAsk is false under a background agent: nobody can be asked, all
	// the way down.
	canAsk bool
	// bg is the background state of the conversation the spawner serves
	// (nil for the main one): a sub-agent under one the user moved to the
	// background cannot ask either.
	bg *inBackground
	// pool returns the tools of the conversation the spawner serves; a
	// sub-agent's tools are taken from it.
	pool func() []tool.Tool
}

var _ agent.Spawner = (*agentSpawner)(nil)

// agentConv is one sub-agent: its engine session and everything it owns.
type agentConv struct {
	a    *app
	spec agent.Spec
	sess *engine.Session
	// first is the first user message: the task, preloaded skills and
	// SubagentStart hook context.
	first []llm.ContentBlock

	// Set up by Spawn, read-only afterwards.
	tools    []tool.Tool            // its fixed tools
	files    *filestate.State       // its reads (for edits and compaction)
	todos    *todo.Store            // its todo list
	mcp      *mcp.Manager           // servers the definition brought; nil if none
	search   *toolsearch.Session    // its deferred-tool state
	tasks    *task.Registry         // its background shells and agents
	writer   *session.Writer        // its transcript; nil with --no-session-persistence
	tmp      string                 // its scratch folder (shell state, task output)
	cwd      string                 // its working folder: the session's, or in its worktree
	wt       *worktree.Worktree     // its git worktree (isolation "worktree"); nil if none
	wtByHook bool                   // a WorktreeCreate hook made wt, not git
	gate     *agent.Gate            // the narrowed gate
	bg       *inBackground          // set when the user moves it to the background
	stop     *engine.PermissionGate // its SubagentStop hooks
	checker  *permission.Checker    // its permissions (a narrowed clone)
	hooks    *hooks.Runner          // the runner its gate uses
	notes    []string               // problems found while spawning, for the user
	memory   string                 // its memory section of the system prompt; "" if none
	memDir   string                 // its persistent memory folder; "" if none

	ran    sync.Once // Run runs once
	closed sync.Once // Close runs once
	// wtDone is set once the worktree was kept or removed (by Run, else
	// by Close).
	wtDone sync.Once
}

// Spawn prepares a sub-agent: its own instances of the tools that keep
// state, a gate cloned from the session's and narrowed, its system prompt
// and transcript, then fires the SubagentStart hooks.
func (s *agentSpawner) Spawn(ctx context.Context, spec agent.Spec) (conv agent.Conversation, err error) {
	a := s.a
	def := spec.Definition
	if def == nil {
		return nil, errors.New("no agent definition")
	}
	sessDir := a.store.SessionDir(a.cwd, a.currentID())
	c := &agentConv{a: a, spec: spec, tmp: filepath.Join(sessDir, "subagents", spec.AgentID), cwd: a.cwd,
		bg: &inBackground{parent: s.bg}}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if spec.Isolation == agent.IsolationWorktree {
		if err := c.makeWorktree(ctx); err != nil {
			return nil, err
		}
	}
	c.tasks = &task.Registry{Dir: filepath.Join(c.tmp, "tasks")}
	c.files = filestate.New()
	c.todos = todo.NewStore()
	if err := c.startMCP(ctx); err != nil {
		return nil, err
	}
	c.prepareMemory(s.pool())
	c.tools = s.tools(c)
	c.search = toolsearch.NewSession(a.subagentSearchOptions(spec.Model))
	transcript := filepath.Join(sessDir, "subagents", "agent-"+spec.AgentID+".jsonl")
	if !a.opts.NoPersist {
		c.writer = a.mirrored(session.NewWriter(transcript))
	}
	if err := c.buildGate(s.canAsk && !spec.Background, transcript); err != nil {
		return nil, err
	}
	c.first = []llm.ContentBlock{llm.TextBlock(spec.Prompt)}
	if c.wt != nil {
		c.first = append(c.first, llm.TextBlock(worktreeReminder(c.wt, c.cwd)))
	}
	c.first = append(c.first, c.preloadSkills(ctx)...)
	c.first = append(c.first, c.subagentStart(ctx)...)
	model := spec.Model
	if model == "" {
		model = a.model
	}
	// Request settings follow the session's, thinking included (as Claude
	// Code's sub-agents think when the conversation does); budgets and
	// the fallback model stay with the main conversation.
	base := a.current().Config()
	cfg := engine.Config{
		Provider:           a.provider,
		Models:             a.models,
		Model:              model,
		SessionID:          a.currentID(),
		Cwd:                c.cwd,
		Version:            Version,
		Entrypoint:         base.Entrypoint,
		GitBranch:          c.gitBranch(base.GitBranch),
		System:             c.systemPrompt(ctx, model),
		UserContext:        a.userContext(),
		Tools:              c.toolSet,
		Gate:               c.gate,
		StopHooks:          c.stop,
		Store:              a.results,
		MaxToolConcurrency: base.MaxToolConcurrency,
		MaxTurns:           def.MaxTurns,
		MaxOutputTokens:    base.MaxOutputTokens,
		Effort:             a.subagentEffort(spec.Effort),
		Thinking:           base.Thinking,
		MaxThinkingTokens:  base.MaxThinkingTokens,
		ThinkingDisplay:    base.ThinkingDisplay,
		Betas:              base.Betas,
		Extra:              base.Extra,
		CacheTTL:           base.CacheTTL,
		NoCache:            base.NoCache,
		Compactor: compact.New(compact.Config{Getenv: a.getenv, AutoDisabled: a.autoCompactOff(), Files: c.files, Skill: a.restoresSkill,
			Todos:      func() string { return todoListText(c.todos.Items(spec.AgentID)) },
			PreCompact: c.preCompact, PostCompact: c.postCompact, Logger: a.logger}),
		AgentID:         spec.AgentID,
		ParentToolUseID: spec.ParentToolUseID,
		IsSidechain:     true,
		RetryBaseDelay:  base.RetryBaseDelay,
		Logger:          a.logger.With("agent", spec.AgentID),
	}
	if c.writer != nil {
		cfg.Recorder = c.writer
	}
	c.sess = engine.New(cfg)
	for _, n := range c.notes {
		a.notify("warning", n)
	}
	a.subagentStats.Spawned(def.Name, spec.Depth, spec.BackgroundAsked, spec.Background)
	return c, nil
}

// tools gives the sub-agent the tools named in its spec, taken from the
// parent conversation's, with its own instances of those that keep state
// (file reads, the shell, todos, background tasks, nested agents), so that
// nothing it does leaks into the parent and everything is released with
// it.
func (s *agentSpawner) tools(c *agentConv) []tool.Tool {
	a := s.a
	parent := map[string]tool.Tool{}
	for _, t := range s.pool() {
		parent[t.Name()] = t
	}
	files := c.files
	var out []tool.Tool
	var shell *bash.Tool
	for _, name := range c.spec.Tools {
		var t tool.Tool
		switch name {
		case "Bash":
			// The session's Bash warned of bad values.
			defTimeout, maxTimeout, _ := bash.EnvTimeouts(a.getenv)
			maxOutput, _ := bash.EnvMaxOutput(a.getenv)
			shellPath, _ := bash.EnvShell(a.getenv)
			sh := bash.New(bash.Config{Cwd: c.cwd, Env: a.shellEnviron(), Tasks: c.tasks, StateDir: filepath.Join(c.tmp, "shell"), WorkDirs: a.workDirs,
				DefaultTimeout: defTimeout, MaxTimeout: maxTimeout, MaxResultChars: maxOutput,
				MaintainProjectDir: bash.EnvMaintainProjectDir(a.getenv), Shell: shellPath, NoBackground: bash.EnvNoBackground(a.getenv),
				ShellPrefix: a.getenv(bash.ShellPrefixEnv), EnvFile: a.getenv(bash.EnvFileEnv)})
			a.onClose(func() { sh.Close() })
			t = sh
			shell = sh
		case "Read":
			var mem *prompt.Memory
			if a.memory != nil {
				mem = a.memory.Fork()
			}
			t = &memoryRead{Tool: read.New(files), memory: func() *prompt.Memory { return mem }, loaded: c.a.instructionsTouched}
		case "Write":
			t = write.New(files)
		case "Edit":
			t = edit.New(files)
		case "MultiEdit":
			t = edit.NewMulti(files)
		case "NotebookEdit":
			t = notebook.New(files)
		case "TodoWrite":
			t = todo.New(c.todos)
		case taskoutput.OutputName:
			t = taskoutput.NewOutput(c.tasks)
		case taskoutput.StopName:
			t = taskoutput.NewStop(c.tasks)
		case agenttool.Name:
			t = c.nestedAgentTool(s)
		default:
			t = parent[name]
		}
		if t != nil {
			out = append(out, t)
		}
	}
	if c.wt != nil {
		// Glob and Grep search from the sub-agent's own folder (and follow
		// its shell's cd), not from where the parent's shell is.
		dir := tool.ShellDir{}
		if shell != nil {
			dir.Dir = shell.Cwd
		}
		for i, t := range out {
			switch t.Name() {
			case "Glob":
				out[i] = &glob.Tool{ShellDir: dir, Options: glob.EnvOptions(a.getenv)}
			case "Grep":
				out[i] = &grep.Tool{ShellDir: dir}
			}
		}
	}
	return out
}

// nestedAgentTool is a sub-agent's own Agent tool, one level deeper; its
// background agents are the sub-agent's tasks and end with it.
func (c *agentConv) nestedAgentTool(parent *agentSpawner) tool.Tool {
	a := c.a
	sp := &agentSpawner{a: a, canAsk: parent.canAsk && !c.spec.Background, bg: c.bg, pool: func() []tool.Tool { return c.currentTools() }}
	return agenttool.New(agenttool.Config{
		Catalog:      a.agentCatalog,
		Spawner:      sp,
		Tasks:        c.tasks,
		NoBackground: bash.EnvNoBackground(a.getenv),
		ParentTools:  func() []string { return toolNames(c.currentTools()) },
		Depth:        c.spec.Depth,
		MaxDepth:     a.maxAgentDepth(),
		AllowedTypes: c.spec.Definition.AgentTypes(),
		Resolve:      a.models.Resolve,
	})
}

// currentTools are the sub-agent's tools this turn: its fixed set and the
// tools of the MCP servers it brought that are connected, as far as its
// definition's tools lists and the deny rules allow them.
func (c *agentConv) currentTools() []tool.Tool {
	if c.mcp == nil {
		return c.tools
	}
	own := c.mcp.Snapshot().Tools
	keep := map[string]bool{}
	for _, n := range c.checker.FilterTools(c.spec.Definition.FilterTools(toolNames(own), agent.FilterOptions{})) {
		keep[n] = true
	}
	var extra []tool.Tool
	for _, t := range own {
		if keep[t.Name()] {
			extra = append(extra, t)
		}
	}
	return tool.Assemble(c.tools, extra)
}

// toolSet is the sub-agent's per-turn snapshot, through its own
// deferred-tool search, with its reminders.
func (c *agentConv) toolSet(context.Context) engine.ToolSet {
	all := c.currentTools()
	ts := engine.ToolSet{Tools: all}
	if slices.ContainsFunc(all, toolsearch.IsDeferred) {
		// Search tools only when there is something to search for.
		ts = c.search.ToolSet(all)
	}
	inner := ts.Reminders
	ts.Reminders = func(ctx context.Context, history []*llm.Message) []string {
		var out []string
		if inner != nil {
			out = append(out, inner(ctx, history)...)
		}
		names := toolNames(all)
		if slices.Contains(names, "Skill") {
			window := c.a.models.Info(c.sess.Model()).ContextWindow
			if r := command.SkillReminder(history, c.a.listedSkills(), c.a.skillListingBudget(window)); r != "" {
				out = append(out, r)
			}
		}
		if slices.Contains(names, agenttool.Name) {
			if r := c.a.agentCatalog().Reminder(history, c.agentTypeAllowed); r != "" {
				out = append(out, r)
			}
		}
		if slices.Contains(names, todo.Name) {
			if r := todo.Reminder(history, c.todos.Items(c.spec.AgentID)); r != "" {
				out = append(out, r)
			}
		}
		if r := plan.ReminderWith(history, string(c.checker.Mode()), false, c.a.planInstructions()); r != "" {
			out = append(out, r)
		}
		return append(out, agent.TaskReminders(c.tasks)...)
	}
	return ts
}

// agentTypeAllowed limits the listing to the types an "Agent(a, b)"
// entry allows.
func (c *agentConv) agentTypeAllowed(name string) bool {
	types := c.spec.Definition.AgentTypes()
	return types == nil || slices.ContainsFunc(types, func(t string) bool { return strings.EqualFold(t, name) })
}

// buildGate clones the session's permissions and narrows them: the
// definition's mode only if stricter, its deny entries as session rules,
// no asker in the background, and the definition's read-only and
// specifier limits on top.
func (c *agentConv) buildGate(canAsk bool, transcript string) error {
	a := c.a
	def := c.spec.Definition
	checker := a.checker.Clone()
	c.checker = checker
	mode := permission.Narrow(checker.Mode(), permission.Mode(def.PermissionMode))
	if err := checker.SetMode(mode); err != nil {
		return fmt.Errorf("agent %s: permission mode: %w", def.Name, err)
	}
	if c.wt != nil {
		// Its worktree is a working folder of its own, wherever the
		// session's working folder is in the repository.
		if err := checker.Apply([]permission.Update{{Type: permission.UpdateAddDirectories,
			Directories: []string{c.wt.Path}, Destination: permission.DestSession}}); err != nil {
			return fmt.Errorf("agent %s: worktree: %w", def.Name, err)
		}
	}
	if c.memDir != "" {
		// Its memory folder is its own to read and keep.
		root := "/" + filepath.ToSlash(c.memDir) + "/**"
		if err := checker.Apply([]permission.Update{{Type: permission.UpdateAddRules, Rules: []string{"Read(" + root + ")", "Edit(" + root + ")"},
			Behavior: permission.Allow, Destination: permission.DestSession}}); err != nil {
			c.notes = append(c.notes, fmt.Sprintf("agent %s: memory folder: %v", def.Name, err))
		}
	}
	if _, deny := def.Rules(); len(deny) > 0 {
		if err := checker.Apply([]permission.Update{{Type: permission.UpdateAddRules, Rules: deny,
			Behavior: permission.Deny, Destination: permission.DestSession}}); err != nil {
			c.notes = append(c.notes, fmt.Sprintf("agent %s: disallowedTools: %v", def.Name, err))
		}
	}
	c.hooks = a.hookRun
	if extra := c.definitionHooks(); len(extra) > 0 && c.hooks != nil {
		c.hooks = c.hooks.With(extra)
	}
	if !canAsk {
		// Started in the background, or by an agent that runs there.
		c.bg.moved.Store(true)
	}
	asker := watchedOnly{bg: c.bg, asker: rememberInSession{asker: &a.asker, session: a.checker, notify: a.notify}}
	main := a.store.TranscriptPath(a.cwd, a.currentID())
	pg := engine.NewGate(engine.GateConfig{
		Permissions: checker,
		Hooks:       c.hooks,
		Asker:       asker,
		HookInput: func() hooks.Input {
			return hooks.Input{SessionID: a.currentID(), TranscriptPath: main, Cwd: c.cwd, PromptID: a.currentPromptID()}
		},
		AgentID:             c.spec.AgentID,
		AgentType:           def.Name,
		AgentTranscriptPath: transcript,
		BackgroundTasks:     a.runningTasks, // the session's, as in Claude Code
		Notify:              a.notify,
		Classifier:          a.classifier,
		AutoGuard:           a.autoGuard,
		AgentDepth:          c.spec.Depth,
		ParentTranscript:    c.spec.ParentTranscript,
		ParentNotUser:       c.spec.ParentNotUser,
	})
	c.stop = pg
	g, err := agent.NewGate(pg, def, c.cwd, a.home)
	if err != nil {
		if g == nil {
			return err
		}
		c.notes = append(c.notes, err.Error())
	}
	c.gate = g
	return nil
}

// inBackground records that a sub-agent runs in the background: started
// there, or moved there by the user; parent is the conversation that
// started it (nil for the main one), whose move counts for it too.
type inBackground struct {
	moved  atomic.Bool
	parent *inBackground
}

// on reports whether the sub-agent or one of those above it was moved.
func (b *inBackground) on() bool {
	for ; b != nil; b = b.parent {
		if b.moved.Load() {
			return true
		}
	}
	return false
}

// MovedToBackground marks the sub-agent as moved to the background: its
// calls that need approval are denied from now on (agent.Backgrounder).
func (c *agentConv) MovedToBackground() { c.bg.moved.Store(true) }

var _ agent.Backgrounder = (*agentConv)(nil)

// watchedOnly asks while the sub-agent runs in the foreground, where the
// user watches it; in the background (started there, or moved there with
// an agent above it) nobody is there to answer, so a call that needs
// approval is denied and the model told why, as Claude Code does for
// background sub-agents.
type watchedOnly struct {
	bg    *inBackground
	asker engine.Asker
}

// Ask forwards the question, or denies the call in the background.
func (w watchedOnly) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	if !w.bg.on() {
		return w.asker.Ask(ctx, q)
	}
	why := strings.TrimSpace(q.Reason)
	if why != "" {
		why += " "
	}
	return engine.Answer{Message: fmt.Sprintf("%sThis %s call needs approval, but this agent runs in the background, where nobody watches it to approve calls, so it was denied. Do not retry it; finish what you can without it and say in your answer what still needs the user's approval.",
		why, q.ToolName), Source: "config", ReasonType: "asyncAgent"}, nil
}

// rememberInSession passes a sub-agent's questions to the session's
// asker, and applies the permission updates the user accepts with an
// answer ("don't ask again") to the session as well as to the sub-agent's
// own checker (which the gate updates), so the answer holds for the rest
// of the session. Settings files are written once, by the sub-agent's
// gate.
type rememberInSession struct {
	asker   engine.Asker
	session *permission.Checker
	notify  func(level, text string)
}

// Ask forwards the question.
func (r rememberInSession) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	ans, err := r.asker.Ask(ctx, q)
	if err != nil || len(ans.Updates) == 0 {
		return ans, err
	}
	var ups []permission.Update
	for _, u := range ans.Updates {
		ups = append(ups, permission.Update{Type: permission.UpdateType(u.Type), Rules: u.Rules,
			Behavior: permission.Behavior(u.Behavior), Destination: permission.DestSession,
			Mode: permission.Mode(u.Mode), Directories: u.Directories})
	}
	if err := r.session.Apply(ups); err != nil {
		r.notify("warning", err.Error())
	}
	return ans, nil
}

// definitionHooks reads the definition's hooks (settings form); its Stop
// hooks are SubagentStop hooks, as the agent's own stop is a sub-agent's.
func (c *agentConv) definitionHooks() map[string][]settings.HookMatcher {
	raw := c.spec.Definition.Hooks
	if len(raw) == 0 || c.a.pluginHooksOff() {
		// disableAllHooks and allowManagedHooksOnly keep them off too.
		return nil
	}
	var hs map[string][]settings.HookMatcher
	if err := json.Unmarshal(raw, &hs); err != nil {
		c.notes = append(c.notes, fmt.Sprintf("agent %s: hooks: %v (ignored)", c.spec.Definition.Name, err))
		return nil
	}
	if stop, ok := hs["Stop"]; ok {
		hs["SubagentStop"] = append(hs["SubagentStop"], stop...)
		delete(hs, "Stop")
	}
	for _, ev := range slices.Sorted(maps.Keys(hs)) {
		ms := hs[ev]
		if !slices.Contains(settings.KnownHookEvents, ev) {
			c.notes = append(c.notes, fmt.Sprintf("agent %s: hook event %q is not one reins fires; its hooks never run", c.spec.Definition.Name, ev))
			continue
		}
		for i, m := range ms {
			for j, h := range m.Hooks {
				if msg := h.Problem(ev); msg != "" {
					c.notes = append(c.notes, fmt.Sprintf("agent %s: hooks.%s[%d].hooks[%d]: %s; that hook is skipped", c.spec.Definition.Name, ev, i, j, msg))
				}
			}
		}
	}
	return hs
}

// startMCP connects the MCP servers the definition brings with it (given
// as configurations, not names of the session's servers, whose tools come
// from the parent). The sub-agent owns them; Close shuts them down.
func (c *agentConv) startMCP(ctx context.Context) error {
	a := c.a
	raw := c.spec.Definition.MCPServers
	if len(raw) == 0 {
		return nil
	}
	inline, err := inlineServers(raw)
	if err != nil {
		c.notes = append(c.notes, fmt.Sprintf("agent %s: mcpServers: %v (ignored)", c.spec.Definition.Name, err))
		return nil
	}
	if len(inline) == 0 {
		return nil
	}
	b, _ := json.Marshal(inline)
	servers, err := mcp.ParseServers(b, mcp.ScopeLocal, "agent "+c.spec.Definition.Name)
	if err != nil {
		c.notes = append(c.notes, err.Error())
		return nil
	}
	for _, sv := range servers {
		if sv.Invalid != "" {
			c.notes = append(c.notes, sv.Invalid)
		}
	}
	c.mcp = mcp.NewManager(mcp.Options{Servers: servers, Getenv: a.getenv, Environ: a.environ, Cwd: a.cwd,
		ClientName: "reins", ClientVersion: Version, Logger: a.logger, Credentials: mcp.Credentials(a.configDir), Elicit: a.elicit})
	c.mcp.Start()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c.mcp.Wait(wctx)
	return nil
}

// inlineServers picks the server configurations out of a definition's
// mcpServers: an object of name to configuration, or a list whose
// entries are names (the session's servers, left to the parent) or such
// objects.
func inlineServers(raw json.RawMessage) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		return obj, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("want an object of servers or a list of names and objects")
	}
	for _, e := range list {
		var name string
		if json.Unmarshal(e, &name) == nil {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(e, &m); err != nil {
			return nil, errors.New("a list entry is neither a server name nor an object of servers")
		}
		for k, v := range m {
			out[k] = v
		}
	}
	return out, nil
}

// systemPrompt is the definition's prompt with the sub-agent notes, then
// the environment section.
func (c *agentConv) systemPrompt(ctx context.Context, model string) []llm.SystemBlock {
	a := c.a
	platform, version := prompt.Host(ctx)
	git := a.git.Wait()
	if c.wt != nil {
		// Its own checkout: the session's snapshot describes the user's.
		git = gitinfo.Take(ctx, c.cwd, gitinfo.Options{})
	}
	env := prompt.Environment(prompt.Options{Cwd: c.cwd, AddDirs: a.promptDirs(), Platform: platform,
		OSVersion: version, Date: a.sessionDate(), Model: model, Git: git})
	if c.wt != nil {
		// Its branch and status differ from the user's checkout.
		if sc := prompt.SystemContext(git, nil); sc != "" {
			env += "\n\n" + sc
		}
	}
	if at := prompt.Attribution(a.settings.Attribution.Commit, a.settings.Attribution.PR); at != "" {
		env += "\n\n" + at // a sub-agent's commits carry them too
	}
	own := c.spec.Definition.SystemPrompt()
	if c.memory != "" {
		own += "\n\n" + c.memory
	}
	return []llm.SystemBlock{
		{Text: own, Cache: true},
		{Text: env, Cache: true},
	}
}

// prepareMemory sets up the definition's persistent memory folder, if it
// asks for one: the folder, the prompt section loading its index, and the
// file tools to keep it (Read, Write and Edit, as far as the parent
// conversation has them). A folder that cannot be made is a note for the
// user, and the agent runs without memory.
func (c *agentConv) prepareMemory(pool []tool.Tool) {
	a := c.a
	def := c.spec.Definition
	dir := def.MemoryDir(a.claudeDir, a.projDir)
	if dir == "" {
		return
	}
	text, err := agent.MemoryPrompt(def, dir)
	if err != nil {
		c.notes = append(c.notes, err.Error()+"; it runs without its memory")
		return
	}
	c.memory, c.memDir = text, dir
	tools := slices.Clone(c.spec.Tools)
	for _, name := range []string{"Read", "Write", "Edit"} {
		if slices.Contains(tools, name) {
			continue
		}
		if slices.ContainsFunc(pool, func(t tool.Tool) bool { return t.Name() == name }) {
			tools = append(tools, name)
		}
	}
	c.spec.Tools = tools
}

// gitBranch is the branch the sub-agent's transcript records: its
// worktree's when it has one, else the session's.
func (c *agentConv) gitBranch(session string) string {
	if c.wt != nil && c.wt.Branch != "" {
		return c.wt.Branch
	}
	return session
}

// preloadSkills expands the skills the definition names into its first
// message.
func (c *agentConv) preloadSkills(ctx context.Context) []llm.ContentBlock {
	a := c.a
	var out []llm.ContentBlock
	for _, name := range c.spec.Definition.Skills {
		cmd, ok := a.commands.Lookup(strings.TrimPrefix(strings.TrimSpace(name), "/"))
		if !ok || cmd.Kind != command.Prompt {
			c.notes = append(c.notes, fmt.Sprintf("agent %s: skill %q is not a known skill (ignored)", c.spec.Definition.Name, name))
			continue
		}
		x, err := a.expander.Expand(ctx, cmd, "")
		if err != nil {
			c.notes = append(c.notes, fmt.Sprintf("agent %s: skill %s: %v", c.spec.Definition.Name, name, err))
			continue
		}
		out = append(out, llm.TextBlock(x.Header), llm.TextBlock(x.Prompt))
	}
	return out
}

// compactHookInput is the input of a PreCompact or PostCompact hook for a
// compaction of the sub-agent's own context: the session's, with the
// sub-agent named.
func (c *agentConv) compactHookInput(ev hooks.Event, trigger string) hooks.Input {
	a := c.a
	return hooks.Input{Event: ev, SessionID: a.currentID(), TranscriptPath: a.store.TranscriptPath(a.cwd, a.currentID()),
		Cwd: a.cwd, PermissionMode: string(a.checker.Mode()), AgentID: c.spec.AgentID, AgentType: c.spec.Definition.Name,
		Trigger: trigger}
}

// preCompact runs the PreCompact hooks before the sub-agent's context is
// compacted, as for the session's: they may block it or add to its
// instructions.
func (c *agentConv) preCompact(ctx context.Context, trigger, instructions string) (string, error) {
	if c.hooks == nil || !c.hooks.Has(hooks.PreCompact) {
		return instructions, nil
	}
	in := c.compactHookInput(hooks.PreCompact, trigger)
	in.CustomInstructions = instructions
	r := c.hooks.Run(ctx, in)
	c.a.reportHooks(r)
	if r.Block || r.Stop {
		return "", errors.New(firstNonEmpty(r.Reason, r.StopReason, "blocked"))
	}
	for _, x := range r.AdditionalContext {
		instructions = strings.TrimSpace(instructions + "\n\n" + x)
	}
	return instructions, nil
}

// postCompact runs the PostCompact hooks after the sub-agent's context
// was compacted.
func (c *agentConv) postCompact(ctx context.Context, trigger, summary string) {
	if c.hooks == nil || !c.hooks.Has(hooks.PostCompact) {
		return
	}
	in := c.compactHookInput(hooks.PostCompact, trigger)
	in.CompactSummary = summary
	c.a.reportHooks(c.hooks.Run(ctx, in))
}

// subagentStart fires the SubagentStart hooks and returns what they add
// for the sub-agent's model.
func (c *agentConv) subagentStart(ctx context.Context) []llm.ContentBlock {
	a := c.a
	if c.hooks == nil || !c.hooks.Has(hooks.SubagentStart) {
		return nil
	}
	r := c.hooks.Run(ctx, hooks.Input{Event: hooks.SubagentStart, SessionID: a.currentID(),
		TranscriptPath: a.store.TranscriptPath(a.cwd, a.currentID()), Cwd: a.cwd,
		PermissionMode: string(a.checker.Mode()), AgentID: c.spec.AgentID, AgentType: c.spec.Definition.Name})
	a.reportObserved(r)
	var out []llm.ContentBlock
	for _, s := range r.AdditionalContext {
		out = append(out, llm.TextBlock("<system-reminder>\nSubagentStart hook context: "+s+"\n</system-reminder>"))
	}
	return out
}

// Run sends the task and runs the sub-agent's turn, passing its events
// up (its own TurnEnd stays here: the parent's front end must not take it
// for the end of the parent's turn).
func (c *agentConv) Run(ctx context.Context, emit func(any)) (*agent.Result, error) {
	var res *agent.Result
	first := false
	c.ran.Do(func() { first = true })
	if !first {
		return nil, errors.New("a sub-agent conversation runs once")
	}
	res = &agent.Result{}
	var prog agent.Progress
	for ev := range c.sess.Run(ctx, engine.Input{Content: c.first}) {
		own := engine.From(ev).AgentID == c.spec.AgentID
		switch e := ev.(type) {
		case *engine.ToolResult:
			if own {
				res.ToolUses++
			}
		case *engine.AssistantMessage:
			if u := e.Message.Usage; own && u != nil {
				prog.Tokens = u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
			}
		case *engine.ToolStart:
			// A foreground sub-agent reports its progress too, for the
			// time after the user moved it to the background.
			if own {
				prog.ToolUses++
				prog.LastTool = e.Name
				if emit != nil {
					emit(prog)
				}
			}
		case *engine.TurnEnd:
			if own {
				res.Text, res.Reason, res.Err, res.Turns = e.Result, string(e.Reason), e.Err, e.NumTurns
				res.Usage, res.Cost = e.Usage, e.Cost
				res.LastUsage = c.sess.LastUsage()
				c.account(e.Total)
				continue
			}
		}
		if emit != nil && !c.spec.Background {
			emit(ev)
		}
	}
	c.a.subagentStats.Ended(subagentOutcome(ctx, res.Reason))
	if res.Reason == "" {
		c.finishWorktree()
		return nil, errors.New("the sub-agent's turn ended without a result")
	}
	if path, branch := c.finishWorktree(); path != "" {
		res.WorktreePath, res.WorktreeBranch = path, branch
	}
	return res, nil
}

// subagentOutcome is how a sub-agent's run that ended for reason counts
// in result lines' subagent_stats: the Agent tool's "completed" reasons,
// failures, and stops: by the user (an interrupt, a task stopped from
// the SDK or the terminal UI), by the agent that started it (TaskStop),
// or by reins (exiting).
func subagentOutcome(ctx context.Context, reason string) string {
	switch engine.Reason(reason) {
	case engine.ReasonCompleted, engine.ReasonMaxTurns, engine.ReasonStopHook:
		return streamjson.SubagentCompleted
	case engine.ReasonAborted, engine.ReasonAbortedTools:
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, tool.ErrInterrupted), errors.Is(cause, task.ErrStoppedByUser):
			return streamjson.SubagentKilledUser
		case errors.Is(cause, task.ErrStoppedByModel):
			return streamjson.SubagentKilledParent
		}
		return streamjson.SubagentKilledSystem
	}
	return streamjson.SubagentFailed
}

// account adds the sub-agent's usage to the session's totals, so the
// session's cost and per-model usage include its sub-agents (nested ones
// account to the session directly).
func (c *agentConv) account(t engine.Totals) {
	api := t.APITime
	for model, mt := range t.ByModel {
		c.a.current().AddUsage(model, mt.Usage, api)
		api = 0
	}
}

// Close stops and waits for the sub-agent's background tasks (killing
// their processes), closes the MCP servers it brought and its
// transcript, and removes its scratch folder.
func (c *agentConv) Close() error {
	var errs []error
	c.closed.Do(func() {
		if c.tasks != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			errs = append(errs, c.tasks.Close(ctx))
			cancel()
		}
		c.finishWorktree() // when Run did not
		if c.search != nil {
			c.search.Close()
		}
		if c.mcp != nil {
			errs = append(errs, c.mcp.Close())
		}
		if c.writer != nil {
			errs = append(errs, c.writer.Close())
		}
		if c.tmp != "" {
			errs = append(errs, os.RemoveAll(c.tmp))
		}
	})
	return errors.Join(errs...)
}
