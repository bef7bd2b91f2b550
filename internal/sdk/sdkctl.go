package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"reins/internal/mcp"
	"reins/internal/streamjson"
)

// DefaultReadFileMax is how many bytes read_file returns when the request
// sets no max_bytes (the Agent SDK's default).
const DefaultReadFileMax = 1 << 20

// ReadFileRequest is a read_file request.
type ReadFileRequest struct {
	// Path is the file, absolute or relative to the session's folder.
	Path string
	// MaxBytes caps what is read (DefaultReadFileMax when the request
	// sets none).
	MaxBytes int
	// Base64 asks for the bytes in base64 rather than as UTF-8 text.
	Base64 bool
}

// ReadFileResult answers read_file, with the Agent SDK's field names.
type ReadFileResult struct {
	Contents  string `json:"contents"`
	AbsPath   string `json:"absPath"`
	Truncated bool   `json:"truncated,omitempty"`
	// Encoding is "base64" for a base64 answer, absent for UTF-8.
	Encoding string `json:"encoding,omitempty"`
	// Lossy is set on every UTF-8 answer: true when bytes that were not
	// UTF-8 were replaced.
	Lossy *bool `json:"lossy,omitempty"`
}

// Reloaded is what Config.Reload found on disk.
type Reloaded struct {
	// Commands are the user-invocable commands, skills included.
	Commands []CommandInfo
	// Skills are the skills alone.
	Skills []CommandInfo
	Agents []AgentInfo
	// Plugins are the loaded plugins; PluginErrors counts what failed to
	// load (reload_plugins).
	Plugins      []streamjson.Plugin
	PluginErrors int
	// PluginServers are the MCP servers of the plugins now loaded
	// (reload_plugins): those not running yet start, and those a reload
	// started that are gone stop.
	PluginServers []mcp.Server
}

// PluginDir is a plugin folder an SDK client adds (reload_plugins
// add_plugins): an absolute path, and whether the client runs the
// plugin's MCP servers itself (skipMcpDiscovery).
type PluginDir struct {
	Path  string
	NoMCP bool
}

// asyncSubtypes are the control requests answered from a goroutine of
// their own: they wait on MCP servers, which may be the client's own and
// answer through the input this goroutine reads, or on a model.
var asyncSubtypes = map[string]bool{"mcp_set_servers": true, "mcp_read_resource": true, "generate_session_title": true, "mcp_reconnect": true}

// controlAsync answers m from a goroutine of its own; Run waits for it.
// The synchronous part of mcp_set_servers (which servers stop and start)
// is done before it returns, so a message that follows sees them.
func (s *Server) controlAsync(m *Message) {
	var answer func() (any, error)
	switch m.Subtype {
	case "mcp_set_servers":
		wait, err := s.setMCPServers(m.Request)
		if err != nil {
			s.cfg.Out.Line(streamjson.NewControlError(m.RequestID, err.Error()))
			return
		}
		answer = func() (any, error) { return wait(), nil }
	case "mcp_reconnect":
		wait, err := s.mcpReconnect(m.Request)
		if err != nil {
			s.cfg.Out.Line(streamjson.NewControlError(m.RequestID, err.Error()))
			return
		}
		answer = func() (any, error) { return nil, wait() }
	case "mcp_read_resource":
		answer = func() (any, error) { return s.mcpReadResource(m.Request) }
	case "generate_session_title":
		answer = func() (any, error) { return s.generateTitle(m.Request) }
	}
	s.async.Add(1)
	go func() {
		defer s.async.Done()
		resp, err := answer()
		if err != nil {
			s.cfg.Out.Line(streamjson.NewControlError(m.RequestID, err.Error()))
			return
		}
		s.cfg.Out.Line(streamjson.NewControlSuccess(m.RequestID, resp))
	}()
}

// object reads a request field that must be a JSON object.
func object(raw json.RawMessage, op, field string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return nil, fmt.Errorf("%s: %q must be an object", op, field)
	}
	return m, nil
}

func (s *Server) applyFlagSettings(raw json.RawMessage) error {
	var req struct {
		Settings json.RawMessage `json:"settings"`
	}
	json.Unmarshal(raw, &req)
	overlay, err := object(req.Settings, "apply_flag_settings", "settings")
	if err != nil {
		return err
	}
	if s.cfg.ApplyFlagSettings == nil {
		return errors.New("apply_flag_settings: settings cannot be changed in this session")
	}
	if err := s.cfg.ApplyFlagSettings(overlay); err != nil {
		return fmt.Errorf("apply_flag_settings: %v", err)
	}
	return nil
}

func (s *Server) updateSettings(raw json.RawMessage) error {
	var req struct {
		Source   json.RawMessage `json:"source"`
		Settings json.RawMessage `json:"settings"`
	}
	json.Unmarshal(raw, &req)
	source, _ := str(req.Source)
	if source != "localSettings" && source != "userSettings" {
		return fmt.Errorf("update_settings: \"source\" must be localSettings or userSettings, not %s", orNothing(req.Source))
	}
	values, err := object(req.Settings, "update_settings", "settings")
	if err != nil {
		return err
	}
	if s.cfg.UpdateSettings == nil {
		return errors.New("update_settings: settings files cannot be written in this session")
	}
	if err := s.cfg.UpdateSettings(source, values); err != nil {
		return fmt.Errorf("update_settings: %v", err)
	}
	return nil
}

// orNothing shows a request value in an error, or says it is missing.
func orNothing(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	return string(raw)
}

func (s *Server) readFile(raw json.RawMessage) (any, error) {
	var req struct {
		Path     json.RawMessage `json:"path"`
		MaxBytes json.RawMessage `json:"max_bytes"`
		Encoding json.RawMessage `json:"encoding"`
	}
	json.Unmarshal(raw, &req)
	path, ok := str(req.Path)
	if !ok || strings.TrimSpace(path) == "" {
		return nil, errors.New("read_file: \"path\" must be a file path")
	}
	r := ReadFileRequest{Path: path, MaxBytes: DefaultReadFileMax}
	if len(req.MaxBytes) > 0 && string(req.MaxBytes) != "null" {
		var f float64
		if err := json.Unmarshal(req.MaxBytes, &f); err != nil || f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
			return nil, fmt.Errorf("read_file: \"max_bytes\" must be a whole number of bytes, at least 1, not %s", req.MaxBytes)
		}
		r.MaxBytes = int(f)
	}
	if len(req.Encoding) > 0 && string(req.Encoding) != "null" {
		enc, _ := str(req.Encoding)
		switch enc {
		case "utf-8", "utf8":
		case "base64":
			r.Base64 = true
		default:
			return nil, fmt.Errorf("read_file: \"encoding\" must be utf-8 or base64, not %s", req.Encoding)
		}
	}
	if s.cfg.ReadFile == nil {
		return nil, errors.New("read_file: files cannot be read in this session")
	}
	res, err := s.cfg.ReadFile(r)
	if err != nil {
		return nil, fmt.Errorf("read_file: %v", err)
	}
	return res, nil
}

func (s *Server) seedReadState(raw json.RawMessage) error {
	var req struct {
		Path  json.RawMessage `json:"path"`
		MTime json.RawMessage `json:"mtime"`
	}
	json.Unmarshal(raw, &req)
	path, ok := str(req.Path)
	if !ok || strings.TrimSpace(path) == "" {
		return errors.New("seed_read_state: \"path\" must be a file path")
	}
	var mtime float64
	if err := json.Unmarshal(req.MTime, &mtime); err != nil || mtime < 0 || math.IsInf(mtime, 0) {
		return fmt.Errorf("seed_read_state: \"mtime\" must be the file's modification time in milliseconds, not %s", orNothing(req.MTime))
	}
	if s.cfg.SeedReadState == nil {
		return errors.New("seed_read_state: this session keeps no record of files read")
	}
	if err := s.cfg.SeedReadState(path, int64(math.Floor(mtime))); err != nil {
		return fmt.Errorf("seed_read_state: %v", err)
	}
	return nil
}

// reload re-reads commands, skills and agents (empty lists when the
// application cannot).
func (s *Server) reload() Reloaded {
	var r Reloaded
	if s.cfg.Reload != nil {
		r = s.cfg.Reload()
	}
	if r.Commands == nil {
		r.Commands = []CommandInfo{}
	}
	if r.Skills == nil {
		r.Skills = []CommandInfo{}
	}
	if r.Agents == nil {
		r.Agents = []AgentInfo{}
	}
	return r
}

// reloadPlugins answers reload_plugins: the plugins are found again
// (with the folders add_plugins names joining them, as --plugin-dir
// would), and with them the commands, skills, agents and hooks.
func (s *Server) reloadPlugins(raw json.RawMessage) (any, error) {
	var req struct {
		Add json.RawMessage `json:"add_plugins"`
	}
	json.Unmarshal(raw, &req)
	add, err := parsePluginList("add_plugins", req.Add, true)
	if err != nil {
		return nil, fmt.Errorf("reload_plugins: %w", err)
	}
	var r Reloaded
	if s.cfg.ReloadPlugins != nil {
		if r, err = s.cfg.ReloadPlugins(add); err != nil {
			return nil, fmt.Errorf("reload_plugins: %w", err)
		}
		s.syncPluginServers(r.PluginServers)
	} else {
		if len(add) > 0 {
			return nil, errors.New("reload_plugins: this session cannot load plugins, so add_plugins cannot be loaded")
		}
		r = s.reload()
	}
	if r.Commands == nil {
		r.Commands = []CommandInfo{}
	}
	if r.Agents == nil {
		r.Agents = []AgentInfo{}
	}
	if r.Plugins == nil {
		r.Plugins = []streamjson.Plugin{}
	}
	servers := append(s.configuredStatus(), s.sdkServerStatus()...)
	if servers == nil {
		servers = []MCPServerStatus{}
	}
	return map[string]any{"commands": r.Commands, "agents": r.Agents, "plugins": r.Plugins,
		"mcpServers": servers, "error_count": r.PluginErrors}, nil
}

// parsePluginList reads a list of plugins in the SDK's shape, {"type":
// "local", "path": ..., "skipMcpDiscovery": bool}, as field (plugins of
// initialize, add_plugins of reload_plugins) gives it; abs requires
// absolute paths.
func parsePluginList(field string, raw json.RawMessage, abs bool) ([]PluginDir, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, fmt.Errorf("%q must be a list of {\"type\": \"local\", \"path\": ...}", field)
	}
	var out []PluginDir
	for i, it := range items {
		var p struct {
			Type    string `json:"type"`
			Path    string `json:"path"`
			SkipMCP bool   `json:"skipMcpDiscovery"`
		}
		if err := json.Unmarshal(it, &p); err != nil {
			return nil, fmt.Errorf("%s[%d]: want {\"type\": \"local\", \"path\": ...}", field, i)
		}
		switch {
		case p.Type != "local":
			return nil, fmt.Errorf("%s[%d]: type %q is not supported (only \"local\")", field, i, p.Type)
		case p.Path == "":
			return nil, fmt.Errorf("%s[%d]: path is empty", field, i)
		case abs && !filepath.IsAbs(p.Path):
			return nil, fmt.Errorf("%s[%d]: path %q must be absolute", field, i, p.Path)
		}
		out = append(out, PluginDir{Path: p.Path, NoMCP: p.SkipMCP})
	}
	return out, nil
}

// mcpReadResource answers mcp_read_resource. As in Claude Code, only ui://
// resources (MCP Apps widgets) are served, from servers reins connects to.
func (s *Server) mcpReadResource(raw json.RawMessage) (any, error) {
	var req struct {
		Server json.RawMessage `json:"serverName"`
		URI    json.RawMessage `json:"uri"`
	}
	json.Unmarshal(raw, &req)
	name, ok := str(req.Server)
	if !ok || name == "" {
		return nil, errors.New("mcp_read_resource: \"serverName\" must be a string")
	}
	uri, ok := str(req.URI)
	if !ok || uri == "" {
		return nil, errors.New("mcp_read_resource: \"uri\" must be a string")
	}
	if !strings.HasPrefix(strings.ToLower(uri), "ui://") {
		return nil, fmt.Errorf("mcp_read_resource: %s is refused: only ui:// resources can be read this way", uri)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sdkMCPWait)
	defer cancel()
	var res any
	var err error
	switch d := s.dynServer(name); {
	case d != nil && d.conf.Config.Transport() == mcp.TransportSDK:
		return nil, fmt.Errorf("mcp_read_resource: MCP server %q runs in the SDK client; read the resource there", name)
	case d != nil:
		res, err = d.mgr.ReadResource(ctx, name, uri)
	case s.cfg.MCPReadResource != nil && !s.released(name):
		res, err = s.cfg.MCPReadResource(ctx, name, uri)
	default:
		err = fmt.Errorf("no MCP server named %q", name)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp_read_resource: %v", err)
	}
	// The answer is the result's contents, without the other members
	// the MCP library adds.
	var out struct {
		Contents json.RawMessage `json:"contents"`
	}
	if b, err := json.Marshal(res); err != nil || json.Unmarshal(b, &out) != nil || len(out.Contents) == 0 || string(out.Contents) == "null" {
		out.Contents = json.RawMessage("[]")
	}
	return out, nil
}

// renameSession answers rename_session: the title is saved with the
// session's transcript.
func (s *Server) renameSession(raw json.RawMessage) error {
	var req struct {
		Title     json.RawMessage `json:"title"`
		SessionID json.RawMessage `json:"session_id"`
	}
	json.Unmarshal(raw, &req)
	title, ok := str(req.Title)
	if !ok || strings.TrimSpace(title) == "" {
		return errors.New("rename_session: \"title\" must be a non-empty string")
	}
	if id := optString(req.SessionID); id != "" && id != s.cfg.Out.SessionID() {
		return fmt.Errorf("rename_session: session %s is no longer this process's session (now %s)", id, s.cfg.Out.SessionID())
	}
	if s.cfg.RenameSession == nil {
		return errors.New("rename_session: sessions cannot be renamed here")
	}
	if err := s.cfg.RenameSession(strings.TrimSpace(title)); err != nil {
		return fmt.Errorf("rename_session: %v", err)
	}
	return nil
}

// generateTitle answers generate_session_title: a short title for the
// description, saved as the session's title when persist is set.
func (s *Server) generateTitle(raw json.RawMessage) (any, error) {
	var req struct {
		Description json.RawMessage `json:"description"`
		Persist     bool            `json:"persist"`
	}
	json.Unmarshal(raw, &req)
	desc, ok := str(req.Description)
	if !ok || strings.TrimSpace(desc) == "" {
		return nil, errors.New("generate_session_title: \"description\" must be a non-empty string")
	}
	if s.cfg.GenerateTitle == nil {
		return nil, errors.New("generate_session_title: no model is available for titles in this session")
	}
	ctx, cancel := context.WithTimeout(context.Background(), titleWait)
	defer cancel()
	title, err := s.cfg.GenerateTitle(ctx, desc)
	if err != nil {
		return nil, fmt.Errorf("generate_session_title: %v", err)
	}
	if req.Persist {
		if s.cfg.RenameSession == nil {
			return nil, errors.New("generate_session_title: sessions cannot be renamed here")
		}
		if err := s.cfg.RenameSession(title); err != nil {
			return nil, fmt.Errorf("generate_session_title: %v", err)
		}
	}
	return map[string]string{"title": title}, nil
}

// titleWait bounds the model call of generate_session_title.
const titleWait = 60 * time.Second

// Usage answers get_usage, with the Agent SDK's field names. reins counts
// no changed lines and knows no subscription plan: those stay zero and
// null.
type Usage struct {
	Session             SessionUsage `json:"session"`
	SubscriptionType    *string      `json:"subscription_type"`
	RateLimitsAvailable bool         `json:"rate_limits_available"`
	RateLimits          any          `json:"rate_limits"`
	Behaviors           any          `json:"behaviors"`
}

// SessionUsage is the session part of Usage.
type SessionUsage struct {
	TotalCostUSD       float64                          `json:"total_cost_usd"`
	TotalAPIDurationMS int64                            `json:"total_api_duration_ms"`
	TotalDurationMS    int64                            `json:"total_duration_ms"`
	TotalLinesAdded    int                              `json:"total_lines_added"`
	TotalLinesRemoved  int                              `json:"total_lines_removed"`
	ModelUsage         map[string]streamjson.ModelUsage `json:"model_usage"`
}

func (s *Server) usage() *Usage {
	t := s.cfg.Session().Totals()
	return &Usage{Session: SessionUsage{TotalCostUSD: t.Cost, TotalAPIDurationMS: t.APITime.Milliseconds(),
		TotalDurationMS: time.Since(s.started).Milliseconds(), ModelUsage: streamjson.ModelUsages(t.ByModel)}}
}

// cancelAsyncMessage drops a queued user message by its uuid before its
// turn starts; it reports whether one was dropped.
func (s *Server) cancelAsyncMessage(raw json.RawMessage) (any, error) {
	var req struct {
		ID json.RawMessage `json:"message_uuid"`
	}
	json.Unmarshal(raw, &req)
	id, ok := str(req.ID)
	if !ok || id == "" {
		return nil, errors.New("cancel_async_message: \"message_uuid\" must be a string")
	}
	cancelled := false
	s.mu.Lock()
	for i, it := range s.queue {
		if it.in != nil && !it.notice && it.in.UUID == id {
			s.queue = append(s.queue[:i:i], s.queue[i+1:]...)
			cancelled = true
			break
		}
	}
	s.mu.Unlock()
	return map[string]bool{"cancelled": cancelled}, nil
}

// mcpModeOverride answers set_mcp_permission_mode_override. The override
// only narrows: "default" has a server's tools asked about even under
// bypassPermissions, null clears it. "auto" needs Claude Code's
// auto-mode classifier, which reins does not have, and is refused. A
// name no server has yet is kept, with a warning.
func (s *Server) mcpModeOverride(raw json.RawMessage) (any, error) {
	var req struct {
		Server json.RawMessage `json:"serverName"`
		Mode   json.RawMessage `json:"mode"`
	}
	json.Unmarshal(raw, &req)
	name, ok := str(req.Server)
	if !ok || name == "" {
		return nil, errors.New("set_mcp_permission_mode_override: \"serverName\" must be a string")
	}
	ask := false
	switch mode := string(req.Mode); mode {
	case `"default"`:
		ask = true
	case "null", "":
	case `"auto"`:
		return nil, errors.New("set_mcp_permission_mode_override: mode \"auto\" needs the auto-mode classifier, which reins does not have; use \"default\" or null")
	default:
		return nil, fmt.Errorf("set_mcp_permission_mode_override: \"mode\" must be \"default\", \"auto\" or null, not %s", mode)
	}
	if s.cfg.MCPAskAlways == nil {
		return nil, errors.New("set_mcp_permission_mode_override: permissions cannot be changed in this session")
	}
	s.cfg.MCPAskAlways(name, ask)
	resp := map[string]string{}
	known := s.dynServer(name) != nil
	for _, st := range s.configuredStatus() {
		known = known || st.Name == name
	}
	if !known && ask {
		resp["warning"] = fmt.Sprintf("no MCP server is named %q yet; the override applies once one with that name connects", name)
	}
	return resp, nil
}
