package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/streamjson"
	"reins/internal/tool"
)

// Config configures a Server. In, Out, Session and Models are required;
// every other field may be left zero, and a control request that needs a
// missing capability is answered with an error naming it.
//
// The functions are called from the goroutine that reads the input, so
// they must not wait for an answer from the client (that answer could only
// be read by the same goroutine); BeforeTurn is the exception, being
// called by the turn runner.
type Config struct {
	// In is the client's input (stdin). Run reads it until EOF.
	In io.Reader
	// Out writes every output line; its session id stamps the lines.
	Out *streamjson.Writer
	// Stderr receives warnings about input that cannot be answered on the
	// protocol (nil discards them).
	Stderr io.Writer

	// Session returns the session turns run on, at each turn start.
	Session func() *engine.Session
	Models  *llm.Models
	// LookupTool finds a tool of the session by name, for what
	// can_use_tool says of it (an MCP tool's title); nil: only names.
	LookupTool func(name string) (tool.Tool, bool)
	// Init returns the system/init line written at the start of each
	// turn (nil writes none).
	Init func() *streamjson.Init
	// BeforeTurn runs before each turn's init line, in the turn runner:
	// for example waiting (bounded) for SDK-hosted MCP servers.
	BeforeTurn func(ctx context.Context)
	// Prepare, when set, turns each user message into its turn, in the
	// turn runner: slash commands expand or run, UserPromptSubmit hooks
	// may refuse the prompt or add context.
	Prepare func(ctx context.Context, in engine.Input) (Prepared, error)
	// SubagentStats returns the counts of sub-agents run since the last
	// call, for each result line (nil: none ran).
	SubagentStats func() streamjson.SubagentStats

	// Hooks receives the hook callbacks the client registers in
	// initialize; *hooks.Runner implements it.
	Hooks HookRegistry
	// Initialize applies the application's part of an initialize request
	// (agents, system prompt) and describes the session for the answer.
	Initialize func(req *InitializeRequest) (*InitializeResponse, error)
	// SetPermissionMode switches the permission mode (set_permission_mode)
	// and returns the mode now in force (its canonical name).
	SetPermissionMode func(mode string) (string, error)
	// MCPStatus describes the MCP servers (mcp_status).
	MCPStatus func() []MCPServerStatus
	// MCPReconnect reconnects a server; false means no such server.
	MCPReconnect func(name string) bool
	// MCPAwait waits until the configured server name is not
	// connecting and returns its status (ok false: no such server);
	// nil answers mcp_reconnect without waiting.
	MCPAwait func(ctx context.Context, name string) (mcp.ServerStatus, bool)
	// RewindFiles puts the files edit tools changed back as they were at
	// a user message (rewind_files); nil means file checkpointing is off.
	RewindFiles func(userMessageID string, dryRun bool) RewindResult
	// MCPToggle turns a server on or off for the session (mcp_toggle);
	// found is false when no server has that name.
	MCPToggle func(name string, enabled bool) (found bool, err error)
	// StopTask stops a background task (stop_task).
	StopTask func(id string) error
	// MoveToBackground moves the running foreground tool call toolUseID
	// (a Bash command, a sub-agent), or with "" every one that can move,
	// to the background and reports whether any moved
	// (background_tasks); nil refuses the request.
	MoveToBackground func(toolUseID string) bool
	// ThinkingDisplay is the session's starting thinking display
	// (--thinking-display), which set_max_thinking_tokens' null
	// thinking_display goes back to.
	ThinkingDisplay string
	// Background, when set, is the session's background tasks: when some
	// finish while no message waits, the model gets a turn with their
	// notifications (it was told it would learn of them), and once the
	// input has ended the server waits for those still running before it
	// returns.
	Background Background
	// ContextInfo adds to the get_context_usage answer (memory files,
	// MCP tools, agents); nil leaves those lists empty.
	ContextInfo func(*ContextUsage)

	// UpdateEnv sets environment variables for what the session starts
	// from now on: Bash commands, hooks, MCP servers
	// (update_environment_variables). Nil: the lines are reported as not
	// supported.
	UpdateEnv func(vars map[string]string)
	// ApplyFlagSettings merges a settings overlay into the session's flag
	// settings layer and applies it (apply_flag_settings): each top-level
	// key replaces the layer's, a null value removes it. An overlay that
	// is not valid settings must be refused with nothing changed.
	ApplyFlagSettings func(overlay map[string]json.RawMessage) error
	// UpdateSettings writes keys into a settings file, "localSettings" or
	// "userSettings", and applies them (update_settings).
	UpdateSettings func(source string, values map[string]json.RawMessage) error
	// GetSettings describes the merged settings and each source's
	// (get_settings).
	GetSettings func() (any, error)
	// PermissionRules describes the session's live permission rules and
	// working folders (list_permission_rules).
	PermissionRules func() any
	// ReadFile reads a file of the session's folder for the client
	// (read_file), under the Read tool's permission rules.
	ReadFile func(req ReadFileRequest) (*ReadFileResult, error)
	// SeedReadState records a file as read at a modification time given
	// in milliseconds (seed_read_state); a file changed since is left
	// unrecorded.
	SeedReadState func(path string, mtimeMS int64) error
	// Reload re-reads commands, skills and agents from disk
	// (reload_skills, reload_plugins) and describes them.
	Reload func() Reloaded
	// OutputStyles, when set, reads the output styles there are again
	// (reload_output_styles) and names the active one.
	OutputStyles func() (active string, available []string)
	// ReloadPlugins finds the plugins again, adding the folders add
	// names, re-reads commands, skills and agents with them and
	// describes the result (reload_plugins). nil: reload_plugins reads
	// commands again (Reload) and lists no plugins.
	ReloadPlugins func(add []PluginDir) (Reloaded, error)
	// MCPReadResource reads a resource of a configured MCP server
	// (mcp_read_resource). It is called on a goroutine of its own.
	MCPReadResource func(ctx context.Context, server, uri string) (any, error)
	// MCPOptions are the base options for the MCP servers the client
	// sets at run time (mcp_set_servers): environment, folder,
	// credentials. Servers, SDK and the client name are filled in.
	MCPOptions func() mcp.Options
	// MCPTakeOver turns off a configured server whose name the client
	// now gives its own configuration, or that it leaves out of its set
	// (mcp_set_servers); it reports whether one was on.
	MCPTakeOver func(name string) bool
	// MCPClientServers names the configured servers, turned on, that the
	// client hosts (the {"type":"sdk"} entries of --mcp-config): a set
	// given with mcp_set_servers replaces them too.
	MCPClientServers func() []string
	// MCPAskAlways makes the tools of an MCP server be asked about even
	// under bypassPermissions, or (false) follow the session's mode again
	// (set_mcp_permission_mode_override "default" or null).
	MCPAskAlways func(server string, ask bool)
	// GenerateTitle asks a model for a short title for a session
	// described by description (generate_session_title). It is called
	// on a goroutine of its own.
	GenerateTitle func(ctx context.Context, description string) (string, error)
	// RenameSession sets the session's title (rename_session).
	RenameSession func(title string) error

	// JSONSchema is the --json-schema for structured output; the
	// initialize request may set one too.
	JSONSchema json.RawMessage
	// MaxStructuredRetries bounds the reminders sent when the model ends
	// a turn without giving structured output (0 means 5).
	MaxStructuredRetries int
	// MaxBudgetUSD refuses to start a turn once the session cost reached
	// it (the engine stops a running turn itself).
	MaxBudgetUSD float64

	// ClientVersion is reins's version, given to the client's MCP servers.
	ClientVersion string

	Logger *slog.Logger
}

// Prepared is what Config.Prepare made of a user message.
type Prepared struct {
	// Run says Input goes to the model; otherwise Output answers the
	// message (a local command's output, or a refusal when IsError).
	Run     bool
	Input   engine.Input
	Output  string
	IsError bool
	// Events are what a local command produced besides its text (the
	// compact_boundary of /compact), written before the result.
	Events []engine.Event
	// Reset says the message replaced the session (/clear): a new init
	// line, with the new session id, comes before the result.
	Reset bool
}

// RewindResult answers rewind_files, with the Agent SDK's field names.
type RewindResult struct {
	CanRewind    bool     `json:"canRewind"`
	Error        string   `json:"error,omitempty"`
	FilesChanged []string `json:"filesChanged,omitempty"`
	Insertions   int      `json:"insertions"`
	Deletions    int      `json:"deletions"`
}

// HookRegistry takes hooks registered at run time.
type HookRegistry interface {
	Add(h hooks.Hook)
	// Remove drops the hooks drop selects (those of an earlier
	// initialize).
	Remove(drop func(hooks.Hook) bool) int
}

// callbackKeyPrefix starts the key of each client callback hook.
const callbackKeyPrefix = "sdk:"

// DefaultMaxStructuredRetries is used when Config.MaxStructuredRetries is 0.
const DefaultMaxStructuredRetries = 5

// Server runs the SDK protocol over one input and one output: it reads
// user messages and control messages, runs one turn per user message in
// arrival order, answers control requests while turns stream, and puts
// its own control requests (can_use_tool, hook_callback, mcp_message) to
// the client.
type Server struct {
	cfg  Config
	peer *peer
	out  *structuredTool // nil without a schema; set by initialize at the latest

	sdkMCP sdkServers // the MCP servers the client gave: in initialize, with mcp_set_servers

	started time.Time      // when the server was made (get_usage)
	async   sync.WaitGroup // control requests answered on goroutines of their own

	// wake is signalled (without blocking) when the queue or the input
	// state changes.
	wake chan struct{}

	startOnce sync.Once
	readDone  chan struct{} // closed when the reading goroutine ends

	dispatchMu sync.Mutex // serialises dispatching; guards ready and backlog
	ready      bool
	backlog    []*Message // read before Ready, dispatched by it

	firstOnce sync.Once
	firstRead chan struct{} // closed once the first message is read, or the input ended
	first     *Message      // that message (nil when the input ended first); set before firstRead closes

	mu          sync.Mutex // guards the fields below
	queue       []item
	inputDone   bool
	inputErr    error
	interrupts  uint64                  // counts interrupt requests
	cancelTurn  context.CancelCauseFunc // of the running turn, nil between turns
	initialized bool
	asking      int // can_use_tool requests awaiting an answer

	hookEvents *streamjson.HookEvents

	// held is the content of messages sent with "shouldQuery": false,
	// waiting for the next message that starts a turn. Only the turn
	// runner uses it.
	held []llm.ContentBlock
}

// item is one queued user line: a message, or the error that made it
// unusable (answered with an error result in its turn).
type item struct {
	in    *UserInput
	err   error
	epoch uint64 // interrupts counted when it was queued
	// notice says in holds notifications of finished background tasks,
	// not a message of the client's: it goes to the model as it is.
	notice bool
}

// Background is what the server needs of the session's background tasks.
type Background interface {
	// Changed is signalled when a task finishes.
	Changed() <-chan struct{}
	// Running counts the tasks still running.
	Running() int
	// Notifications takes the notifications of the tasks that finished
	// and were not announced to the model yet.
	Notifications() []string
	// WaitLimit is how long to wait, once the input has ended, for the
	// tasks still running; capped false waits without a limit.
	WaitLimit() (limit time.Duration, capped bool)
}

// New returns a server. It panics when a required field is missing.
func New(cfg Config) *Server {
	if cfg.In == nil || cfg.Out == nil || cfg.Session == nil || cfg.Models == nil {
		panic("sdk.New: In, Out, Session and Models are required")
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxStructuredRetries <= 0 {
		cfg.MaxStructuredRetries = DefaultMaxStructuredRetries
	}
	s := &Server{cfg: cfg, peer: newPeer(cfg.Out), wake: make(chan struct{}, 1), readDone: make(chan struct{}), started: time.Now(),
		firstRead:  make(chan struct{}),
		hookEvents: streamjson.NewHookEvents(cfg.Out)}
	if len(cfg.JSONSchema) > 0 {
		t, err := newStructuredTool(cfg.JSONSchema)
		if err != nil {
			panic(fmt.Sprintf("sdk.New: %v (check the schema with ParseSchema first)", err))
		}
		s.out = t
	}
	return s
}

// Run serves until the input ends and every queued turn has written its
// result, or until ctx ends (the running turn is stopped and still
// writes its result). It returns nil after a clean end of input, ctx's
// error, or the error that made reading or writing impossible. When ctx
// ends while a read of In is blocked, Run returns without waiting for it;
// the reading goroutine ends when that read returns.
func (s *Server) Run(ctx context.Context) error {
	s.Start()
	s.Ready()
	defer s.closeSDKServers()
	err := s.runTurns(ctx)
	if err == nil {
		<-s.readDone
		s.async.Wait()
	}
	return err
}

// Start begins reading the input before the application is ready to serve
// it: answers to reins's own requests are delivered at once (so SDK-hosted
// MCP servers can connect while the session is being set up), and every
// other message waits, in order, until Ready. Run calls it too.
func (s *Server) Start() {
	s.startOnce.Do(func() {
		go func() {
			defer close(s.readDone)
			s.read()
		}()
	})
}

// Ready dispatches the messages read since Start and every later one as
// it comes. Call it once the functions of Config can be called.
func (s *Server) Ready() {
	s.dispatchMu.Lock()
	defer s.dispatchMu.Unlock()
	if s.ready {
		return
	}
	s.ready = true
	for _, m := range s.backlog {
		s.dispatch(m)
	}
	s.backlog = nil
}

// AwaitInitialize waits until the client's first message is read (answers
// and keep-alives aside) and returns it when it is an initialize request
// that decodes; nil otherwise, or when the input ends or ctx is done
// first. It lets the application take what initialize carries for its
// start-up (mcpServers, with --await-initialize) before it is ready; the
// request itself is still answered after Ready. Call it after Start.
func (s *Server) AwaitInitialize(ctx context.Context) *InitializeRequest {
	select {
	case <-s.firstRead:
	case <-ctx.Done():
		return nil
	}
	m := s.first
	if m == nil || m.bad != nil || m.Type != KindControlRequest || m.Subtype != "initialize" {
		return nil
	}
	var req InitializeRequest
	if json.Unmarshal(m.Request, &req) != nil {
		return nil // answered with the error once ready
	}
	return &req
}

// noteFirst records the first message read (nil: the input ended).
func (s *Server) noteFirst(m *Message) {
	s.firstOnce.Do(func() {
		s.first = m
		close(s.firstRead)
	})
}

// route dispatches a message, or keeps it for Ready.
func (s *Server) route(m *Message) {
	if m.Type == KindControlResponse {
		if !s.peer.deliver(m.Answer) {
			s.cfg.Logger.Debug("answer to a request no longer pending", "request_id", m.Answer.RequestID)
		}
		return
	}
	s.dispatchMu.Lock()
	defer s.dispatchMu.Unlock()
	if !s.ready {
		s.backlog = append(s.backlog, m)
		return
	}
	s.dispatch(m)
}

// Asker returns the engine.Asker that puts permission questions to the
// client with can_use_tool (for --permission-prompt-tool stdio).
func (s *Server) Asker() engine.Asker { return &asker{s: s} }

// Tools returns the tools the protocol adds to every turn: those of the
// MCP servers the client declared in initialize, and StructuredOutput when
// a JSON schema was given. Call it at each turn start.
func (s *Server) Tools() []tool.Tool {
	out := s.sdkServerTools()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		out = append(out, s.out)
	}
	return out
}

// read reads the input until it ends, dispatching each message.
func (s *Server) read() {
	r := NewReader(s.cfg.In)
	for {
		m, err := r.Next()
		var le *LineError
		switch {
		case errors.As(err, &le):
			bad := &Message{Line: le.Line, bad: le}
			s.noteFirst(bad)
			s.route(bad)
			continue
		case err == io.EOF:
			s.endInput(nil)
			return
		case err != nil:
			s.endInput(err)
			return
		}
		if m.Type != KindControlResponse && m.Type != KindKeepAlive {
			s.noteFirst(m)
		}
		s.route(m)
	}
}

func (s *Server) dispatch(m *Message) {
	if m.bad != nil {
		s.badLine(m.bad)
		return
	}
	switch m.Type {
	case KindUser:
		if m.User.Priority == "now" {
			s.interrupt()
		}
		s.enqueue(item{in: m.User})
	case KindControlRequest:
		s.control(m)
	case KindControlCancel:
		// Every request reins serves is answered at once, so there is
		// nothing in flight to withdraw.
	case KindKeepAlive:
	case KindUpdateEnv:
		if s.cfg.UpdateEnv == nil {
			s.warn("input line %d: update_environment_variables is not supported; ignored", m.Line)
			return
		}
		s.cfg.UpdateEnv(m.Variables)
	default:
		s.warn("input line %d: unknown message type %q; ignored", m.Line, m.Type)
	}
}

// badLine answers what can be answered about an unusable line: a control
// request with an error response, a user message with an error result (in
// its turn, so the client waiting for a result gets one); the rest is
// reported on stderr.
func (s *Server) badLine(le *LineError) {
	switch {
	case le.RequestID != "":
		s.cfg.Out.Line(streamjson.NewControlError(le.RequestID, le.Error()))
	case le.User:
		s.enqueue(item{err: le})
	default:
		s.warn("%v; ignored", le)
	}
}

func (s *Server) warn(format string, args ...any) {
	fmt.Fprintf(s.cfg.Stderr, "reins: "+format+"\n", args...)
}

func (s *Server) enqueue(it item) {
	s.mu.Lock()
	it.epoch = s.interrupts
	s.queue = append(s.queue, it)
	s.mu.Unlock()
	s.signal()
}

// queued counts the client's user messages waiting for their turn (a
// result line's queued_turn_count).
func (s *Server) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, it := range s.queue {
		if !it.notice {
			n++
		}
	}
	return n
}

func (s *Server) endInput(err error) {
	s.noteFirst(nil)
	s.mu.Lock()
	s.inputDone, s.inputErr = true, err
	s.mu.Unlock()
	s.peer.close()
	s.signal()
}

func (s *Server) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// next waits for the next queued item, or, with nothing queued, for
// background tasks to finish (a notice item announces them). ok is false
// once the input ended and nothing is left to run or wait for (or the
// wait for background tasks reached its limit), or ctx ended.
func (s *Server) next(ctx context.Context) (it item, ok bool, err error) {
	var changed <-chan struct{}
	if s.cfg.Background != nil {
		changed = s.cfg.Background.Changed()
	}
	var timeout <-chan time.Time
	var limit time.Duration
	limited := false // the wait limit was looked up
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			it = s.queue[0]
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return it, true, nil
		}
		done, ierr, epoch := s.inputDone, s.inputErr, s.interrupts
		s.mu.Unlock()
		if bg := s.cfg.Background; bg != nil {
			if notes := bg.Notifications(); len(notes) > 0 {
				in := &UserInput{}
				for _, n := range notes {
					in.Content = append(in.Content, llm.TextBlock(n))
				}
				return item{in: in, notice: true, epoch: epoch}, true, nil
			}
		}
		if done && (s.cfg.Background == nil || s.cfg.Background.Running() == 0) {
			return item{}, false, ierr
		}
		if done && !limited {
			limited = true
			var capped bool
			if limit, capped = s.cfg.Background.WaitLimit(); capped {
				t := time.NewTimer(limit)
				defer t.Stop()
				timeout = t.C
			}
		}
		select {
		case <-s.wake:
		case <-changed:
		case <-timeout:
			s.warn("background tasks still running after %s; stopping them (CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=0 waits for them without a limit)", limit)
			return item{}, false, ierr
		case <-ctx.Done():
			return item{}, false, ctx.Err()
		}
	}
}

// runTurns runs queued turns one after another.
func (s *Server) runTurns(ctx context.Context) error {
	for {
		it, ok, err := s.next(ctx)
		if !ok {
			return err
		}
		if err := s.turn(ctx, it); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// interrupt stops the running turn and cancels every message queued
// before it.
func (s *Server) interrupt() {
	s.mu.Lock()
	s.interrupts++
	cancel := s.cancelTurn
	s.mu.Unlock()
	if cancel != nil {
		cancel(tool.ErrInterrupted)
	}
}

// startTurn registers the cancel function of the turn of it. It reports
// false when an interrupt came after it was queued: it must not run.
func (s *Server) startTurn(it item, cancel context.CancelCauseFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelTurn = cancel
	return s.interrupts == it.epoch
}

func (s *Server) endTurn() {
	s.mu.Lock()
	s.cancelTurn = nil
	s.mu.Unlock()
}

// setState writes a session_state_changed line.
func (s *Server) setState(state string) {
	s.cfg.Out.Line(streamjson.NewSessionState(s.cfg.Out.SessionID(), state))
}

// askStart and askEnd track pending permission questions: the session
// requires action while any is open.
func (s *Server) askStart() {
	s.mu.Lock()
	s.asking++
	first := s.asking == 1
	s.mu.Unlock()
	if first {
		s.setState(streamjson.StateRequiresAction)
	}
}

func (s *Server) askEnd() {
	s.mu.Lock()
	s.asking--
	last := s.asking == 0
	s.mu.Unlock()
	if last {
		s.setState(streamjson.StateRunning)
	}
}
