package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/prompt"
	"reins/internal/sdk"
	"reins/internal/session"
	"reins/internal/streamjson"
	"reins/internal/tool"
)

// sdkMCPWait bounds how long a turn waits for MCP servers still
// connecting for the first time.
const sdkMCPWait = 30 * time.Second

// runSDK runs the SDK protocol over stdin/stdout (--input-format
// stream-json): one turn per user message until stdin ends.
func runSDK(ctx context.Context, env *Env, o *Options) error {
	if o.OutputFormat != "stream-json" {
		return usageError{"--input-format stream-json needs --output-format stream-json"}
	}
	if len(o.Args) > 0 {
		// Not an error: an SDK's extra argument reins does not know may
		// leave a stray word here.
		fmt.Fprintf(env.Stderr, "reins: warning: ignoring the prompt argument %q: with --input-format stream-json, prompts come as user messages on stdin\n",
			strings.Join(o.Args, " "))
	}
	var schema json.RawMessage
	if strings.TrimSpace(o.JSONSchema) != "" {
		schema = json.RawMessage(o.JSONSchema)
		if err := sdk.ParseSchema(schema); err != nil {
			return usageError{"--json-schema: " + err.Error()}
		}
	}
	f := &sdkFront{}
	w := streamjson.NewWriter(env.Stdout, streamjson.Options{Partial: o.Partial, Replay: o.ReplayUser})
	f.out = w
	var srv *sdk.Server
	srv = sdk.New(sdk.Config{
		In: env.Stdin, Out: w, Stderr: env.Stderr,
		Session:           func() *engine.Session { return f.session() },
		Models:            llm.NewModels(env.Getenv),
		Init:              f.initLine,
		BeforeTurn:        f.beforeTurn,
		Prepare:           f.prepare,
		SubagentStats:     func() streamjson.SubagentStats { return f.a.subagentStats.Take() },
		Hooks:             hookForward{f},
		Initialize:        f.initialize,
		SetPermissionMode: f.setMode,
		MCPStatus:         f.mcpStatus,
		MCPReconnect:      func(name string) bool { return f.a.mcpm() != nil && f.a.mcpm().Reconnect(name) },
		MCPAwait: func(ctx context.Context, name string) (mcp.ServerStatus, bool) {
			if f.a.mcpm() == nil {
				return mcp.ServerStatus{}, false
			}
			return f.a.mcpm().WaitServer(ctx, name)
		},
		MCPToggle:         f.mcpToggle,
		RewindFiles:       f.rewindFiles,
		StopTask:          func(id string) error { return f.a.tasks.Stop(id) },
		MoveToBackground:  func(id string) bool { return f.a.tasks.Background(id) },
		ThinkingDisplay:   strings.TrimSpace(o.ThinkingDisp),
		ApplyFlagSettings: f.applyFlagSettings,
		UpdateEnv:         func(vars map[string]string) { f.a.updateClientEnv(vars) },
		UpdateSettings:    f.updateSettings,
		GetSettings:       f.getSettings,
		PermissionRules:   f.permissionRules,
		ReadFile:          f.readFile,
		SeedReadState:     f.seedReadState,
		Reload:            f.reload,
		OutputStyles:      func() (string, []string) { return f.a.styleNames() },
		ReloadPlugins:     f.reloadPlugins,
		MCPReadResource:   f.mcpReadResource,
		MCPOptions:        func() mcp.Options { return f.a.mcpOptions() },
		MCPTakeOver:       f.mcpTakeOver,
		MCPClientServers:  f.mcpClientServers,
		RenameSession:     f.renameSession,
		GenerateTitle:     f.generateTitle,
		MCPAskAlways:      func(name string, ask bool) { f.a.checker.SetMCPAsk(mcp.NormalizeName(name), ask) },
		Background:        sdkBackground{f},
		JSONSchema:        schema,
		MaxBudgetUSD:      o.MaxBudgetUSD,
		ClientVersion:     Version,
		ContextInfo:       f.contextInfo,
		LookupTool:        f.lookup,
	})
	f.srv = srv
	h := appHooks{SDKHost: srv.MCPHost(), ExtraTools: srv.Tools, Announce: f.announce, ModeChanged: f.modeChanged, Elicit: srv.Elicit}
	if o.HookEvents {
		h.HookNotify = func(p hooks.Progress) { srv.HookProgress(p) }
	}
	if o.SessionMirror {
		h.Mirror = func(path string, line []byte) {
			w.Line(transcriptMirror{Type: "transcript_mirror", FilePath: path, Entries: []json.RawMessage{bytes.Clone(line)}})
		}
	}
	switch {
	case o.PermissionPrompts == "none":
		// Nobody answers: what would be asked is denied, and the
		// client's canUseTool is never called.
	case o.PromptTool == "":
	case o.PromptTool == "stdio":
		h.Asker = srv.Asker()
	default:
		h.Asker = &sdk.ToolAsker{Name: o.PromptTool, Lookup: f.lookup}
	}
	// Read the input while the session is set up: SDK-hosted MCP servers
	// answer their handshake through it. Other messages wait for Ready.
	srv.Start()
	if o.AwaitInit {
		// The client sends initialize first and waits for its answer:
		// the MCP servers it carries start with the ones configured.
		req := srv.AwaitInitialize(ctx)
		f.takeInitMCP(req, o)
		f.takeInitPlugins(req, o)
		if err := f.takeInitSettings(req, o); err != nil {
			return err
		}
	} else if o.ManagedInInit || o.InitFields != "" {
		return usageError{"--managed-settings-in-initialize and --initialize-fields need --await-initialize: the options they announce come in the initialize request"}
	}
	a, err := newAppFor(ctx, env, o, frontSDK, h)
	if err != nil {
		return err
	}
	defer a.close()
	f.a = a
	w.SetSessionID(a.sessionID)
	f.setSession(a.sess)
	stopTasks := a.observeTasks(w)
	defer stopTasks() // before a.close stops what still runs: no lines for that
	srv.Ready()

	err = srv.Run(ctx)
	if ctx.Err() != nil {
		return stoppedExit(ctx)
	}
	return err
}

// transcriptMirror is the line that hands the SDK transcript entries for
// its sessionStore (--session-mirror): the SDK files them under the
// project and session that filePath names under Claude Code's projects
// folder.
type transcriptMirror struct {
	Type     string            `json:"type"`
	FilePath string            `json:"filePath"`
	Entries  []json.RawMessage `json:"entries"`
}

// sdkFront holds the pieces of an SDK-mode session.
type sdkFront struct {
	a   *app
	srv *sdk.Server
	out *streamjson.Writer

	// initMCP is set when the initialize request's mcpServers were taken
	// at start-up (--await-initialize); initMCPErr when they could not be.
	initMCP    bool
	initMCPErr error
	// initApplied says which of the initialize request's settings
	// options were taken at start-up (takeInitSettings).
	initApplied struct{ managed, settings, disallowed bool }
	// initPlugins is set when the initialize request's plugins were
	// loaded at start-up; initPluginsErr when they could not be read.
	initPlugins    bool
	initPluginsErr error

	setMu sync.Mutex // guards set; serialises changes to the settings
	set   sdkSettings

	mu      sync.Mutex // guards sess, started, modeAsked and the app's pendingAgent
	sess    *engine.Session
	started bool // a turn has started: the session can no longer be rebuilt
	// modeAsked is the mode a set_permission_mode request is switching
	// to, while it does.
	modeAsked permission.Mode
}

// announce writes a message for the user as a system informational line,
// the Agent SDK's banner for status text (level info, notice, suggestion
// or warning).
func (f *sdkFront) announce(level, text string) {
	f.out.Line(streamjson.System{Type: "system", Subtype: "informational", SessionID: f.sessionID(), UUID: uuid.NewString(),
		Fields: map[string]any{"content": text, "level": level}})
}

// modeChanged tells the client of a change of permission mode it did not
// ask for (a plan approved without a setMode, the model's EnterPlanMode,
// a hook's setMode) with a system status line carrying permissionMode,
// as the Agent SDK's status message does.
func (f *sdkFront) modeChanged(_, to permission.Mode) {
	f.mu.Lock()
	asked := f.modeAsked == to
	f.mu.Unlock()
	if asked {
		return
	}
	f.out.Line(streamjson.NewPermissionStatus(f.sessionID(), string(to)))
}

// sessionID is the session's id, "" while the app is being built.
func (f *sdkFront) sessionID() string {
	if f.a == nil {
		return ""
	}
	return f.a.currentID()
}

// hookForward registers the client's callback hooks with the session's
// hook runner.
type hookForward struct{ f *sdkFront }

func (h hookForward) Add(hk hooks.Hook) { h.f.a.hookRun.Add(hk) }

func (h hookForward) Remove(drop func(hooks.Hook) bool) int { return h.f.a.hookRun.Remove(drop) }

func (f *sdkFront) session() *engine.Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sess
}

func (f *sdkFront) setSession(s *engine.Session) {
	f.mu.Lock()
	f.sess = s
	f.mu.Unlock()
}

func (f *sdkFront) currentMode() string { return string(f.a.checker.Mode()) }

func (f *sdkFront) setMode(mode string) (string, error) {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return "", err
	}
	if m == permission.ModeBypass && !f.a.opts.AllowSkipPerms && !f.a.opts.SkipPerms {
		return "", fmt.Errorf("bypassPermissions needs --allow-dangerously-skip-permissions or --dangerously-skip-permissions")
	}
	f.mu.Lock()
	f.modeAsked = m
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.modeAsked = ""
		f.mu.Unlock()
	}()
	if err := f.a.checker.SetMode(m); err != nil {
		return "", err
	}
	return string(f.a.checker.Mode()), nil
}

// beforeTurn waits (bounded) for MCP servers still connecting, so their
// tools are in the turn.
//
// Before the first turn the Setup hooks (with --init or --maintenance)
// and the SessionStart hooks run ("startup", "resume" or "fork"), as in
// the other modes: only then, so that the hook
// callbacks the client registers with initialize hear it too.
func (f *sdkFront) beforeTurn(ctx context.Context) {
	f.mu.Lock()
	first := !f.started
	f.started = true
	f.mu.Unlock()
	if first {
		f.a.setupHooks(ctx) // --init, --maintenance: an SDK session is print mode
		f.a.sessionStart(ctx)
		f.a.onClose(func() { f.a.sessionEnd("other") })
	}
	if f.a.mcpm() == nil {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, sdkMCPWait)
	defer cancel()
	f.a.mcpm().Wait(wctx)
	f.a.reportMCPFailures()
}

// prepare runs a user message whose last block is text (what a string
// prompt becomes, or text after images) through the app's input path,
// as Claude Code takes the last text block as what was typed: slash
// commands expand or run, UserPromptSubmit hooks see the prompt, and the
// files and MCP resources it mentions are attached. The blocks before it
// go first, as they are; a message that does not end in text goes to the
// model as it is.
func (f *sdkFront) prepare(ctx context.Context, in engine.Input) (sdk.Prepared, error) {
	f.mu.Lock()
	pending := f.a.pendingAgent
	f.mu.Unlock()
	if pending != "" {
		// Not even initialize defined it: running as reins instead would
		// hide the mistake.
		return sdk.Prepared{}, f.a.unknownAgent(pending)
	}
	last := len(in.Content) - 1
	if last < 0 || in.Content[last].Type != llm.BlockText {
		return sdk.Prepared{Run: true, Input: in}, nil
	}
	p, err := f.a.prepare(ctx, in.Content[last].Text, command.SDK)
	if err != nil {
		return sdk.Prepared{}, err
	}
	if p.Run && last > 0 {
		p.Input.Content = append(slices.Clone(in.Content[:last]), p.Input.Content...)
	}
	if p.Clear {
		f.clear(ctx)
		return sdk.Prepared{Reset: true}, nil
	}
	p.Input.UUID = in.UUID
	if p.Run && f.a.checkpoints != nil {
		// The message's uuid names the checkpoint rewind_files goes back
		// to, so it is fixed here rather than by the engine.
		if p.Input.UUID == "" {
			p.Input.UUID = uuid.NewString()
		}
		f.a.checkpoints.Begin(p.Input.UUID)
	}
	return sdk.Prepared{Run: p.Run, Input: p.Input, Output: p.Output, IsError: p.IsError, Events: p.Events}, nil
}

// clear starts a new conversation under a new session id (/clear), as
// Claude Code does: the old transcript stays as it was, SessionEnd hooks
// run with reason "clear" and SessionStart hooks with source "clear". The
// settings, tools, permission mode and model carry over.
func (f *sdkFront) clear(ctx context.Context) {
	a := f.a
	a.sessionEnd("clear")
	id := uuid.NewString()
	cfg := f.session().Config()
	left := cfg.Recorder
	cfg.SessionID = id
	cfg.UserContext = a.newConversation()
	cfg.Recorder = nil
	if !a.opts.NoPersist {
		w := a.newWriter(id)
		a.onClose(func() { w.Close() })
		cfg.Recorder = w
	}
	a.switchSession(id)
	s := engine.New(cfg)
	a.mu.Lock()
	a.sess = s
	a.mu.Unlock()
	f.setSession(s)
	if w, ok := left.(*session.Writer); ok {
		// The transcript left is no longer held (see session.Busy); a
		// line recorded for it later opens it again.
		w.Close()
	}
	f.out.SetSessionID(id)
	a.forgetState()
	a.sessionStartAs(ctx, "clear")
}

// lookup finds a tool of the current pool by name.
func (f *sdkFront) lookup(name string) (tool.Tool, bool) {
	for _, t := range f.a.pool() {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

func (f *sdkFront) initLine() *streamjson.Init {
	in := f.a.initMessage()
	in.Model = f.session().Model()
	return in
}

func (f *sdkFront) mcpStatus() []sdk.MCPServerStatus {
	if f.a == nil || f.a.mcpm() == nil {
		return nil
	}
	var out []sdk.MCPServerStatus
	for _, st := range f.a.mcpm().Status() {
		out = append(out, sdk.MCPStatusFrom(st))
	}
	return out
}

// takeInitMCP adds the MCP servers an initialize request carries to
// those --mcp-config gives, so they start with the session. Servers that
// cannot be used are not added; initialize is answered with the error.
func (f *sdkFront) takeInitMCP(req *sdk.InitializeRequest, o *Options) {
	if req == nil || len(req.MCPServers) == 0 || string(req.MCPServers) == "null" {
		return
	}
	cfg := `{"mcpServers":` + string(req.MCPServers) + `}`
	servers, err := mcp.ParseServers([]byte(cfg), mcp.ScopeDynamic, "initialize")
	if err == nil {
		var bad []string
		for _, s := range servers {
			if s.Invalid != "" {
				bad = append(bad, s.Invalid)
			}
		}
		if len(bad) > 0 {
			err = errors.New(strings.Join(bad, "; "))
		}
	}
	if err != nil {
		f.initMCPErr = fmt.Errorf("mcpServers: %w", err)
		return
	}
	o.MCPConfigs = append(o.MCPConfigs, cfg)
	f.initMCP = true
}

// takeInitPlugins loads the initialize request's plugins with the
// session's, as --plugin-dir folders (--await-initialize).
func (f *sdkFront) takeInitPlugins(req *sdk.InitializeRequest, o *Options) {
	if req == nil {
		return
	}
	dirs, err := req.PluginDirs()
	if err != nil {
		f.initPluginsErr = err
		return
	}
	for _, d := range dirs {
		if d.NoMCP {
			o.PluginDirsNoMCP = append(o.PluginDirsNoMCP, d.Path)
		} else {
			o.PluginDirs = append(o.PluginDirs, d.Path)
		}
	}
	f.initPlugins = len(dirs) > 0
}

// takeInitSettings takes the managedSettings, settings and
// disallowedTools the initialize request carries, when the command line
// says they come there, as if they had been given as --managed-settings,
// --settings and --disallowedTools, and notes which it took for the
// answer. A policy that cannot be read stops the session (policy fails
// closed).
func (f *sdkFront) takeInitSettings(req *sdk.InitializeRequest, o *Options) error {
	if req == nil {
		if o.ManagedInInit || o.InitFields != "" {
			return errors.New("initialize: the options --managed-settings-in-initialize or --initialize-fields announce did not come: the first message was not a readable initialize request")
		}
		return nil
	}
	present := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	if o.ManagedInInit && present(req.ManagedSettings) {
		if req.ManagedSettings[0] != '{' {
			return errors.New("initialize: managedSettings must be a JSON object of settings")
		}
		o.ManagedSettings = string(req.ManagedSettings)
		f.initApplied.managed = true
	}
	for _, field := range strings.Split(o.InitFields, ",") {
		switch strings.TrimSpace(field) {
		case "":
		case "settings":
			if present(req.Settings) {
				if req.Settings[0] != '{' {
					return errors.New("initialize: settings must be a JSON object of settings")
				}
				o.Settings = string(req.Settings)
				f.initApplied.settings = true
			}
		case "disallowedTools":
			o.DisallowedTool = append(o.DisallowedTool, req.DisallowedTools...)
			f.initApplied.disallowed = req.DisallowedTools != nil
		default:
			return usageError{fmt.Sprintf("--initialize-fields: %q is not a field reins reads from initialize (settings, disallowedTools)", field)}
		}
	}
	return nil
}

// initialize applies the client's system prompt options (the session is
// rebuilt before its first turn) and describes the session.
func (f *sdkFront) initialize(req *sdk.InitializeRequest) (*sdk.InitializeResponse, error) {
	var mcpApplied *bool
	if len(req.MCPServers) > 0 && string(req.MCPServers) != "null" {
		if f.initMCPErr != nil {
			return nil, f.initMCPErr
		}
		if !f.initMCP {
			f.a.warn("initialize: mcpServers are read at start-up only, when reins is started with --await-initialize; these are not started")
		}
		applied := f.initMCP
		mcpApplied = &applied
	}
	var pluginsApplied *bool
	if dirs, err := req.PluginDirs(); err != nil || len(dirs) > 0 {
		if f.initPluginsErr != nil {
			return nil, f.initPluginsErr
		}
		if err != nil {
			return nil, err
		}
		if !f.initPlugins {
			f.a.warn("initialize: plugins are read at start-up only, when reins is started with --await-initialize; these are not loaded")
		}
		applied := f.initPlugins
		pluginsApplied = &applied
	}
	if req.Repeat {
		// The SDK's reinitialize sends its options again: they were
		// applied the first time, and the session has run since.
		return f.describe(mcpApplied, pluginsApplied), nil
	}
	if err := f.a.addAgents(req.Agents); err != nil {
		return nil, fmt.Errorf("initialize agents: %w", err)
	}
	// An --agent defined only now, by the request's agents.
	agentSet := false
	f.mu.Lock()
	name := f.a.pendingAgent
	f.mu.Unlock()
	if name != "" {
		if err := f.a.selectMainAgent(name); err != nil {
			return nil, err // and every turn fails with it (prepare)
		}
		f.mu.Lock()
		f.a.pendingAgent = ""
		f.mu.Unlock()
		agentSet = true
	}
	text, set, _ := req.SystemPromptText()
	if req.ExcludeDynamicSections && !(set && strings.TrimSpace(text) != "") {
		if err := f.excludeDynamic(); err != nil {
			return nil, err
		}
	}
	if set || req.AppendSystemPrompt != nil || agentSet {
		if err := f.setSystem(text, set || agentSet, req.AppendSystemPrompt, agentSet); err != nil {
			return nil, err
		}
	}
	f.nameSession(req.Title)
	f.a.scopeSkills(req.Skills)
	if w := strings.TrimSpace(req.PlanModeInstructions); w != "" {
		f.a.planWorkflow.Store(&w)
	}
	return f.describe(mcpApplied, pluginsApplied), nil
}

// nameSession records initialize's title as the session's name, as
// /rename does, unless the session resumed is named already (its name
// stays) or is not recorded.
func (f *sdkFront) nameSession(title string) {
	if strings.TrimSpace(title) == "" {
		return
	}
	if t := f.a.resumed; t != nil && t.CustomTitle != "" {
		return
	}
	f.mu.Lock()
	s := f.sess
	f.mu.Unlock()
	if s.Config().Recorder == nil {
		return // --no-session-persistence: nothing to name
	}
	if _, err := renameSession(s, title); err != nil {
		f.a.warn("initialize title: " + err.Error())
	}
}

// describe is the application's part of the initialize answer.
func (f *sdkFront) describe(mcpApplied, pluginsApplied *bool) *sdk.InitializeResponse {
	active, available := f.a.styleNames()
	resp := &sdk.InitializeResponse{
		Account:               sdk.Account{APIKeySource: f.a.keySource},
		CurrentPermissionMode: f.currentMode(),
		MCPServersApplied:     mcpApplied,
		PluginsApplied:        pluginsApplied,
		Commands:              f.commandInfos(false),
		Agents:                f.agentInfos(),
		OutputStyle:           active,
		AvailableOutputStyles: available,
		UserOutputStylesDir:   filepath.Join(f.a.claudeDir, "output-styles"),
	}
	resp.ManagedSettingsApplied = confirmed(f.initApplied.managed)
	resp.SettingsApplied = confirmed(f.initApplied.settings)
	resp.DisallowedToolsApplied = confirmed(f.initApplied.disallowed)
	return resp
}

// confirmed is an initialize answer's *_applied member: true when the
// option was taken, absent otherwise.
func confirmed(taken bool) *bool {
	if !taken {
		return nil
	}
	return &taken
}

// excludeDynamic rebuilds the session, before its first turn, with the
// per-user environment out of the system prompt and at the front of the
// conversation instead (initialize's excludeDynamicSections).
func (f *sdkFront) excludeDynamic() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started {
		return errors.New("excludeDynamicSections must come before the first user message")
	}
	f.a.excludeDynamic.Store(true)
	old := f.sess
	cfg := old.Config()
	cfg.System = f.a.systemPrompt(context.Background())
	cfg.UserContext = f.a.userContext()
	s := engine.New(cfg)
	s.SetHistory(old.History())
	s.SetLastUUID(old.LastUUID())
	f.a.mu.Lock()
	f.a.sess = s
	f.a.mu.Unlock()
	f.sess = s
	return nil
}

// setSystem rebuilds the session with the system prompt initialize gave
// (replaced when set, by an --agent's prompt when set empty; appendix
// added) and, with agentModel, the --agent's model, before the first turn. The check
// and the rebuild hold mu, which beforeTurn takes before a turn gets its
// session: a turn runs wholly on the old session or on the new one.
func (f *sdkFront) setSystem(text string, set bool, appendix *string, agentModel bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started {
		// Rebuilt now, the session would lose what the turn running on
		// the old one adds, and the cost and model so far.
		return errors.New("systemPrompt and appendSystemPrompt must come before the first user message")
	}
	old := f.sess
	cfg := old.Config()
	if set && strings.TrimSpace(text) == "" {
		// The SDK's default (an empty prompt) leaves an --agent's own.
		text = f.a.mainAgentPrompt()
	}
	if agentModel {
		cfg.Model = f.a.model
	}
	var sys []llm.SystemBlock
	if set {
		sys = append(sys, prompt.CustomBlocks(text)...)
	} else {
		sys = append(sys, cfg.System...)
	}
	if appendix != nil && strings.TrimSpace(*appendix) != "" {
		sys = append(sys, llm.SystemBlock{Text: *appendix, Cache: true})
	}
	cfg.System = sys
	f.a.styleMu.Lock()
	if set {
		f.a.outStyle.custom = true // the style is not part of this prompt
	} else if appendix != nil {
		f.a.outStyle.sdkAppend = *appendix // kept when a style switch rebuilds the prompt
	}
	f.a.styleMu.Unlock()
	s := engine.New(cfg)
	// A resumed conversation carries over into the rebuilt session.
	s.SetHistory(old.History())
	s.SetLastUUID(old.LastUUID())
	f.a.mu.Lock()
	f.a.sess = s // no turn has run yet: everything that asks the app for its session gets this one
	f.a.mu.Unlock()
	f.sess = s
	return nil
}

// rewindFiles answers rewind_files from the session's checkpoints.
func (f *sdkFront) rewindFiles(id string, dryRun bool) sdk.RewindResult {
	cp := f.a.checkpoints
	if cp == nil {
		return sdk.RewindResult{Error: sdk.CheckpointingOff}
	}
	ch, ok := cp.Preview(id)
	if !ok {
		return sdk.RewindResult{Error: fmt.Sprintf("no file checkpoint for user message %s", id)}
	}
	res := sdk.RewindResult{CanRewind: true, FilesChanged: ch.Files, Insertions: ch.Insertions, Deletions: ch.Deletions}
	if dryRun {
		return res
	}
	if _, err := cp.Restore(id); err != nil {
		return sdk.RewindResult{Error: err.Error(), FilesChanged: ch.Files}
	}
	// The conversation goes on from here: the message stays a point to
	// rewind to (again), and later edits are recorded after it.
	cp.Begin(id)
	return res
}

// mcpToggle turns a configured MCP server on or off (mcp_toggle).
func (f *sdkFront) mcpToggle(name string, enabled bool) (bool, error) {
	if f.a.mcpm() == nil {
		return false, nil
	}
	err := f.a.mcpm().SetEnabled(name, enabled)
	if errors.Is(err, mcp.ErrNoServer) {
		return false, nil
	}
	return true, err
}

// contextInfo fills get_context_usage with what fills the context by
// category (the system prompt, tools, memory files and messages, the free
// space and the autocompact buffer, adding up to the window) and the
// memory files, as /context shows them, the MCP tools with the size of
// their schemas and the custom agent types the Agent tool can start.
func (f *sdkFront) contextInfo(cu *sdk.ContextUsage) {
	u := f.a.contextUse(context.Background(), f.session())
	cu.Categories = cu.Categories[:0]
	for _, p := range u.Parts {
		cu.Categories = append(cu.Categories, sdk.NewUsageCategory(p.Name, p.Tokens))
	}
	cu.TotalTokens, cu.MaxTokens, cu.RawMaxTokens = u.Used, u.Window, u.Window
	if u.Window > 0 {
		cu.Percentage = math.Round(float64(u.Used)*10000/float64(u.Window)) / 100
	}
	cu.IsAutoCompactEnabled = u.Auto
	cu.AutoCompactThreshold = 0
	if u.Auto {
		cu.AutoCompactThreshold = u.Threshold
	}
	cu.MemoryFiles = []any{}
	for _, m := range u.Memory {
		cu.MemoryFiles = append(cu.MemoryFiles, sdk.MemoryFileUsage{Path: m.Path, Type: m.Type, Tokens: m.Tokens})
	}
	cu.MCPTools = []any{}
	for _, m := range u.MCPTools {
		cu.MCPTools = append(cu.MCPTools, sdk.MCPToolUsage{Name: m.Name, ServerName: m.Server, Tokens: m.Tokens, IsLoaded: m.Loaded})
	}
	cu.Agents = []any{}
	for _, g := range u.Agents {
		cu.Agents = append(cu.Agents, sdk.AgentUsage{AgentType: g.Type, Source: g.Source, Path: g.Path, Tokens: g.Tokens})
	}
}
