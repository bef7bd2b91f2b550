package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/sdk"
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
	var schema json.RawMessage
	if strings.TrimSpace(o.JSONSchema) != "" {
		schema = json.RawMessage(o.JSONSchema)
		if err := sdk.ParseSchema(schema); err != nil {
			return usageError{"--json-schema: " + err.Error()}
		}
	}
	a, err := newApp(ctx, env, o)
	if err != nil {
		return err
	}
	defer a.close()
	w := streamjson.NewWriter(env.Stdout, streamjson.Options{SessionID: a.sessionID, Partial: o.Partial, Replay: o.ReplayUser})
	f := &sdkFront{a: a, mode: a.permMode}

	var srv *sdk.Server
	hcfg := hooks.Config{ProjectDir: a.cwd}
	if o.HookEvents {
		hcfg.Notify = func(p hooks.Progress) { srv.HookProgress(p) }
	}
	f.hooks = hooks.New(hcfg)
	srv = sdk.New(sdk.Config{
		In: env.Stdin, Out: w, Stderr: env.Stderr,
		Session:           func() *engine.Session { return f.session() },
		Models:            a.models,
		Init:              f.initLine,
		BeforeTurn:        f.beforeTurn,
		Hooks:             f.hooks,
		Initialize:        f.initialize,
		SetPermissionMode: f.setMode,
		MCPStatus:         f.mcpStatus,
		MCPReconnect:      func(name string) bool { return f.mcp != nil && f.mcp.Reconnect(name) },
		JSONSchema:        schema,
		MaxBudgetUSD:      o.MaxBudgetUSD,
		Logger:            a.logger,
	})
	f.srv = srv

	mcfg, err := mcp.Load(mcp.LoadOptions{Cwd: a.cwd, Home: a.home, ConfigDir: a.configDir, MCPConfig: o.MCPConfigs, Strict: o.StrictMCP})
	if err != nil {
		return usageError{"--mcp-config: " + err.Error()}
	}
	for _, wmsg := range mcfg.Warnings {
		fmt.Fprintf(env.Stderr, "reins: warning: %s\n", wmsg)
	}
	if len(mcfg.Servers) > 0 {
		f.mcp = mcp.NewManager(mcp.Options{Servers: mcfg.Servers, Cwd: a.cwd, SDK: srv.MCPHost(),
			ClientName: "reins", ClientVersion: Version, Logger: a.logger})
		defer f.mcp.Close()
	}

	var ask engine.Asker
	switch o.PromptTool {
	case "":
	case "stdio":
		ask = srv.Asker()
	default:
		ask = &sdk.ToolAsker{Name: o.PromptTool, Lookup: f.lookup}
	}
	f.gate = &sdkGate{base: a.gate.(*simpleGate), hooks: f.hooks, asker: ask, sessionID: a.sessionID, cwd: a.cwd, mode: f.currentMode}
	cfg := a.sess.Config()
	cfg.Gate = f.gate
	cfg.Tools = f.tools
	f.setSession(engine.New(cfg))

	err = srv.Run(ctx)
	if ctx.Err() != nil {
		return exitError{130}
	}
	return err
}

// sdkFront holds the pieces of an SDK-mode session.
type sdkFront struct {
	a     *app
	srv   *sdk.Server
	hooks *hooks.Runner
	mcp   *mcp.Manager // nil without MCP servers
	gate  *sdkGate

	mcpStart sync.Once

	mu   sync.Mutex // guards sess and mode
	sess *engine.Session
	mode string
}

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

func (f *sdkFront) currentMode() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mode
}

func (f *sdkFront) setMode(mode string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	if m == permission.ModeBypass && !f.a.opts.AllowSkipPerms && !f.a.opts.SkipPerms {
		return fmt.Errorf("bypassPermissions needs --allow-dangerously-skip-permissions or --dangerously-skip-permissions")
	}
	f.mu.Lock()
	f.mode = string(m)
	f.mu.Unlock()
	return nil
}

// startMCP connects the MCP servers once, in the background.
func (f *sdkFront) startMCP() {
	if f.mcp != nil {
		f.mcpStart.Do(f.mcp.Start)
	}
}

// beforeTurn waits (bounded) for MCP servers still connecting, so their
// tools are in the turn.
func (f *sdkFront) beforeTurn(ctx context.Context) {
	if f.mcp == nil {
		return
	}
	f.startMCP()
	wctx, cancel := context.WithTimeout(ctx, sdkMCPWait)
	defer cancel()
	f.mcp.Wait(wctx)
}

// tools are a turn's tools: built-ins, connected MCP servers' tools and
// the protocol's own (StructuredOutput).
func (f *sdkFront) tools(context.Context) engine.ToolSet {
	all := append([]tool.Tool(nil), f.a.tools...)
	if f.mcp != nil {
		all = append(all, f.mcp.Snapshot().Tools...)
	}
	all = append(all, f.srv.Tools()...)
	return engine.ToolSet{Tools: all}
}

// lookup finds a tool of the current tool set by name.
func (f *sdkFront) lookup(name string) (tool.Tool, bool) {
	for _, t := range f.tools(context.Background()).Tools {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

func (f *sdkFront) initLine() *streamjson.Init {
	in := f.a.initMessage()
	in.Tools = []string{}
	for _, t := range f.tools(context.Background()).Tools {
		in.Tools = append(in.Tools, t.Name())
	}
	in.PermissionMode = f.currentMode()
	in.Model = f.session().Model()
	in.MCPServers = []streamjson.MCPStatus{}
	for _, st := range f.mcpStatus() {
		in.MCPServers = append(in.MCPServers, streamjson.MCPStatus{Name: st.Name, Status: st.Status})
	}
	return in
}

func (f *sdkFront) mcpStatus() []sdk.MCPServerStatus {
	if f.mcp == nil {
		return nil
	}
	var out []sdk.MCPServerStatus
	for _, st := range f.mcp.Status() {
		s := sdk.MCPServerStatus{Name: st.Name, Status: string(st.State), Error: st.Err, Scope: string(st.Scope)}
		if st.ServerName != "" {
			s.ServerInfo = &sdk.MCPServerInfo{Name: st.ServerName, Version: st.ServerVersion}
		}
		for _, t := range st.Tools {
			s.Tools = append(s.Tools, sdk.MCPToolInfo{Name: t})
		}
		out = append(out, s)
	}
	return out
}

// initialize applies the client's system prompt options (the session is
// rebuilt before its first turn) and describes the session.
func (f *sdkFront) initialize(req *sdk.InitializeRequest) (*sdk.InitializeResponse, error) {
	f.startMCP()
	text, set, _ := req.SystemPromptText()
	if set || req.AppendSystemPrompt != nil {
		cfg := f.session().Config()
		var sys []llm.SystemBlock
		if set {
			if strings.TrimSpace(text) != "" {
				sys = append(sys, llm.SystemBlock{Text: text, Cache: true})
			}
		} else {
			sys = append(sys, cfg.System...)
		}
		if req.AppendSystemPrompt != nil && strings.TrimSpace(*req.AppendSystemPrompt) != "" {
			sys = append(sys, llm.SystemBlock{Text: *req.AppendSystemPrompt, Cache: true})
		}
		cfg.System = sys
		f.setSession(engine.New(cfg))
	}
	return &sdk.InitializeResponse{
		Account:               sdk.Account{APIKeySource: f.a.keySource},
		CurrentPermissionMode: f.currentMode(),
	}, nil
}

// sdkGate is SDK mode's gate until the engine's permission gate is wired:
// the client's PreToolUse hooks first, then the simple rules, asking the
// client (can_use_tool) about calls that would need approval.
type sdkGate struct {
	base      *simpleGate
	hooks     *hooks.Runner
	asker     engine.Asker // nil: no one to ask
	sessionID string
	cwd       string
	mode      func() string
}

func (g *sdkGate) Before(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	name := t.Name()
	mode := g.mode()
	if g.base.denied[name] {
		return tool.Verdict{Denied: true, Reason: fmt.Sprintf("Permission to use %s has been denied by the user's settings.", name)}
	}
	res := g.hooks.Run(ctx, hooks.Input{Event: hooks.PreToolUse, SessionID: g.sessionID, Cwd: g.cwd,
		PermissionMode: mode, ToolName: name, ToolInput: input, ToolUseID: c.ID})
	if res.Stop {
		return tool.Verdict{Reason: firstNonEmpty(res.StopReason, "A hook stopped the session."), Interrupt: true}
	}
	if res.Decision == hooks.DecisionDeny {
		return tool.Verdict{Denied: true, Reason: firstNonEmpty(res.DecisionReason, res.Reason, fmt.Sprintf("A PreToolUse hook denied %s.", name))}
	}
	if res.Block {
		return tool.Verdict{Reason: firstNonEmpty(res.Reason, fmt.Sprintf("A PreToolUse hook blocked %s.", name))}
	}
	var changed json.RawMessage
	if res.UpdatedInput != nil {
		changed, input = res.UpdatedInput, res.UpdatedInput
	}
	allow := tool.Verdict{Allow: true, Input: changed, Context: res.AdditionalContext}
	switch {
	case res.Decision == hooks.DecisionAllow:
		return allow
	case mode == "bypassPermissions", g.base.allowed[name], mode != "plan" && t.IsReadOnly(input) && res.Decision != hooks.DecisionAsk:
		return allow
	case mode == "plan" && t.IsReadOnly(input):
		return allow
	case g.asker == nil || mode == "dontAsk" || mode == "plan":
		return tool.Verdict{Denied: true, Reason: fmt.Sprintf("Permission to use %s was denied: it needs approval and nobody can be asked in this mode.", name)}
	}
	ans, err := g.asker.Ask(ctx, engine.Question{ToolName: name, ToolUseID: c.ID, Input: input, Reason: res.DecisionReason, AgentID: c.AgentID})
	if err != nil {
		return tool.Verdict{Denied: true, Reason: fmt.Sprintf("Permission to use %s was denied: %v", name, err)}
	}
	if !ans.Allow {
		return tool.Verdict{Denied: true, Reason: ans.Message, Interrupt: ans.Interrupt}
	}
	if ans.UpdatedInput != nil {
		allow.Input = ans.UpdatedInput
	}
	return allow
}

func (g *sdkGate) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}
