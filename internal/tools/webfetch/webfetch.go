package webfetch

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
	"unicode/utf8"

	"reins/internal/llm"
	"reins/internal/tool"
)

// Name is the tool's name.
const Name = "WebFetch"

// Limits.
const (
	// MaxBytes is the largest response body accepted.
	MaxBytes = 10 << 20
	// Timeout bounds one fetch, redirects included.
	Timeout = 60 * time.Second
	// CacheTTL is how long a fetched page is reused.
	CacheTTL = 15 * time.Minute
	// MaxURLLength is the longest URL accepted.
	MaxURLLength = 2000
	// MaxModelInputChars is how much of the Markdown the small model reads.
	MaxModelInputChars = 100_000
	// MaxResultChars is the result size limit declared to the executor.
	MaxResultChars = tool.DefaultMaxResultChars
	// maxRedirects is how many same-host redirects are followed.
	maxRedirects = 10
	// cacheEntries bounds the cache.
	cacheEntries = 64
	// answerTokens bounds the small model's answer.
	answerTokens = 4096
)

//go:embed description.md
var description string

//go:embed schema.json
var schema []byte

//go:embed prompt.tmpl
var promptText string

// Input is the tool's input.
type Input struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
}

// Output is the structured result (tool_use_result), with Claude Code's
// field names.
type Output struct {
	Bytes      int    `json:"bytes"`
	Code       int    `json:"code"`
	CodeText   string `json:"codeText"`
	Result     string `json:"result"`
	DurationMs int64  `json:"durationMs"`
	URL        string `json:"url"`
}

// page is a fetched, converted page.
type page struct {
	url       string // after same-host redirects
	markdown  string
	bytes     int
	code      int
	codeText  string
	fetchedAt time.Time
	// saved is where content that is not text (a PDF, an image, an
	// archive) was written, of type media; "" for text.
	saved, media string
}

// Tool is the WebFetch tool. It is safe for concurrent use.
type Tool struct {
	tool.Defaults
	provider llm.Provider
	model    string
	client   *http.Client
	now      func() time.Time
	prompt   *template.Template

	// Limits set from the environment (EnvLimits); zero fields mean
	// Timeout and CacheTTL.
	Limits

	// SaveDir is where content that is not text is saved for the model
	// to Read; "" is a "reins-webfetch" folder in the system's
	// temporary folder.
	SaveDir string

	mu    sync.Mutex
	cache map[string]*page // by requested URL; guarded by mu
}

// New returns the WebFetch tool. provider and model name the small model
// that reads pages; with either missing, the tool returns the Markdown
// itself. A nil client means a default one, a nil now means time.Now.
func New(provider llm.Provider, model string, client *http.Client, now func() time.Time) *Tool {
	if client == nil {
		client = &http.Client{}
	}
	if now == nil {
		now = time.Now
	}
	prompt := template.Must(template.New("prompt").Parse(promptText))
	return &Tool{provider: provider, model: model, client: client, now: now, prompt: prompt, cache: map[string]*page{}}
}

// Limits are the time limits of a WebFetch.
type Limits struct {
	// Deadline bounds one fetch, redirects included; zero means Timeout,
	// below zero means no limit.
	Deadline time.Duration
	// CacheTTL is how long a fetched page is reused; zero means CacheTTL.
	CacheTTL time.Duration
}

// Claude Code's variables for the limits, in milliseconds.
const (
	DeadlineEnv = "CLAUDE_CODE_WEBFETCH_DEADLINE_MS"
	CacheTTLEnv = "CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS"
)

// EnvLimits reads the limits from the environment as Claude Code does:
// only plain digits count. CLAUDE_CODE_WEBFETCH_DEADLINE_MS=0 removes the
// time limit of a fetch; CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS=0 keeps the
// default, as does any other value that is not plain digits.
func EnvLimits(getenv func(string) string) Limits {
	ms := func(name string) (time.Duration, bool) {
		v := strings.TrimSpace(getenv(name))
		if v == "" || strings.Trim(v, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(math.MaxInt64/time.Millisecond) {
			return 0, false
		}
		return time.Duration(n) * time.Millisecond, true
	}
	var l Limits
	if d, ok := ms(DeadlineEnv); ok {
		l.Deadline = d
		if d == 0 {
			l.Deadline = -1
		}
	}
	if d, ok := ms(CacheTTLEnv); ok && d > 0 {
		l.CacheTTL = d
	}
	return l
}

// limits returns the deadline (0 for none) and the cache lifetime in
// force.
func (t *Tool) limits() (deadline, ttl time.Duration) {
	deadline, ttl = t.Deadline, t.Limits.CacheTTL
	switch {
	case deadline == 0:
		deadline = Timeout
	case deadline < 0:
		deadline = 0
	}
	if ttl <= 0 {
		ttl = CacheTTL
	}
	return deadline, ttl
}

// Limited sets Limits and returns t.
func (t *Tool) Limited(l Limits) *Tool {
	t.Limits = l
	return t
}

// SavingTo sets SaveDir and returns t.
func (t *Tool) SavingTo(dir string) *Tool {
	t.SaveDir = dir
	return t
}

// Name returns "WebFetch".
func (*Tool) Name() string { return Name }

// Description returns the tool description.
func (*Tool) Description() string { return description }

// InputSchema returns the JSON Schema of Input.
func (*Tool) InputSchema() json.RawMessage { return schema }

// IsReadOnly reports true.
func (*Tool) IsReadOnly(json.RawMessage) bool { return true }

// IsConcurrencySafe reports true.
func (*Tool) IsConcurrencySafe(json.RawMessage) bool { return true }

// MaxResultChars returns MaxResultChars.
func (*Tool) MaxResultChars() int { return MaxResultChars }

// Validate checks the URL and the prompt.
func (*Tool) Validate(_ context.Context, _ *tool.Call, raw json.RawMessage) error {
	_, _, err := parse(raw)
	return err
}

func parse(raw json.RawMessage) (Input, *url.URL, error) {
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, nil, fmt.Errorf("input is not valid: %w", err)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return in, nil, errors.New("prompt: must not be empty")
	}
	u, err := checkURL(in.URL)
	return in, u, err
}

// checkURL parses a URL and upgrades http to https unless the host is a
// loopback address.
func checkURL(raw string) (*url.URL, error) {
	if len(raw) > MaxURLLength {
		return nil, fmt.Errorf("url: longer than %d characters", MaxURLLength)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("url: %q is not a valid URL: %v", raw, err)
	}
	switch u.Scheme {
	case "http", "https":
	default:
		return nil, fmt.Errorf("url: %q must start with http:// or https://", raw)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("url: %q has no host", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("url: %q holds a user name or password, which WebFetch does not send", raw)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		u.Scheme = "https"
	}
	u.Fragment = ""
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// permittedRedirect reports whether a redirect is followed without
// asking: it keeps the scheme (no silent move from https to http) and the
// host (sameHost) and carries no user name or password, as in Claude Code.
// Any other redirect is reported to the model.
func permittedRedirect(from, to *url.URL) bool {
	return from.Scheme == to.Scheme && to.User == nil && sameHost(from, to)
}

// sameHost reports whether a redirect stays on the same host; adding or
// dropping a leading "www.", or moving from http to https, does not count
// as leaving it, but a different port does.
func sameHost(a, b *url.URL) bool {
	if !samePort(a, b) {
		return false
	}
	ha := strings.TrimPrefix(strings.ToLower(a.Hostname()), "www.")
	hb := strings.TrimPrefix(strings.ToLower(b.Hostname()), "www.")
	return ha == hb
}

func samePort(a, b *url.URL) bool {
	pa, pb := a.Port(), b.Port()
	switch {
	case pa == pb:
		return true
	case pa == "":
		return pb == defaultPort(b.Scheme)
	case pb == "":
		return pa == defaultPort(a.Scheme)
	}
	return false
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// redirectError reports a redirect to another host.
type redirectError struct {
	from, to string
	code     int
	status   string
}

func (e *redirectError) Error() string { return fmt.Sprintf("%s redirects to %s", e.from, e.to) }

// Call fetches the page and answers the prompt.
func (t *Tool) Call(ctx context.Context, _ *tool.Call, raw json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	start := t.now()
	in, u, err := parse(raw)
	if err != nil {
		return nil, err
	}
	p, err := t.page(ctx, u)
	var re *redirectError
	if errors.As(err, &re) {
		return t.redirectResult(in, re, start), nil
	}
	if err != nil {
		return nil, err
	}
	var answer string
	if p.saved != "" {
		answer = fmt.Sprintf("%s returned %s content (%s), which is not text, so it was not read. It was saved to %s: read it with the Read tool (which shows PDFs and images) or look at it with Bash.",
			p.url, p.media, sizeText(p.bytes), p.saved)
	} else if answer, err = t.answer(ctx, p, in.Prompt); err != nil {
		return nil, err
	}
	out := &Output{Bytes: p.bytes, Code: p.code, CodeText: p.codeText, Result: answer,
		DurationMs: t.now().Sub(start).Milliseconds(), URL: p.url}
	r := tool.Text(answer)
	r.Data = out
	return r, nil
}

func (t *Tool) redirectResult(in Input, re *redirectError, start time.Time) *tool.Result {
	text := fmt.Sprintf("The page at %s redirects (HTTP %d %s) to a different host:\n%s\n\n"+
		"WebFetch follows redirects only within one host. To read the new page, call WebFetch again with url %q and the same prompt.",
		re.from, re.code, re.status, re.to, re.to)
	r := tool.Text(text)
	r.Data = &Output{Code: re.code, CodeText: re.status, Result: text, DurationMs: t.now().Sub(start).Milliseconds(), URL: re.from}
	return r
}

// page returns the converted page, from the cache when fresh.
func (t *Tool) page(ctx context.Context, u *url.URL) (*page, error) {
	key := u.String()
	now := t.now()
	t.mu.Lock()
	_, ttl := t.limits()
	if p, ok := t.cache[key]; ok && now.Sub(p.fetchedAt) < ttl && (p.saved == "" || exists(p.saved)) {
		t.mu.Unlock()
		return p, nil
	}
	t.mu.Unlock()

	p, err := t.fetch(ctx, u)
	if err != nil {
		return nil, err
	}
	p.fetchedAt = now
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, old := range t.cache {
		if now.Sub(old.fetchedAt) >= ttl {
			delete(t.cache, k)
		}
	}
	if len(t.cache) >= cacheEntries {
		var oldestKey string
		var oldest time.Time
		for k, old := range t.cache {
			if oldestKey == "" || old.fetchedAt.Before(oldest) {
				oldestKey, oldest = k, old.fetchedAt
			}
		}
		delete(t.cache, oldestKey)
	}
	t.cache[key] = p
	return p, nil
}

// fetch downloads a page, following same-host redirects, and converts it.
func (t *Tool) fetch(ctx context.Context, u *url.URL) (*page, error) {
	deadline, _ := t.limits()
	cancel := context.CancelFunc(func() {})
	if deadline > 0 {
		ctx, cancel = context.WithTimeout(ctx, deadline)
	}
	defer cancel()
	client := *t.client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cur := u
	for hops := 0; ; hops++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", cur, err)
		}
		req.Header.Set("Accept", "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5")
		req.Header.Set("User-Agent", "reins-WebFetch/1.0")
		resp, err := client.Do(req)
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("fetch %s: no complete answer within %s", cur, deadline)
			}
			return nil, fmt.Errorf("fetch %s: %w", cur, err)
		}
		if isRedirect(resp.StatusCode) {
			resp.Body.Close()
			loc := resp.Header.Get("Location")
			if loc == "" {
				return nil, fmt.Errorf("fetch %s: HTTP %s without a Location header", cur, resp.Status)
			}
			next, err := cur.Parse(loc)
			if err != nil {
				return nil, fmt.Errorf("fetch %s: redirect to an invalid URL %q", cur, loc)
			}
			if !permittedRedirect(cur, next) {
				return nil, &redirectError{from: u.String(), to: next.String(), code: resp.StatusCode, status: statusText(resp)}
			}
			if hops >= maxRedirects {
				return nil, fmt.Errorf("fetch %s: more than %d redirects", u, maxRedirects)
			}
			cur = next
			continue
		}
		defer resp.Body.Close()
		return t.read(ctx, cur, resp)
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return t
	}
	return strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
}

// read checks the response and converts its body.
func (t *Tool) read(ctx context.Context, u *url.URL, resp *http.Response) (*page, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("fetch %s: the server answered HTTP %s", u, resp.Status)
	}
	if resp.ContentLength > MaxBytes {
		return nil, fmt.Errorf("fetch %s: the page is %d bytes, over the %d MB limit", u, resp.ContentLength, MaxBytes>>20)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			deadline, _ := t.limits()
			return nil, fmt.Errorf("fetch %s: no complete answer within %s", u, deadline)
		}
		return nil, fmt.Errorf("fetch %s: %w", u, err)
	}
	if len(body) > MaxBytes {
		return nil, fmt.Errorf("fetch %s: the page is over the %d MB limit", u, MaxBytes>>20)
	}
	ctype := resp.Header.Get("Content-Type")
	p := &page{url: u.String(), bytes: len(body), code: resp.StatusCode, codeText: statusText(resp)}
	if media, binary := notText(ctype, body); binary {
		saved, err := t.save(media, body)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: the content is %s, which is not text, and it could not be saved: %w", u, media, err)
		}
		p.saved, p.media = saved, media
		return p, nil
	}
	md, err := toMarkdown(ctx, u, ctype, body)
	if err != nil {
		return nil, err
	}
	p.markdown = md
	return p, nil
}

// notText reports whether a body is content to save rather than read (a
// PDF, an image, an archive), with its media type. Text types, HTML and a
// body without a type or typed application/octet-stream that is valid
// UTF-8 without NUL bytes are text.
func notText(ctype string, body []byte) (media string, binary bool) {
	media = strings.ToLower(strings.TrimSpace(strings.SplitN(ctype, ";", 2)[0]))
	switch {
	case media == "text/html", media == "application/xhtml+xml", strings.HasPrefix(media, "text/"),
		strings.HasSuffix(media, "json"), strings.HasSuffix(media, "xml"), media == "application/javascript":
		return media, false
	case media == "" || media == "application/octet-stream":
		if utf8.Valid(body) && bytes.IndexByte(body, 0) < 0 {
			return media, false
		}
		if media == "" {
			media = http.DetectContentType(body)
			media = strings.TrimSpace(strings.SplitN(media, ";", 2)[0])
		}
	}
	return media, true
}

// save writes content that is not text to a new file in SaveDir, named
// for its media type, and returns the file's path.
func (t *Tool) save(media string, body []byte) (string, error) {
	dir := t.SaveDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "reins-webfetch")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "webfetch-*"+extensionFor(media))
	if err != nil {
		return "", err
	}
	_, werr := f.Write(body)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", werr
	}
	return f.Name(), nil
}

// extensionFor returns a file extension for a media type, so that Read
// knows a saved PDF or image by its name.
func extensionFor(media string) string {
	switch media {
	case "application/pdf":
		return ".pdf"
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "application/zip":
		return ".zip"
	case "application/gzip", "application/x-gzip":
		return ".gz"
	}
	if exts, err := mime.ExtensionsByType(media); err == nil && len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sizeText gives a byte count as people read it.
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// toMarkdown converts a body to Markdown by its content type: HTML is
// converted (tables kept), text passes through, anything else is refused.
func toMarkdown(ctx context.Context, u *url.URL, ctype string, body []byte) (string, error) {
	mediaType := strings.ToLower(strings.TrimSpace(strings.SplitN(ctype, ";", 2)[0]))
	isHTML := mediaType == "text/html" || mediaType == "application/xhtml+xml" ||
		mediaType == "" && looksLikeHTML(body)
	if !isHTML {
		switch {
		case strings.HasPrefix(mediaType, "text/"), mediaType == "", strings.HasSuffix(mediaType, "json"),
			strings.HasSuffix(mediaType, "xml"), mediaType == "application/javascript",
			mediaType == "application/octet-stream": // text, as notText found
			return toUTF8(body, ctype, false), nil
		}
		return "", fmt.Errorf("fetch %s: the content is %s, which WebFetch cannot read as text", u, mediaType)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return htmlToMarkdown(toUTF8(body, ctype, true), u), nil
}

func looksLikeHTML(body []byte) bool {
	head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// answer has the small model answer the prompt about the page, or, with
// no model, returns the Markdown cut to the result limit.
func (t *Tool) answer(ctx context.Context, p *page, prompt string) (string, error) {
	if t.provider == nil || t.model == "" {
		return cut(p.markdown, MaxResultChars-200), nil
	}
	var sb strings.Builder
	err := t.prompt.Execute(&sb, struct{ URL, Content, Prompt string }{p.url, cut(p.markdown, MaxModelInputChars), prompt})
	if err != nil {
		return "", fmt.Errorf("build the page prompt: %w", err)
	}
	req := &llm.Request{
		Model:     t.model,
		Messages:  []*llm.Message{llm.NewUserText(sb.String())},
		MaxTokens: answerTokens,
	}
	text, err := complete(ctx, t.provider, req)
	if err != nil {
		return "", fmt.Errorf("read %s with %s: %w", p.url, t.model, err)
	}
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("read %s with %s: the model gave an empty answer", p.url, t.model)
	}
	return text, nil
}

// complete runs a request to the end and returns the answer's text.
func complete(ctx context.Context, p llm.Provider, req *llm.Request) (string, error) {
	msg, err := llm.Complete(ctx, p, req)
	if err != nil {
		return "", err
	}
	return msg.Text(), nil
}

// cut shortens s to at most n bytes on a rune boundary, with a note.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + fmt.Sprintf("\n\n[The page continues: %d more bytes were left out.]", len(s)-i)
}
