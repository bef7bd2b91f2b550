package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"reins/internal/agent"
	"reins/internal/automode"
	"reins/internal/command"
	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/filestate"
	"reins/internal/gitinfo"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/plugin"
	"reins/internal/prompt"
	"reins/internal/sdk"
	"reins/internal/session"
	"reins/internal/settings"
	"reins/internal/streamjson"
	"reins/internal/task"
	"reins/internal/tool"
	"reins/internal/tools/bash"
	"reins/internal/tools/todo"
	"reins/internal/toolsearch"
	"reins/internal/trust"
	"reins/internal/tui"
)

// frontEnd says which front end drives the session.
type frontEnd int

const (
	frontPrint frontEnd = iota
	frontSDK
	frontTUI
	frontServe  // reins mcp serve: tools only, the model optional
	frontDoctor // reins doctor: the session set up and checked, never run
)

// appHooks are what a front end plugs into the session it asks for.
type appHooks struct {
	// Asker answers permission questions (nil: nobody can be asked, so a
	// call that needs approval is denied). It can also be set later with
	// app.setAsker.
	Asker engine.Asker
	// SDKHost answers MCP servers of type "sdk".
	SDKHost mcp.SDKHost
	// Elicit, when set, puts MCP servers' requests for input to the
	// front end's client (the SDK's elicitation request).
	Elicit mcp.Elicitor
	// HookNotify hears hook starts and ends (--include-hook-events).
	HookNotify func(hooks.Progress)
	// Notify hears messages for the user (hook systemMessages, warnings).
	Notify func(level, text string)
	// Announce, when set, hears announcements that the front end must
	// pass on even without Notify, between turns too (the SDK writes them
	// as system informational lines): which allow rules a switch into
	// auto mode sets aside.
	Announce func(level, text string)
	// ModeChanged, when set, hears each change of the permission mode
	// (the SDK tells the client of those it did not ask for, such as the
	// return from plan mode when a plan is approved).
	ModeChanged func(from, to permission.Mode)
	// ExtraTools adds tools of the front end (SDK StructuredOutput).
	ExtraTools func() []tool.Tool
	// ApproveMCP, when set, asks the user about the project's .mcp.json
	// servers that wait for approval, before they would start (the TUI's
	// start-up question).
	ApproveMCP func(ctx context.Context, servers []tui.MCPServerInfo) (map[string]tui.MCPChoice, error)
	// Mirror, when set, hears each line written to the session's
	// transcript, with the path Claude Code would have written it to
	// (--session-mirror).
	Mirror func(path string, line []byte)
	// Trusted overrides the trust check (the TUI asks before it builds
	// the app); nil means print and SDK modes trust the folder and the
	// TUI consults the trust records.
	Trusted *bool
}

// app is one wired session: everything a front end needs.
type app struct {
	env   *Env
	opts  *Options
	front frontEnd
	hooks appHooks
	// notes are one-shot notes for the model, given with the next
	// request (a folder /add-dir added, for example).
	notes noteQueue

	cwd string
	// projDir is where the project's configuration comes from: cwd, or
	// --project-config-root.
	projDir   string
	home      string
	configDir string
	claudeDir string
	store     session.Store
	trusted   bool
	trust     *trust.Store

	settings *settings.Settings
	warnMu   sync.Mutex // guards warnings and their lines on stderr: the start-up loaders warn concurrently
	warnings []string
	promptID atomic.Value      // string: the user prompt being worked on (hook inputs' prompt_id)
	envMu    sync.RWMutex      // guards setEnv: an SDK client may change the settings
	setEnv   map[string]string // settings env, applied over the process's
	// clientEnv are the variables an SDK client set
	// (update_environment_variables), applied over the settings env.
	clientEnv map[string]string

	shellMu  sync.Mutex // guards shell, shellEnv and shellCwd
	shell    *bash.Tool // the main thread's Bash tool
	shellEnv []string   // NAME=value exported by SessionStart hooks through CLAUDE_ENV_FILE, for Bash commands only
	shellCwd string     // the main Bash tool's folder as CwdChanged hooks last heard it ("": the session's)

	models    *llm.Models
	model     string
	provider  llm.Provider
	keySource string

	sessionID string
	writer    *session.Writer
	results   *tool.ResultStore

	files   *filestate.State
	tasks   *task.Registry
	todos   *todo.Store
	checker *permission.Checker
	hookRun *hooks.Runner
	// hookStatus holds the statusMessage of the hooks running now.
	hookStatus hookStatus
	gate       *engine.PermissionGate
	asker      askerSlot
	builtins   []tool.Tool
	tools      []tool.Tool // built-ins after deny filtering (what init lists)
	// mcpSlot holds the session's MCP manager (see mcpm): set at start,
	// or by /reload-plugins when the first plugin server appears, while
	// background work (the @-resource completion) may be reading it.
	mcpSlot atomic.Pointer[mcp.Manager]

	// classifier reviews calls in auto mode for every gate of the
	// session; autoGuard pauses auto mode after repeated blocks.
	classifier *automode.Classifier
	autoGuard  *automode.Guard

	// mcpReported remembers the MCP failures already reported.
	mcpReported mcpReports
	// mcpWait sets mcpDeadline, when waits for MCP servers give up.
	mcpWait     sync.Once
	mcpDeadline time.Time
	search      *toolsearch.Session

	// skills is the Agent SDK's skills option: which skills the model
	// sees and may load.
	skills skillScope
	// planWorkflow is the Agent SDK's planModeInstructions: the host's
	// planning workflow, in the plan-mode note ("" for none).
	planWorkflow atomic.Pointer[string]

	commands  *command.Registry
	expander  *command.Expander
	agents    *agent.Catalog
	memory    *prompt.Memory
	memoryNow atomic.Pointer[string] // the memory context read again after the UI wrote a memory file (nil until then)
	// excludeDynamic is the Agent SDK's excludeDynamicSections: the
	// per-user environment goes with the conversation, not in the
	// system prompt (see dynamicContext).
	excludeDynamic atomic.Bool
	// memoryShown is the memory the context holds now (read at start, or
	// again since), for /context.
	memoryShown atomic.Pointer[prompt.Memory]
	// lastPlan is the plan approved last in the main conversation, kept
	// for compactions after the approval was summarised (nil: none).
	lastPlan  atomic.Pointer[string]
	git       *gitinfo.Pending
	permMode  string
	compactor *compact.Compactor
	cmdEvents eventLog // what local commands emitted, for prepare
	date      string   // the session date, fixed at start

	// promptFiles are the system prompt files the flags name, read at start.
	promptFiles promptFiles
	// plugins are the session's plugins and pluginErrors what could not
	// be loaded; both guarded by mu (reload_plugins replaces them).
	plugins      []*plugin.Plugin
	pluginErrors []plugin.Error
	// partErrors are the plugins' command, skill and agent files that
	// could not be used, from the last reading of them; guarded by mu.
	partErrors []plugin.Error

	// flagAgents are the agents --agents defines.
	flagAgents []*agent.Definition
	// knownTools are the names of every built-in tool, offered or not
	// (set by builtinTools).
	knownTools map[string]bool
	// mainAgent is the agent the main conversation runs as (--agent);
	// nil for reins itself. Guarded by mu.
	mainAgent *agent.Definition
	// pendingAgent is an --agent of an SDK session not defined at start:
	// the initialize request's agents may define it.
	pendingAgent string
	// fileWatch watches the files of FileChanged hooks (nil: none).
	fileWatch atomic.Pointer[fileWatch]
	// initialMessage is the initialUserMessage a SessionStart hook gave
	// at start: the first turn of a print-mode run.
	initialMessage string

	// effort is the session's starting effort level and its source;
	// thinkDisplay is --thinking-display. Set at start, read-only after.
	effort       effortChoice
	thinkDisplay string

	// resumed is the transcript a --resume/--continue run started from.
	resumed *session.Transcript
	// resumeSearch is what reins --resume named when it named no session
	// (the terminal UI's list opens filtered by it).
	resumeSearch string

	sess   *engine.Session
	logger *slog.Logger
	// checkpoints keeps files' content before edits, per user message, in
	// SDK sessions with file checkpointing on (rewind_files).
	checkpoints *tui.Checkpoints

	styleMu  sync.Mutex // guards outStyle
	outStyle styleState

	// mcpInstrSent are the MCP server instructions the current system
	// prompt holds, by server; a server that connects later has its
	// instructions given in a reminder instead (mcpInstructionReminders).
	mcpInstrMu   sync.Mutex
	mcpInstrSent map[string]string

	// subagentStats counts the sub-agents run between result lines.
	subagentStats streamjson.SubagentCounter

	mu     sync.Mutex // guards closer, sessionID once built, sess once the SDK can replace it, and agents once the session runs (agentCatalog, addAgents)
	closer []func()
}

// askerSlot is an engine.Asker that forwards to whatever asker is set,
// so a front end can attach one after the gate was built. With none set,
// every question is denied.
type askerSlot struct {
	mu sync.Mutex
	a  engine.Asker
}

func (s *askerSlot) set(a engine.Asker) {
	s.mu.Lock()
	s.a = a
	s.mu.Unlock()
}

func (s *askerSlot) get() engine.Asker {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.a
}

// Ask forwards the question or denies it.
func (s *askerSlot) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	if a := s.get(); a != nil {
		return a.Ask(ctx, q)
	}
	return engine.Answer{}, engine.ErrNobodyToAsk
}

// current returns the conversation's session; the SDK's /clear replaces
// it while background agents may still be accounting to it.
func (a *app) current() *engine.Session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess
}

// currentID is the id of the session the app runs now (/clear and /resume
// in the terminal UI switch it between turns).
func (a *app) currentID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessionID
}

// switchSession makes id the current session: hook input, tool-result
// files and sub-agent transcripts follow it, and auto mode counts blocks
// afresh. Call it between turns.
func (a *app) switchSession(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id == a.sessionID {
		return
	}
	a.sessionID = id
	a.results.Dir = a.resultsDir(id)
	if a.autoGuard != nil {
		a.autoGuard.Reset() // auto mode's block counts are per session
	}
}

// resultsDir is where oversized tool results of session id are written:
// beside its transcript, or, with --no-session-persistence, in a
// temporary folder removed when reins exits.
func (a *app) resultsDir(id string) string {
	if !a.opts.NoPersist {
		return a.store.ToolResultsDir(a.cwd, id)
	}
	dir := filepath.Join(os.TempDir(), "reins-"+id)
	a.closer = append(a.closer, func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "tool-results")
}

// lookupTool finds a tool of the current pool by name.
func (a *app) lookupTool(name string) (tool.Tool, bool) {
	for _, t := range a.pool() {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// setAsker attaches the front end's asker.
func (a *app) setAsker(x engine.Asker) { a.asker.set(x) }

// getenv reads the environment: what an SDK client set over the settings
// env over the process's.
func (a *app) getenv(k string) string {
	a.envMu.RLock()
	v, ok := a.clientEnv[k]
	if !ok {
		v, ok = a.setEnv[k]
	}
	a.envMu.RUnlock()
	if ok {
		return v
	}
	return a.env.Getenv(k)
}

// environ is the environment for child processes (tools, hooks, MCP
// servers): the process's with the settings env and then what an SDK
// client set applied.
func (a *app) environ() []string {
	env := os.Environ()
	if a.opts.Bare {
		env = append(env, simpleEnv+"=1")
	}
	a.envMu.RLock()
	defer a.envMu.RUnlock()
	for k, v := range a.setEnv {
		env = append(env, k+"="+v)
	}
	for k, v := range a.clientEnv {
		env = append(env, k+"="+v)
	}
	return env
}

// clientEnviron is what an SDK client set, as NAME=value pairs.
func (a *app) clientEnviron() []string {
	a.envMu.RLock()
	defer a.envMu.RUnlock()
	env := make([]string, 0, len(a.clientEnv))
	for k, v := range a.clientEnv {
		env = append(env, k+"="+v)
	}
	return env
}

// updateClientEnv sets variables for the rest of the session
// (update_environment_variables): Bash commands (the running shell's next
// command, and sub-agents' shells), hooks and MCP servers started from now
// on get them; they win over the settings env. reins's own process
// environment is left alone.
func (a *app) updateClientEnv(vars map[string]string) {
	if len(vars) == 0 {
		return
	}
	a.envMu.Lock()
	if a.clientEnv == nil {
		a.clientEnv = map[string]string{}
	}
	set := make([]string, 0, len(vars))
	for k, v := range vars {
		a.clientEnv[k] = v
		set = append(set, k+"="+v)
	}
	a.envMu.Unlock()
	a.shellMu.Lock()
	defer a.shellMu.Unlock()
	if a.shell != nil {
		a.shell.Setenv(set...)
	}
}

// onClose registers a release function, run in reverse order by close.
func (a *app) onClose(f func()) {
	a.mu.Lock()
	a.closer = append(a.closer, f)
	a.mu.Unlock()
}

// close releases everything the app opened, last opened first.
func (a *app) close() {
	a.mu.Lock()
	fs := a.closer
	a.closer = nil
	a.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// errNoKey is returned when no credentials are configured.
// mcpm is the session's MCP manager, nil when it has none (yet). Once set
// it is never replaced.
func (a *app) mcpm() *mcp.Manager { return a.mcpSlot.Load() }

// defaultKeyHelperTTL is how long a key apiKeyHelper printed is used
// before the helper is asked again.
const defaultKeyHelperTTL = 5 * time.Minute

var errNoKey = errors.New("no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token, or apiKeyHelper in settings)")

// newApp wires a print-mode session.
func newApp(ctx context.Context, env *Env, o *Options) (*app, error) {
	return newAppFor(ctx, env, o, frontPrint, appHooks{})
}

// newAppFor wires a session for a front end. Start-up work that does not
// decide anything (the git snapshot, memory files, commands and agents,
// MCP connections) runs concurrently; the session is ready when it
// returns.
func newAppFor(ctx context.Context, env *Env, o *Options, fe frontEnd, h appHooks) (_ *app, err error) {
	a := &app{env: env, opts: o, front: fe, hooks: h}
	t0 := time.Now()
	var wg sync.WaitGroup
	defer func() {
		if err != nil {
			wg.Wait()
			a.close()
		}
	}()
	switch {
	case h.Asker != nil && fe == frontTUI:
		a.asker.set(notifyingAsker{Asker: h.Asker, a: a})
	case h.Asker != nil:
		a.asker.set(h.Asker)
	case o.PermissionPrompts == "none" && fe != frontTUI:
		// --permission-prompts none: nobody answers, asks are denied.
	case o.PromptTool != "" && o.PromptTool != "stdio" && fe == frontPrint:
		// --permission-prompt-tool <mcp tool>: that tool answers.
		a.asker.set(&sdk.ToolAsker{Name: o.PromptTool, Lookup: a.lookupTool})
	}
	if err := a.paths(); err != nil {
		return nil, err
	}
	if err := a.readPromptFiles(); err != nil {
		return nil, err
	}
	if err := a.parseFlagAgents(); err != nil {
		return nil, err
	}
	a.checkAddDirs()
	// Facts that take time start first, in the order they are needed,
	// and are collected later: commands and memory before the tools are
	// built, the git snapshot for the system prompt. Memory waits for the
	// settings, whose env may say which memory files load.
	wg.Go(a.loadCommands)
	a.git = gitinfo.Start(ctx, a.cwd, gitinfo.Options{})
	if err := a.loadSettings(ctx); err != nil {
		return nil, err
	}
	wg.Go(a.loadMemory)
	a.loadPlugins()
	a.resolveOutputStyle()

	a.models = llm.NewModels(a.getenv)
	for id, ov := range a.settings.Models {
		a.models.Set(llm.ModelInfo{ID: id, ContextWindow: ov.ContextWindow, MaxOutput: ov.MaxOutputTokens,
			InputPrice: ov.InputPrice, OutputPrice: ov.OutputPrice, Family: ov.Family,
			Efforts: a.effortLevels(id, ov.SupportedEffortLevels), DefaultEffort: ov.DefaultEffort})
	}
	a.model = a.models.Resolve(firstNonEmpty(o.Model, a.getenv("ANTHROPIC_MODEL"), a.settings.Model, llm.DefaultModel))

	if err := a.sessionIdentity(); err != nil {
		return nil, err
	}
	a.logger = a.newLogger()
	if err := a.newProvider(ctx); err != nil {
		return nil, err
	}
	a.results = &tool.ResultStore{Dir: a.resultsDir(a.sessionID)}
	a.files = filestate.New()
	a.tasks = &task.Registry{Dir: filepath.Join(a.store.SessionDir(a.cwd, a.sessionID), "tasks")}
	a.onClose(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.tasks.Close(cctx)
	})
	a.todos = todo.NewStore()
	if err := a.permissions(); err != nil {
		return nil, err
	}
	// Serving tools over MCP offers the built-in tools only (as Claude
	// Code's mcp serve does): the user's own servers are not started.
	if fe != frontServe {
		if err := a.startMCP(ctx); err != nil {
			return nil, err
		}
	}
	wg.Wait()
	a.addPluginParts()
	if o.Agent != "" {
		if err := a.selectMainAgent(o.Agent); err != nil {
			if fe != frontSDK {
				return nil, usageError{err.Error()}
			}
			a.pendingAgent = o.Agent
		}
	} else if fe != frontServe {
		a.selectDefaultAgent()
	}
	if a.effort, err = a.resolveEffort(); err != nil {
		return nil, err
	}
	if a.thinkDisplay, err = thinkingDisplay(o.ThinkingDisp); err != nil {
		return nil, err
	}
	a.builtins = a.builtinTools()
	a.reportUnknownAgentTools()
	a.tools = a.filterTools(a.builtins)
	a.search = toolsearch.NewSession(a.toolSearchOptions())
	a.onClose(a.search.Close)

	a.compactor = a.newCompactor()
	if fe == frontSDK && envTrue(a.getenv("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING")) {
		a.checkpoints = &tui.Checkpoints{}
	}
	cfg := a.engineConfig(ctx)
	if !o.NoPersist {
		a.writer = a.newWriter(a.sessionID)
		a.writer.Prepare()
		a.onClose(func() { a.writer.Close() })
		cfg.Recorder = a.writer
	}
	a.sess = engine.New(cfg)
	if err := a.resume(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(o.Name) != "" {
		if _, err := renameSession(a.sess, o.Name); err != nil {
			a.warn("--name: " + err.Error())
		}
	}
	a.cleanupOldSessions()
	a.logger.Debug("session ready", "elapsed", time.Since(t0), "tools", len(a.tools), "memory files", len(a.memory.Files()))
	return a, nil
}

// checkAddDirs drops each --add-dir that is not a folder, with a warning
// naming it: a misspelt path would otherwise give the tools nothing and
// say nothing.
func (a *app) checkAddDirs() {
	var keep []string
	for _, d := range a.opts.AddDirs {
		fi, err := os.Stat(d)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			a.warn(fmt.Sprintf("--add-dir %s: no such folder; ignored", d))
		case err != nil:
			a.warn(fmt.Sprintf("--add-dir %s: %v; ignored", d, err))
		case !fi.IsDir():
			a.warn(fmt.Sprintf("--add-dir %s: not a folder; ignored", d))
		default:
			keep = append(keep, d)
		}
	}
	a.opts.AddDirs = keep
}

// promptDirs are the additional working folders the system prompt names:
// the --add-dir folders, then those of permissions.additionalDirectories
// that are folders (the tools may use them as well, and the model is not
// to guess).
func (a *app) promptDirs() []string {
	dirs := slices.Clone(a.opts.AddDirs)
	seen := map[string]bool{}
	for _, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			seen[abs] = true
		}
	}
	if a.settings == nil {
		return dirs
	}
	for _, d := range a.settings.AdditionalDirectories {
		if seen[d.Path] || d.Path == a.cwd {
			continue
		}
		if fi, err := os.Stat(d.Path); err == nil && fi.IsDir() {
			seen[d.Path] = true
			dirs = append(dirs, d.Path)
		}
	}
	return dirs
}

// paths finds the working folder, home and config folders.
func (a *app) paths() error {
	var err error
	if a.cwd, err = os.Getwd(); err != nil {
		return fmt.Errorf("working folder: %w", err)
	}
	if real, err := filepath.EvalSymlinks(a.cwd); err == nil {
		a.cwd = real
	}
	if a.home, err = homeDir(a.env.Getenv); err != nil {
		return err
	}
	a.projDir = a.cwd
	if r := strings.TrimSpace(a.opts.ProjectRoot); r != "" {
		if !filepath.IsAbs(r) {
			r = filepath.Join(a.cwd, r)
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			return usageError{fmt.Sprintf("--project-config-root %s is not a folder", r)}
		}
		if real, err := filepath.EvalSymlinks(r); err == nil {
			r = real
		}
		a.projDir = r
	}
	a.configDir = session.ConfigDir(a.env.Getenv, a.home)
	a.claudeDir = settings.ClaudeConfigDir(a.env.Getenv, a.home)
	a.store = session.Store{Root: a.configDir, Also: []string{a.claudeDir}}
	a.trust = &trust.Store{ConfigDir: a.configDir, ClaudeJSON: trust.ClaudeJSONPath(a.env.Getenv, a.home), Home: a.home}
	return nil
}

// loadSettings reads and merges the settings sources and applies their
// environment.
func (a *app) loadSettings(ctx context.Context) error {
	switch {
	case a.hooks.Trusted != nil:
		a.trusted = *a.hooks.Trusted
	case a.front == frontTUI:
		a.trusted, _ = a.trust.IsTrusted(a.cwd)
	default:
		// Print and SDK modes treat the folder as trusted, as Claude Code does.
		a.trusted = true
	}
	opts, err := a.settingsOptions()
	if err != nil {
		return usageError{err.Error()} // it names the flag
	}
	s, warns, err := settings.Load(ctx, opts)
	if err != nil {
		return err
	}
	a.settings = s
	if a.bare() {
		a.applyBareSettings()
	}
	for _, w := range warns {
		a.warn(w.String())
	}
	a.setSettingsEnv(s.Env)
	return nil
}

// settingsOptions says where the session's settings come from.
func (a *app) settingsOptions() (settings.Options, error) {
	opts := settings.Options{Cwd: a.cwd, ProjectDir: a.projDir, Home: a.home, ConfigDir: a.configDir, ClaudeDir: a.claudeDir,
		CLISettings: a.opts.Settings, ParentManaged: a.opts.ManagedSettings, Trusted: a.trusted, Getenv: a.env.Getenv}
	if a.opts.SourcesSet {
		srcs, err := settings.ParseSources(a.opts.SettingSources)
		if err != nil {
			return opts, err
		}
		opts.Sources = srcs
	}
	return opts, nil
}

// setSettingsEnv sets the environment the settings give (at start, and
// when an SDK client changes the settings: the main Bash tool's next
// command sees the change too).
func (a *app) setSettingsEnv(env map[string]string) {
	a.envMu.Lock()
	old := a.setEnv
	a.setEnv = env
	client := maps.Clone(a.clientEnv)
	a.envMu.Unlock()
	var set, unset []string
	for k, v := range env {
		if _, byClient := client[k]; byClient {
			continue // what the client set stays
		}
		if ov, ok := old[k]; !ok || ov != v {
			set = append(set, k+"="+v)
		}
	}
	for k := range old {
		if _, byClient := client[k]; byClient {
			continue
		}
		if _, ok := env[k]; !ok {
			if v, inProcess := os.LookupEnv(k); inProcess {
				set = append(set, k+"="+v)
			} else {
				unset = append(unset, k)
			}
		}
	}
	a.shellMu.Lock()
	defer a.shellMu.Unlock()
	if a.shell != nil {
		a.shell.Setenv(set...)
		a.shell.Unsetenv(unset...)
	}
}

// warn reports a start-up problem on stderr (print and SDK modes) and
// keeps it for /doctor. Safe for concurrent use: the start-up loaders
// that run side by side write their warnings one at a time.
func (a *app) warn(msg string) {
	a.warnMu.Lock()
	defer a.warnMu.Unlock()
	a.warnings = append(a.warnings, msg)
	if a.front != frontTUI {
		fmt.Fprintf(a.env.Stderr, "reins: warning: %s\n", msg)
	}
}

// note keeps a start-up problem for /doctor and the terminal UI without
// printing it. Safe for concurrent use.
func (a *app) note(msg string) {
	a.warnMu.Lock()
	a.warnings = append(a.warnings, msg)
	a.warnMu.Unlock()
}

// startupWarnings returns the start-up problems kept so far.
func (a *app) startupWarnings() []string {
	a.warnMu.Lock()
	defer a.warnMu.Unlock()
	return append([]string(nil), a.warnings...)
}

// newWriter returns the transcript writer of session id, mirrored when
// the front end asks (the SDK's --session-mirror).
func (a *app) newWriter(id string) *session.Writer {
	return a.mirrored(session.NewWriter(a.store.TranscriptPath(a.cwd, id)))
}

// mirrored sets w's mirror when the front end asks for one. The SDK files
// the lines by their path relative to Claude Code's projects folder, so
// they are given the path Claude Code would have written them to (the
// same place under its folder as under reins's).
func (a *app) mirrored(w *session.Writer) *session.Writer {
	m := a.hooks.Mirror
	if m == nil {
		return w
	}
	rel, err := filepath.Rel(a.store.ProjectsDir(), w.Path())
	if err != nil || strings.HasPrefix(rel, "..") {
		return w
	}
	path := filepath.Join(a.claudeDir, "projects", rel)
	w.SetMirror(func(line []byte) { m(path, line) })
	return w
}

// sessionIdentity picks the session id: a new one, --session-id, or the
// resumed session's (a fork gets a new one).
func (a *app) sessionIdentity() error {
	o := a.opts
	if o.SessionID != "" {
		if _, err := uuid.Parse(o.SessionID); err != nil {
			return usageError{fmt.Sprintf("--session-id must be a UUID, not %q", o.SessionID)}
		}
	}
	if o.ResumeSet && strings.TrimSpace(o.Resume) == "" && !o.Continue && a.front != frontTUI {
		// Without a terminal there is no picker to choose the session.
		return usageError{"--resume needs a session id outside the terminal UI: reins -p --resume <session id> \"...\" (or --continue for the latest)"}
	}
	resuming := o.Continue || (o.ResumeSet && strings.TrimSpace(o.Resume) != "")
	if o.ResumeAt != "" && !resuming {
		return usageError{"--resume-session-at needs --resume <session id> or --continue"}
	}
	var found *session.Transcript
	if resuming {
		t, err := a.findResumed()
		switch {
		case err == nil:
			found = t
		case errors.Is(err, session.ErrNotFound) && a.front == frontTUI && !o.Continue &&
			len(o.Args) == 0 && o.ResumeAt == "" && !session.IsID(strings.TrimSpace(o.Resume)):
			// reins --resume WORDS naming no session: the list of
			// earlier conversations opens filtered by them, as claude
			// --resume takes a search term.
			a.resumeSearch, resuming = strings.TrimSpace(o.Resume), false
		default:
			return err
		}
	}
	if resuming {
		t := found
		a.resumed = t
		a.sessionID = t.SessionID
		if !session.IsID(a.sessionID) {
			// A transcript named otherwise (--resume ./notes.jsonl)
			// goes on under an id of its own.
			a.sessionID = uuid.NewString()
		}
		if o.SessionID == "" && !o.ForkSession && !o.NoPersist {
			// Never record into another transcript that happens to
			// hold this id (a copy of the one resumed, say).
			p := a.store.TranscriptPath(a.cwd, a.sessionID)
			if _, err := os.Stat(p); err == nil && !sameFile(t.Path, p) {
				// A copy of the same session (one the Agent SDK's
				// sessionStore handed back, or one Claude Code went on
				// with) goes on in reins's own file once that holds
				// all of it; a copy that went another way gets an id
				// of its own.
				if same, err := session.CatchUp(p, t.Path); err == nil && same {
					own, err := session.LoadAt(p, strings.TrimSpace(o.ResumeAt))
					if err != nil {
						return fmt.Errorf("resume %s: %w", a.sessionID, err)
					}
					own.SessionID = a.sessionID
					a.resumed, t = own, own
				} else {
					old := a.sessionID
					a.sessionID = uuid.NewString()
					a.warn(fmt.Sprintf("%s already holds another transcript of session %s than the one resumed (%s); continuing under the new session id %s", p, old, t.Path, a.sessionID))
				}
			}
		}
	}
	if o.SessionID != "" && !o.NoPersist {
		// A new conversation never goes into another session's file.
		// Nor takes the id of a session recorded elsewhere (another
		// folder, or Claude Code's store): --resume <id> would then find
		// two sessions under one id.
		for _, p := range a.store.Transcripts(o.SessionID) {
			if a.resumed == nil || !sameFile(a.resumed.Path, p) {
				return fmt.Errorf("--session-id %s is already in use (%s); resume it with --resume %s", o.SessionID, p, o.SessionID)
			}
		}
	}
	switch {
	case o.SessionID != "":
		a.sessionID = o.SessionID
	case a.resumed != nil && o.ForkSession:
		a.sessionID = uuid.NewString()
	case a.resumed == nil:
		a.sessionID = uuid.NewString()
	}
	return nil
}

func (a *app) newLogger() *slog.Logger {
	if a.opts.DebugStderr && a.opts.DebugFile == "" {
		return slog.New(slog.NewTextHandler(a.env.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	path := a.opts.DebugFile
	if path == "" && a.opts.Debug {
		path = filepath.Join(a.configDir, "debug", a.sessionID+".txt")
	}
	if path == "" {
		return slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		fmt.Fprintf(a.env.Stderr, "reins: debug log: %v\n", err)
		return slog.New(slog.DiscardHandler)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(a.env.Stderr, "reins: debug log: %v\n", err)
		return slog.New(slog.DiscardHandler)
	}
	a.onClose(func() { f.Close() })
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (a *app) newProvider(ctx context.Context) error {
	key := a.getenv("ANTHROPIC_API_KEY")
	token := a.getenv("ANTHROPIC_AUTH_TOKEN")
	helper := a.settings.APIKeyHelper
	switch {
	case key != "":
		a.keySource = "ANTHROPIC_API_KEY"
	case token != "":
		a.keySource = "ANTHROPIC_AUTH_TOKEN"
	case helper != nil:
		// The helper sees the settings' env, as hooks and tools do.
		helper.Env = a.environ()
		k, err := helper.Key(ctx)
		if err != nil {
			return err
		}
		key, a.keySource = k, "apiKeyHelper"
	case a.front == frontServe || a.front == frontDoctor:
		a.provider, a.keySource = noModel{}, "none"
		return nil
	default:
		return errNoKey
	}
	base := a.getenv("ANTHROPIC_BASE_URL")
	if err := checkBaseURL(base); err != nil {
		return err
	}
	cfg := anthropic.Config{
		BaseURL:   base,
		APIKey:    key,
		AuthToken: token,
		UserAgent: "reins/" + Version,
		SessionID: a.sessionID,
		Logger:    a.logger,
		Headers:   customHeaders(a.getenv("ANTHROPIC_CUSTOM_HEADERS")),
		Betas:     permission.SplitToolList(a.getenv("ANTHROPIC_BETAS")),
	}
	if helper != nil {
		cfg.RefreshKey = helper.Key
	}
	if a.keySource == "apiKeyHelper" {
		// The helper's key goes in both headers, as Claude Code sends it
		// (a gateway may read either). Claude Code asks the helper again
		// after five minutes, or CLAUDE_CODE_API_KEY_HELPER_TTL_MS, not
		// only after a 401; a key from the environment is kept.
		cfg.KeyAsBearer = true
		cfg.KeyTTL = defaultKeyHelperTTL
		if ms := atoi(a.getenv("CLAUDE_CODE_API_KEY_HELPER_TTL_MS")); ms > 0 {
			cfg.KeyTTL = time.Duration(ms) * time.Millisecond
		}
	}
	if ms := atoi(a.getenv("REINS_STREAM_IDLE_TIMEOUT_MS")); ms > 0 {
		cfg.IdleTimeout = time.Duration(ms) * time.Millisecond
	}
	if ms := atoi(a.getenv("REINS_RETRY_BASE_MS")); ms > 0 {
		cfg.RetryBase = time.Duration(ms) * time.Millisecond
	}
	// API_TIMEOUT_MS and CLAUDE_CODE_MAX_RETRIES are Claude Code's names;
	// REINS_MAX_RETRIES is reins's own and wins. A count of 0 means no
	// retries at all.
	if ms := atoi(a.getenv("API_TIMEOUT_MS")); ms > 0 {
		cfg.ResponseTimeout = time.Duration(ms) * time.Millisecond
	}
	for _, name := range []string{"CLAUDE_CODE_MAX_RETRIES", "REINS_MAX_RETRIES"} {
		v := strings.TrimSpace(a.getenv(name))
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			cfg.MaxRetries = n
			if n == 0 {
				cfg.MaxRetries = -1
			}
		} else if v != "" {
			a.warn(fmt.Sprintf("%s=%q is not a whole number of retries; ignored", name, v))
		}
	}
	client := anthropic.New(cfg)
	a.provider = client
	if a.front == frontServe || a.front == frontDoctor {
		return nil // serving tools over MCP, or checking: the model may never be asked
	}
	// The connection to the API opens while the session is set up.
	pctx, cancel := context.WithTimeout(context.Background(), preconnectTimeout)
	done := make(chan struct{})
	go func() {
		defer close(done)
		client.Preconnect(pctx)
	}()
	a.onClose(func() { cancel(); <-done })
	return nil
}

// envTrue reads a yes/no environment variable: 1, true, yes or on.
func envTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// checkpointGate is the session's gate, recording files before edits when
// file checkpointing is on.
func (a *app) checkpointGate() tool.Gate {
	if a.checkpoints != nil {
		return a.checkpoints.Gate(a.gate)
	}
	return a.gate
}

// preconnectTimeout bounds the warm-up request to the API.
const preconnectTimeout = 10 * time.Second

// entrypoint is what transcript lines name as having started the
// session: CLAUDE_CODE_ENTRYPOINT when set (the Agent SDKs set it, to
// "sdk-ts" or "sdk-py"), else "cli" for the terminal UI and "sdk-cli"
// for print and stream-json runs, as Claude Code names them.
func (a *app) entrypoint() string {
	if e := strings.TrimSpace(a.getenv("CLAUDE_CODE_ENTRYPOINT")); e != "" {
		return e
	}
	if a.front == frontTUI {
		return "cli"
	}
	return "sdk-cli"
}

// engineConfig assembles the engine's configuration.
func (a *app) engineConfig(ctx context.Context) engine.Config {
	o := a.opts
	cfg := engine.Config{
		Provider:           a.provider,
		Models:             a.models,
		Model:              a.model,
		FallbackModel:      o.FallbackModel,
		SessionID:          a.sessionID,
		Cwd:                a.cwd,
		Version:            Version,
		Entrypoint:         a.entrypoint(),
		System:             a.systemPrompt(ctx),
		UserContext:        a.userContext(),
		Tools:              a.toolSet,
		Gate:               a.checkpointGate(),
		StopHooks:          fileWatchingHooks{a.gate, a},
		Compactor:          a.compactor,
		Store:              a.results,
		MaxToolConcurrency: atoi(a.getenv("REINS_MAX_TOOL_CONCURRENCY")),
		MaxTurns:           o.MaxTurns,
		MaxBudgetUSD:       o.MaxBudgetUSD,
		MaxThinkingTokens:  firstPositive(o.MaxThinking, atoi(a.getenv("MAX_THINKING_TOKENS"))),
		MaxOutputTokens:    atoi(firstNonEmpty(a.getenv("REINS_MAX_OUTPUT_TOKENS"), a.getenv("CLAUDE_CODE_MAX_OUTPUT_TOKENS"))),
		Betas:              permission.SplitToolList(o.Betas...),
		Effort:             a.effort.Level,
		ThinkingDisplay:    a.thinkDisplay,
		GitBranch:          a.git.Wait().Branch,
		Logger:             a.logger,
	}
	if d := atoi(a.getenv("REINS_RETRY_BASE_MS")); d > 0 {
		cfg.RetryBaseDelay = time.Duration(d) * time.Millisecond
	}
	switch o.Thinking {
	case "adaptive":
		cfg.Thinking = &llm.Thinking{Type: "adaptive"}
	case "disabled":
		cfg.Thinking = &llm.Thinking{Type: "disabled"}
	}
	if a.getenv("DISABLE_PROMPT_CACHING") != "" {
		cfg.NoCache = true
	}
	if v := strings.TrimSpace(a.getenv("CLAUDE_CODE_EXTRA_BODY")); v != "" {
		var extra map[string]json.RawMessage
		if err := json.Unmarshal([]byte(v), &extra); err != nil || extra == nil {
			a.warn(fmt.Sprintf("CLAUDE_CODE_EXTRA_BODY is not a JSON object; ignored: %.80q", v))
		} else {
			cfg.Extra = extra
		}
	}
	if o.TaskBudget > 0 {
		cfg.Extra, cfg.Betas = withTaskBudget(cfg.Extra, cfg.Betas, o.TaskBudget)
	}
	return cfg
}

// taskBudgetBeta is the anthropic-beta value that output_config's
// task_budget needs.
const taskBudgetBeta = "task-budgets-2026-03-13"

// withTaskBudget adds --task-budget to the request body's extra fields
// (into their output_config, whose own task_budget wins) and its beta.
func withTaskBudget(extra map[string]json.RawMessage, betas []string, tokens int) (map[string]json.RawMessage, []string) {
	out := maps.Clone(extra)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	oc := map[string]json.RawMessage{}
	if raw, ok := out["output_config"]; ok {
		if json.Unmarshal(raw, &oc) != nil || oc == nil {
			return extra, betas // not an object: left as the user gave it
		}
	}
	if _, ok := oc["task_budget"]; !ok {
		oc["task_budget"] = json.RawMessage(fmt.Sprintf(`{"type":"tokens","total":%d}`, tokens))
	}
	b, err := json.Marshal(oc)
	if err != nil {
		return extra, betas
	}
	out["output_config"] = b
	if !slices.Contains(betas, taskBudgetBeta) {
		betas = append(slices.Clip(betas), taskBudgetBeta)
	}
	return out, betas
}

// firstPositive returns the first of ns above zero, or 0.
func firstPositive(ns ...int) int {
	for _, n := range ns {
		if n > 0 {
			return n
		}
	}
	return 0
}

// customHeaders parses "Name: value" lines.
func customHeaders(s string) map[string]string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	h := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) != "" {
			h[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return h
}

// cleanupOldSessions removes transcripts older than cleanupPeriodDays
// (default 30; 0 keeps them all) in the background (never the current
// session's), at most once a day (session.CleanupInterval).
func (a *app) cleanupOldSessions() {
	days := a.settings.CleanupPeriodDays
	if days <= 0 {
		if _, set := a.settings.Raw["cleanupPeriodDays"]; set {
			// 0 written out: keep every transcript (Claude Code's schema
			// reads it as "disable cleanup"), never the default's 30 days.
			return
		}
		days = 30
	}
	now := time.Now()
	if !a.store.CleanupDue(now) {
		return
	}
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(done)
		a.store.Cleanup(ctx, time.Duration(days)*24*time.Hour, now, func(id string) bool { return id == a.sessionID })
	}()
	a.onClose(func() {
		cancel()
		<-done
	})
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}
