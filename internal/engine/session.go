package engine

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/llm"
	"reins/internal/session"
	"reins/internal/tool"
)

// ToolSet is the tools of one turn.
type ToolSet struct {
	// Tools are the tools that may be called, in the order the model sees
	// them.
	Tools []tool.Tool
	// Specs is what the model is sent. When nil it is derived from Tools;
	// a deferred-tool setup sends fewer specs than it can call, and server
	// tools appear only here.
	Specs []llm.ToolSpec
	// Deferred reports a tool whose schema was not sent, with a hint on
	// how to load it.
	Deferred func(name string) (hint string, deferred bool)
	// Reminders, when set, is called before each request with the history
	// (after compaction); each text it returns is appended to the history
	// as a meta user message before the request is built. The deferred-tool
	// listing and discovered tools arrive this way, as messages rather than
	// as changes to the tools array, so the request prefix stays stable.
	Reminders func(ctx context.Context, history []*llm.Message) []string
}

// Recorder receives transcript entries as they happen. Session writers
// (*session.Writer) implement it.
type Recorder interface {
	Append(e *session.Entry) error
}

// StopHooks decides, when the model ends its turn, whether it must go on.
type StopHooks interface {
	Stop(ctx context.Context, in StopInput) StopDecision
}

// StopFailureHooks, when the StopHooks implement it, are told of a turn
// that ends on an API error instead of asking Stop; they cannot change
// anything.
type StopFailureHooks interface {
	StopFailure(ctx context.Context, err error, lastAssistant *llm.Message)
}

// BatchHooks, when the StopHooks implement it, hear each batch of tool
// calls once every call has its result (calls in the model's order),
// before the next request.
type BatchHooks interface {
	PostToolBatch(ctx context.Context, calls []*tool.Outcome) BatchDecision
}

// BatchDecision is the combined answer of the PostToolBatch hooks.
type BatchDecision struct {
	// Stop ends the turn with ReasonStopHook before the next request;
	// StopReason says why.
	Stop       bool
	StopReason string
	// Context is added for the model with the results.
	Context []string
	// Messages are shown to the user.
	Messages []string
}

// StopInput is what stop hooks are told.
type StopInput struct {
	// Active is true when the model is already continuing because of a
	// stop hook (stop_hook_active), to prevent endless loops.
	Active        bool
	LastAssistant *llm.Message
}

// StopDecision is the combined answer of the stop hooks.
type StopDecision struct {
	// Block makes the model continue; Reason is given to it.
	Block  bool
	Reason string
	// Prevent ends the turn with ReasonStopHook; StopReason says why.
	Prevent    bool
	StopReason string
	// Messages are shown to the user (systemMessage).
	Messages []string
}

// Compactor keeps the history within the context window. The compact
// package provides one.
type Compactor interface {
	// Prepare runs before every request, after the tool-result budget. It
	// may return a new history to use instead (and record it).
	Prepare(ctx context.Context, s *Session, emit func(Event)) error
	// Reactive runs once after the API refused the prompt as too long. It
	// reports whether it compacted.
	Reactive(ctx context.Context, s *Session, emit func(Event)) (bool, error)
}

// Config is everything a Session needs. Provider, Models and Model are
// required; the zero values of the rest are usable.
type Config struct {
	Provider llm.Provider
	Models   *llm.Models
	// Model is the model id (aliases are resolved through Models).
	Model string
	// FallbackModel is used after FallbackAfter consecutive overloaded
	// responses (default 3).
	FallbackModel string
	FallbackAfter int

	SessionID string
	Cwd       string
	Version   string
	GitBranch string
	// Entrypoint names what started the session in its transcript lines
	// ("cli" for the terminal UI, "sdk-cli" for print mode, or what
	// CLAUDE_CODE_ENTRYPOINT says, as an Agent SDK sets it).
	Entrypoint string

	// System is the system prompt, stable for the session.
	System []llm.SystemBlock
	// UserContext, when non-empty, is sent as a meta user message at the
	// front of every request (memory files, date), wrapped in a
	// <system-reminder>.
	UserContext string

	// Tools returns the tools of a turn; called once at each turn start.
	Tools func(ctx context.Context) ToolSet
	Gate  tool.Gate
	// Store persists oversized tool results.
	Store *tool.ResultStore
	// MaxToolConcurrency caps parallel safe calls (0: default 10).
	MaxToolConcurrency int

	// MaxTurns ends the turn after this many model responses with tool
	// calls (0: no limit).
	MaxTurns int
	// MaxBudgetUSD ends the turn once the session cost reaches it (0: none).
	MaxBudgetUSD float64
	// MaxThinkingTokens enables extended thinking with this budget.
	MaxThinkingTokens int
	// Thinking overrides the thinking configuration entirely when set.
	Thinking *llm.Thinking
	// ThinkingDisplay, when set, is sent as thinking.display
	// ("summarized" or "omitted") whenever thinking is on.
	ThinkingDisplay string
	// Effort is the effort level asked for ("" or "auto": the model's
	// default). Requests to a model that takes effort levels carry the
	// nearest one it takes, and the effort beta; others carry neither.
	Effort string
	// MaxOutputTokens fixes the output cap; 0 means the default cap with
	// one escalation on truncation.
	MaxOutputTokens int
	Betas           []string
	// CacheTTL is the prompt-cache TTL ("" means the API default).
	CacheTTL string
	NoCache  bool
	// Extra is merged into every request body.
	Extra map[string]json.RawMessage

	Recorder  Recorder
	StopHooks StopHooks
	Compactor Compactor

	// AgentID and ParentToolUseID tag a sub-agent's events and entries.
	AgentID         string
	ParentToolUseID string
	IsSidechain     bool

	// RetryBaseDelay is the first backoff step when a broken stream is
	// sent again (default llm.BaseRetryDelay).
	RetryBaseDelay time.Duration

	Logger *slog.Logger
	Now    func() time.Time
}

// Default output caps, as seed002 §4.4.2 gives them.
const (
	DefaultOutputCap   = 8_000
	EscalatedOutputCap = 64_000
	// MaxContinuations is how many times a truncated answer is continued.
	MaxContinuations = 3
	// MaxPauseResumes is how many times in a row a response the API
	// paused (stop_reason "pause_turn", a long server tool run) is sent
	// back to be continued.
	MaxPauseResumes = 10
	// MinThinkingBudget is the smallest thinking budget the API accepts.
	MinThinkingBudget = llm.MinThinkingBudget
)

// node is one history item.
type node struct {
	uuid    string
	msg     *llm.Message
	meta    bool
	summary bool // a compaction summary
}

// Session is one conversation. Run one turn at a time; the other methods
// are safe to call from any goroutine.
type Session struct {
	cfg Config

	// owned by the running turn (or the caller between turns)
	history  []node
	stopHook bool // stop_hook_active carried into the next turn check
	// schemas caches the tools' compiled input schemas for every turn:
	// compiling one costs more than validating many inputs.
	schemas tool.Schemas
	warm    sync.Once // starts compiling the common tools' schemas

	mu        sync.Mutex   // guards the fields below
	ctxMsg    *llm.Message // the UserContext message
	model     string
	fallback  bool // switched to the fallback model
	queue     []queued
	exec      *tool.Executor // the executor of the running turn, if any
	totals    Totals
	lastUsage llm.Usage // usage of the last response
	lastUUID  string
	// recErr is the first failure to record an entry; recTold is set once
	// a turn has reported it.
	recErr  error
	recTold bool
	running bool
	// wroteBy is the model each response of this session was asked of.
	wroteBy map[*llm.Message]string
	// unthought holds, for assistant messages another model wrote, the
	// copy without thinking blocks sent in their place (built once, so
	// every request sends the same bytes).
	unthought map[*llm.Message]*llm.Message
}

type queued struct {
	content []llm.ContentBlock
	uuid    string
}

// New returns a session. It panics if Provider or Models is nil.
func New(cfg Config) *Session {
	if cfg.Provider == nil || cfg.Models == nil {
		panic("engine.New: Provider and Models are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Gate == nil {
		cfg.Gate = tool.AllowAll{}
	}
	if cfg.RetryBaseDelay <= 0 {
		cfg.RetryBaseDelay = llm.BaseRetryDelay
	}
	if cfg.FallbackAfter <= 0 {
		cfg.FallbackAfter = 3
	}
	if cfg.SessionID == "" {
		cfg.SessionID = uuid.NewString()
	}
	s := &Session{cfg: cfg, model: cfg.Models.Resolve(cfg.Model)}
	if s.model == "" {
		s.model = llm.DefaultModel
	}
	if cfg.UserContext != "" {
		s.ctxMsg = &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(cfg.UserContext)}}
	}
	return s
}

// ID is the session id.
func (s *Session) ID() string { return s.cfg.SessionID }

// Config returns the session's configuration.
func (s *Session) Config() Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// AddUsage accounts a side call's usage (a compaction summary, auto
// mode's classifier) in the session's totals. LastUsage, which measures
// the conversation's context, is left as it was.
func (s *Session) AddUsage(model string, u llm.Usage, apiTime time.Duration) {
	s.account(model, u, apiTime, false)
}

// Model is the model the next request uses.
func (s *Session) Model() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// SetModel changes the model from the next request on.
func (s *Session) SetModel(m string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m == "" {
		m = s.cfg.Model
	}
	s.model = s.cfg.Models.Resolve(m)
	s.fallback = false
}

func (s *Session) onFallback() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fallback
}

// SetUserContext replaces the context sent at the front of every request
// (Config.UserContext) from the next request on: the memory files changed
// during the session, as with the terminal UI's "#" and /memory, and the
// model is to read them as they are now.
func (s *Session) SetUserContext(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.UserContext = text
	s.ctxMsg = nil
	if text != "" {
		s.ctxMsg = &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(text)}}
	}
}

// SetSystem replaces the system prompt (Config.System) from the next
// request on: the user chose another output style. The new prompt is
// byte-stable from then on, as the old one was.
func (s *Session) SetSystem(blocks []llm.SystemBlock) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.System = blocks
}

// SetEffort changes the effort level from the next request on ("" or
// "auto": the model's default). The level is not checked here; callers
// pass one llm.ParseEffort accepted.
func (s *Session) SetEffort(level string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Effort = level
}

// SetThinkingDisplay changes thinking.display ("summarized", "omitted",
// or "" for none) from the next request on.
func (s *Session) SetThinkingDisplay(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.ThinkingDisplay = d
}

// Effort returns the effort level asked for ("" when none was).
func (s *Session) Effort() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Effort
}

// SetMaxThinkingTokens changes the thinking budget (0 drops it). A
// budget replaces a thinking setting given as a type (--thinking
// adaptive or disabled), which would otherwise win over it; 0 keeps
// that setting.
func (s *Session) SetMaxThinkingTokens(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.MaxThinkingTokens = n
	if n > 0 {
		s.cfg.Thinking = nil
	}
}

// Totals returns the session's usage and cost so far.
func (s *Session) Totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.totals.clone()
}

// LastUsage is the usage of the most recent response.
func (s *Session) LastUsage() llm.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUsage
}

// Messages returns the history as API messages (without the user context
// message). The slice is a copy; the messages are shared and immutable.
func (s *Session) Messages() []*llm.Message {
	out := make([]*llm.Message, len(s.history))
	for i, n := range s.history {
		out[i] = n.msg
	}
	return out
}

// HistoryItem is a history message with its transcript identity.
type HistoryItem struct {
	UUID    string
	Message *llm.Message
	Meta    bool
	Summary bool
}

// History returns the history with uuids.
func (s *Session) History() []HistoryItem {
	out := make([]HistoryItem, len(s.history))
	for i, n := range s.history {
		out[i] = HistoryItem{UUID: n.uuid, Message: n.msg, Meta: n.meta, Summary: n.summary}
	}
	return out
}

// SetHistory replaces the history (resume, compaction, /clear). Call it
// between turns or from a Compactor.
func (s *Session) SetHistory(items []HistoryItem) {
	s.history = s.history[:0:0]
	for _, it := range items {
		u := it.UUID
		if u == "" {
			u = uuid.NewString()
		}
		s.history = append(s.history, node{uuid: u, msg: it.Message, meta: it.Meta, summary: it.Summary})
	}
	s.mu.Lock()
	s.lastUUID = ""
	if n := len(s.history); n > 0 {
		s.lastUUID = s.history[n-1].uuid
	}
	s.mu.Unlock()
}

// SetLastUUID sets the parent of the next recorded entry (resume).
func (s *Session) SetLastUUID(u string) {
	s.mu.Lock()
	s.lastUUID = u
	s.mu.Unlock()
}

// LastUUID is the uuid the next recorded entry names as its parent.
func (s *Session) LastUUID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUUID
}

// Queue adds a user message sent while a turn runs. Running calls whose
// interrupt behaviour is Cancel are stopped; the message is added at the
// next turn boundary. Between turns the message waits for the next Run.
// It returns the uuid the message has once delivered (its UserMessage
// event carries it), which Unqueue also names.
func (s *Session) Queue(content []llm.ContentBlock) string {
	id := uuid.NewString()
	s.mu.Lock()
	s.queue = append(s.queue, queued{content: content, uuid: id})
	ex := s.exec
	s.mu.Unlock()
	if ex != nil {
		ex.InterruptSoft()
	}
	return id
}

// QueuedMessage is a queued message taken back by Unqueue.
type QueuedMessage struct {
	UUID    string // as Queue returned it
	Content []llm.ContentBlock
}

// Unqueue takes back the queued messages not yet delivered, in the order
// they were queued, so the user can edit them. Delivery at a turn
// boundary and Unqueue take the queue under the same lock: each message
// is either returned here or delivered to the conversation, never both.
// Calls a Queue already stopped stay stopped.
func (s *Session) Unqueue() []QueuedMessage {
	q := s.takeQueue()
	out := make([]QueuedMessage, len(q))
	for i, m := range q {
		out[i] = QueuedMessage{UUID: m.uuid, Content: m.content}
	}
	return out
}

// Running reports whether a turn is in progress.
func (s *Session) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

func (s *Session) takeQueue() []queued {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

func (t Totals) clone() Totals {
	c := t
	c.ByModel = make(map[string]ModelTotals, len(t.ByModel))
	for k, v := range t.ByModel {
		c.ByModel[k] = v
	}
	return c
}

// record appends a message entry to the transcript and returns its uuid.
func (s *Session) record(e *session.Entry) {
	if s.cfg.Recorder == nil {
		return
	}
	s.mu.Lock()
	if e.UUID != "" && (e.Type == session.TypeUser || e.Type == session.TypeAssistant || e.Type == session.TypeSystem) {
		if s.lastUUID != "" {
			p := s.lastUUID
			e.ParentUUID = &p
		}
		s.lastUUID = e.UUID
	}
	s.mu.Unlock()
	e.SessionID = s.cfg.SessionID
	e.Timestamp = s.cfg.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	e.Cwd = s.cfg.Cwd
	e.Version = s.cfg.Version
	e.GitBranch = s.cfg.GitBranch
	if e.Type == session.TypeUser || e.Type == session.TypeAssistant || e.Type == session.TypeSystem {
		e.UserType, e.Entrypoint = "external", s.cfg.Entrypoint
	}
	e.AgentID = s.cfg.AgentID
	e.IsSidechain = s.cfg.IsSidechain
	if err := s.cfg.Recorder.Append(e); err != nil {
		s.cfg.Logger.Error("transcript write failed", "err", err)
		s.mu.Lock()
		if s.recErr == nil {
			s.recErr = err
		}
		s.mu.Unlock()
	}
}

// RecordError returns the first failure to record an entry of the
// session, or nil. A session that cannot be recorded cannot be resumed;
// front ends tell the user.
func (s *Session) RecordError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recErr
}

// Record appends an entry that is not a message (todos, notices).
func (s *Session) Record(e *session.Entry) { s.record(e) }

// append adds a message to history and records it.
func (s *Session) append(n node, extra func(*session.Entry)) {
	s.history = append(s.history, n)
	typ := session.TypeUser
	if n.msg.Role == llm.RoleAssistant {
		typ = session.TypeAssistant
	}
	e := &session.Entry{Type: typ, UUID: n.uuid, Message: n.msg, IsMeta: n.meta, IsCompactSummary: n.summary}
	if extra != nil {
		extra(e)
	}
	s.record(e)
}

// AppendMessage adds a message to history between turns (for example the
// output of a local command kept for the model) and records it.
func (s *Session) AppendMessage(m *llm.Message, meta bool) string {
	n := node{uuid: uuid.NewString(), msg: m, meta: meta}
	s.append(n, nil)
	return n.uuid
}

// addUsage accounts one response of the conversation.
func (s *Session) addUsage(model string, u llm.Usage, apiTime time.Duration) (cost float64, t Totals) {
	return s.account(model, u, apiTime, true)
}

// account adds a response's usage to the totals; last also makes it the
// LastUsage (a response of the conversation, not a side call).
func (s *Session) account(model string, u llm.Usage, apiTime time.Duration, last bool) (cost float64, t Totals) {
	info := s.cfg.Models.Info(model)
	cost = info.Cost(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	if last {
		s.lastUsage = u
	}
	s.totals.Usage.Add(u)
	s.totals.Cost += cost
	s.totals.APITime += apiTime
	if !info.PriceKnown() {
		s.totals.CostUnknown = true
	}
	if s.totals.ByModel == nil {
		s.totals.ByModel = map[string]ModelTotals{}
	}
	mt := s.totals.ByModel[model]
	mt.Usage.Add(u)
	mt.Cost += cost
	mt.Info = info
	s.totals.ByModel[model] = mt
	return cost, s.totals.clone()
}
