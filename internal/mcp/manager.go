package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"reins/internal/tool"
)

// State is where a server's connection stands.
type State string

// Connection states.
const (
	StatePending   State = "pending"    // connecting (or reconnecting)
	StateConnected State = "connected"  // its tools are available
	StateFailed    State = "failed"     // it could not connect or it stopped; Err says why
	StateNeedsAuth State = "needs-auth" // a remote server refused us as unauthorised
	StateDisabled  State = "disabled"   // not started (not approved, disabled, or invalid)
)

// Defaults of Options.
const (
	// DefaultToolTimeout is Claude Code's: 100,000,000 ms, about 28
	// hours, so that a long tool (a build, a deployment) is not cut off;
	// the user interrupts one that hangs.
	DefaultToolTimeout    = 100_000_000 * time.Millisecond
	DefaultConnectTimeout = 30 * time.Second
	DefaultReconnectMin   = 500 * time.Millisecond
	DefaultReconnectMax   = 30 * time.Second
	DefaultMaxReconnects  = 8
)

// Options configure a Manager.
type Options struct {
	// Servers are the configured servers (Config.Servers).
	Servers []Server
	// Getenv expands ${VAR} in configurations; nil means os.Getenv.
	Getenv func(string) string
	// Environ is the base environment of stdio servers; nil means
	// os.Environ.
	Environ func() []string
	// Cwd is where stdio servers run and the root offered to servers.
	Cwd string
	// SDK answers servers of type "sdk"; without it they fail.
	SDK SDKHost
	// ToolTimeout bounds one tool call; 0 means MCP_TOOL_TIMEOUT (in
	// milliseconds) or DefaultToolTimeout. A server's own timeout
	// (ServerConfig.Timeout) comes first.
	ToolTimeout time.Duration
	// ConnectTimeout bounds one connection attempt; 0 means MCP_TIMEOUT
	// (milliseconds) or DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Reconnect backoff after a server stops: doubling from ReconnectMin
	// up to ReconnectMax, at most MaxReconnects attempts in a row (0 means
	// the defaults; a negative MaxReconnects never reconnects).
	ReconnectMin, ReconnectMax time.Duration
	MaxReconnects              int
	// MaxOutputTokens limits one tool result or resource, in tokens
	// (estimated); a larger one is saved to a file. 0 means
	// MAX_MCP_OUTPUT_TOKENS, and without it the ordinary limit on a tool
	// result (tool.DefaultMaxResultChars). A tool's own
	// MetaMaxResultSizeChars comes before either.
	MaxOutputTokens int
	// Notify, when set, tells the user of a large result (a level such
	// as "warning", and the text).
	Notify func(level, text string)
	// Credentials holds the OAuth tokens of `reins mcp login`; nil means
	// none. With it, a server that needs authorization offers the
	// mcp__<server>__authenticate tool in place of its own.
	Credentials *CredentialStore
	// OpenBrowser shows an authorization address to the user (see
	// BrowserOpener); nil only reports it.
	OpenBrowser func(url string) error
	// Elicit answers a server's request for input from the user
	// (elicitation/create); nil declines every such request (print mode:
	// nobody can be asked).
	Elicit Elicitor
	// ClientName and ClientVersion introduce reins to servers.
	ClientName, ClientVersion string
	Logger                    *slog.Logger
}

// Manager owns the connections to the configured servers. Start connects
// them in the background; Snapshot gives the tools of those connected so
// far (the engine takes one per turn, so a server that connects mid-turn
// shows up at the next). Close releases every process, connection and
// goroutine. Its methods are safe for concurrent use.
type Manager struct {
	opts        Options
	toolTimeout time.Duration
	connTimeout time.Duration
	// outputTokens limits one result (MaxOutputTokens); 0 when unset.
	outputTokens int
	log          *slog.Logger

	ctx     context.Context // cancelled by Close; parent of every connection
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	servers []*server // sorted by name; Add and Remove change it under mu

	mu      sync.Mutex    // guards the fields below (and each server's state)
	changed chan struct{} // closed and replaced at every change
	started bool
	closed  bool
}

// NewManager returns a manager for opts.Servers; nothing starts before
// Start.
func NewManager(opts Options) *Manager {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ
	}
	if opts.ReconnectMin <= 0 {
		opts.ReconnectMin = DefaultReconnectMin
	}
	if opts.ReconnectMax <= 0 {
		opts.ReconnectMax = DefaultReconnectMax
	}
	if opts.MaxReconnects == 0 {
		opts.MaxReconnects = DefaultMaxReconnects
	}
	if opts.ClientName == "" {
		opts.ClientName = "reins"
	}
	if opts.ClientVersion == "" {
		opts.ClientVersion = "0"
	}
	m := &Manager{opts: opts, log: opts.Logger, changed: make(chan struct{})}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	m.toolTimeout = envDuration(opts.ToolTimeout, opts.Getenv("MCP_TOOL_TIMEOUT"), DefaultToolTimeout)
	m.connTimeout = envDuration(opts.ConnectTimeout, opts.Getenv("MCP_TIMEOUT"), DefaultConnectTimeout)
	m.outputTokens = outputTokens(opts.MaxOutputTokens, opts.Getenv("MAX_MCP_OUTPUT_TOKENS"))
	m.ctx, m.cancel = context.WithCancel(context.Background())
	for _, s := range opts.Servers {
		srv := m.newServer(s)
		m.servers = append(m.servers, srv)
	}
	sort.Slice(m.servers, func(i, j int) bool { return m.servers[i].name < m.servers[j].name })
	// Two names that read the same once made fit for tool names
	// ("my.srv", "my_srv") would give their tools the same names, and one
	// server's would be lost without a word: the second is held back,
	// saying why.
	prefix := map[string]string{}
	for _, s := range m.servers {
		if s.state == StateDisabled {
			continue
		}
		key := NormalizeName(s.name)
		if first, ok := prefix[key]; ok {
			s.state, s.err = StateDisabled, fmt.Sprintf("its tools would be named mcp__%s__… like those of server %q; rename one of the two", key, first)
			continue
		}
		prefix[key] = s.name
	}
	return m
}

// envDuration is set if positive, else the milliseconds in env, else def.
func envDuration(set time.Duration, env string, def time.Duration) time.Duration {
	if set > 0 {
		return set
	}
	env = strings.TrimSpace(env)
	if n, err := strconv.ParseUint(env, 10, 64); err == nil && n > 0 {
		// Beyond about 146 years the nanoseconds would overflow, and a
		// negative timeout would end every wait at once.
		return time.Duration(min(n, maxEnvMillis)) * time.Millisecond
	}
	return def
}

// EnvWarnings checks the MCP variables of the environment read with
// getenv (MCP_TIMEOUT, MCP_TOOL_TIMEOUT, MAX_MCP_OUTPUT_TOKENS) and
// returns a warning for each that is set to something other than a
// positive whole number: such a value is ignored, and the default holds.
func EnvWarnings(getenv func(string) string) []string {
	var out []string
	for _, v := range []struct{ name, unit string }{
		{"MCP_TIMEOUT", "milliseconds"}, {"MCP_TOOL_TIMEOUT", "milliseconds"}, {"MAX_MCP_OUTPUT_TOKENS", "tokens"},
	} {
		val := strings.TrimSpace(getenv(v.name))
		if val == "" {
			continue
		}
		if n, err := strconv.ParseUint(val, 10, 64); err == nil && n > 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s=%q is not a positive number of %s; it is ignored", v.name, val, v.unit))
	}
	return out
}

// maxEnvMillis bounds the MCP timeouts set in the environment, in
// milliseconds (about 146 years: no limit, in effect).
const maxEnvMillis = uint64(math.MaxInt64/time.Millisecond) / 2

// Start connects every enabled server in parallel, in the background. It
// returns at once; calling it again does nothing.
func (m *Manager) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started || m.closed {
		return
	}
	m.started = true
	for _, s := range m.servers {
		if s.state != StateDisabled {
			m.runLocked(s)
		}
	}
}

// runLocked starts s's connection loop; call with m.mu held.
func (m *Manager) runLocked(s *server) {
	ctx, cancel := context.WithCancel(m.ctx)
	s.stop = cancel
	s.loops++
	loop := s.loops
	s.looping = true
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		s.run(ctx)
		m.mu.Lock()
		if s.loops == loop {
			s.looping = false
		}
		m.mu.Unlock()
	}()
}

// ErrNoServer is wrapped by SetEnabled's error for a name no server has.
var ErrNoServer = errors.New("no such MCP server")

// SetEnabled turns a server on or off for the rest of the session (the
// SDK's mcp_toggle). Turning one off ends its connection (a stdio server's
// process stops) and its tools leave the next turn's tool list; turning
// it on connects it again in the background. A server whose configuration
// is invalid cannot be turned on. It reports an error for an unknown name.
func (m *Manager) SetEnabled(name string, enabled bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.findServer(name)
	if s == nil {
		return fmt.Errorf("%w: %q", ErrNoServer, name)
	}
	switch {
	case !enabled && s.state != StateDisabled:
		if s.stop != nil {
			// Cancelled under m.mu: the loop's state changes check its
			// context under the same lock, so none lands after this. The
			// loop closes the connection as its context ends.
			s.stop()
			s.stop = nil
		}
		s.state, s.err, s.everSettled = StateDisabled, "disabled for this session", true
		s.cs, s.tools, s.prompts, s.hasResources = nil, nil, nil, false
		m.notifyLocked()
	case enabled && s.state == StateDisabled:
		if s.conf.Invalid != "" {
			return fmt.Errorf("MCP server %q cannot be enabled: %s", name, s.conf.Invalid)
		}
		s.state, s.err, s.everSettled = StatePending, "", false
		if m.started && !m.closed {
			m.runLocked(s)
		}
		m.notifyLocked()
	}
	return nil
}

// Wait waits until no enabled server is still connecting for the first
// time, or ctx is done (print and SDK modes bound it with a timeout). It
// reports whether every server settled.
func (m *Manager) Wait(ctx context.Context) bool {
	for {
		m.mu.Lock()
		pending := false
		for _, s := range m.servers {
			if s.state == StatePending && !s.everSettled {
				pending = true
			}
		}
		ch := m.changed
		m.mu.Unlock()
		if !pending {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// WaitServer waits until the server name is not connecting (it
// connected, failed, needs authorization or was disabled), or ctx is
// done, and returns its status then. ok is false when no server has that
// name.
func (m *Manager) WaitServer(ctx context.Context, name string) (st ServerStatus, ok bool) {
	for {
		ch := m.Changed() // before the status, so no change is missed
		var found *ServerStatus
		for _, x := range m.Status() {
			if x.Name == name {
				found = &x
				break
			}
		}
		if found == nil {
			return ServerStatus{}, false
		}
		if found.State != StatePending {
			return *found, true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return *found, true
		}
	}
}

// Changed returns a channel closed at the next status or tool change (a
// front end selects on it to redraw its /mcp view, then asks again).
func (m *Manager) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// notifyLocked wakes waiters; call with m.mu held.
func (m *Manager) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// ServerStatus describes one server, for /mcp, `reins mcp list` and the
// SDK's mcp_status.
type ServerStatus struct {
	Name      string
	Scope     Scope
	Transport string
	State     State
	// Err says why a server failed, needs auth or is disabled.
	Err           string
	ServerName    string // what the server calls itself
	ServerVersion string
	Instructions  string
	Tools         []string // model-facing names
	Prompts       []string
	Resources     bool // it offers resources
	// Reconnects counts reconnections after the server stopped.
	Reconnects int
}

// Status describes every configured server, sorted by name.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		st := ServerStatus{Name: s.name, Scope: s.conf.Scope, Transport: s.conf.Config.Transport(),
			State: s.state, Err: s.err, Reconnects: s.reconnects, Instructions: s.instructions,
			ServerName: s.info.Name, ServerVersion: s.info.Version, Resources: s.hasResources}
		for _, t := range s.tools {
			st.Tools = append(st.Tools, t.name)
		}
		for _, p := range s.prompts {
			st.Prompts = append(st.Prompts, p.Name)
		}
		out = append(out, st)
	}
	return out
}

// Snapshot is what connected servers offer at one moment.
type Snapshot struct {
	// Tools are the servers' tools sorted by name, then ListMcpResourcesTool
	// and ReadMcpResourceTool when a connected server offers resources.
	Tools []tool.Tool
	// Prompts are the servers' prompts, as slash-command data.
	Prompts []Prompt
	// Instructions are the connected servers' instructions, by server.
	Instructions map[string]string
}

// Snapshot returns the tools and prompts of the servers connected now,
// and the authenticate tool of each server that needs authorization.
// The engine calls it at each turn start (DESIGN invariant 3).
func (m *Manager) Snapshot() Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	var snap Snapshot
	resources := false
	for _, s := range m.servers {
		if s.state == StateNeedsAuth && m.opts.Credentials != nil {
			snap.Tools = append(snap.Tools, &authTool{m: m, server: s.name})
			continue
		}
		if s.state != StateConnected {
			continue
		}
		for _, t := range s.tools {
			snap.Tools = append(snap.Tools, t)
		}
		snap.Prompts = append(snap.Prompts, s.prompts...)
		resources = resources || s.hasResources
		if s.instructions != "" {
			if snap.Instructions == nil {
				snap.Instructions = map[string]string{}
			}
			snap.Instructions[s.name] = s.instructions
		}
	}
	sort.SliceStable(snap.Tools, func(i, j int) bool { return snap.Tools[i].Name() < snap.Tools[j].Name() })
	if resources {
		snap.Tools = append(snap.Tools, &listResourcesTool{m: m}, &readResourceTool{m: m})
	}
	return snap
}

// Login runs the OAuth flow (see Login) for the remote server name with
// the manager's credential store, then reconnects the server with the new
// tokens.
func (m *Manager) Login(ctx context.Context, name string, o LoginOptions) error {
	var conf *Server
	m.mu.Lock()
	for _, s := range m.servers {
		if s.name == name {
			c := s.conf
			conf = &c
		}
	}
	m.mu.Unlock()
	if conf == nil {
		return fmt.Errorf("no MCP server named %q", name)
	}
	if m.opts.Credentials == nil {
		return errors.New("this session keeps no MCP credentials")
	}
	cfg, missing := conf.Config.Expand(m.opts.Getenv)
	if len(missing) > 0 {
		return fmt.Errorf("MCP server %q cannot be used: %s", name, UnsetVarsMessage(missing))
	}
	if err := Login(ctx, name, cfg, m.opts.Credentials, o); err != nil {
		return err
	}
	m.Reconnect(name)
	return nil
}

// Reconnect drops a server's connection and connects it again (for the
// /mcp view and the SDK's mcp_reconnect), also one that had stopped
// trying. It reports whether the server exists and is enabled.
func (m *Manager) Reconnect(name string) bool {
	m.mu.Lock()
	var cs interface{ Close() error }
	found := false
	for _, s := range m.servers {
		if s.name == name && s.state != StateDisabled {
			found = true
			if !s.looping && m.started && !m.closed {
				// The loop gave up (the server needed authorization, or
				// ran out of attempts): start a new one.
				s.state, s.err = StatePending, ""
				m.runLocked(s)
				m.notifyLocked()
			} else if s.cs != nil {
				cs = s.cs // run sees the session end and reconnects at once
				s.restart = true
				s.state, s.err = StatePending, ""
				m.notifyLocked()
			} else if s.retryNow != nil {
				select {
				case s.retryNow <- struct{}{}:
				default:
				}
			}
		}
	}
	m.mu.Unlock()
	if cs != nil {
		cs.Close()
	}
	return found
}

// Close stops every server (stdio processes are ended) and waits for
// every goroutine the manager started.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.state != StateDisabled {
			s.state, s.err = StateFailed, "closed"
		}
		s.cs, s.tools, s.prompts, s.hasResources = nil, nil, nil, false
	}
	m.notifyLocked()
	return nil
}

// Unavailable says why the tool name cannot be called now when it names
// a tool of a configured server that is not connected (failed,
// reconnecting, needing authorization, disabled); "" otherwise.
func (m *Manager) Unavailable(name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.state == StateConnected || !hasServerPrefix(name, s.name) {
			continue
		}
		why := fmt.Sprintf("MCP server %q is %s", s.name, s.state)
		if s.err != "" {
			why += " (" + s.err + ")"
		}
		return why
	}
	return ""
}

// hasServerPrefix reports whether name is a tool name of server, its
// server part whole or shortened (see ToolName).
func hasServerPrefix(name, server string) bool {
	srv := NormalizeName(server)
	if strings.HasPrefix(name, "mcp__"+srv+"__") {
		return true
	}
	return len(srv) > maxServerPart && strings.HasPrefix(name, "mcp__"+shorten(srv, server, maxServerPart)+"__")
}

// findServer returns the connected server named name.
func (m *Manager) findServer(name string) *server {
	for _, s := range m.servers {
		if s.name == name {
			return s
		}
	}
	return nil
}

// Add adds a server to the manager while the session runs (a plugin a
// reload brought) and, once the manager has started, connects it in the
// background. It fails, adding nothing, when a server of that name is
// already there or the manager is closed. A server whose tool names would
// clash with another's is added disabled, saying why, as at construction.
func (m *Manager) Add(s Server) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return fmt.Errorf("add MCP server %q: the session's servers are closed", s.Name)
	}
	if m.findServer(s.Name) != nil {
		return fmt.Errorf("add MCP server %q: a server of that name is already configured", s.Name)
	}
	srv := m.newServer(s)
	if srv.state != StateDisabled {
		key := NormalizeName(s.Name)
		for _, o := range m.servers {
			if o.state != StateDisabled && NormalizeName(o.name) == key {
				srv.state, srv.err = StateDisabled, fmt.Sprintf("its tools would be named mcp__%s__… like those of server %q; rename one of the two", key, o.name)
				break
			}
		}
	}
	i, _ := slices.BinarySearchFunc(m.servers, s.Name, func(x *server, name string) int { return strings.Compare(x.name, name) })
	m.servers = slices.Insert(m.servers, i, srv)
	if m.started && srv.state != StateDisabled {
		m.runLocked(srv)
	}
	m.notifyLocked()
	return nil
}

// Remove stops the named server (a stdio server's process ends) and drops
// it: its tools leave the next turn's tool list. It reports whether there
// was such a server.
func (m *Manager) Remove(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.servers, func(s *server) bool { return s.name == name })
	if i < 0 {
		return false
	}
	s := m.servers[i]
	if s.stop != nil {
		// As in SetEnabled: cancelled under m.mu, so no state change of
		// the loop lands after this; the loop closes the connection.
		s.stop()
		s.stop = nil
	}
	s.state, s.err, s.everSettled = StateDisabled, "removed", true
	s.cs, s.tools, s.prompts, s.hasResources = nil, nil, nil, false
	m.servers = slices.Delete(m.servers, i, i+1)
	m.notifyLocked()
	return true
}

// newServer is the manager's record of configured server s: pending, or
// disabled with the reason when its entry is invalid or turned off.
func (m *Manager) newServer(s Server) *server {
	srv := &server{m: m, name: s.Name, conf: s, state: StatePending}
	switch {
	case s.Invalid != "":
		srv.state, srv.err = StateDisabled, s.Invalid
	case s.Disabled != "":
		srv.state, srv.err = StateDisabled, s.Disabled
	}
	return srv
}
