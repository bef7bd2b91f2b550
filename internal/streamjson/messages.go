package streamjson

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tool"
)

// ProtocolVersion is the Claude Code version whose headless protocol reins
// implements; it is reported as claude_code_version.
const ProtocolVersion = "2.1.328"

// Init is the system/init message.
type Init struct {
	Type           string      `json:"type"`
	Subtype        string      `json:"subtype"`
	Cwd            string      `json:"cwd"`
	SessionID      string      `json:"session_id"`
	Tools          []string    `json:"tools"`
	MCPServers     []MCPStatus `json:"mcp_servers"`
	Model          string      `json:"model"`
	PermissionMode string      `json:"permissionMode"`
	SlashCommands  []string    `json:"slash_commands"`
	// TerminalSlashCommands are the slash commands that work only in the
	// terminal UI (left out when there are none).
	TerminalSlashCommands []string `json:"terminal_slash_commands,omitempty"`
	APIKeySource          string   `json:"apiKeySource"`
	ClaudeCodeVersion     string   `json:"claude_code_version"`
	Version               string   `json:"version"`
	OutputStyle           string   `json:"output_style"`
	Agents                []string `json:"agents"`
	Skills                []string `json:"skills"`
	Plugins               []Plugin `json:"plugins"`
	// PluginErrors are the plugins that did not load, or loaded without a
	// component; the key is left out when there are none.
	PluginErrors []PluginError `json:"plugin_errors,omitempty"`
	// Capabilities are the protocol capabilities (Claude Code's feature
	// names) reins implements; none yet, so the list is empty.
	Capabilities []string `json:"capabilities"`
	// AnalyticsDisabled and ProductFeedbackDisabled are always true:
	// reins sends no analytics and asks for no feedback.
	AnalyticsDisabled       bool   `json:"analytics_disabled"`
	ProductFeedbackDisabled bool   `json:"product_feedback_disabled"`
	UUID                    string `json:"uuid"`
	// MemoryPaths names the memory folders by kind; reins has no
	// auto-memory folder, so it is empty.
	MemoryPaths map[string]string `json:"memory_paths"`
	// OriginalCwd is the folder the session started in.
	OriginalCwd    string   `json:"original_cwd"`
	AdditionalDirs []string `json:"additional_directories"`
	FastMode
	// PerTurnEffortActive and UltrathinkAvailable are set when the model
	// takes an effort level: reins then sends one on each request, and a
	// prompt saying "ultrathink" raises it to high for its turn
	// (UltrathinkTypedRaises).
	PerTurnEffortActive   bool `json:"per_turn_effort_active"`
	UltrathinkAvailable   bool `json:"ultrathink_available"`
	UltrathinkTypedRaises bool `json:"ultrathink_typed_raises"`
	// ViewMode is "default": reins has no focus view.
	ViewMode string `json:"view_mode"`
}

// FastMode is the fast_mode_state and fast_mode_disabled_reason pair of
// init and result lines. reins has no fast mode: it is always off, for
// the reason FastModeNotSupported.
type FastMode struct {
	FastModeState          string `json:"fast_mode_state"`
	FastModeDisabledReason string `json:"fast_mode_disabled_reason"`
}

// FastModeNotSupported is the fast_mode_disabled_reason reins reports:
// it does not implement Claude Code's fast mode.
const FastModeNotSupported = "not_supported"

// FastModeOff is the fast mode state reins reports.
func FastModeOff() FastMode {
	return FastMode{FastModeState: "off", FastModeDisabledReason: FastModeNotSupported}
}

// MCPStatus is one MCP server's state in init.
type MCPStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// Plugin is a loaded plugin: its name, folder, id (name@marketplace,
// name@inline for a --plugin-dir folder) and manifest version.
type Plugin struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Source  string `json:"source,omitempty"`
	Version string `json:"version,omitempty"`
}

// PluginError is a problem loading a plugin: Plugin is its id, or
// inline[N] for a --plugin-dir folder that failed before it had a name
// (Path is then the folder); Type is a category (path-not-found,
// manifest-validation-error, ...).
type PluginError struct {
	Plugin  string `json:"plugin"`
	Type    string `json:"type"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
}

// NewInit fills the constant fields of an init message.
func NewInit(i Init) *Init {
	i.Type, i.Subtype = "system", "init"
	i.ClaudeCodeVersion = ProtocolVersion
	i.AnalyticsDisabled, i.ProductFeedbackDisabled = true, true
	i.FastMode = FastModeOff()
	if i.ViewMode == "" {
		i.ViewMode = "default"
	}
	if i.OriginalCwd == "" {
		i.OriginalCwd = i.Cwd
	}
	if i.Capabilities == nil {
		i.Capabilities = []string{}
	}
	if i.MemoryPaths == nil {
		i.MemoryPaths = map[string]string{}
	}
	if i.UUID == "" {
		i.UUID = uuid.NewString()
	}
	if i.OutputStyle == "" {
		i.OutputStyle = "default"
	}
	for _, p := range []*[]string{&i.Tools, &i.SlashCommands, &i.Agents, &i.Skills} {
		if *p == nil {
			*p = []string{}
		}
	}
	if i.AdditionalDirs == nil {
		i.AdditionalDirs = []string{}
	}
	if i.MCPServers == nil {
		i.MCPServers = []MCPStatus{}
	}
	if i.Plugins == nil {
		i.Plugins = []Plugin{}
	}
	return &i
}

// Assistant is an assistant line. Message carries one content block per
// line, as Claude Code streams them.
type Assistant struct {
	Type            string          `json:"type"`
	Message         json.RawMessage `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
	Timestamp       string          `json:"timestamp,omitempty"`
	Error           string          `json:"error,omitempty"`
	// RequestID is the API request's id (its request-id header).
	RequestID string `json:"request_id,omitempty"`
}

// User is a user line (tool results, replayed prompts).
type User struct {
	Type            string          `json:"type"`
	Message         json.RawMessage `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
	Timestamp       string          `json:"timestamp,omitempty"`
	ToolUseResult   any             `json:"tool_use_result,omitempty"`
	// ToolResultMeta says, for the tool result the line carries, how its
	// call's permission was settled (left out for a call that never
	// reached the permission check).
	ToolResultMeta []ToolResultMeta `json:"tool_result_meta,omitempty"`
	IsReplay       bool             `json:"isReplay,omitempty"`
}

// ToolResultMeta is one entry of a user line's tool_result_meta.
type ToolResultMeta struct {
	ID string `json:"id"`
	// NonExecutionKind is "permission-rule" when permission refused the
	// call, so it did not run, and "user-rejected" when the user refused
	// it and stopped the turn (then PermissionDecision is left out).
	NonExecutionKind   string                   `json:"non_execution_kind,omitempty"`
	PermissionDecision *tool.PermissionDecision `json:"permission_decision,omitempty"`
}

// StreamEvent is a raw API stream event (--include-partial-messages).
type StreamEvent struct {
	Type            string          `json:"type"`
	Event           json.RawMessage `json:"event"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
}

// System is a system line other than init (compact_boundary, notices,
// hook events, task notifications, status).
type System struct {
	Type            string         `json:"type"`
	Subtype         string         `json:"subtype"`
	SessionID       string         `json:"session_id"`
	UUID            string         `json:"uuid"`
	ParentToolUseID *string        `json:"parent_tool_use_id,omitempty"`
	Fields          map[string]any `json:"-"`
}

// MarshalJSON flattens Fields into the object.
func (s System) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": s.Type, "subtype": s.Subtype, "session_id": s.SessionID, "uuid": s.UUID}
	if s.ParentToolUseID != nil {
		m["parent_tool_use_id"] = *s.ParentToolUseID
	}
	for k, v := range s.Fields {
		m[k] = v
	}
	return json.Marshal(m)
}

// Usage is the usage object of a result line.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	// OutputTokensDetails, InferenceGeo, Iterations and Speed are the
	// API's, summed over the responses (thinking tokens, iterations) or
	// the latest one's; without them, none, "", [] and "standard".
	OutputTokensDetails llm.OutputTokensDetails `json:"output_tokens_details"`
	ServerToolUse       *llm.ServerToolUse      `json:"server_tool_use"`
	ServiceTier         string                  `json:"service_tier"`
	CacheCreation       *llm.CacheCreation      `json:"cache_creation"`
	InferenceGeo        string                  `json:"inference_geo"`
	Iterations          []json.RawMessage       `json:"iterations"`
	Speed               string                  `json:"speed"`
	// FallbackCredit is Claude Code's credit for a request it had to
	// send again on a fallback model; reins gives none (always null).
	FallbackCredit json.RawMessage `json:"fallback_credit"`
}

// ModelUsage is one model's entry in modelUsage.
type ModelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
	MaxOutputTokens          int     `json:"maxOutputTokens"`
	// ThinkingTokens is the thinking share of OutputTokens, when the API
	// reported it; the two cache-write counts split
	// CacheCreationInputTokens by lifetime.
	ThinkingTokens                      int `json:"thinkingTokens"`
	CacheCreationEphemeral5mInputTokens int `json:"cacheCreationEphemeral5mInputTokens"`
	CacheCreationEphemeral1hInputTokens int `json:"cacheCreationEphemeral1hInputTokens"`
	// CanonicalModel is the model's id (the entry's key); Provider is
	// where requests went
	// ("firstParty", the Anthropic API) and CostBasis what CostUSD is
	// reckoned from ("list", the list prices).
	CanonicalModel string `json:"canonicalModel"`
	Provider       string `json:"provider"`
	CostBasis      string `json:"costBasis"`
}

// ModelUsages converts per-model totals to their modelUsage form (never
// nil).
func ModelUsages(byModel map[string]engine.ModelTotals) map[string]ModelUsage {
	out := make(map[string]ModelUsage, len(byModel))
	for id, mt := range byModel {
		mu := ModelUsage{InputTokens: mt.Usage.InputTokens, OutputTokens: mt.Usage.OutputTokens,
			CacheReadInputTokens: mt.Usage.CacheReadInputTokens, CacheCreationInputTokens: mt.Usage.CacheCreationInputTokens,
			CostUSD: mt.Cost, ContextWindow: mt.Info.ContextWindow, MaxOutputTokens: mt.Info.MaxOutput,
			CanonicalModel: id, Provider: "firstParty", CostBasis: "list"}
		if mt.Usage.ServerToolUse != nil {
			mu.WebSearchRequests = mt.Usage.ServerToolUse.WebSearchRequests
		}
		mu.ThinkingTokens = mt.Usage.ThinkingTokens()
		if cc := mt.Usage.CacheCreation; cc != nil {
			mu.CacheCreationEphemeral5mInputTokens, mu.CacheCreationEphemeral1hInputTokens = cc.Ephemeral5m, cc.Ephemeral1h
		}
		out[id] = mu
	}
	return out
}

// Result is the last line of a run (and the whole output of --output-format
// json).
type Result struct {
	Type              string                `json:"type"`
	Subtype           string                `json:"subtype"`
	IsError           bool                  `json:"is_error"`
	DurationMs        int64                 `json:"duration_ms"`
	DurationAPIMs     int64                 `json:"duration_api_ms"`
	NumTurns          int                   `json:"num_turns"`
	Result            *string               `json:"result,omitempty"`
	StopReason        *string               `json:"stop_reason"`
	SessionID         string                `json:"session_id"`
	TotalCostUSD      float64               `json:"total_cost_usd"`
	Usage             Usage                 `json:"usage"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage"`
	PermissionDenials []engine.Denial       `json:"permission_denials"`
	TerminalReason    string                `json:"terminal_reason,omitempty"`
	// APIErrorStatus is the HTTP status of the API error that ended the
	// turn, null otherwise.
	APIErrorStatus   *int     `json:"api_error_status"`
	StructuredOutput any      `json:"structured_output,omitempty"`
	Errors           []string `json:"errors,omitempty"`
	// UserMessageUUID echoes the client's uuid of the user message that
	// started the turn (stream-json input), so a client can match the
	// result to what it sent; UserMessageUUIDs lists every such message
	// the turn took. Both are absent when the client gave no uuid.
	UserMessageUUID  string   `json:"user_message_uuid,omitempty"`
	UserMessageUUIDs []string `json:"user_message_uuids,omitempty"`
	// ResultIndex numbers the results the process wrote, from 0 (set by
	// Writer.Line; a gap means a result was lost).
	ResultIndex *int   `json:"result_index,omitempty"`
	UUID        string `json:"uuid"`
	FastMode
	// SubagentStats counts the sub-agents (Agent tool runs) since the
	// previous result line.
	SubagentStats SubagentStats `json:"subagent_stats"`
	// SafetyStops is always 0: reins has no safety stop of its own (a
	// model refusal is an error result).
	SafetyStops int `json:"safety_stops"`
	Timing
	// QueuedTurnCount is the number of user messages still waiting for
	// their turn when the result is written (stream-json input).
	QueuedTurnCount int `json:"queued_turn_count"`
	// ModelUsageSinceLastResult is modelUsage for the usage since the
	// previous result line of the process only (set by Writer.Line, so
	// --output-format json, with its single result, leaves it out).
	ModelUsageSinceLastResult *map[string]ModelUsage `json:"model_usage_since_last_result,omitempty"`

	// byModel are the session's per-model totals the result was made
	// from, for ModelUsageSinceLastResult.
	byModel map[string]engine.ModelTotals
}

// Subtypes of result lines.
const (
	SubtypeSuccess        = "success"
	SubtypeMaxTurns       = "error_max_turns"
	SubtypeDuringExec     = "error_during_execution"
	SubtypeMaxBudget      = "error_max_budget_usd"
	SubtypeStructuredFail = "error_max_structured_output_retries"
)

// NewResult builds the result line for a finished turn.
func NewResult(sessionID string, end *engine.TurnEnd, models *llm.Models) *Result {
	r := &Result{Type: "result", SessionID: sessionID, UUID: uuid.NewString(), FastMode: FastModeOff(),
		SubagentStats: NewSubagentStats(), byModel: end.Total.ByModel,
		DurationMs: end.Duration.Milliseconds(), DurationAPIMs: end.Total.APITime.Milliseconds(),
		NumTurns: end.NumTurns, TotalCostUSD: end.Total.Cost, TerminalReason: string(end.Reason),
		PermissionDenials: end.Denials, ModelUsage: map[string]ModelUsage{}}
	if r.PermissionDenials == nil {
		r.PermissionDenials = []engine.Denial{}
	}
	u := end.Usage
	r.Usage = Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens, CacheReadInputTokens: u.CacheReadInputTokens,
		ServerToolUse: u.ServerToolUse, ServiceTier: "standard", CacheCreation: u.CacheCreation,
		OutputTokensDetails: llm.OutputTokensDetails{ThinkingTokens: u.ThinkingTokens()},
		InferenceGeo:        u.InferenceGeo, Iterations: u.Iterations, Speed: "standard"}
	if u.ServiceTier != "" {
		r.Usage.ServiceTier = u.ServiceTier
	}
	if u.Speed != "" {
		r.Usage.Speed = u.Speed
	}
	r.Usage.FallbackCredit = json.RawMessage("null")
	if r.Usage.Iterations == nil {
		r.Usage.Iterations = []json.RawMessage{}
	}
	if r.Usage.ServerToolUse == nil {
		r.Usage.ServerToolUse = &llm.ServerToolUse{}
	}
	if r.Usage.CacheCreation == nil {
		r.Usage.CacheCreation = &llm.CacheCreation{}
	}
	r.ModelUsage = ModelUsages(end.Total.ByModel)
	if end.StopReason != "" {
		sr := end.StopReason
		r.StopReason = &sr
	}
	switch end.Reason {
	case engine.ReasonCompleted, engine.ReasonStopHook:
		r.Subtype = SubtypeSuccess
		res := end.Result
		r.Result = &res
	case engine.ReasonMaxTurns:
		r.Subtype, r.IsError = SubtypeMaxTurns, true
	case engine.ReasonBudget:
		r.Subtype, r.IsError = SubtypeMaxBudget, true
		// Claude Code's name for a run that spent its --max-budget-usd.
		r.TerminalReason = "budget_exhausted"
	default:
		r.Subtype, r.IsError = SubtypeDuringExec, true
	}
	if r.IsError {
		msg := string(end.Reason)
		switch {
		case end.Err != nil:
			msg = end.Err.Error()
		case end.Reason == engine.ReasonAbortedTools:
			// Without a cause, the stop came from a permission answer.
			msg = "interrupted: a tool call was denied with a request to stop"
		}
		r.Errors = []string{msg}
		var ae *llm.APIError
		if errors.As(end.Err, &ae) && ae.Status != 0 {
			status := ae.Status
			r.APIErrorStatus = &status
			if end.Reason == engine.ReasonError {
				r.SetAPIError(msg, llm.IsPromptTooLong(end.Err))
			}
		}
	}
	return r
}

// SetAPIError gives a result that ended on an error answer from the API
// (or on having no credentials to ask it with) the shape Claude Code
// gives it, where the failure is the answer of a synthetic assistant
// message: subtype success with is_error set, msg as result,
// terminal_reason api_error (prompt_too_long for a prompt over the
// context window), stop_reason stop_sequence, and one turn. A script
// reading .result or .terminal_reason then sees what it sees from Claude
// Code; errors keeps msg for readers of reins's error results.
func (r *Result) SetAPIError(msg string, promptTooLong bool) {
	r.Subtype, r.IsError = SubtypeSuccess, true
	r.Result = &msg
	r.Errors = []string{msg}
	r.TerminalReason = "api_error"
	if promptTooLong {
		r.TerminalReason = "prompt_too_long"
	}
	stop := "stop_sequence"
	r.StopReason = &stop
	r.NumTurns = max(r.NumTurns, 1)
}

// Turns counts a turn the way Claude Code's num_turns does: one for each
// user-role message of the main conversation, that is the prompt, each
// tool result (parallel calls count one each) and each reminder sent to
// go on with the turn; a sub-agent's messages, and the reminders reins
// adds as context, do not count. --max-turns still bounds model
// responses. Feed it every event of the turn.
type Turns struct {
	messages int
	// Clock, when set, times the turn from the events Add sees, and
	// Apply sets the result's timing fields from it.
	Clock *TurnClock
}

// Add counts ev when it is a tool result or a message the user sent in
// the main conversation.
func (c *Turns) Add(ev engine.Event) {
	if c.Clock != nil {
		c.Clock.Observe(ev)
	}
	if engine.From(ev).ParentToolUseID != "" {
		return
	}
	switch e := ev.(type) {
	case *engine.ToolResult:
		c.messages++
	case *engine.UserMessage:
		if !e.Meta {
			c.messages++
		}
	}
}

// Reminder counts a message the front end sends to go on with a turn
// (a structured output reminder).
func (c *Turns) Reminder() { c.messages++ }

// Apply sets r's num_turns from the count, when the model answered at
// all (a turn that never reached it stays at 0), and its timing from
// Clock.
func (c *Turns) Apply(r *Result) {
	c.Clock.Apply(r)
	if r.NumTurns > 0 {
		r.NumTurns = max(c.messages, 1)
	}
}

// assistantMessage renders one content block of an assistant message as
// Claude Code's per-block assistant line message.
func assistantMessage(m *llm.Message, b llm.ContentBlock) json.RawMessage {
	one := &llm.Message{Role: llm.RoleAssistant, ID: m.ID, Model: m.Model, Usage: m.Usage, Content: []llm.ContentBlock{b}}
	raw, _ := json.Marshal(one)
	// The per-block lines carry stop_reason null, as Claude Code's do.
	var obj map[string]json.RawMessage
	json.Unmarshal(raw, &obj)
	obj["stop_reason"] = json.RawMessage("null")
	obj["stop_sequence"] = json.RawMessage("null")
	obj["context_management"] = json.RawMessage("null")
	out, _ := json.Marshal(obj)
	return out
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// APIErrorAssistant is the assistant line that tells an Agent SDK client
// a turn ended on an API error, as Claude Code's synthetic API-error
// message does: a text block saying what failed, from the "<synthetic>"
// model, with error naming the kind (authentication_failed, rate_limit,
// …) for the client to act on. It is nil when err is not an API error.
func APIErrorAssistant(sessionID string, err error) *Assistant {
	var ae *llm.APIError
	if !errors.As(err, &ae) {
		return nil
	}
	msg, _ := json.Marshal(map[string]any{
		"id": "msg_" + uuid.NewString(), "type": "message", "role": "assistant", "model": "<synthetic>",
		"content":     []llm.ContentBlock{llm.TextBlock(err.Error())},
		"stop_reason": "stop_sequence", "stop_sequence": "",
		"usage": map[string]int{"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
	return &Assistant{Type: "assistant", Message: msg, SessionID: sessionID, UUID: uuid.NewString(),
		Timestamp: timestamp(time.Now()), Error: engine.FailureKind(err)}
}
