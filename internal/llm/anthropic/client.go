package anthropic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"reins/internal/llm"
)

// APIVersion is the anthropic-version header sent.
const APIVersion = "2023-06-01"

// InterleavedThinkingBeta is the anthropic-beta value sent with budget
// thinking ({"type":"enabled"}), which lets the model think between tool
// calls.
const InterleavedThinkingBeta = "interleaved-thinking-2025-05-14"

// DefaultBaseURL is the API's address.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultIdleTimeout is how long a stream may send nothing before it
// counts as a broken connection.
const DefaultIdleTimeout = 90 * time.Second

// DefaultResponseTimeout is how long one attempt waits for the response to
// begin (Claude Code's API_TIMEOUT_MS default).
const DefaultResponseTimeout = 10 * time.Minute

// Config configures a Client. The zero value talks to the public API with
// no credentials.
type Config struct {
	BaseURL string // default DefaultBaseURL
	// APIKey is sent as x-api-key; AuthToken, when set instead, as
	// Authorization: Bearer.
	APIKey    string
	AuthToken string
	// RefreshKey, when set, is called once after a 401 for a new API key
	// (apiKeyHelper); the request is then retried with it.
	RefreshKey func(ctx context.Context) (string, error)
	// KeyTTL is how long a key from APIKey or RefreshKey is used before
	// a request first asks RefreshKey for a new one (apiKeyHelper's
	// refresh interval, CLAUDE_CODE_API_KEY_HELPER_TTL_MS); 0 means only
	// after a 401. A refresh that fails keeps the old key.
	KeyTTL time.Duration
	// KeyAsBearer also sends the API key as Authorization: Bearer, as
	// Claude Code sends an apiKeyHelper's key (gateways read either).
	KeyAsBearer bool
	// Betas are sent in anthropic-beta on every request, before the
	// request's own.
	Betas []string
	// Headers are extra headers (ANTHROPIC_CUSTOM_HEADERS).
	Headers   map[string]string
	UserAgent string
	// HTTPClient defaults to a client with no overall timeout (streams
	// are long); IdleTimeout bounds silence instead.
	HTTPClient  *http.Client
	IdleTimeout time.Duration
	// ResponseTimeout bounds the wait for the response to begin, per
	// attempt (API_TIMEOUT_MS); default DefaultResponseTimeout. It applies
	// to the default HTTPClient only.
	ResponseTimeout time.Duration
	MaxRetries      int           // default llm.MaxRetries; negative: none
	RetryBase       time.Duration // default llm.BaseRetryDelay
	// SessionID is sent as X-Claude-Code-Session-Id when set.
	SessionID string
	Logger    *slog.Logger
}

// Client is an llm.Provider for the Messages API. It is safe for
// concurrent use.
type Client struct {
	cfg Config

	bufs  sync.Pool // *[]byte request bodies, reused across requests
	tools toolsCache

	mu    sync.Mutex // guards key and keyAt
	key   string
	keyAt time.Time // when key was fetched
}

// New returns a client.
func New(cfg Config) *Client {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.ResponseTimeout <= 0 {
		cfg.ResponseTimeout = DefaultResponseTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   15 * time.Second,
			ResponseHeaderTimeout: cfg.ResponseTimeout,
			ForceAttemptHTTP2:     true,
		}, CheckRedirect: checkRedirect}
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = llm.MaxRetries
	}
	if cfg.RetryBase == 0 {
		cfg.RetryBase = llm.BaseRetryDelay
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, key: cfg.APIKey, keyAt: time.Now()}
}

// refreshStaleKey asks RefreshKey for a new key when the one in use is
// older than KeyTTL. One caller refreshes; the others meanwhile keep the
// old key.
func (c *Client) refreshStaleKey(ctx context.Context) {
	if c.cfg.RefreshKey == nil || c.cfg.KeyTTL <= 0 {
		return
	}
	c.mu.Lock()
	stale := time.Since(c.keyAt) >= c.cfg.KeyTTL
	if stale {
		c.keyAt = time.Now() // claimed: concurrent requests do not refresh too
	}
	c.mu.Unlock()
	if !stale {
		return
	}
	key, err := c.cfg.RefreshKey(ctx)
	if err != nil {
		c.cfg.Logger.Warn("refreshing the API key failed; keeping the old one", "err", err)
		return
	}
	c.mu.Lock()
	c.key, c.keyAt = key, time.Now()
	c.mu.Unlock()
}

// Preconnect opens a connection to the API while the caller gets ready,
// so the first request does not wait for DNS, TCP and TLS (a few hundred
// milliseconds to a distant API). It sends a HEAD request to the base
// URL without credentials and drops the answer, whatever it is; the
// connection then waits in the pool for the first Stream. It returns when
// the answer came, ctx ended or the attempt failed; failures are only
// logged.
func (c *Client) Preconnect(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.cfg.BaseURL, nil)
	if err != nil {
		return
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		c.cfg.Logger.Debug("preconnect failed", "url", c.cfg.BaseURL, "err", err)
		return
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4096)) // drained: the connection is reused
	resp.Body.Close()
}

// Stream sends req and returns the response stream once its first event
// has arrived, retrying failures that happen before that.
func (c *Client) Stream(ctx context.Context, req *llm.Request) (llm.Stream, error) {
	bp, _ := c.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	body, err := appendRequest((*bp)[:0], req, &c.tools)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	// The body is fully sent once a response arrived; keep the buffer for
	// the next request.
	defer func() {
		*bp = body[:0]
		c.bufs.Put(bp)
	}()
	c.refreshStaleKey(ctx)
	maxRetries := max(c.cfg.MaxRetries, 0)
	refreshed := false
	overloads := 0
	for attempt := 0; ; attempt++ {
		st, err := c.try(ctx, req, body, attempt)
		if err == nil {
			return st, nil
		}
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if llm.IsAuth(err) && c.cfg.RefreshKey != nil && !refreshed {
			refreshed = true
			key, kerr := c.cfg.RefreshKey(ctx)
			if kerr != nil {
				return nil, fmt.Errorf("%w (refreshing the API key failed: %v)", err, kerr)
			}
			c.mu.Lock()
			c.key, c.keyAt = key, time.Now()
			c.mu.Unlock()
			attempt--
			continue
		}
		if llm.IsOverloaded(err) {
			overloads++
			if req.MaxOverloadRetries > 0 && overloads > req.MaxOverloadRetries {
				return nil, err
			}
		}
		if !llm.IsRetryable(err) || attempt >= maxRetries {
			if attempt > 0 {
				return nil, fmt.Errorf("after %d retries: %w", attempt, err)
			}
			return nil, err
		}
		delay := llm.BackoffFrom(c.cfg.RetryBase, attempt+1, llm.RetryAfter(err))
		c.cfg.Logger.Info("retrying model request", "attempt", attempt+1, "delay", delay, "err", err)
		if req.OnRetry != nil {
			req.OnRetry(llm.RetryInfo{Attempt: attempt + 1, Max: maxRetries, Delay: delay, Err: err})
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, context.Cause(ctx)
		}
	}
}

// try makes one attempt: send, check the status, and peek at the first
// event so an immediate error event is retried like an HTTP error.
func (c *Client) try(ctx context.Context, req *llm.Request, body []byte, attempt int) (llm.Stream, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+"/v1/messages?beta=true", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	c.setHeaders(hreq, req, attempt)
	resp, err := c.cfg.HTTPClient.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		// The transport's *url.Error repeats the method and address; keep
		// only what went wrong.
		var re *redirectError
		if errors.As(err, &re) {
			return nil, re // asking again gets the same redirect
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, &llm.ConnError{Op: "POST " + c.cfg.BaseURL + "/v1/messages", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		err := apiError(resp)
		c.cfg.Logger.Debug("model request failed", "model", req.Model, "attempt", attempt, "status", resp.StatusCode, "err", err)
		if resp.StatusCode == http.StatusNotFound {
			// The API's own text often names neither the model nor the
			// address ("Not Found" from a proxy): say which were asked for.
			return nil, fmt.Errorf("%w (model %q at %s: the model may not exist or this key may not have access to it; pick another with --model or /model, or check ANTHROPIC_BASE_URL)",
				err, req.Model, c.cfg.BaseURL+"/v1/messages")
		}
		return nil, err
	}
	c.cfg.Logger.Debug("model request", "model", req.Model, "attempt", attempt, "bytes", len(body),
		"messages", len(req.Messages), "max_tokens", req.MaxTokens, "request_id", resp.Header.Get("request-id"))
	respBody, err := eventStreamBody(resp)
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("model API at %s: %w (check ANTHROPIC_BASE_URL)", c.cfg.BaseURL+"/v1/messages", err)
	}
	st := newStream(respBody, c.cfg.IdleTimeout)
	st.requestID = resp.Header.Get("request-id")
	ev, err := st.Next()
	if err != nil {
		st.Close()
		var ae *llm.APIError
		if errors.As(err, &ae) {
			ae.RequestID = resp.Header.Get("request-id")
		}
		return nil, err
	}
	st.pending = append(st.pending, ev)
	return st, nil
}

func (c *Client) setHeaders(h *http.Request, req *llm.Request, attempt int) {
	h.Header.Set("Content-Type", "application/json")
	h.Header.Set("Accept", "text/event-stream")
	h.Header.Set("anthropic-version", APIVersion)
	if c.cfg.UserAgent != "" {
		h.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	c.mu.Lock()
	key := c.key
	c.mu.Unlock()
	switch {
	case c.cfg.AuthToken != "" && key == "":
		h.Header.Set("Authorization", "Bearer "+c.cfg.AuthToken)
	case key != "":
		h.Header.Set("x-api-key", key)
		if c.cfg.KeyAsBearer {
			h.Header.Set("Authorization", "Bearer "+key)
		}
	}
	betas := append(append([]string(nil), c.cfg.Betas...), req.Betas...)
	if req.Thinking != nil && req.Thinking.Type == "enabled" {
		// Without it a budget-thinking model thinks only before its first
		// tool call of a turn, not between calls (adaptive thinking
		// interleaves on its own).
		betas = append(betas, InterleavedThinkingBeta)
	}
	if _, b := apiModel(req.Model); b != "" {
		betas = append(betas, b)
	}
	if len(betas) > 0 {
		seen := map[string]bool{}
		var uniq []string
		for _, b := range betas {
			if b != "" && !seen[b] {
				seen[b] = true
				uniq = append(uniq, b)
			}
		}
		h.Header.Set("anthropic-beta", strings.Join(uniq, ","))
	}
	if c.cfg.SessionID != "" {
		h.Header.Set("X-Claude-Code-Session-Id", c.cfg.SessionID)
	}
	h.Header.Set("x-app", "cli")
	h.Header.Set("X-Stainless-Retry-Count", strconv.Itoa(attempt))
	for k, v := range c.cfg.Headers {
		h.Header.Set(k, v)
	}
}

// redirectError is a redirect the client does not follow.
type redirectError struct {
	from, to string
	status   int
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("the model API at %s redirects (HTTP %d) to %s, which reins does not follow for a model request; set ANTHROPIC_BASE_URL to the address the requests should go to", e.from, e.status, e.to)
}

// checkRedirect follows a redirect only when it keeps the request as it
// was: the same method (307 and 308 keep the body; 301, 302 and 303 turn
// the POST into a GET that the API cannot answer) and the same host (the
// API key header would otherwise go to another server).
func checkRedirect(r *http.Request, via []*http.Request) error {
	first := via[0]
	if r.Method != first.Method || r.URL.Host != first.URL.Host {
		status := 0
		if r.Response != nil {
			status = r.Response.StatusCode
		}
		from := first.URL
		return &redirectError{from: from.Scheme + "://" + from.Host + from.Path, to: r.URL.Redacted(), status: status}
	}
	if len(via) >= 10 {
		return fmt.Errorf("stopped after %d redirects", len(via))
	}
	return nil
}

// eventStreamBody returns the body of a successful response once it is
// known to be a stream of server-sent events. A response of another kind
// (a proxy's or captive portal's HTML page, a JSON answer from a gateway
// that ignores "stream": true) is an error that quotes its start; it is
// not retried, since asking again gets the same page. A response whose
// Content-Type is wrong but whose body reads as events is accepted.
func eventStreamBody(resp *http.Response) (io.ReadCloser, error) {
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "text/event-stream" {
		return resp.Body, nil
	}
	br := bufio.NewReaderSize(resp.Body, 4096)
	head := peekFirstLine(br, 512)
	if looksLikeEvents(head) {
		return struct {
			io.Reader
			io.Closer
		}{br, resp.Body}, nil
	}
	snippet := responseText(head, ct)
	// The header is the server's text too: shown readable and short.
	ct = strings.ToValidUTF8(ct, "\uFFFD")
	if r := []rune(ct); len(r) > 100 {
		ct = string(r[:100]) + "…"
	}
	if ct == "" {
		ct = "none"
	}
	if snippet == "" {
		return nil, fmt.Errorf("the answer (HTTP %d, Content-Type %s) is empty, not an event stream", resp.StatusCode, ct)
	}
	return nil, fmt.Errorf("the answer (HTTP %d, Content-Type %s) is not an event stream: %q", resp.StatusCode, ct, snippet)
}

// peekFirstLine returns the start of br's data, without consuming it,
// once it holds a line that is not blank, or max bytes, or the data
// ended. It waits only for data still to come on that first line: a
// stream whose first event is short and whose next is slow in coming is
// not held up.
func peekFirstLine(br *bufio.Reader, max int) []byte {
	want := 1
	for {
		head, err := br.Peek(want)
		if err != nil || len(head) >= max {
			return head
		}
		head, _ = br.Peek(br.Buffered())
		for line := range bytes.Lines(head) {
			if len(bytes.TrimSpace(line)) > 0 && line[len(line)-1] == '\n' {
				return head
			}
		}
		want = len(head) + 1
	}
}

// looksLikeEvents reports whether the start of a body reads as
// server-sent events: its first line that is not blank is a comment or
// an event field.
func looksLikeEvents(head []byte) bool {
	for line := range bytes.Lines(head) {
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			continue
		}
		if line[0] == ':' {
			return true
		}
		field, _, _ := bytes.Cut(line, []byte(":"))
		switch string(field) {
		case "event", "data", "id", "retry":
			return true
		}
		return false
	}
	return false
}

var (
	htmlTitleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`) })
	htmlTagRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<[^>]*>`) })
)

// responseText is a short, readable form of a body that is not what the
// API sends: an HTML page gives its title, else its text without tags;
// anything else its first 200 characters on one line.
func responseText(body []byte, contentType string) string {
	s := string(body)
	isHTML := strings.Contains(strings.ToLower(contentType), "html") || strings.HasPrefix(strings.TrimSpace(strings.ToLower(s)), "<")
	if isHTML {
		if m := htmlTitleRE().FindStringSubmatch(s); m != nil && strings.TrimSpace(m[1]) != "" {
			s = m[1]
		} else {
			s = htmlTagRE().ReplaceAllString(s, " ")
		}
	}
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}

// apiError reads an error response.
func apiError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	ae := &llm.APIError{Status: resp.StatusCode, RequestID: resp.Header.Get("request-id")}
	var w struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &w) == nil && w.Error.Message != "" {
		ae.Type, ae.Message = w.Error.Type, w.Error.Message
	} else {
		// A proxy's page or a plain text: its title or text, shortened.
		ae.Message = responseText(data, resp.Header.Get("Content-Type"))
		if ae.Message == "" {
			ae.Message = http.StatusText(resp.StatusCode)
		}
		if ae.Message == "" {
			ae.Message = "the answer has no body"
		}
	}
	if v := resp.Header.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			ae.RetryAfter = time.Duration(ms * float64(time.Millisecond))
		}
	}
	if ae.RetryAfter == 0 {
		if v := resp.Header.Get("retry-after"); v != "" {
			if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
				ae.RetryAfter = time.Duration(s * float64(time.Second))
			} else if t, err := http.ParseTime(v); err == nil {
				ae.RetryAfter = time.Until(t)
			}
		}
	}
	switch strings.ToLower(resp.Header.Get("x-should-retry")) {
	case "true":
		b := true
		ae.ShouldRetry = &b
	case "false":
		b := false
		ae.ShouldRetry = &b
	}
	return ae
}
