package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"golang.org/x/oauth2"
	"maps"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one configured server and its connection. Fields marked
// "m.mu" are guarded by the manager's mutex; the rest are owned by run.
type server struct {
	m    *Manager
	name string
	conf Server

	// m.mu
	state        State
	err          string
	everSettled  bool // it has left pending at least once
	cs           *sdk.ClientSession
	tools        []*Tool
	prompts      []Prompt
	hasResources bool
	instructions string
	info         sdk.Implementation
	reconnects   int
	retryNow     chan struct{} // a Reconnect during backoff
	restart      bool          // Reconnect closed the session: connect again at once, not as a failure
	refreshing   bool
	refreshAgain bool               // a list changed while refreshing
	stop         context.CancelFunc // ends the running connection loop; nil when none runs
	loops        int                // connection loops started; identifies the latest
	looping      bool               // the latest loop has not returned (it gave up: needs auth, out of attempts)

	stderr tailBuffer // the last lines a stdio server wrote to stderr

	// progress maps the progress token of each tool call in flight to
	// the call's progress callback; calls counts them, for the tokens.
	progress sync.Map
	calls    atomic.Int64
}

// errNeedsAuth marks a remote server that answered 401.
var errNeedsAuth = errors.New("the server requires authorization (HTTP 401)")

// errUnsetVars marks a server whose configuration uses a variable that is
// unset and has no default: it is not started, and not retried, since the
// session's environment does not change.
var errUnsetVars = errors.New("not started")

// set changes the state under m.mu and wakes waiters, unless ctx (the
// connection loop's) has ended: a loop stopped by SetEnabled no longer
// speaks for the server.
func (s *server) set(ctx context.Context, state State, err string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	s.state, s.err = state, err
	if state != StatePending {
		s.everSettled = true
	}
	if state != StateConnected {
		s.cs, s.tools, s.prompts, s.hasResources = nil, nil, nil, false
	}
	s.m.notifyLocked()
}

// session returns the live session or an error saying why there is none.
func (s *server) session() (*sdk.ClientSession, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.cs == nil {
		msg := fmt.Sprintf("MCP server %q is not connected (%s", s.name, s.state)
		if s.err != "" {
			msg += ": " + s.err
		}
		return nil, errors.New(msg + ")")
	}
	return s.cs, nil
}

// run connects, serves until the connection ends, and reconnects with
// backoff, until ctx is cancelled or the attempts run out.
func (s *server) run(ctx context.Context) {
	s.m.mu.Lock()
	s.retryNow = make(chan struct{}, 1)
	s.m.mu.Unlock()
	failures := 0
	for {
		start := time.Now()
		err := s.connectAndServe(ctx)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errNeedsAuth) {
			s.set(ctx, StateNeedsAuth, err.Error())
			return
		}
		if errors.Is(err, errUnsetVars) {
			s.set(ctx, StateFailed, err.Error())
			return
		}
		s.m.mu.Lock()
		restart := s.restart
		s.restart = false
		if restart {
			s.reconnects++
		}
		s.m.mu.Unlock()
		if restart {
			// Reconnect ended the session on purpose: no failure, no
			// backoff.
			failures = 0
			continue
		}
		if time.Since(start) > time.Minute {
			failures = 0 // it ran well for a while: a fresh crash
		}
		failures++
		max := s.m.opts.MaxReconnects
		if max < 0 || failures > max {
			s.set(ctx, StateFailed, err.Error())
			return
		}
		delay := s.m.opts.ReconnectMin << (failures - 1)
		if delay > s.m.opts.ReconnectMax || delay <= 0 {
			delay = s.m.opts.ReconnectMax
		}
		s.set(ctx, StateFailed, fmt.Sprintf("%v; reconnecting in %s (attempt %d of %d)", err, delay.Round(time.Millisecond), failures, max))
		s.m.log.Warn("MCP server stopped", "server", s.name, "err", err, "retry_in", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.retryNow:
			t.Stop()
		case <-t.C:
		}
		s.m.mu.Lock()
		s.reconnects++
		s.m.mu.Unlock()
	}
}

// connectAndServe makes one connection and returns when it ends.
func (s *server) connectAndServe(ctx context.Context) (err error) {
	s.set(ctx, StatePending, "")
	cfg, missing := s.conf.Config.Expand(s.m.opts.Getenv)
	if len(missing) > 0 {
		// Claude Code refuses such a configuration: starting the server
		// with the reference expanded to nothing would pass it an empty
		// token or path and fail later, less clearly.
		s.m.log.Warn("MCP server config uses unset variables", "server", s.name, "vars", missing)
		return fmt.Errorf("%w: %s", errUnsetVars, UnsetVarsMessage(missing))
	}
	if t := cfg.Transport(); cfg.HeadersHelper != "" && (t == TransportHTTP || t == TransportSSE) {
		extra, err := s.runHeadersHelper(ctx, cfg)
		if err != nil {
			return err
		}
		headers := make(map[string]string, len(cfg.Headers)+len(extra))
		maps.Copy(headers, cfg.Headers)
		maps.Copy(headers, extra) // the helper's fresh values win
		cfg.Headers = headers
	}
	tr, cleanup, err := s.transport(cfg)
	if err != nil {
		return err
	}
	defer cleanup()
	client := sdk.NewClient(&sdk.Implementation{Name: s.m.opts.ClientName, Version: s.m.opts.ClientVersion}, &sdk.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { s.refresh() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { s.refresh() },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { s.refresh() },
		// Claude Code declares elicitation to every server, and answers
		// it even where nobody can be asked (a decline), so a server's
		// tool does not fail for want of it.
		ElicitationHandler:          s.elicit,
		ProgressNotificationHandler: s.onProgress,
	})
	if s.m.opts.Cwd != "" {
		client.AddRoots(&sdk.Root{URI: fileURI(s.m.opts.Cwd), Name: "project"})
	}
	// Some transports (SSE) tie their stream to the context given to
	// Connect, so it lives as long as the session; a timer bounds the
	// connection attempt instead.
	connCtx, connCancel := context.WithCancel(ctx)
	defer connCancel()
	timer := time.AfterFunc(s.m.connTimeout, connCancel)
	cs, err := client.Connect(connCtx, tr, nil)
	if !timer.Stop() && ctx.Err() == nil {
		if err == nil {
			cs.Close()
		}
		err = fmt.Errorf("no answer within %s (MCP_TIMEOUT)", s.m.connTimeout)
	}
	if err != nil {
		return s.describe(tr, fmt.Errorf("connect: %w", err))
	}
	lists, err := s.fetch(ctx, cs)
	if err != nil {
		cs.Close()
		return s.describe(tr, err)
	}
	s.m.mu.Lock()
	if ctx.Err() != nil { // disabled or closed meanwhile
		s.m.mu.Unlock()
		cs.Close()
		return ctx.Err()
	}
	s.cs = cs
	s.apply(lists)
	if r := cs.InitializeResult(); r != nil {
		s.instructions = r.Instructions
		if r.ServerInfo != nil {
			s.info = *r.ServerInfo
		}
	}
	s.state, s.err, s.everSettled = StateConnected, "", true
	s.m.notifyLocked()
	s.m.mu.Unlock()

	done := make(chan error, 1)
	go func() { done <- cs.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		closeSession(cs, cleanup)
		return ctx.Err()
	}
	cs.Close()
	if err == nil {
		err = errors.New("the connection closed")
	}
	return s.describe(tr, fmt.Errorf("the server stopped: %w", err))
}

// closeGrace is how long closing a connection may wait for calls still
// in flight before the transport is cut from under them.
const closeGrace = 2 * time.Second

// closeSession closes cs for a server being turned off, removed or shut
// down. The SDK's Close waits for the calls in flight, and a call the
// server never answers (a tool still running) would hold it, and the
// caller, for as long as the call may last: past closeGrace the transport
// is cut (a stdio server's processes are killed), which ends such calls
// with an error. A call that even that does not end is left to its own
// timeout.
func closeSession(cs *sdk.ClientSession, cut func()) {
	closed := make(chan struct{})
	go func() {
		cs.Close()
		close(closed)
	}()
	select {
	case <-closed:
		return
	case <-time.After(closeGrace):
	}
	cut()
	select {
	case <-closed:
	case <-time.After(closeGrace):
	}
}

// headersHelperTimeout bounds a headersHelper command.
const headersHelperTimeout = 10 * time.Second

// runHeadersHelper runs a remote server's headersHelper command (in the
// shell, in the project folder, told the server's name and URL in
// CLAUDE_CODE_MCP_SERVER_NAME and CLAUDE_CODE_MCP_SERVER_URL, as Claude
// Code does) and reads the JSON object of header names and values it
// prints. It runs before each connection, so short-lived tokens are
// fresh.
func (s *server) runHeadersHelper(ctx context.Context, cfg ServerConfig) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, headersHelperTimeout)
	defer cancel()
	cmd := shellCommand(ctx, cfg.HeadersHelper)
	cmd.Env = append(s.m.opts.Environ(), "CLAUDE_CODE_MCP_SERVER_NAME="+s.name, "CLAUDE_CODE_MCP_SERVER_URL="+cfg.URL)
	cmd.Dir = s.m.opts.Cwd
	var stderr tailBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %s", headersHelperTimeout)
		}
		if tail := stderr.String(); tail != "" {
			err = fmt.Errorf("%w; stderr: %s", err, tail)
		}
		return nil, fmt.Errorf("headersHelper %q: %w", cfg.HeadersHelper, err)
	}
	var headers map[string]string
	if err := json.Unmarshal(bytes.TrimSpace(out), &headers); err != nil {
		return nil, fmt.Errorf("headersHelper %q: its output must be a JSON object of header names and string values: %w", cfg.HeadersHelper, err)
	}
	return headers, nil
}

// fileURI is the file: URI of a folder, escaped (a space is %20) and with
// forward slashes (C:\\work is file:///C:/work).
func fileURI(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// describe adds what a stdio server wrote to stderr, and marks a 401.
func (s *server) describe(tr sdk.Transport, err error) error {
	if h, ok := tr.(interface{ unauthorized() bool }); ok && h.unauthorized() {
		return fmt.Errorf("%w: %v", errNeedsAuth, err)
	}
	if tail := s.stderr.String(); tail != "" {
		return fmt.Errorf("%w; stderr: %s", err, tail)
	}
	return err
}

// lists is what a server offers.
type lists struct {
	tools     []*Tool
	prompts   []Prompt
	resources bool
}

// fetch lists a server's tools, prompts and whether it has resources.
func (s *server) fetch(ctx context.Context, cs *sdk.ClientSession) (lists, error) {
	ctx, cancel := context.WithTimeout(ctx, s.m.connTimeout)
	defer cancel()
	var l lists
	caps := &sdk.ServerCapabilities{}
	if r := cs.InitializeResult(); r != nil && r.Capabilities != nil {
		caps = r.Capabilities
	}
	if caps.Tools != nil {
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return l, fmt.Errorf("list tools: %w", err)
			}
			l.tools = append(l.tools, newTool(s, t))
		}
	}
	if caps.Prompts != nil {
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				s.m.log.Warn("MCP server prompts unavailable", "server", s.name, "err", err)
				break
			}
			l.prompts = append(l.prompts, newPrompt(s, p))
		}
	}
	l.resources = caps.Resources != nil
	return l, nil
}

// apply installs fetched lists; call with m.mu held.
func (s *server) apply(l lists) {
	s.tools, s.prompts, s.hasResources = l.tools, l.prompts, l.resources
}

// refresh lists again after a list_changed notification, in the
// background; a notification arriving meanwhile has them listed once
// more when that ends (the answer under way may predate its change).
func (s *server) refresh() {
	s.m.mu.Lock()
	if s.cs == nil || s.m.closed {
		s.m.mu.Unlock()
		return
	}
	if s.refreshing {
		// The lists being read may predate this change: read them
		// again when that finishes.
		s.refreshAgain = true
		s.m.mu.Unlock()
		return
	}
	s.refreshing = true
	cs := s.cs
	// The server's run goroutine is alive while its session is, so the
	// wait group cannot be at zero here.
	s.m.wg.Add(1)
	s.m.mu.Unlock()
	go func() {
		defer s.m.wg.Done()
		for {
			l, err := s.fetch(s.m.ctx, cs)
			s.m.mu.Lock()
			again := s.refreshAgain && s.cs == cs && !s.m.closed
			s.refreshAgain = false
			if err != nil {
				s.m.log.Warn("MCP server list refresh failed", "server", s.name, "err", err)
			} else if s.cs == cs {
				s.apply(l)
				s.m.notifyLocked()
			}
			if !again {
				s.refreshing = false
				s.m.mu.Unlock()
				return
			}
			s.m.mu.Unlock()
		}
	}()
}

// stdioTerminateWait is how long a stdio server has to exit after its
// stdin closes before it gets SIGTERM, and again before SIGKILL. Many
// servers keep running after EOF, so this wait is paid at every exit.
const stdioTerminateWait = 300 * time.Millisecond

// transport builds the connection for cfg and a cleanup run after it
// ends.
func (s *server) transport(cfg ServerConfig) (sdk.Transport, func(), error) {
	switch cfg.Transport() {
	case TransportStdio:
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Env = s.m.opts.Environ()
		for k, v := range cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Dir = s.m.opts.Cwd
		s.stderr.Reset()
		cmd.Stderr = &s.stderr
		cmd.WaitDelay = time.Second // a helper holding stderr open cannot stall Wait
		setProcessGroup(cmd)
		return &stdioTransport{cmd: cmd, terminateWait: stdioTerminateWait, noise: &s.stderr}, func() { killProcessGroup(cmd) }, nil
	case TransportHTTP, TransportSSE:
		base := http.DefaultTransport.(*http.Transport).Clone()
		ht := &headerTransport{base: base, headers: cfg.Headers}
		if ts, ok := s.m.opts.Credentials.tokenSource(s.name, cfg.URL); ok {
			ht.tokens = ts // from `reins mcp login`
		}
		hc := &http.Client{Transport: ht}
		cleanup := base.CloseIdleConnections
		if cfg.Transport() == TransportSSE {
			return &sseTransport{SSEClientTransport: sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: hc}, ht: ht}, cleanup, nil
		}
		return &httpTransport{StreamableClientTransport: sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: hc}, ht: ht}, cleanup, nil
	case TransportSDK:
		if s.m.opts.SDK == nil {
			return nil, nil, errors.New("an SDK server needs an SDK client to host it (type \"sdk\" works only under the Agent SDK)")
		}
		name := cfg.Name
		if name == "" {
			name = s.name
		}
		return &sdkTransport{host: s.m.opts.SDK, server: name}, func() {}, nil
	case TransportWS:
		return nil, nil, errors.New("the ws transport is not supported; use http or sse")
	}
	return nil, nil, fmt.Errorf("unknown transport %q", cfg.Transport())
}

// headerTransport adds configured headers and the stored OAuth token, and
// notices a 401.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	tokens  oauth2.TokenSource // nil without a login; configured headers win
	got401  atomic.Bool
}

func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 || h.tokens != nil {
		req = req.Clone(req.Context())
		if h.tokens != nil {
			if t, err := h.tokens.Token(); err == nil {
				req.Header.Set("Authorization", t.Type()+" "+t.AccessToken)
			}
		}
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		h.got401.Store(true)
	}
	return resp, err
}

type httpTransport struct {
	sdk.StreamableClientTransport
	ht *headerTransport
}

func (t *httpTransport) unauthorized() bool { return t.ht.got401.Load() }

type sseTransport struct {
	sdk.SSEClientTransport
	ht *headerTransport
}

func (t *sseTransport) unauthorized() bool { return t.ht.got401.Load() }

// tailBuffer keeps the last bytes written to it, for error reports.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 2048

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

// String is the last few lines, trimmed.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(strings.ToValidUTF8(string(t.buf), ""))
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}

// Reset empties the buffer.
func (t *tailBuffer) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = nil
}
