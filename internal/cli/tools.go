package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"reins/internal/agent"
	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/prompt"
	"reins/internal/tool"
	"reins/internal/tools/askuser"
	"reins/internal/tools/bash"
	"reins/internal/tools/edit"
	"reins/internal/tools/glob"
	"reins/internal/tools/grep"
	"reins/internal/tools/notebook"
	"reins/internal/tools/plan"
	"reins/internal/tools/read"
	"reins/internal/tools/skill"
	"reins/internal/tools/taskoutput"
	"reins/internal/tools/todo"
	"reins/internal/tools/webfetch"
	"reins/internal/tools/websearch"
	"reins/internal/tools/write"
	"reins/internal/toolsearch"
)

// smallModel is the fast model for side calls (WebFetch summaries).
func (a *app) smallModel() string {
	return a.models.Resolve(firstNonEmpty(a.getenv("ANTHROPIC_SMALL_FAST_MODEL"), a.getenv("ANTHROPIC_DEFAULT_HAIKU_MODEL"), "haiku"))
}

// workDirs returns the session's working folders as the permission
// policy has them now (launch folder, --add-dir, additionalDirectories,
// folders added during the session); nil before the policy exists.
func (a *app) workDirs() []string {
	if a.checker == nil {
		return nil
	}
	return a.checker.Policy().WorkDirs
}

// builtinTools constructs the built-in tools for this session, restricted
// by --tools when given.
func (a *app) builtinTools() []tool.Tool {
	mode := modeHolder{c: a.checker}
	defTimeout, maxTimeout, warns := bash.EnvTimeouts(a.getenv)
	maxOutput, outWarns := bash.EnvMaxOutput(a.getenv)
	shellPath, shellWarns := bash.EnvShell(a.getenv)
	for _, w := range slices.Concat(warns, outWarns, shellWarns) {
		a.notify("warning", w)
	}
	sh := bash.New(bash.Config{Cwd: a.cwd, Env: a.withPluginBins(a.environ()), Tasks: a.tasks,
		StateDir: filepath.Join(a.store.SessionDir(a.cwd, a.sessionID), "shell"), WorkDirs: a.workDirs, OnCwd: a.cwdChanged,
		DefaultTimeout: defTimeout, MaxTimeout: maxTimeout, MaxResultChars: maxOutput,
		MaintainProjectDir: bash.EnvMaintainProjectDir(a.getenv), Shell: shellPath, NoBackground: bash.EnvNoBackground(a.getenv),
		ShellPrefix: a.getenv(bash.ShellPrefixEnv), EnvFile: a.getenv(bash.EnvFileEnv)})
	a.onClose(func() { sh.Close() }) // what commands left running in the background
	a.shellMu.Lock()
	a.shell = sh
	a.shellCwd = "" // a new shell starts in the session's folder
	sh.Setenv(a.shellEnv...)
	a.shellMu.Unlock()
	// The tool bounds each fetch itself (webfetch.Limits); PDFs and other
	// binary content are saved in the session folder, for Read.
	fetcher := webfetch.New(a.provider, a.smallModel(), &http.Client{}, time.Now).
		SavingTo(filepath.Join(a.store.SessionDir(a.cwd, a.sessionID), "webfetch")).
		Limited(webfetch.EnvLimits(a.getenv))
	all := []tool.Tool{
		sh,
		&memoryRead{Tool: read.New(a.files), memory: func() *prompt.Memory { return a.memory }, loaded: a.instructionsTouched},
		write.New(a.files),
		edit.New(a.files),
		edit.NewMulti(a.files),
		notebook.New(a.files),
		&glob.Tool{ShellDir: tool.ShellDir{Dir: sh.Cwd}, Options: glob.EnvOptions(a.getenv)}, // Glob and Grep search from where cd left the shell
		&grep.Tool{ShellDir: tool.ShellDir{Dir: sh.Cwd}},
		todo.New(a.todos),
		fetcher,
		websearch.New(a.provider, a.model, true),
		taskoutput.NewOutput(a.tasks),
		taskoutput.NewStop(a.tasks),
		skill.New(scopedSkills{a}, a.expander),
		a.agentTool(),
	}
	// Tools that need someone to answer them.
	answered := []tool.Tool{askuser.New(), plan.NewEnter(mode), plan.NewExit(mode)}
	if a.front != frontPrint {
		all = append(all, answered...)
	}
	a.knownTools = map[string]bool{mcp.ListResourcesName: true, mcp.ReadResourceName: true,
		toolsearch.SearchToolName: true, toolsearch.ExecuteToolName: true}
	for _, t := range append(all, answered...) {
		a.knownTools[t.Name()] = true
	}
	if a.hooks.ExtraTools != nil {
		for _, t := range a.hooks.ExtraTools() {
			a.knownTools[t.Name()] = true
		}
	}
	if a.opts.ToolsSet {
		known := map[string]bool{"default": true}
		for _, t := range append(all, answered...) {
			known[t.Name()] = true
		}
		keep := map[string]bool{}
		for _, n := range permission.SplitToolList(a.opts.Tools...) {
			if n == "Task" {
				n = "Agent" // the sub-agent tool's older name, as rules take it
			}
			if !known[n] {
				a.warn(fmt.Sprintf("--tools: there is no built-in tool named %q; ignored", n))
			}
			keep[n] = true
		}
		if !keep["default"] {
			var out []tool.Tool
			for _, t := range all {
				if keep[t.Name()] {
					out = append(out, t)
				}
			}
			all = out
		}
	} else if a.bare() {
		all = a.bareTools(all)
	}
	return tool.Assemble(all, nil)
}

// filterTools drops tools denied outright by rule (DESIGN invariant 7).
func (a *app) filterTools(ts []tool.Tool) []tool.Tool {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	keep := map[string]bool{}
	for _, n := range a.checker.FilterTools(names) {
		keep[n] = true
	}
	var out []tool.Tool
	for _, t := range ts {
		if keep[t.Name()] {
			out = append(out, t)
		}
	}
	return out
}

// pool is the full tool pool of a turn: built-ins, connected MCP servers'
// tools and the front end's own, deny rules applied.
func (a *app) pool() []tool.Tool {
	var extra []tool.Tool
	if a.mcpm() != nil {
		extra = append(extra, a.mcpm().Snapshot().Tools...)
	}
	if a.hooks.ExtraTools != nil {
		extra = append(extra, a.hooks.ExtraTools()...)
	}
	if len(extra) == 0 {
		return a.mainAgentTools(a.tools)
	}
	return a.mainAgentTools(a.filterTools(tool.Assemble(a.tools, extra)))
}

// toolSet is the engine's per-turn snapshot: the pool through deferred-tool
// search, with the session's reminders (deferred tools, skills, agents,
// finished background tasks).
func (a *app) toolSet(ctx context.Context) engine.ToolSet {
	pool := a.pool()
	ts := engine.ToolSet{Tools: pool}
	if a.deferralPossible(pool) {
		ts = a.search.ToolSet(pool)
	}
	inner := ts.Reminders
	ts.Reminders = func(ctx context.Context, history []*llm.Message) []string {
		var out []string
		if inner != nil {
			out = append(out, inner(ctx, history)...)
		}
		return append(out, a.reminders(history)...)
	}
	return ts
}

// deferralPossible reports whether this session can ever have deferred
// tools: MCP servers are configured, or the pool holds a deferrable tool.
// Without either, SearchExtraTools and ExecuteExtraTool are not sent. The
// answer cannot change within a session, so the tools array stays stable.
func (a *app) deferralPossible(pool []tool.Tool) bool {
	if a.mcpm() != nil || a.front == frontSDK {
		return true
	}
	for _, t := range pool {
		if toolsearch.IsDeferred(t) {
			return true
		}
	}
	return false
}

// sentToolNames are the names of the tools the model is sent or can reach:
// the pool, plus the deferred-tool search tools when they are sent.
func (a *app) sentToolNames() []string {
	pool := a.pool()
	names := make([]string, 0, len(pool)+2)
	for _, t := range pool {
		names = append(names, t.Name())
	}
	if a.deferralPossible(pool) && a.search.Enabled(pool) {
		names = append(names, toolsearch.SearchToolName, toolsearch.ExecuteToolName)
	}
	return names
}

// listedSkills are the skills the model is told of: those it may load,
// less those a deny rule such as Skill(deploy) refuses, which would only
// fail if it tried.
func (a *app) listedSkills() []*command.Command {
	all := a.modelSkills()
	out := all[:0:0]
	for _, c := range all {
		input, err := json.Marshal(map[string]string{"skill": c.Name})
		if err == nil && a.checker.Check(skill.Name, input, true).Behavior == permission.Deny {
			continue
		}
		out = append(out, c)
	}
	return out
}

// skillListingBudget is the skill listing's size in characters: 1% of the
// context window, or SLASH_COMMAND_TOOL_CHAR_BUDGET when that is set.
func (a *app) skillListingBudget(window int) int {
	if n := atoi(a.getenv("SLASH_COMMAND_TOOL_CHAR_BUDGET")); n > 0 {
		return n
	}
	return command.ListingBudget(window)
}

// reminders are the listings the model needs, each sent again only when
// it changed.
func (a *app) reminders(history []*llm.Message) []string {
	var out []string
	window := a.models.Info(a.sess.Model()).ContextWindow
	// The listing tells the model to load skills with the Skill tool: only
	// when it has that tool (not in bare mode, nor under --tools without it).
	if a.hasTool(skill.Name) {
		if r := command.SkillReminder(history, a.listedSkills(), a.skillListingBudget(window)); r != "" {
			out = append(out, r)
		}
	}
	if cat := a.agentCatalog(); cat != nil && a.hasTool("Agent") {
		if r := cat.Reminder(history, a.agentTypeVisible); r != "" {
			out = append(out, r)
		}
	}
	if a.hasTool(todo.Name) {
		if r := todo.Reminder(history, a.todos.Items("")); r != "" {
			out = append(out, r)
		}
	}
	if r := plan.ReminderWith(history, string(a.checker.Mode()), a.hasTool(plan.ExitName), a.planInstructions()); r != "" {
		out = append(out, r)
	}
	out = append(out, a.mcpInstructionReminders(history)...)
	out = append(out, a.notes.take()...)
	return append(out, a.taskReminders()...)
}

// mcpInstructionReminders gives the model the instructions of MCP servers
// that connected (or changed them) after the system prompt was built: a
// server still starting when the terminal UI opened, one enabled with
// /mcp enable or added by the SDK. The system prompt stays as it was, so
// its cached prefix holds; each text is given once (the history says
// whether it was).
func (a *app) mcpInstructionReminders(history []*llm.Message) []string {
	if a.mcpm() == nil {
		return nil
	}
	ins := a.mcpm().Snapshot().Instructions
	a.mcpInstrMu.Lock()
	sent := a.mcpInstrSent
	a.mcpInstrMu.Unlock()
	var out []string
	for _, name := range slices.Sorted(maps.Keys(ins)) {
		text := ins[name]
		if strings.TrimSpace(text) == "" || sent[name] == text {
			continue
		}
		note := "<system-reminder>\nThe MCP server " + name + " is now connected. Instructions from the MCP server " + name + ":\n" + text + "\n</system-reminder>"
		if !historyHasText(history, note) {
			out = append(out, note)
		}
	}
	return out
}

// historyHasText reports whether a user message in history has a text
// block that is text.
func historyHasText(history []*llm.Message, text string) bool {
	for _, m := range history {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText && b.Text == text {
				return true
			}
		}
	}
	return false
}

// noteQueue holds notes for the model until the next request takes them.
// Its methods may be called from any goroutine.
type noteQueue struct {
	mu    sync.Mutex
	notes []string
}

func (q *noteQueue) add(text string) {
	q.mu.Lock()
	q.notes = append(q.notes, text)
	q.mu.Unlock()
}

func (q *noteQueue) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.notes
	q.notes = nil
	return out
}

// addedDirNote tells the model that dir became a working folder in the
// middle of the session (the system prompt, which names the others, stays
// as it was so that its cached prefix holds).
func addedDirNote(dir string) string {
	return "<system-reminder>\nThe user added " + dir + " as a working folder for this session: you may read and change files there as in the main folder.\n</system-reminder>"
}

// toolSearchOptions reads the deferred-tool mode and weights.
func (a *app) toolSearchOptions() toolsearch.Options {
	o := toolsearch.Options{ContextWindow: a.models.Info(a.model).ContextWindow,
		Unavailable: func(name string) string {
			if a.mcpm() == nil {
				return ""
			}
			return a.mcpm().Unavailable(name)
		}}
	if m, err := toolsearch.ModeFromEnv(a.getenv); err == nil {
		o.Mode = m
	} else {
		a.warn(err.Error())
	}
	if w, err := toolsearch.WeightsFromEnv(a.getenv); err == nil {
		o.Weights = w
	} else {
		a.warn(err.Error())
	}
	return o
}

// startMCP loads the MCP configuration and connects the servers in the
// background. A --mcp-config value that cannot be used is an error.
func (a *app) startMCP(ctx context.Context) error {
	cfg, err := mcp.Load(a.mcpLoadOptions())
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		a.warn(w)
	}
	if len(cfg.Servers) == 0 {
		return nil
	}
	for _, w := range mcp.EnvWarnings(a.getenv) {
		a.warn(w)
	}
	for _, s := range cfg.Servers {
		if s.Disabled != "" || s.Invalid != "" {
			continue
		}
		// Such a server is not started (the manager says so in its
		// status): name the variables now, where print mode shows it.
		if _, missing := s.Config.Expand(a.getenv); len(missing) > 0 {
			a.warn(fmt.Sprintf("MCP server %q (%s) is not started: %s", s.Name, s.Source, mcp.UnsetVarsMessage(missing)))
		}
	}
	if a.front == frontTUI && a.hooks.ApproveMCP != nil {
		a.askMCPApprovals(ctx, cfg)
	}
	a.newMCPManager(cfg.Servers)
	if a.front == frontTUI {
		if names := cfg.NeedsApproval(); len(names) > 0 {
			a.notify("info", fmt.Sprintf("MCP servers from .mcp.json wait for your approval: %s. Approve one with /mcp enable NAME.", strings.Join(names, ", ")))
		}
	}
	return nil
}

// mcpLoadOptions say where the session's MCP servers are configured.
func (a *app) mcpLoadOptions() mcp.LoadOptions {
	return mcp.LoadOptions{Cwd: a.cwd, ProjectDir: a.projDir, Home: a.home, ClaudeJSON: a.trust.ClaudeJSON, ConfigDir: a.configDir,
		MCPConfig: a.opts.MCPConfigs, Strict: a.opts.StrictMCP, ExplicitOnly: a.bare(), Plugins: a.pluginServers(), Approval: mcpApproval(a.settings.Raw), Managed: mcp.DefaultManagedFiles()}
}

// newMCPManager makes the session's MCP manager for servers and starts
// connecting them; the terminal UI watches it for failures.
func (a *app) newMCPManager(servers []mcp.Server) {
	opts := a.mcpOptions()
	opts.Servers, opts.SDK = servers, a.hooks.SDKHost
	m := mcp.NewManager(opts)
	m.Start()
	a.mcpSlot.Store(m)
	a.onClose(func() { m.Close() })
	if a.front == frontTUI {
		a.onClose(a.watchMCP()) // stops before the servers close
	}
}

// mcpOptions are the options of the session's MCP managers, without
// their servers and SDK host.
func (a *app) mcpOptions() mcp.Options {
	return mcp.Options{Getenv: a.getenv, Environ: a.environ, Cwd: a.cwd, ClientName: "reins", ClientVersion: Version,
		Logger: a.logger, Credentials: mcp.Credentials(a.configDir), OpenBrowser: a.browserOpener(), Notify: a.notify, Elicit: a.elicit}
}

// mcpApproval reads what merged settings say about .mcp.json servers.
func mcpApproval(raw map[string]json.RawMessage) mcp.Approval {
	var appr mcp.Approval
	json.Unmarshal(raw["enableAllProjectMcpServers"], &appr.EnableAll)
	json.Unmarshal(raw["enabledMcpjsonServers"], &appr.Enabled)
	json.Unmarshal(raw["disabledMcpjsonServers"], &appr.Disabled)
	return appr
}

// waitMCP waits, bounded, for configured servers to connect (print and
// SDK modes, before the first request). MCP_CONNECTION_NONBLOCKING=true
// skips the wait in print mode, as in Claude Code: the servers connect
// in the background and their tools come at the next turn.
func (a *app) waitMCP(ctx context.Context) {
	if a.mcpm() == nil {
		return
	}
	if a.front == frontPrint && envTrue(a.getenv("MCP_CONNECTION_NONBLOCKING")) {
		return
	}
	// Every wait ends at the same deadline, set by the first: the system
	// prompt (server instructions) and the front end both wait.
	a.mcpWait.Do(func() {
		d := 5 * time.Second
		if ms := atoi(a.getenv("MCP_STARTUP_WAIT_MS")); ms > 0 {
			d = time.Duration(ms) * time.Millisecond
		}
		a.mcpDeadline = time.Now().Add(d)
	})
	wctx, cancel := context.WithDeadline(ctx, a.mcpDeadline)
	defer cancel()
	a.mcpm().Wait(wctx)
	if a.front != frontTUI {
		a.reportMCPFailures()
		a.reportMCPPending()
	}
}

// loadCommands builds the slash-command registry, the expander and the
// agent catalog.
func (a *app) loadCommands() {
	a.commands = command.NewRegistry()
	if a.front == frontPrint || a.front == frontSDK {
		a.commands.Add(a.headlessBuiltins()...)
	}
	a.commands.Add(reviewBuiltins()...)
	cmds, defs := a.diskCommands()
	if a.bare() {
		defs = nil // bare mode takes sub-agents from --agents only
	}
	a.commands.Add(cmds...)
	a.expander = &command.Expander{Dir: a.cwd, Home: a.home, Runner: command.ShellRunner{}, SessionID: a.currentID,
		AllowBash: a.allowCommandShell, DenyRead: a.denyCommandRead, Resource: a.commandResource,
		OnExpand: a.registerSkillHooks}
	a.agents = agent.NewCatalog(agent.Builtin()...).With(defs...).With(a.flagAgents...)
}

// diskCommands reads the custom commands, skills and agents of the
// standard folders. Files that cannot be used, or only in part, are
// reported as start-up warnings (on stderr outside the terminal UI, where
// a command, skill or agent that is silently missing is otherwise a
// mystery); a Markdown file without any frontmatter in an agents folder
// (a README) is only noted for /doctor.
func (a *app) diskCommands() ([]*command.Command, []*agent.Definition) {
	cmds, errs := command.Load(command.StandardRoots(a.home, a.configDir, a.projDir))
	for _, err := range errs {
		a.warn(err.Error())
	}
	defs, errs := agent.Load(agent.StandardRoots(a.home, a.configDir, a.projDir))
	for _, err := range errs {
		if errors.Is(err, agent.ErrNoFrontmatter) {
			a.note(err.Error())
			continue
		}
		a.warn(err.Error())
	}
	return cmds, defs
}

// reportUnknownAgentTools warns about names in the tools of agent files
// and --agents that are no tool reins has (a typo, or another program's
// tool): such an entry grants nothing, and the agent would go without the
// tool unnoticed. Call it after builtinTools.
func (a *app) reportUnknownAgentTools() {
	cat := a.agentCatalog()
	if cat == nil {
		return
	}
	for _, d := range cat.All() {
		if d.Source != agent.SourceBuiltin {
			a.reportUnknownTools(d)
		}
	}
}

// reportUnknownTools warns about the names in one agent's tools that are
// no tool reins has.
func (a *app) reportUnknownTools(d *agent.Definition) {
	if a.knownTools == nil {
		return
	}
	where := "agent " + d.Path
	switch {
	case d.Source == agent.SourceSDK:
		where = fmt.Sprintf("initialize: agent %q", d.Name)
	case d.Path == "":
		where = fmt.Sprintf("--agents: agent %q", d.Name)
	}
	known := func(n string) bool { return a.knownTools[n] || claudeCodeOnlyTool(n) }
	for _, n := range d.UnknownTools(known) {
		a.warn(fmt.Sprintf("%s: tools: there is no tool named %q; the entry is ignored", where, n))
	}
}

// claudeCodeOnlyTool reports whether name is a tool of Claude Code,
// current or retired, that reins lacks. Agent files written for Claude
// Code name them often (LS, MultiEdit in the tools of countless agents);
// they are no typo, so they are left out of an agent's tools without a
// warning at every start. (A switch, not a map: nothing to build at start.)
func claudeCodeOnlyTool(name string) bool {
	switch name {
	case "LS", "MultiEdit", "NotebookRead", "TodoRead",
		"BashOutput", "KillBash", "KillShell", "SlashCommand",
		"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskStop",
		"CronCreate", "CronDelete", "CronList", "ScheduleWakeup",
		"EnterWorktree", "ExitWorktree", "ListAgents", "Monitor",
		"ReportFindings", "SendMessage", "Workflow", "LSP":
		return true
	}
	return false
}

// allowCommandShell decides whether a !`cmd` line of a custom command or
// skill runs, as Claude Code decides it: the session's permission rules
// and mode, with the command's allowed-tools added, must allow the Bash
// call outright. A deny rule wins over allowed-tools; a call that would
// ask does not run.
func (a *app) allowCommandShell(allowedTools []string, cmd string) bool {
	if a.checker == nil {
		return command.AllowedBash(allowedTools, cmd)
	}
	chk := a.checker.Clone()
	if len(allowedTools) > 0 {
		chk.Grant(allowedTools) // rules that do not parse are left out
	}
	input, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		return false
	}
	return chk.Check("Bash", input, false).Behavior == permission.Allow
}

// denyCommandRead reports an @file of a custom command or skill that the
// session's permission rules forbid reading (Read(./.env) in deny, say).
func (a *app) denyCommandRead(path string) bool {
	if a.checker == nil {
		return false
	}
	input, err := json.Marshal(map[string]string{"file_path": path})
	if err != nil {
		return true
	}
	return a.checker.Check("Read", input, true).Behavior == permission.Deny
}

// memoryRead is the Read tool that also brings in memory files of the
// folders the model reaches (nested CLAUDE.md, rules with paths). Each
// conversation (the main one, each sub-agent) has its own memory, so each
// is told of a folder's files the first time it reads there.
type memoryRead struct {
	tool.Tool
	memory func() *prompt.Memory // nil result: no memory files
	// loaded, when set, hears the memory files a read loaded (for
	// InstructionsLoaded hooks).
	loaded func(ctx context.Context, trigger string, files []prompt.File)
}

// Call reads, then adds newly relevant memory for the file read.
func (m *memoryRead) Call(ctx context.Context, c *tool.Call, input json.RawMessage, progress func(tool.Progress)) (*tool.Result, error) {
	res, err := m.Tool.Call(ctx, c, input, progress)
	mem := m.memory()
	if err != nil || res == nil || res.IsError || mem == nil {
		return res, err
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(input, &in) == nil && in.FilePath != "" {
		if text, files := mem.TouchFiles(in.FilePath); text != "" {
			res.Messages = append(res.Messages, llm.TextBlock(text))
			if m.loaded != nil {
				m.loaded(ctx, in.FilePath, files)
			}
		}
	}
	return res, nil
}

// hasTool reports whether a built-in of that name is offered.
func (a *app) hasTool(name string) bool {
	for _, t := range a.mainAgentTools(a.tools) {
		if t.Name() == name {
			return true
		}
	}
	return false
}

// parseFlagAgents reads --agents. Agents asked for on the command line
// that cannot be defined are an error.
func (a *app) parseFlagAgents() error {
	if strings.TrimSpace(a.opts.Agents) == "" {
		return nil
	}
	defs, err := agent.ParseJSON([]byte(a.opts.Agents), agent.SourceFlag)
	if err != nil {
		return fmt.Errorf("--agents: %w", err)
	}
	a.flagAgents = defs
	return nil
}

// browserOpener opens authorization addresses in the user's browser in
// the terminal UI; print and SDK runs (often on another machine than the
// user) only report them.
func (a *app) browserOpener() func(string) error {
	if a.front != frontTUI {
		return nil
	}
	return mcp.BrowserOpener(a.getenv)
}

// planInstructions is the host's planning workflow for the plan-mode
// note (initialize's planModeInstructions), "" when none was given.
func (a *app) planInstructions() string {
	if p := a.planWorkflow.Load(); p != nil {
		return *p
	}
	return ""
}
