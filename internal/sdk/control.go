package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"reins/internal/hooks"
	"reins/internal/jsonkind"
	"reins/internal/mcp"
	"reins/internal/streamjson"
)

// InitializeRequest is the client's initialize control request.
type InitializeRequest struct {
	// Hooks are the client's hook callbacks, by event name.
	Hooks map[string][]HookMatcher `json:"hooks"`
	// Agents are sub-agent definitions, by name, in the --agents shape.
	Agents map[string]json.RawMessage `json:"agents"`
	// SystemPrompt replaces the system prompt: a string, or a list of
	// strings joined by blank lines. Absent means unchanged.
	SystemPrompt json.RawMessage `json:"systemPrompt"`
	// AppendSystemPrompt is added after the system prompt.
	AppendSystemPrompt *string `json:"appendSystemPrompt"`
	// JSONSchema asks for structured output, like --json-schema.
	JSONSchema json.RawMessage `json:"jsonSchema"`
	// SDKMCPServers names the servers the client hosts.
	SDKMCPServers []string `json:"sdkMcpServers"`
	// Repeat is set when the session was already initialized: the
	// SDK's reinitialize, after which only the hooks are registered again.
	Repeat bool `json:"-"`
	// MCPServers are servers reins runs or connects to, in the
	// --mcp-config "mcpServers" shape, sent here rather than on the
	// command line (the SDK's mcpServersDelivery 'initialize', which
	// launches reins with --await-initialize).
	MCPServers json.RawMessage `json:"mcpServers"`
	// Plugins are plugin folders, in the shape of the SDK's plugins
	// option, sent here rather than as --plugin-dir (the SDK's
	// pluginDelivery 'initialize', with --await-initialize).
	Plugins json.RawMessage `json:"plugins"`
	// Title names a new session (the SDK's title option), as /rename
	// does; a resumed session keeps a title it has.
	Title string `json:"title"`
	// Skills are the only skills the model may see and load (the SDK's
	// skills option as a list); nil when not given.
	Skills []string `json:"skills"`
	// PlanModeInstructions is the host's planning workflow, given to the
	// model in the plan-mode note (the SDK's planModeInstructions).
	PlanModeInstructions string `json:"planModeInstructions"`
	// ExcludeDynamicSections moves the per-user environment (working
	// folders, date, git snapshot) out of the default system prompt into
	// the conversation, so that the prompt can be cached across users
	// (the SDK's preset excludeDynamicSections).
	ExcludeDynamicSections bool `json:"excludeDynamicSections"`
	// ManagedSettings, Settings and DisallowedTools are the SDK's
	// managedSettings, settings and disallowedTools options sent here
	// rather than on the command line (its *Delivery 'initialize',
	// announced by --managed-settings-in-initialize and
	// --initialize-fields); read at start-up, with --await-initialize.
	ManagedSettings json.RawMessage `json:"managedSettings"`
	Settings        json.RawMessage `json:"settings"`
	DisallowedTools []string        `json:"disallowedTools"`
}

// PluginDirs reads the request's plugins (nil when it has none).
func (r *InitializeRequest) PluginDirs() ([]PluginDir, error) {
	dirs, err := parsePluginList("plugins", r.Plugins, false)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return dirs, nil
}

// HookMatcher is one matcher of the client's hooks: which callbacks run
// for which tool (or other match value), bounded by a timeout in seconds.
type HookMatcher struct {
	Matcher         string   `json:"matcher"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         float64  `json:"timeout"`
	// OnFailure is "block" when a failed callback must block what its
	// event guards; "" or "continue" lets it go ahead.
	OnFailure string `json:"onFailure"`
}

// SystemPromptText returns the system prompt the request sets, and whether
// it sets one.
func (r *InitializeRequest) SystemPromptText() (string, bool, error) {
	raw := r.SystemPrompt
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", false, errors.New("systemPrompt must be a string or a list of strings")
	}
	var kept []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n"), true, nil
}

// InitializeResponse is the answer to initialize: what the session offers.
type InitializeResponse struct {
	Commands              []CommandInfo `json:"commands"`
	Agents                []AgentInfo   `json:"agents"`
	OutputStyle           string        `json:"output_style"`
	AvailableOutputStyles []string      `json:"available_output_styles"`
	// UserOutputStylesDir is the folder of the user's own output styles
	// (Claude Code's config folder's output-styles/).
	UserOutputStylesDir   string      `json:"user_output_styles_dir,omitempty"`
	Models                []ModelInfo `json:"models"`
	Account               Account     `json:"account"`
	PID                   int         `json:"pid"`
	ClaudeCodeVersion     string      `json:"claude_code_version"`
	CurrentPermissionMode string      `json:"current_permission_mode,omitempty"`
	SessionState          string      `json:"session_state"`
	// HooksApplied says the request's hooks were registered (in place
	// of those of an earlier initialize); absent when it had none.
	HooksApplied *bool `json:"hooks_applied,omitempty"`
	// MCPServersApplied says whether the request's mcpServers were taken
	// at start-up; absent when it had none. The SDK ends a session whose
	// answer lacks it, as from a reins that cannot read them.
	MCPServersApplied *bool `json:"mcp_servers_applied,omitempty"`
	// PluginsApplied says whether the request's plugins were loaded at
	// start-up; absent when it had none.
	PluginsApplied *bool `json:"plugins_applied,omitempty"`
	// ManagedSettingsApplied, SettingsApplied and
	// DisallowedToolsApplied confirm that the request's managedSettings,
	// settings and disallowedTools were taken at start-up (the SDK ends
	// the session unless they were); absent when it sent none.
	ManagedSettingsApplied *bool `json:"managed_settings_applied,omitempty"`
	SettingsApplied        *bool `json:"settings_applied,omitempty"`
	DisallowedToolsApplied *bool `json:"disallowed_tools_applied,omitempty"`
	// HookOnFailureSupported says hook matchers' onFailure is honoured;
	// the SDK refuses a session with a "block" matcher without it.
	HookOnFailureSupported bool `json:"hook_on_failure_supported"`
	// FeedbackMode is {"kind": "disabled"} and AnalyticsDisabled true:
	// reins asks for no feedback and sends no analytics.
	FeedbackMode      FeedbackMode `json:"feedback_mode"`
	AnalyticsDisabled bool         `json:"analytics_disabled"`
	// The remote control flags are false: reins has no remote control.
	RemoteControlAutoEnable         bool `json:"remote_control_auto_enable"`
	RemoteControlAutoConnectDefault bool `json:"remote_control_auto_connect_default"`
	RemoteControlAvailable          bool `json:"remote_control_available"`
	RemoteControlAutoOnByDefault    bool `json:"remote_control_auto_on_by_default"`
	IDERemoteControlAutoEnableGate  bool `json:"ide_rc_auto_enable_gate"`
	streamjson.FastMode
	// Capabilities are the protocol capabilities reins implements (as
	// in the init line: none).
	Capabilities []string `json:"capabilities"`
}

// FeedbackMode is the initialize answer's feedback_mode.
type FeedbackMode struct {
	Kind string `json:"kind"`
}

// CommandInfo describes a slash command.
type CommandInfo struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	ArgumentHint string   `json:"argumentHint"`
	Aliases      []string `json:"aliases,omitempty"`
	// Builtin marks the commands reins itself defines.
	Builtin bool `json:"builtin,omitempty"`
}

// AgentInfo describes a sub-agent type.
type AgentInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Model       string `json:"model,omitempty"`
}

// ModelInfo describes a model choice.
type ModelInfo struct {
	Value         string `json:"value"`
	ResolvedModel string `json:"resolvedModel"`
	DisplayName   string `json:"displayName"`
	Description   string `json:"description"`
	// SupportsEffort and SupportedEffortLevels say which effort levels
	// the model takes (none for a model that refuses effort).
	SupportsEffort        bool     `json:"supportsEffort"`
	SupportedEffortLevels []string `json:"supportedEffortLevels,omitempty"`
	// SupportsAutoMode is true: auto mode's classifier reviews calls
	// whatever the session's model.
	SupportsAutoMode bool `json:"supportsAutoMode"`
}

// Account says where the credentials come from.
type Account struct {
	TokenSource  string `json:"tokenSource"`
	APIKeySource string `json:"apiKeySource"`
	APIProvider  string `json:"apiProvider"`
}

// MCPServerStatus is one server in the mcp_status answer.
type MCPServerStatus struct {
	Name       string         `json:"name"`
	Status     string         `json:"status"`
	ServerInfo *MCPServerInfo `json:"serverInfo,omitempty"`
	Error      string         `json:"error,omitempty"`
	Scope      string         `json:"scope,omitempty"`
	Tools      []MCPToolInfo  `json:"tools,omitempty"`
}

// MCPServerInfo is what a server calls itself.
type MCPServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// MCPToolInfo names one tool of a server.
type MCPToolInfo struct {
	Name string `json:"name"`
}

// control answers one control request from the client.
func (s *Server) control(m *Message) {
	if m.Subtype == "interrupt" {
		// Answered first, so the answer comes before the lines of the
		// turn it stops.
		s.cfg.Out.Line(streamjson.NewControlSuccess(m.RequestID, nil))
		s.interrupt()
		return
	}
	if asyncSubtypes[m.Subtype] {
		s.controlAsync(m)
		return
	}
	resp, err := s.handle(m)
	if err != nil {
		s.cfg.Out.Line(streamjson.NewControlError(m.RequestID, err.Error()))
		return
	}
	ok := streamjson.NewControlSuccess(m.RequestID, resp)
	if m.Subtype == "initialize" {
		// What the client was asked and has not answered, for a client
		// that joins (or rejoins) the session; reins asks no dialogs.
		perms, dialogs := s.peer.unanswered("can_use_tool"), []streamjson.ControlRequest{}
		ok.Response.PendingPermissionRequests, ok.Response.PendingUserDialogRequests = &perms, &dialogs
	}
	s.cfg.Out.Line(ok)
	if r, isMode := resp.(modeSet); isMode {
		// As Claude Code does, the switch is also announced as a status
		// line, after its answer.
		s.cfg.Out.Line(streamjson.NewPermissionStatus(s.cfg.Out.SessionID(), r.Mode))
	}
}

// modeSet is the answer to set_permission_mode: the mode now in force.
type modeSet struct {
	Mode string `json:"mode"`
}

// handle serves a control request and returns the response body.
func (s *Server) handle(m *Message) (any, error) {
	switch m.Subtype {
	case "initialize":
		return s.initialize(m.Request)
	case "set_permission_mode":
		return s.setPermissionMode(m.Request)
	case "set_model":
		return nil, s.setModel(m.Request)
	case "set_max_thinking_tokens":
		return nil, s.setMaxThinking(m.Request)
	case "mcp_status":
		list := append(s.configuredStatus(), s.sdkServerStatus()...)
		if list == nil {
			list = []MCPServerStatus{}
		}
		return map[string]any{"mcpServers": list}, nil
	case "mcp_toggle":
		return nil, s.mcpToggle(m.Request)
	case "rewind_files":
		return s.rewindFiles(m.Request)
	case "get_context_usage":
		return s.contextUsage(), nil
	case "stop_task":
		return nil, s.stopTask(m.Request)
	case "apply_flag_settings":
		return nil, s.applyFlagSettings(m.Request)
	case "update_settings":
		return nil, s.updateSettings(m.Request)
	case "get_settings":
		if s.cfg.GetSettings == nil {
			return nil, errors.New("get_settings: settings are not available in this session")
		}
		return s.cfg.GetSettings()
	case "list_permission_rules":
		if s.cfg.PermissionRules == nil {
			return nil, errors.New("list_permission_rules: permission rules are not available in this session")
		}
		return map[string]any{"state": s.cfg.PermissionRules()}, nil
	case "read_file":
		return s.readFile(m.Request)
	case "seed_read_state":
		return nil, s.seedReadState(m.Request)
	case "reload_skills":
		return map[string]any{"skills": s.reload().Skills}, nil
	case "reload_plugins":
		return s.reloadPlugins(m.Request)
	case "reload_output_styles":
		if s.cfg.OutputStyles == nil {
			return map[string]any{"available_output_styles": []string{"default"}}, nil
		}
		_, available := s.cfg.OutputStyles()
		return map[string]any{"available_output_styles": available}, nil
	case "background_tasks":
		return s.backgroundTasks(m.Request)
	case "rename_session":
		return nil, s.renameSession(m.Request)
	case "get_usage":
		return s.usage(), nil
	case "cancel_async_message":
		return s.cancelAsyncMessage(m.Request)
	case "set_mcp_permission_mode_override":
		return s.mcpModeOverride(m.Request)
	}
	return nil, fmt.Errorf("unsupported control request subtype %q", m.Subtype)
}

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var req InitializeRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("initialize: %s", fieldProblem(err))
	}
	if _, _, err := req.SystemPromptText(); err != nil {
		return nil, fmt.Errorf("initialize: %v", err)
	}
	var schema *structuredTool
	if len(req.JSONSchema) > 0 && string(req.JSONSchema) != "null" {
		t, err := newStructuredTool(req.JSONSchema)
		if err != nil {
			return nil, fmt.Errorf("initialize: jsonSchema: %v", err)
		}
		schema = t
	}
	s.mu.Lock()
	again := s.initialized
	s.initialized = true
	s.mu.Unlock()
	// A repeated initialize (the SDK's reinitialize) registers the
	// client's hooks again, in place of those it registered before, and
	// describes the session again; what else it carries was taken the
	// first time.
	req.Repeat = again
	if err := s.registerHooks(req.Hooks, again); err != nil {
		return nil, fmt.Errorf("initialize: %v", err)
	}
	if schema != nil && !again {
		s.mu.Lock()
		s.out = schema
		s.mu.Unlock()
	}
	if !again {
		s.startSDKServers(req.SDKMCPServers)
	}
	resp := &InitializeResponse{}
	if s.cfg.Initialize != nil {
		r, err := s.cfg.Initialize(&req)
		if err != nil {
			return nil, fmt.Errorf("initialize: %v", err)
		}
		if r != nil {
			resp = r
		}
	}
	s.completeInitialize(resp)
	if len(req.Hooks) > 0 {
		applied := true
		resp.HooksApplied = &applied
	}
	return resp, nil
}

// completeInitialize fills what the application left empty.
func (s *Server) completeInitialize(r *InitializeResponse) {
	if r.Commands == nil {
		r.Commands = []CommandInfo{}
	}
	if r.Agents == nil {
		r.Agents = []AgentInfo{}
	}
	if r.OutputStyle == "" {
		r.OutputStyle = "default"
	}
	if r.AvailableOutputStyles == nil {
		r.AvailableOutputStyles = []string{"default"}
	}
	if r.Models == nil {
		r.Models = s.models()
	}
	if r.Account.APIProvider == "" {
		r.Account.APIProvider = "firstParty"
	}
	if r.Account.TokenSource == "" {
		r.Account.TokenSource = "none"
	}
	r.HookOnFailureSupported = true
	r.FeedbackMode = FeedbackMode{Kind: "disabled"}
	r.AnalyticsDisabled = true
	r.FastMode = streamjson.FastModeOff()
	r.Capabilities = []string{}
	r.PID = os.Getpid()
	r.ClaudeCodeVersion = streamjson.ProtocolVersion
	r.SessionState = streamjson.StateIdle
}

// models lists the model choices: the session default and the aliases.
func (s *Server) models() []ModelInfo {
	cur := s.cfg.Session().Config().Model
	out := []ModelInfo{{Value: "default", ResolvedModel: s.cfg.Models.Resolve(cur), DisplayName: "Default",
		Description: "The model this session started with"}}
	for _, a := range []struct{ alias, name string }{{"opus", "Opus"}, {"sonnet", "Sonnet"}, {"haiku", "Haiku"}} {
		out = append(out, ModelInfo{Value: a.alias, ResolvedModel: s.cfg.Models.Resolve(a.alias), DisplayName: a.name,
			Description: "The latest " + a.name + " model"})
	}
	for i := range out {
		info := s.cfg.Models.Info(out[i].ResolvedModel)
		out[i].SupportsEffort, out[i].SupportedEffortLevels = info.SupportsEffort(), info.Efforts
		out[i].SupportsAutoMode = true
	}
	return out
}

// registerHooks adds a callback hook for every callback id of every
// matcher; with replace, the client's callback hooks registered before
// are dropped first.
func (s *Server) registerHooks(m map[string][]HookMatcher, replace bool) error {
	if len(m) == 0 {
		return nil
	}
	if s.cfg.Hooks == nil {
		return errors.New("hooks are not available in this session")
	}
	known := map[string]bool{}
	for _, e := range hooks.Events {
		known[string(e)] = true
	}
	for event, matchers := range m {
		for _, hm := range matchers {
			if hm.OnFailure != "" && hm.OnFailure != "continue" && hm.OnFailure != "block" {
				return fmt.Errorf("hooks.%s: onFailure %q: want continue or block", event, hm.OnFailure)
			}
		}
	}
	if replace {
		s.cfg.Hooks.Remove(func(h hooks.Hook) bool { return strings.HasPrefix(h.Key, callbackKeyPrefix) })
	}
	for event, matchers := range m {
		if !known[event] {
			s.warn("initialize: hooks for unknown event %q are ignored", event)
			continue
		}
		for _, hm := range matchers {
			block := hm.OnFailure == "block" && !failureIgnored[hooks.Event(event)]
			for _, id := range hm.HookCallbackIDs {
				if id == "" {
					return fmt.Errorf("hooks.%s: empty callback id", event)
				}
				s.cfg.Hooks.Add(hooks.Hook{Event: hooks.Event(event), Matcher: hm.Matcher,
					Handler: &callbackHook{s: s, id: id, block: block}, Key: callbackKeyPrefix + id, Name: id,
					Timeout: time.Duration(hm.Timeout * float64(time.Second))})
			}
		}
	}
	return nil
}

func (s *Server) setPermissionMode(raw json.RawMessage) (any, error) {
	var req struct {
		Mode json.RawMessage `json:"mode"`
	}
	json.Unmarshal(raw, &req)
	mode, ok := str(req.Mode)
	if !ok || mode == "" {
		return nil, errors.New("set_permission_mode: \"mode\" must be a string (default, acceptEdits, plan, auto, bypassPermissions, dontAsk)")
	}
	if s.cfg.SetPermissionMode == nil {
		return nil, errors.New("set_permission_mode: permission modes cannot be changed in this session")
	}
	now, err := s.cfg.SetPermissionMode(mode)
	if err != nil {
		return nil, fmt.Errorf("set_permission_mode: %v", err)
	}
	return modeSet{Mode: now}, nil
}

func (s *Server) setModel(raw json.RawMessage) error {
	var req struct {
		Model json.RawMessage `json:"model"`
	}
	json.Unmarshal(raw, &req)
	model := ""
	if len(req.Model) > 0 && string(req.Model) != "null" {
		m, ok := str(req.Model)
		if !ok {
			return fmt.Errorf("set_model: \"model\" must be a string or null, not %s", req.Model)
		}
		model = strings.TrimSpace(m)
	}
	if model == "default" {
		model = ""
	}
	s.cfg.Session().SetModel(model)
	return nil
}

func (s *Server) setMaxThinking(raw json.RawMessage) error {
	var req struct {
		N       json.RawMessage `json:"max_thinking_tokens"`
		Display json.RawMessage `json:"thinking_display"`
	}
	json.Unmarshal(raw, &req)
	n := 0
	if len(req.N) > 0 && string(req.N) != "null" {
		var f float64
		if err := json.Unmarshal(req.N, &f); err != nil || f < 0 || f != float64(int(f)) {
			return fmt.Errorf("set_max_thinking_tokens: \"max_thinking_tokens\" must be a whole number of tokens or null, not %s", req.N)
		}
		n = int(f)
	}
	// thinking_display: a mode replaces the session's, null goes back to
	// the one it started with, and leaving it out keeps the current one.
	var display *string
	if len(req.Display) > 0 {
		d := s.cfg.ThinkingDisplay
		if string(req.Display) != "null" {
			v, ok := str(req.Display)
			if !ok || (v != "summarized" && v != "omitted") {
				return fmt.Errorf("set_max_thinking_tokens: \"thinking_display\" must be \"summarized\", \"omitted\" or null, not %s", req.Display)
			}
			d = v
		}
		display = &d
	}
	sess := s.cfg.Session()
	if len(req.N) > 0 {
		sess.SetMaxThinkingTokens(n)
	}
	if display != nil {
		sess.SetThinkingDisplay(*display)
	}
	return nil
}

// mcpReconnect starts reconnecting the server mcp_reconnect names and
// returns a function that waits (bounded) for it to settle and says how
// it went: the answer comes once the server is connected again, or
// with the reason it is not.
func (s *Server) mcpReconnect(raw json.RawMessage) (func() error, error) {
	var req struct {
		Name json.RawMessage `json:"serverName"`
	}
	json.Unmarshal(raw, &req)
	name, ok := str(req.Name)
	if !ok || name == "" {
		return nil, errors.New("mcp_reconnect: \"serverName\" must be a string")
	}
	var await func(ctx context.Context) (mcp.ServerStatus, bool)
	switch d := s.dynServer(name); {
	case d != nil && d.mgr.Reconnect(name):
		await = func(ctx context.Context) (mcp.ServerStatus, bool) { return d.mgr.WaitServer(ctx, name) }
	case s.cfg.MCPReconnect != nil && !s.released(name) && s.cfg.MCPReconnect(name):
		if s.cfg.MCPAwait != nil {
			await = func(ctx context.Context) (mcp.ServerStatus, bool) { return s.cfg.MCPAwait(ctx, name) }
		}
	default:
		return nil, fmt.Errorf("mcp_reconnect: no MCP server named %q", name)
	}
	return func() error {
		if await == nil {
			return nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), sdkMCPWait)
		defer cancel()
		st, ok := await(ctx)
		switch {
		case !ok || st.State == mcp.StateConnected:
			return nil
		case st.State == mcp.StatePending:
			return fmt.Errorf("mcp_reconnect: MCP server %q is still connecting after %s", name, sdkMCPWait)
		case st.Err != "":
			return fmt.Errorf("mcp_reconnect: MCP server %q did not reconnect (%s: %s)", name, st.State, st.Err)
		}
		return fmt.Errorf("mcp_reconnect: MCP server %q did not reconnect (%s)", name, st.State)
	}, nil
}

// CheckpointingOff is rewind_files's answer in a session that keeps no
// file checkpoints.
const CheckpointingOff = "file checkpointing is not enabled (start the session with enableFileCheckpointing)"

// rewindFiles answers rewind_files: the files changed since a user
// message go back as they were (or, with dry_run, what would change).
func (s *Server) rewindFiles(raw json.RawMessage) (any, error) {
	var req struct {
		ID     json.RawMessage `json:"user_message_id"`
		DryRun bool            `json:"dry_run"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("rewind_files: %v", err)
	}
	id, ok := str(req.ID)
	if !ok || id == "" {
		return nil, errors.New("rewind_files: \"user_message_id\" must be a string")
	}
	if s.cfg.RewindFiles == nil {
		return RewindResult{Error: CheckpointingOff}, nil
	}
	return s.cfg.RewindFiles(id, req.DryRun), nil
}

// mcpToggle turns one of the configured servers, or one of the client's
// own, on or off.
func (s *Server) mcpToggle(raw json.RawMessage) error {
	var req struct {
		Name    json.RawMessage `json:"serverName"`
		Enabled *bool           `json:"enabled"`
	}
	json.Unmarshal(raw, &req)
	name, ok := str(req.Name)
	if !ok || name == "" {
		return errors.New("mcp_toggle: \"serverName\" must be a string")
	}
	if req.Enabled == nil {
		return errors.New("mcp_toggle: \"enabled\" must be true or false")
	}
	if d := s.dynServer(name); d != nil {
		if err := d.mgr.SetEnabled(name, *req.Enabled); err != nil {
			return fmt.Errorf("mcp_toggle: %v", err)
		}
		return nil
	}
	if s.cfg.MCPToggle != nil && !s.released(name) {
		if found, err := s.cfg.MCPToggle(name, *req.Enabled); found || err != nil {
			if err != nil {
				return fmt.Errorf("mcp_toggle: %v", err)
			}
			return nil
		}
	}
	return fmt.Errorf("mcp_toggle: no MCP server named %q", name)
}

// backgroundTasks moves running foreground tool calls to the background:
// the one whose tool_use block has tool_use_id, or every one without it.
// The answer says whether any moved.
func (s *Server) backgroundTasks(raw json.RawMessage) (any, error) {
	var req struct {
		ID json.RawMessage `json:"tool_use_id"`
	}
	json.Unmarshal(raw, &req)
	id := ""
	if len(req.ID) > 0 && string(req.ID) != "null" {
		var ok bool
		if id, ok = str(req.ID); !ok {
			return nil, errors.New("background_tasks: \"tool_use_id\" must be a string")
		}
	}
	if s.cfg.MoveToBackground == nil {
		return nil, errors.New("background_tasks: background tasks are not available in this session")
	}
	return map[string]any{"backgrounded": s.cfg.MoveToBackground(id)}, nil
}

func (s *Server) stopTask(raw json.RawMessage) error {
	var req struct {
		ID json.RawMessage `json:"task_id"`
	}
	json.Unmarshal(raw, &req)
	id, ok := str(req.ID)
	if !ok || id == "" {
		return errors.New("stop_task: \"task_id\" must be a string")
	}
	if s.cfg.StopTask == nil {
		return fmt.Errorf("stop_task: no task %q", id)
	}
	if err := s.cfg.StopTask(id); err != nil {
		return fmt.Errorf("stop_task: %v", err)
	}
	return nil
}

// fieldProblem says what is wrong with a request that does not decode, in
// the request's terms: a member of the wrong type is named with the JSON
// it needs, not with the Go type it would have filled.
func fieldProblem(err error) string {
	msg, _ := jsonkind.FieldProblem(err, "")
	return msg
}
