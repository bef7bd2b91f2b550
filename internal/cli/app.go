package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/session"
	"reins/internal/tool"
)

// protocolVersion is the Claude Code protocol level implemented.
const protocolVersion = "2.1.328"

// app is one wired session: everything a front end needs.
type app struct {
	env  *Env
	opts *Options

	cwd       string
	home      string
	configDir string
	store     session.Store

	models    *llm.Models
	model     string
	provider  llm.Provider
	keySource string

	sessionID string
	writer    *session.Writer
	results   *tool.ResultStore
	tools     []tool.Tool
	gate      tool.Gate
	permMode  string
	asker     engine.Asker

	sess   *engine.Session
	logger *slog.Logger
	closer []func()
}

// getenv reads the environment through the CLI's Env.
func (a *app) getenv(k string) string { return a.env.Getenv(k) }

// close releases everything the app opened, last opened first.
func (a *app) close() {
	for i := len(a.closer) - 1; i >= 0; i-- {
		a.closer[i]()
	}
	a.closer = nil
}

// errNoKey is returned when no credentials are configured.
var errNoKey = errors.New("no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token, or apiKeyHelper in settings)")

// newApp wires a session from the options and environment.
func newApp(ctx context.Context, env *Env, o *Options) (*app, error) {
	a := &app{env: env, opts: o}
	var err error
	if a.cwd, err = os.Getwd(); err != nil {
		return nil, fmt.Errorf("working folder: %w", err)
	}
	if real, err := filepath.EvalSymlinks(a.cwd); err == nil {
		a.cwd = real
	}
	a.home, _ = os.UserHomeDir()
	a.configDir = session.ConfigDir(env.Getenv, a.home)
	a.store = session.Store{Root: a.configDir}

	a.models = llm.NewModels(env.Getenv)
	a.model = firstNonEmpty(o.Model, a.getenv("ANTHROPIC_MODEL"), llm.DefaultModel)
	a.model = a.models.Resolve(a.model)

	a.sessionID = o.SessionID
	if a.sessionID == "" {
		a.sessionID = uuid.NewString()
	} else if _, err := uuid.Parse(a.sessionID); err != nil {
		return nil, usageError{fmt.Sprintf("--session-id must be a UUID, not %q", a.sessionID)}
	}
	a.logger = a.newLogger()

	if err := a.newProvider(); err != nil {
		return nil, err
	}
	a.results = &tool.ResultStore{Dir: a.store.ToolResultsDir(a.cwd, a.sessionID)}
	if !o.NoPersist {
		a.writer = session.NewWriter(a.store.TranscriptPath(a.cwd, a.sessionID))
		a.closer = append(a.closer, func() { a.writer.Close() })
	}
	a.tools = a.builtinTools()
	a.permMode = firstNonEmpty(o.PermissionMode, "default")
	if o.SkipPerms {
		a.permMode = "bypassPermissions"
	}
	a.gate = newSimpleGate(a.permMode, splitRules(o.AllowedTools), splitRules(o.DisallowedTool))
	a.tools = filterDenied(a.tools, splitRules(o.DisallowedTool))

	cfg := engine.Config{
		Provider:      a.provider,
		Models:        a.models,
		Model:         a.model,
		FallbackModel: o.FallbackModel,
		SessionID:     a.sessionID,
		Cwd:           a.cwd,
		Version:       Version,
		System:        a.systemPrompt(),
		Tools: func(context.Context) engine.ToolSet {
			return engine.ToolSet{Tools: a.tools}
		},
		Gate:               a.gate,
		Store:              a.results,
		MaxToolConcurrency: atoi(a.getenv("REINS_MAX_TOOL_CONCURRENCY")),
		MaxTurns:           o.MaxTurns,
		MaxBudgetUSD:       o.MaxBudgetUSD,
		MaxThinkingTokens:  o.MaxThinking,
		MaxOutputTokens:    atoi(firstNonEmpty(a.getenv("REINS_MAX_OUTPUT_TOKENS"), a.getenv("CLAUDE_CODE_MAX_OUTPUT_TOKENS"))),
		Betas:              splitRules(o.Betas),
		Logger:             a.logger,
	}
	if d := atoi(a.getenv("REINS_RETRY_BASE_MS")); d > 0 {
		cfg.RetryBaseDelay = time.Duration(d) * time.Millisecond
	}
	if a.writer != nil {
		cfg.Recorder = a.writer
	}
	switch o.Thinking {
	case "adaptive":
		cfg.Thinking = &llm.Thinking{Type: "adaptive"}
	case "disabled":
		cfg.Thinking = &llm.Thinking{Type: "disabled"}
	}
	a.sess = engine.New(cfg)
	return a, nil
}

func (a *app) newLogger() *slog.Logger {
	path := a.opts.DebugFile
	if path == "" && a.opts.Debug {
		path = filepath.Join(a.configDir, "debug", a.sessionID+".txt")
	}
	if path == "" {
		return slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		fmt.Fprintf(a.env.Stderr, "reins: debug log: %v\n", err)
		return slog.New(slog.DiscardHandler)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(a.env.Stderr, "reins: debug log: %v\n", err)
		return slog.New(slog.DiscardHandler)
	}
	a.closer = append(a.closer, func() { f.Close() })
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (a *app) newProvider() error {
	key := a.getenv("ANTHROPIC_API_KEY")
	token := a.getenv("ANTHROPIC_AUTH_TOKEN")
	switch {
	case key != "":
		a.keySource = "ANTHROPIC_API_KEY"
	case token != "":
		a.keySource = "ANTHROPIC_AUTH_TOKEN"
	default:
		return errNoKey
	}
	cfg := anthropic.Config{
		BaseURL:   a.getenv("ANTHROPIC_BASE_URL"),
		APIKey:    key,
		AuthToken: token,
		UserAgent: "reins/" + Version,
		SessionID: a.sessionID,
		Logger:    a.logger,
		Headers:   customHeaders(a.getenv("ANTHROPIC_CUSTOM_HEADERS")),
	}
	if ms := atoi(a.getenv("REINS_STREAM_IDLE_TIMEOUT_MS")); ms > 0 {
		cfg.IdleTimeout = time.Duration(ms) * time.Millisecond
	}
	if ms := atoi(a.getenv("REINS_RETRY_BASE_MS")); ms > 0 {
		cfg.RetryBase = time.Duration(ms) * time.Millisecond
	}
	if n := atoi(a.getenv("REINS_MAX_RETRIES")); n != 0 {
		cfg.MaxRetries = n
	}
	a.provider = anthropic.New(cfg)
	return nil
}

// customHeaders parses "Name: value" lines.
func customHeaders(s string) map[string]string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	h := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) != "" {
			h[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return h
}

// systemPrompt builds the system prompt blocks.
func (a *app) systemPrompt() []llm.SystemBlock {
	o := a.opts
	text := defaultSystemPrompt
	if o.SystemPrompt != "" || o.SystemFile != "" {
		text = o.SystemPrompt
		if o.SystemFile != "" {
			if b, err := os.ReadFile(o.SystemFile); err == nil {
				text = string(b)
			} else {
				fmt.Fprintf(a.env.Stderr, "reins: --system-prompt-file: %v\n", err)
			}
		}
	}
	blocks := []llm.SystemBlock{{Text: text, Cache: true}}
	app := o.AppendSystem
	if o.AppendFile != "" {
		if b, err := os.ReadFile(o.AppendFile); err == nil {
			app = strings.TrimSpace(app + "\n\n" + string(b))
		}
	}
	if app != "" {
		blocks = append(blocks, llm.SystemBlock{Text: app, Cache: true})
	}
	if text == "" && app == "" {
		return nil
	}
	if text == "" {
		return blocks[1:]
	}
	return blocks
}

const defaultSystemPrompt = "You are reins, a coding agent working in the user's terminal. Use the tools to read, search, edit and run code. Be brief and precise."

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

var _ = io.Discard
