package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// HTTP is an http hook: the hook input is POSTed as JSON to URL, and a
// 2xx answer's body is read as a command hook's stdout (empty: success
// with nothing to say). Any other status, a failure to connect and a
// timeout are non-blocking errors.
type HTTP struct {
	URL string
	// Headers are sent with the request; $NAME and ${NAME} in their
	// values are replaced by the variable's value when AllowedEnvVars
	// lists NAME, and by nothing when it does not.
	Headers        map[string]string
	AllowedEnvVars []string
	// Env and Extra are the environment header values read, as Command's.
	Env   []string
	Extra []string
	// Client sends the request (nil: a plain client).
	Client *http.Client
}

// envRef is a reference to a variable in a header value: $NAME or ${NAME}.
// It is compiled on first use, not at every start.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// Run posts input to the hook's URL.
func (h *HTTP) Run(ctx context.Context, input []byte) Output {
	out := Output{Name: h.URL}
	start := time.Now()
	defer func() { out.Duration = time.Since(start) }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(input))
	if err != nil {
		out.ExitCode, out.Err = -1, fmt.Errorf("make the request to %s: %w", h.URL, err)
		return out
	}
	req.Header.Set("Content-Type", "application/json")
	env := envMap(environ(ctx, h.Env, h.Extra))
	for k, v := range h.Headers {
		req.Header.Set(k, envRef().ReplaceAllStringFunc(v, func(ref string) string {
			m := envRef().FindStringSubmatch(ref)
			name := m[1] + m[2]
			if !slices.Contains(h.AllowedEnvVars, name) {
				return ""
			}
			return env[name]
		}))
	}
	// Redirects are not followed: they would carry the headers, secrets
	// included, to a URL the hook does not name (and allowedHttpHookUrls
	// did not check); a 3xx answer is a non-2xx one.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if h.Client != nil {
		c := *h.Client
		c.CheckRedirect = client.CheckRedirect
		client = &c
	}
	resp, err := client.Do(req)
	if err != nil {
		out.ExitCode = -1
		if ctx.Err() == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			out.Err = fmt.Errorf("POST %s: %w", h.URL, err)
		}
		return out
	}
	defer resp.Body.Close()
	body := &capped{max: maxOutput}
	_, err = io.Copy(body, resp.Body)
	if ctx.Err() != nil {
		out.ExitCode = -1
		return out
	}
	if err != nil {
		out.ExitCode, out.Err = -1, fmt.Errorf("read the answer of %s: %w", h.URL, err)
		return out
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := strings.TrimSpace(body.String())
		if r := []rune(msg); len(r) > 300 {
			msg = string(r[:300]) + "…"
		}
		if msg != "" {
			msg = ": " + msg
		}
		out.ExitCode, out.Err = -1, fmt.Errorf("%s answered %s%s", h.URL, resp.Status, msg)
		return out
	}
	out.Stdout = body.String()
	return out
}

// envMap reads NAME=value pairs; a later pair wins.
func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// Prompt is a prompt hook: a fast model is given Prompt, with the hook
// input JSON in place of $ARGUMENTS (or after it when it has none), and
// answers {"ok": true} or {"ok": false, "reason": "..."}. ok false has
// the effect of a hook's decision "block" with the reason (a denial for
// PreToolUse, continuing for Stop). The loaders refuse prompt hooks on
// PermissionRequest, where Claude Code gives their answer no effect.
type Prompt struct {
	Prompt string
	// Model is the model asked ("" means the fast model).
	Model string
	Ask   func(ctx context.Context, model, prompt string) (string, error)
	// Agent marks an agent hook: Ask runs a sub-agent, whose own hooks
	// run no agent hooks (a SubagentStop agent hook would start another
	// sub-agent at each end).
	Agent bool
}

// inAgentHookKey marks the context of an agent hook's sub-agent.
type inAgentHookKey struct{}

// promptInstructions tells the model how to answer a prompt hook.
const promptInstructions = "\n\nAnswer with one JSON object and nothing else: {\"ok\": true} when the condition " +
	"above is met and the action may go on, or {\"ok\": false, \"reason\": \"...\"} when it is not, " +
	"the reason saying what is wrong."

// Run asks the model and turns its verdict into hook JSON.
func (p *Prompt) Run(ctx context.Context, input []byte) Output {
	var out Output
	if p.Agent && ctx.Value(inAgentHookKey{}) != nil {
		return out
	}
	if p.Ask == nil {
		out.ExitCode, out.Err = -1, errors.New("prompt and agent hooks need a model, and none is set up here")
		return out
	}
	if p.Agent {
		ctx = context.WithValue(ctx, inAgentHookKey{}, true)
	}
	text, placed := fillArguments(p.Prompt, string(input))
	if !placed {
		text += "\n\n" + string(input)
	}
	answer, err := p.Ask(ctx, p.Model, text+promptInstructions)
	if ctx.Err() != nil {
		out.ExitCode = -1
		return out
	}
	if err != nil {
		out.ExitCode, out.Err = -1, fmt.Errorf("ask the model: %w", err)
		return out
	}
	var verdict struct {
		OK     *bool  `json:"ok"`
		Reason string `json:"reason"`
	}
	obj := firstObject(answer)
	if obj == "" || json.Unmarshal([]byte(obj), &verdict) != nil || verdict.OK == nil {
		out.ExitCode, out.Err = -1, fmt.Errorf("the model's answer is not {\"ok\": true|false, \"reason\": ...}: %q", clip(answer, 200))
		return out
	}
	if *verdict.OK {
		return out
	}
	reason := strings.TrimSpace(verdict.Reason)
	if reason == "" {
		reason = "the prompt hook's condition was not met"
	}
	b, _ := json.Marshal(map[string]any{"decision": "block", "reason": reason})
	out.Stdout = string(b)
	return out
}

// fillArguments puts args in place of each $ARGUMENTS of prompt and
// reports whether there was one; a backslash before a dollar sign keeps
// the sign as it is ("\$1.00" reads "$1.00", "\$ARGUMENTS" stays text).
func fillArguments(prompt, args string) (string, bool) {
	var b strings.Builder
	placed := false
	for i := 0; i < len(prompt); {
		switch {
		case strings.HasPrefix(prompt[i:], `\$`):
			b.WriteByte('$')
			i += 2
		case strings.HasPrefix(prompt[i:], "$ARGUMENTS"):
			b.WriteString(args)
			placed = true
			i += len("$ARGUMENTS")
		default:
			b.WriteByte(prompt[i])
			i++
		}
	}
	return b.String(), placed
}

// firstObject returns the first JSON object in s (models may wrap it in a
// code fence or a sentence), or "".
func firstObject(s string) string {
	for i := strings.IndexByte(s, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) == nil && len(raw) > 0 && raw[0] == '{' {
			return string(raw)
		}
		j := strings.IndexByte(s[i+1:], '{')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return ""
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// MCPTool is an mcp_tool hook: it calls Tool of the connected MCP server
// Server with Input, in whose string values ${path} names a value of the
// hook input ("${tool_input.file_path}"). The text of the result is read
// as a command's stdout; an error result, a server that is not connected
// or a tool it lacks is a non-blocking error.
type MCPTool struct {
	Server, Tool string
	Input        json.RawMessage
	Call         func(ctx context.Context, server, tool string, input json.RawMessage) (string, bool, error)
}

// Run calls the tool.
func (m *MCPTool) Run(ctx context.Context, input []byte) Output {
	var out Output
	start := time.Now()
	defer func() { out.Duration = time.Since(start) }()
	if m.Call == nil {
		out.ExitCode, out.Err = -1, errors.New("mcp_tool hooks need MCP servers, and none are set up here")
		return out
	}
	var hookInput any
	_ = json.Unmarshal(input, &hookInput)
	var args any = map[string]any{}
	if t := bytes.TrimSpace(m.Input); len(t) > 0 && string(t) != "null" {
		if err := json.Unmarshal(t, &args); err != nil {
			out.ExitCode, out.Err = -1, fmt.Errorf("read its input: %w", err)
			return out
		}
	}
	b, err := json.Marshal(fillPaths(args, hookInput))
	if err != nil {
		out.ExitCode, out.Err = -1, fmt.Errorf("write its input: %w", err)
		return out
	}
	text, isError, err := m.Call(ctx, m.Server, m.Tool, b)
	switch {
	case ctx.Err() != nil:
		out.ExitCode = -1
	case err != nil:
		out.ExitCode, out.Err = -1, fmt.Errorf("call %s on MCP server %s: %w", m.Tool, m.Server, err)
	case isError:
		out.ExitCode, out.Err = -1, fmt.Errorf("%s on MCP server %s answered with an error: %s", m.Tool, m.Server, clip(text, 300))
	default:
		out.Stdout = text
	}
	return out
}

// pathRef is a ${path} reference in an mcp_tool hook's input.
var pathRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z0-9_.\-]+)\}`) })

// fillPaths replaces the ${path} references in the string values of v by
// the values of from they name (a string as it is, other values as JSON;
// a path that names nothing gives "").
func fillPaths(v, from any) any {
	switch x := v.(type) {
	case string:
		return pathRef().ReplaceAllStringFunc(x, func(ref string) string {
			var cur any = from
			for _, k := range strings.Split(pathRef().FindStringSubmatch(ref)[1], ".") {
				m, ok := cur.(map[string]any)
				if !ok {
					return ""
				}
				cur = m[k]
			}
			switch c := cur.(type) {
			case nil:
				return ""
			case string:
				return c
			default:
				b, _ := json.Marshal(c)
				return string(b)
			}
		})
	case map[string]any:
		for k, e := range x {
			x[k] = fillPaths(e, from)
		}
	case []any:
		for i, e := range x {
			x[i] = fillPaths(e, from)
		}
	}
	return v
}

// AsyncResult is what a hook run in the background said, for the next
// turn: context for the model, messages and errors for the user.
type AsyncResult struct {
	Event             Event
	AdditionalContext []string
	SystemMessages    []string
	Errors            []string
}

// background runs async hooks and keeps what they said until it is
// taken.
type background struct {
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	onRewake func()

	mu      sync.Mutex // guards results and rewakes
	results []AsyncResult
	rewakes []string
}

func newBackground(onRewake func()) *background {
	ctx, cancel := context.WithCancel(context.Background())
	return &background{ctx: ctx, cancel: cancel, onRewake: onRewake}
}

// start runs run in the background, with a context that outlives the
// run that started it (ctx's values are kept, its end is not) but ends
// with the runner. When rewake is set, an exit 2 wakes the model with
// what the hook printed.
func (b *background) start(ctx context.Context, ev Event, rewake bool, run func(context.Context) Output) {
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(b.ctx, cancel)
	b.wg.Go(func() {
		defer stop()
		defer cancel()
		out := run(bctx)
		r := Aggregate(ev, []Output{out})
		if rewake && out.ExitCode == 2 && out.Err == nil && !out.TimedOut {
			b.mu.Lock()
			b.rewakes = append(b.rewakes, rewakeNote(ev, out))
			b.mu.Unlock()
			if b.onRewake != nil {
				b.onRewake()
			}
			return
		}
		if len(r.AdditionalContext)+len(r.SystemMessages)+len(r.Errors) == 0 {
			return
		}
		b.mu.Lock()
		b.results = append(b.results, AsyncResult{Event: ev, AdditionalContext: r.AdditionalContext,
			SystemMessages: r.SystemMessages, Errors: r.Errors})
		b.mu.Unlock()
	})
}

// rewakeNote is the reminder that gives the model what an asyncRewake
// hook that exited 2 printed: its stderr, else its stdout.
func rewakeNote(ev Event, out Output) string {
	text := strings.TrimSpace(out.Stderr)
	if text == "" {
		text = strings.TrimSpace(out.Stdout)
	}
	if text == "" {
		text = "(it printed nothing)"
	}
	return fmt.Sprintf("<system-reminder>\nA background %s hook (%s) finished and reported:\n%s\n</system-reminder>", ev, out.Name, capText(text))
}

// TakeRewakes returns the reminders of the asyncRewake hooks that exited
// 2 since the last call, and forgets them.
func (r *Runner) TakeRewakes() []string {
	if r == nil {
		return nil
	}
	r.bg.mu.Lock()
	defer r.bg.mu.Unlock()
	out := r.bg.rewakes
	r.bg.rewakes = nil
	return out
}

// TakeAsync returns what async hooks that finished since the last call
// said, and forgets it.
func (r *Runner) TakeAsync() []AsyncResult {
	if r == nil {
		return nil
	}
	r.bg.mu.Lock()
	defer r.bg.mu.Unlock()
	out := r.bg.results
	r.bg.results = nil
	return out
}

// Close waits for the async hooks still running, at most grace; those
// still running then are stopped (their process groups killed), and
// Close returns once they are gone.
func (r *Runner) Close(grace time.Duration) {
	if r == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		r.bg.wg.Wait()
		close(done)
	}()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		r.bg.cancel()
		<-done
	}
}
