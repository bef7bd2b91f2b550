package engine

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"reins/internal/automode"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/permission"
	"reins/internal/tool"
)

// GateConfig configures a PermissionGate. Permissions is required; the
// zero values of the rest are usable.
type GateConfig struct {
	// Permissions holds the session's rules and mode.
	Permissions *permission.Checker
	// Hooks runs PreToolUse, PermissionRequest, PostToolUse,
	// PostToolUseFailure and Stop/SubagentStop hooks (nil: none).
	Hooks *hooks.Runner
	// Asker answers permission questions. Nil means nobody can be asked:
	// a call that needs approval is denied (DESIGN invariant 5).
	Asker Asker
	// HookInput returns the common hook fields of this session
	// (SessionID, TranscriptPath, Cwd). Nil uses the call's session and
	// folder.
	HookInput func() hooks.Input
	// AgentID and AgentType are set for a sub-agent's gate: its hooks
	// carry them and its stop hooks are SubagentStop hooks.
	AgentID   string
	AgentType string
	// AgentTranscriptPath is the sub-agent's transcript (SubagentStop).
	AgentTranscriptPath string
	// AgentDepth is a sub-agent's nesting level (0: the main
	// conversation) and ParentTranscript the conversation that started
	// it; auto mode's classifier is shown both (automode.Action).
	AgentDepth       int
	ParentTranscript []*llm.Message
	// ParentNotUser marks the messages of ParentTranscript that reins
	// added (tool.Call.NotUser).
	ParentNotUser map[*llm.Message]bool
	// Classifier reviews, in auto mode, the calls that would otherwise ask
	// (permission.Decision.Classify). Nil: they are asked as in default
	// mode.
	Classifier Classifier
	// AutoGuard pauses auto mode after too many blocks; share one among a
	// session's gates. Nil: the gate keeps its own.
	AutoGuard *automode.Guard
	// BackgroundTasks, when set, lists the session's background tasks
	// still running, for Stop and SubagentStop hooks (background_tasks).
	BackgroundTasks func() []hooks.BackgroundTask
	// CanDefer lets a PreToolUse hook's permissionDecision "defer" pause
	// the session (print mode): the call does not run and the turn ends.
	// Elsewhere "defer" is ignored with a warning, as in Claude Code.
	CanDefer bool
	// Notify hears what hooks and permission updates have to tell the
	// user (systemMessage, hook errors, a rule that could not be saved).
	// It must be safe for concurrent use.
	Notify func(level, text string)
}

// PermissionGate is the engine's tool.Gate: PreToolUse hooks, then
// permission rules and mode, then PermissionRequest hooks and the Asker;
// after the call, PostToolUse or PostToolUseFailure hooks. It also
// implements StopHooks. It is safe for concurrent use.
type PermissionGate struct {
	cfg GateConfig
}

// Classifier reviews a call in place of the user (auto mode). An error
// means it could not decide.
type Classifier interface {
	Classify(ctx context.Context, a automode.Action) (automode.Verdict, error)
}

var (
	_ tool.Gate        = (*PermissionGate)(nil)
	_ StopHooks        = (*PermissionGate)(nil)
	_ StopFailureHooks = (*PermissionGate)(nil)
	_ BatchHooks       = (*PermissionGate)(nil)
)

// NewGate returns a gate. It panics if cfg.Permissions is nil.
func NewGate(cfg GateConfig) *PermissionGate {
	if cfg.Permissions == nil {
		panic("engine.NewGate: Permissions is required")
	}
	if cfg.AutoGuard == nil {
		cfg.AutoGuard = &automode.Guard{}
	}
	return &PermissionGate{cfg: cfg}
}

// hookInput builds the common hook fields for an event.
func (g *PermissionGate) hookInput(ev hooks.Event, c *tool.Call) hooks.Input {
	var in hooks.Input
	if g.cfg.HookInput != nil {
		in = g.cfg.HookInput()
	}
	if c != nil {
		if in.SessionID == "" {
			in.SessionID = c.SessionID
		}
		if in.Cwd == "" {
			in.Cwd = c.Cwd
		}
		// Hooks about a call are told the effort level it was made at.
		in.Effort = c.Effort
	}
	in.Event = ev
	in.PermissionMode = string(g.cfg.Permissions.Mode())
	in.AgentID, in.AgentType = g.cfg.AgentID, g.cfg.AgentType
	return in
}

func (g *PermissionGate) notify(level, text string) {
	if g.cfg.Notify != nil && text != "" {
		g.cfg.Notify(level, text)
	}
}

// report passes a hook result's messages for the user to Notify.
func (g *PermissionGate) report(r hooks.Result) {
	for _, m := range r.SystemMessages {
		g.notify("info", m)
	}
	for _, e := range r.Errors {
		g.notify("warning", e)
	}
}

func (g *PermissionGate) has(ev hooks.Event) bool {
	return g.cfg.Hooks != nil && g.cfg.Hooks.Has(ev)
}

// toolDir is the folder a tool's relative paths start from when the tool
// keeps its own (the Bash tool's shell follows cd); "" otherwise.
func toolDir(t tool.Tool) string {
	if d, ok := t.(interface{ Cwd() string }); ok {
		return d.Cwd()
	}
	return ""
}

func readOnly(t tool.Tool, input json.RawMessage) (ro bool) {
	defer func() {
		if recover() != nil {
			ro = false
		}
	}()
	return t.IsReadOnly(input)
}

// Before decides whether the call may run. The order is: PreToolUse hooks
// (a hook's deny always wins; a hook's allow cannot override a deny or
// ask rule or a safety check), permission rules and mode, then, when the
// call needs approval, PermissionRequest hooks and the Asker.
func (g *PermissionGate) Before(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	name := t.Name()
	var v tool.Verdict
	changed := false
	var pre hooks.Result
	if g.has(hooks.PreToolUse) {
		in := g.hookInput(hooks.PreToolUse, c)
		in.ToolName, in.ToolInput, in.ToolUseID = name, input, c.ID
		pre = g.cfg.Hooks.Run(ctx, in)
		g.report(pre)
		switch {
		case pre.Stop:
			reason := pre.StopReason
			if reason == "" {
				reason = "a PreToolUse hook stopped the session"
			}
			return tool.Verdict{Reason: fmt.Sprintf("This %s call did not run: %s.", name, strings.TrimSuffix(reason, ".")), StopTurn: true, StopReason: reason,
				Permission: byHook(false)}
		case pre.Block:
			return withDecision(denied(fmt.Sprintf("A PreToolUse hook blocked this %s call: %s", name, pre.Reason)), byHook(false))
		case pre.Decision == hooks.DecisionDeny:
			return withDecision(denied(hookDenyReason(name, pre.DecisionReason)), byHook(false))
		case pre.Decision == hooks.DecisionDefer && g.cfg.CanDefer:
			// reins cannot hand the pending call to its caller to resume
			// (Claude Code's deferred_tool_use): it keeps what matters,
			// that the call does not run and the session stops here.
			reason := "a PreToolUse hook deferred the " + name + " call"
			if pre.DecisionReason != "" {
				reason += ": " + pre.DecisionReason
			}
			return tool.Verdict{Reason: fmt.Sprintf("This %s call did not run: %s.", name, strings.TrimSuffix(reason, ".")), StopTurn: true,
				StopReason: reason, Permission: byHook(false)}
		case pre.Decision == hooks.DecisionDefer:
			g.notify("warning", fmt.Sprintf("a PreToolUse hook returned permissionDecision \"defer\" for %s, which only print mode (-p) honours; ignored", name))
			pre.Decision = hooks.DecisionNone
		}
		if pre.UpdatedInput != nil {
			input, changed = hooks.MergeInput(input, pre.UpdatedInput), true
		}
		v.Context = pre.AdditionalContext
	}
	d := g.cfg.Permissions.CheckIn(toolDir(t), name, input, readOnly(t, input))
	hookAllowed := false
	switch pre.Decision {
	case hooks.DecisionAllow:
		// A hook's allow settles what only the mode or the working
		// folders would have asked about.
		if (d.Behavior == permission.Ask || d.DontAsk) && d.Rule == nil && !d.Safety {
			d = permission.Decision{Behavior: permission.Allow, Reason: "A PreToolUse hook allowed it."}
			hookAllowed = true
		}
	case hooks.DecisionAsk:
		if d.Behavior == permission.Allow {
			reason := pre.DecisionReason
			if reason == "" {
				reason = "a PreToolUse hook asks for approval"
			}
			d = permission.Decision{Behavior: permission.Ask, Reason: reason, Mode: d.Mode}
		}
		if d.Behavior == permission.Ask && g.cfg.Permissions.Mode() == permission.ModeDontAsk {
			d = permission.Decision{Behavior: permission.Deny, Reason: "dontAsk mode denies anything that would need approval: " + d.Reason}
		}
	}
	switch d.Behavior {
	case permission.Allow:
		if needsUser(t) {
			// Its input is the user's answer: it is always put to them.
			d = permission.Decision{Behavior: permission.Ask, Reason: fmt.Sprintf("%s needs the user's answer.", name), Mode: d.Mode}
			return g.ask(ctx, c, name, input, changed, d, v.Context)
		}
		v.Allow = true
		if changed {
			v.Input = input
		}
		v.Permission = byConfig(d)
		if hookAllowed {
			v.Permission = byHook(true)
		}
		c.ReadDenied = g.cfg.Permissions.ReadDenyFilter(name)
		return v
	case permission.Deny:
		return withDecision(denied(d.Reason), byConfig(d))
	}
	if d.Classify {
		var settled bool
		if v, settled, d = g.classify(ctx, c, name, input, changed, d, v.Context); settled {
			return v
		}
	}
	return g.ask(ctx, c, name, input, changed, d, v.Context)
}

// classify has auto mode's classifier review a call that would ask. It
// returns the verdict when the classifier settled it; otherwise the call
// goes to the user with d, whose reason then says why auto mode did not
// decide.
func (g *PermissionGate) classify(ctx context.Context, c *tool.Call, name string, input json.RawMessage, changed bool, d permission.Decision, extra []string) (tool.Verdict, bool, permission.Decision) {
	switch {
	case g.cfg.Classifier == nil:
		d.Reason += " Auto mode's classifier is not available in this session."
		return tool.Verdict{}, false, d
	case g.cfg.AutoGuard.Paused():
		d.Reason += fmt.Sprintf(" Auto mode is paused after too many blocked actions (%d in a row or %d in the session), so the user decides.",
			automode.MaxConsecutiveBlocks, automode.MaxTotalBlocks)
		return tool.Verdict{}, false, d
	}
	verdict, err := g.cfg.Classifier.Classify(ctx, automode.Action{Tool: name, Input: input, Cwd: c.Cwd, Reason: d.Reason,
		Transcript: c.Transcript, NotUser: c.NotUser, Earlier: c.Earlier, Depth: g.cfg.AgentDepth, Parent: g.cfg.ParentTranscript, ParentNotUser: g.cfg.ParentNotUser})
	if ctx.Err() != nil {
		return withDecision(denied(fmt.Sprintf("%s It was not approved (%v), so it did not run.", d.Reason, context.Cause(ctx))), aborted()), true, d
	}
	if err != nil {
		g.notify("warning", fmt.Sprintf("Auto mode could not review this %s call (%v); it needs approval instead.", name, err))
		d.Reason += fmt.Sprintf(" Auto mode's classifier was unavailable (%v), so it could not approve it.", err)
		return tool.Verdict{}, false, d
	}
	if verdict.Allow {
		g.cfg.AutoGuard.Allowed()
		return withDecision(g.allow(c, name, input, nil, changed, extra), byClassifier(true)), true, d
	}
	reason := strings.TrimSuffix(verdict.Reason, ".")
	g.notify("info", fmt.Sprintf("Auto mode blocked %s: %s", name, reason))
	if g.cfg.AutoGuard.Blocked() {
		g.notify("warning", fmt.Sprintf("Auto mode is paused after %d blocked actions in a row (or %d in this session): actions that need approval are asked again.",
			automode.MaxConsecutiveBlocks, automode.MaxTotalBlocks))
	}
	advice := "Do not try to get around the block; reach the user's goal another way, or ask the user to do this step themselves."
	if g.has(hooks.PermissionDenied) {
		in := g.hookInput(hooks.PermissionDenied, c)
		in.ToolName, in.ToolInput, in.ToolUseID, in.Reason = name, input, c.ID, verdict.Reason
		r := g.cfg.Hooks.Run(ctx, in)
		g.report(r)
		if r.Retry {
			advice = "A PermissionDenied hook says you may retry this call."
		}
	}
	v := denied(fmt.Sprintf("Auto mode blocked this %s call: %s. %s", name, reason, advice))
	v.DeniedBy = "classifier"
	v.Permission = byClassifier(false)
	return v, true, d
}

// needsUser reports whether a tool exists to ask the user something
// (AskUserQuestion, ExitPlanMode), so its call always goes to the Asker.
func needsUser(t tool.Tool) bool {
	u, ok := t.(interface{ RequiresUserInteraction() bool })
	return ok && u.RequiresUserInteraction()
}

func denied(reason string) tool.Verdict { return tool.Verdict{Denied: true, Reason: reason} }

// withDecision sets v's permission decision.
func withDecision(v tool.Verdict, p *tool.PermissionDecision) tool.Verdict {
	v.Permission = p
	return v
}

// accept is the Decision of an allow (true) or a refusal.
func accept(allow bool) string {
	if allow {
		return tool.DecisionAccept
	}
	return tool.DecisionReject
}

// byConfig is the decision the permission mode or rules made: a rule's,
// or else a safety check's (an ask nobody could answer), or else the
// mode's (with its working folders).
func byConfig(d permission.Decision) *tool.PermissionDecision {
	why := "mode"
	switch {
	case d.Rule != nil:
		why = "rule"
	case d.Safety:
		why = "safetyCheck"
	}
	return &tool.PermissionDecision{Decision: accept(d.Behavior == permission.Allow), Source: "config", ReasonType: why}
}

// byHook is a PreToolUse or PermissionRequest hook's decision.
func byHook(allow bool) *tool.PermissionDecision {
	return &tool.PermissionDecision{Decision: accept(allow), Source: "hook", ReasonType: "hook"}
}

// byClassifier is auto mode's classifier's decision.
func byClassifier(allow bool) *tool.PermissionDecision {
	return &tool.PermissionDecision{Decision: accept(allow), Source: "classifier", ReasonType: "classifier"}
}

// aborted is the decision on a call whose question was cut short (the
// turn was interrupted while it waited).
func aborted() *tool.PermissionDecision {
	return &tool.PermissionDecision{Decision: tool.DecisionReject, Source: "user_abort"}
}

// byAnswer is the decision an Asker's answer made.
func byAnswer(ans Answer) *tool.PermissionDecision {
	p := &tool.PermissionDecision{Decision: accept(ans.Allow), Source: ans.Source}
	if p.Source == "config" {
		p.ReasonType = ans.ReasonType
		if p.ReasonType == "" {
			p.ReasonType = "other"
		}
	}
	if p.Source != "" {
		return p
	}
	switch {
	case ans.Allow && len(ans.Updates) > 0:
		p.Source = "user_permanent"
	case ans.Allow:
		p.Source = "user_temporary"
	case ans.Interrupt:
		p.Source = "user_abort"
	default:
		p.Source = "user_reject"
	}
	return p
}

func hookDenyReason(name, why string) string {
	if why == "" {
		return fmt.Sprintf("A PreToolUse hook denied this %s call.", name)
	}
	return fmt.Sprintf("A PreToolUse hook denied this %s call: %s", name, why)
}

// ask settles a call that needs approval: PermissionRequest hooks first,
// then the Asker.
func (g *PermissionGate) ask(ctx context.Context, c *tool.Call, name string, input json.RawMessage, changed bool, d permission.Decision, extra []string) tool.Verdict {
	allow := func(in json.RawMessage) tool.Verdict { return g.allow(c, name, input, in, changed, extra) }
	suggestions := toSuggestions(d.Suggestions)
	if g.has(hooks.PermissionRequest) {
		in := g.hookInput(hooks.PermissionRequest, c)
		in.ToolName, in.ToolInput, in.ToolUseID = name, input, c.ID
		if len(d.Suggestions) > 0 {
			// Claude Code's shape: rules as {toolName, ruleContent}.
			in.PermissionSuggestions = d.Suggestions
		}
		r := g.cfg.Hooks.Run(ctx, in)
		g.report(r)
		switch {
		case r.Block:
			return withDecision(denied(fmt.Sprintf("A PermissionRequest hook denied this %s call: %s", name, r.Reason)), byHook(false))
		case r.Permission != nil && r.Permission.Behavior == "deny":
			msg := r.Permission.Message
			if msg == "" {
				msg = fmt.Sprintf("A PermissionRequest hook denied this %s call.", name)
			}
			return tool.Verdict{Denied: true, Reason: msg, Interrupt: r.Permission.Interrupt, Permission: byHook(false)}
		case r.Permission != nil && r.Permission.Behavior == "allow":
			if len(r.Permission.UpdatedPermissions) > 0 {
				var ups []permission.Update
				if err := json.Unmarshal(r.Permission.UpdatedPermissions, &ups); err != nil {
					g.notify("warning", fmt.Sprintf("A PermissionRequest hook gave updatedPermissions that reins cannot read: %v", err))
				} else if err := g.cfg.Permissions.Apply(ups); err != nil {
					g.notify("warning", err.Error())
				}
			}
			return withDecision(allow(r.Permission.UpdatedInput), byHook(true))
		}
	}
	nobody := withDecision(denied(d.Reason+" Nobody can approve it in this mode, so it was denied; do not retry it, and say what you could not do."),
		byConfig(d))
	if g.cfg.Asker == nil {
		return nobody
	}
	ans, err := g.cfg.Asker.Ask(ctx, Question{ToolName: name, ToolUseID: c.ID, Input: input, Reason: d.Reason,
		Suggestions: suggestions, BlockedPath: d.BlockedPath, AgentID: c.AgentID})
	if errors.Is(err, ErrNobodyToAsk) {
		return nobody
	}
	if err != nil || ctx.Err() != nil {
		if err == nil {
			err = context.Cause(ctx)
		}
		return withDecision(denied(fmt.Sprintf("%s It was not approved (%v), so it did not run.", d.Reason, err)), aborted())
	}
	if len(ans.Updates) > 0 {
		if err := g.cfg.Permissions.Apply(fromSuggestions(ans.Updates)); err != nil {
			g.notify("warning", err.Error())
		}
	}
	if d.Classify && ans.Allow {
		g.cfg.AutoGuard.Allowed() // the user's approval ends a run of blocks
	}
	if !ans.Allow {
		msg := ans.Message
		if msg == "" {
			msg = fmt.Sprintf("The user declined this %s call, so it did not run. Do not try to reach the same result another way; ask the user how to go on.", name)
		}
		return tool.Verdict{Denied: true, Reason: msg, Interrupt: ans.Interrupt, Permission: byAnswer(ans)}
	}
	return withDecision(allow(ans.UpdatedInput), byAnswer(ans))
}

// allow lets a call that needed approval run: with in as its input when
// the approval changed it, else with the hooks' input when they changed
// it (changed).
func (g *PermissionGate) allow(c *tool.Call, name string, input, in json.RawMessage, changed bool, extra []string) tool.Verdict {
	c.ReadDenied = g.cfg.Permissions.ReadDenyFilter(name)
	v := tool.Verdict{Allow: true, Context: extra}
	switch {
	case in != nil:
		v.Input = in
	case changed:
		v.Input = input
	}
	return v
}

// toSuggestions converts permission updates to the engine's wire shape.
func toSuggestions(us []permission.Update) []Suggestion {
	var out []Suggestion
	for _, u := range us {
		out = append(out, Suggestion{Type: string(u.Type), Rules: u.Rules, Behavior: string(u.Behavior),
			Destination: string(u.Destination), Mode: string(u.Mode), Directories: u.Directories})
	}
	return out
}

func fromSuggestions(ss []Suggestion) []permission.Update {
	var out []permission.Update
	for _, s := range ss {
		out = append(out, permission.Update{Type: permission.UpdateType(s.Type), Rules: s.Rules,
			Behavior: permission.Behavior(s.Behavior), Destination: permission.Destination(s.Destination),
			Mode: permission.Mode(s.Mode), Directories: s.Directories})
	}
	return out
}

// After runs PostToolUse hooks on a result, or PostToolUseFailure hooks on
// an error result, and adds what they say for the model to res.
func (g *PermissionGate) After(ctx context.Context, c *tool.Call, t tool.Tool, input json.RawMessage, res *tool.Result) {
	ev := hooks.PostToolUse
	if res.IsError {
		ev = hooks.PostToolUseFailure
	}
	if !g.has(ev) {
		return
	}
	in := g.hookInput(ev, c)
	in.ToolName, in.ToolInput, in.ToolUseID = t.Name(), input, c.ID
	in.Duration = res.Elapsed
	if res.IsError {
		in.Error = resultText(res.Content)
		in.IsInterrupt = ctx.Err() != nil
	} else {
		in.ToolResponse = res.Data
		if in.ToolResponse == nil {
			in.ToolResponse = resultText(res.Content)
		}
	}
	r := g.cfg.Hooks.Run(ctx, in)
	g.report(r)
	if !res.IsError {
		out := r.UpdatedToolOutput
		if out == nil && strings.HasPrefix(t.Name(), "mcp__") {
			out = r.UpdatedMCPToolOutput
		}
		if out != nil {
			res.Content, res.Data = replacedOutput(out)
		}
	}
	for _, s := range r.AdditionalContext {
		res.Content = append(res.Content, llm.TextBlock(s))
	}
	if r.Block {
		res.Content = append(res.Content, llm.TextBlock(fmt.Sprintf("%s hook feedback: %s", ev, r.Reason)))
	}
	if r.Stop {
		res.StopTurn = true
		res.StopReason = r.StopReason
		if res.StopReason == "" {
			res.StopReason = fmt.Sprintf("a %s hook stopped the session", ev)
		}
	}
}

// replacedOutput turns the output a PostToolUse hook gives in place of a
// tool's into the result's content and data: a string is the text; the
// Bash tool's shape ({"stdout", "stderr", ...}) gives its stdout and
// stderr; a list of MCP content blocks, or an object holding one as
// "content" (an MCP tool result), gives its text blocks; other JSON is
// its own text.
func replacedOutput(raw json.RawMessage) ([]llm.ContentBlock, any) {
	var v any
	_ = json.Unmarshal(raw, &v)
	if s, ok := v.(string); ok {
		return []llm.ContentBlock{llm.TextBlock(s)}, v
	}
	var blocks []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	list := raw
	var wrapped struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && len(wrapped.Content) > 0 {
		list = wrapped.Content
	}
	var shell struct {
		Stdout *string `json:"stdout"`
		Stderr string  `json:"stderr"`
	}
	if json.Unmarshal(raw, &shell) == nil && shell.Stdout != nil {
		// The Bash tool's shape: stdout, stderr, interrupted, isImage.
		text := strings.TrimRight(*shell.Stdout, "\n")
		if e := strings.TrimRight(shell.Stderr, "\n"); e != "" {
			text = strings.TrimLeft(text+"\n"+e, "\n")
		}
		return []llm.ContentBlock{llm.TextBlock(text)}, v
	}
	if json.Unmarshal(list, &blocks) == nil && len(blocks) > 0 {
		var out []llm.ContentBlock
		for _, b := range blocks {
			if b.Type != "text" || b.Text == nil {
				out = nil
				break
			}
			out = append(out, llm.TextBlock(*b.Text))
		}
		if out != nil {
			return out, v
		}
	}
	return []llm.ContentBlock{llm.TextBlock(string(bytes.TrimSpace(raw)))}, v
}

func resultText(content []llm.ContentBlock) string {
	var parts []string
	for _, b := range content {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// StopFailure runs StopFailure hooks for a main turn that ends on err (an
// API error, or an answer cut at the output limit). Their output is
// ignored.
func (g *PermissionGate) StopFailure(ctx context.Context, err error, last *llm.Message) {
	if g.cfg.AgentID != "" || !g.has(hooks.StopFailure) {
		return
	}
	in := g.hookInput(hooks.StopFailure, nil)
	in.Error, in.ErrorDetails = stopFailureKind(err), err.Error()
	if last != nil {
		in.LastAssistantMessage = last.Text()
	}
	g.cfg.Hooks.Run(ctx, in)
}

// FailureKind names the kind of error a turn ended on for the Agent
// SDKs' assistant message error (rate_limit, authentication_failed,
// billing_error, invalid_request, server_error, max_output_tokens,
// unknown): StopFailure's kinds, with overloaded counted as server_error
// and model_not_found as invalid_request, the SDKs' older names.
func FailureKind(err error) string {
	switch k := stopFailureKind(err); k {
	case "overloaded":
		return "server_error"
	case "model_not_found":
		return "invalid_request"
	default:
		return k
	}
}

// stopFailureKind names the kind of error a turn ended on, as
// StopFailure matchers see it: Claude Code's rate_limit, overloaded,
// authentication_failed, billing_error, invalid_request, model_not_found,
// server_error, max_output_tokens or unknown.
func stopFailureKind(err error) string {
	if errors.Is(err, ErrMaxOutputTokens) {
		return "max_output_tokens"
	}
	var ae *llm.APIError
	if !errors.As(err, &ae) {
		return "unknown"
	}
	switch {
	case ae.Status == 429 || ae.Type == "rate_limit_error":
		return "rate_limit"
	case ae.Status == 401 || ae.Status == 403 || ae.Type == "authentication_error" || ae.Type == "permission_error":
		return "authentication_failed"
	case ae.Status == 402 || ae.Type == "billing_error":
		return "billing_error"
	case ae.Status == 529 || ae.Type == "overloaded_error":
		return "overloaded"
	case ae.Status == 404 || ae.Type == "not_found_error":
		// The messages endpoint answers 404 for a model it does not know.
		return "model_not_found"
	case ae.Status >= 500 || ae.Type == "overloaded_error" || ae.Type == "api_error":
		return "server_error"
	case ae.Status >= 400 || ae.Type == "invalid_request_error":
		return "invalid_request"
	}
	return "unknown"
}

// PostToolBatch runs PostToolBatch hooks on a batch of calls that all
// have their results: exit 2, decision "block" or continue:false stop the
// turn before the next request; additionalContext goes to the model.
func (g *PermissionGate) PostToolBatch(ctx context.Context, calls []*tool.Outcome) BatchDecision {
	if !g.has(hooks.PostToolBatch) || len(calls) == 0 {
		return BatchDecision{}
	}
	hi := g.hookInput(hooks.PostToolBatch, nil)
	list := make([]map[string]any, len(calls))
	for i, o := range calls {
		input := o.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		list[i] = map[string]any{"tool_name": o.Name, "tool_input": input, "tool_use_id": o.ID,
			"tool_response": resultText(o.Block.Content)}
	}
	hi.ToolCalls = list
	r := g.cfg.Hooks.Run(ctx, hi)
	d := BatchDecision{Messages: append(append([]string{}, r.SystemMessages...), r.Errors...), Context: r.AdditionalContext}
	switch {
	case r.Stop:
		d.Stop, d.StopReason = true, cmp.Or(r.StopReason, "a PostToolBatch hook ended the turn")
	case r.Block:
		d.Stop, d.StopReason = true, r.Reason
	}
	return d
}

// Stop runs Stop hooks, or SubagentStop hooks for a sub-agent's gate, as
// seed002 §4.4.3 describes: exit code 2 or decision "block" makes the
// model continue with the reason; continue:false ends the turn with the
// stop reason. in.Active is passed on as stop_hook_active so that hooks
// can avoid endless loops.
func (g *PermissionGate) Stop(ctx context.Context, in StopInput) StopDecision {
	ev := hooks.Stop
	if g.cfg.AgentID != "" {
		ev = hooks.SubagentStop
	}
	if !g.has(ev) {
		return StopDecision{}
	}
	hi := g.hookInput(ev, nil)
	hi.StopHookActive = in.Active
	if in.LastAssistant != nil {
		hi.LastAssistantMessage = in.LastAssistant.Text()
	}
	hi.AgentTranscriptPath = g.cfg.AgentTranscriptPath
	if g.cfg.BackgroundTasks != nil {
		hi.BackgroundTasks = g.cfg.BackgroundTasks()
		if hi.BackgroundTasks == nil {
			hi.BackgroundTasks = []hooks.BackgroundTask{}
		}
	}
	r := g.cfg.Hooks.Run(ctx, hi)
	d := StopDecision{Messages: append(append([]string{}, r.SystemMessages...), r.Errors...)}
	switch {
	case r.Stop:
		d.Prevent = true
		d.StopReason = r.StopReason
		if d.StopReason == "" {
			d.StopReason = fmt.Sprintf("a %s hook ended the turn", ev)
		}
	case r.Block:
		d.Block, d.Reason = true, r.Reason
	case len(r.AdditionalContext) > 0:
		// Guidance rather than a refusal: the model goes on with it, as
		// after a block.
		d.Block, d.Reason = true, strings.Join(r.AdditionalContext, "\n")
	}
	return d
}
