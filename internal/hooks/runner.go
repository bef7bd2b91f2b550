package hooks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"reins/internal/settings"
)

// DefaultTimeout bounds a hook added at run time (an SDK callback) that
// sets no timeout of its own.
const DefaultTimeout = 60 * time.Second

// maxOutput caps what is kept of a hook's stdout and of its stderr.
const maxOutput = 1 << 20

// Handler runs one hook. Command hooks from settings are *Command; the SDK
// front end supplies handlers that ask its client. A Handler must be safe
// for concurrent use and honour ctx (its deadline is the hook's timeout).
type Handler interface {
	Run(ctx context.Context, input []byte) Output
}

// Hook is one registered hook.
type Hook struct {
	Event   Event
	Matcher string
	Handler Handler
	// Key identifies the hook for de-duplication: hooks of one event with
	// the same key run once. Empty means never de-duplicated.
	Key string
	// Name identifies the hook in messages (its command, a callback id).
	Name string
	// Timeout bounds the hook (0 means the runner's default).
	Timeout time.Duration
	Source  settings.Source
	// If is the hook's "if" condition: one permission rule a tool call
	// must match for the hook to run ("" runs it for every call).
	If string
	// FromSettings marks a hook built from settings form (a settings
	// file, a plugin, a definition), which SetCommandHooks and
	// SetPluginHooks replace.
	FromSettings bool
	// Skill names the skill that registered the hook, and Once removes
	// the hook after its first successful run (skill hooks only).
	Skill string
	Once  bool
	// id tells hooks apart for removal (set by AddSkillHooks).
	id uint64
	// Async runs the hook in the background: Run does not wait for it,
	// and what it says for the model or the user is kept for TakeAsync.
	Async bool
	// StatusMessage is what a front end shows while the hook runs
	// (statusMessage).
	StatusMessage string
	// Rewake (asyncRewake, with Async) makes the hook's exit 2 wake the
	// model: what it printed is kept for TakeRewakes and
	// Config.OnRewake is called.
	Rewake bool
}

// Progress reports a hook starting or finishing, for front ends that show
// hook events (--include-hook-events).
type Progress struct {
	Event Event
	// Name identifies the hook (its command, URL or callback id); Query
	// is the value its matcher was matched against ("Bash", "startup"),
	// "" for events without one.
	Name  string
	Query string
	// ID is the same for the start and the end of one run of a hook, and
	// differs between runs.
	ID string
	// Done is false when the hook starts; Output is set when it is true.
	Done   bool
	Output Output
	// StatusMessage is the hook's statusMessage ("" when it has none).
	StatusMessage string
}

// Config configures a Runner.
type Config struct {
	// Hooks are the command hooks from settings.
	Hooks map[string][]settings.HookMatcher
	// ProjectDir is exported to hooks as CLAUDE_PROJECT_DIR and
	// REINS_PROJECT_DIR.
	ProjectDir string
	// Dir is the folder hooks run in ("" means ProjectDir).
	Dir string
	// Env is the base environment of command hooks (nil means the
	// process's).
	Env []string
	// Environ, when set, gives the base environment at each run instead
	// of Env (so that hooks follow the settings env and the variables an
	// SDK client sets during the session).
	Environ func() []string
	// Ask, when set, runs prompt hooks: it asks model ("" means the fast
	// model for side calls) the prompt and returns its answer's text.
	Ask func(ctx context.Context, model, prompt string) (string, error)
	// If, when set, reports whether the tool call of in matches the
	// permission rule of a hook's "if" condition (nil: every call does).
	If func(rule string, in *Input) (bool, error)
	// RunAgent, when set, runs agent hooks: it gives a read-only sub-agent
	// on model ("" means the fast model) the prompt and returns its final
	// answer's text.
	RunAgent func(ctx context.Context, model, prompt string) (string, error)
	// CallTool, when set, runs mcp_tool hooks: it calls tool of the
	// connected MCP server with input and returns the text of its result
	// and whether the result is an error.
	CallTool func(ctx context.Context, server, tool string, input json.RawMessage) (text string, isError bool, err error)
	// AllowedHTTPURLs, when not nil, are the URL patterns ("*" matches
	// anything) http hooks may post to (allowedHttpHookUrls; empty: none);
	// HTTPAllowedEnvVars, when not nil, limits the variables any http
	// hook may put in its headers (httpHookAllowedEnvVars).
	AllowedHTTPURLs    *[]string
	HTTPAllowedEnvVars *[]string
	// HTTPClient sends http hooks' requests (nil means a plain client;
	// each request is bounded by the hook's timeout).
	HTTPClient *http.Client
	// Shell runs commands with -c ("" means bash, else /bin/sh).
	Shell string
	// DefaultTimeout bounds hooks added at run time without a timeout of
	// their own, SDK callbacks (0 means 60 s); hooks from settings have
	// their type's default.
	DefaultTimeout time.Duration
	// Disabled turns every hook off (disableAllHooks).
	Disabled bool
	// Notify, when set, hears each hook start and finish. It is called
	// from the hooks' goroutines and must be safe for concurrent use.
	Notify func(Progress)
	// OnRewake, when set, is called (from the hook's goroutine) when an
	// asyncRewake hook exited 2: TakeRewakes has something for the model.
	OnRewake func()
}

// Runner runs the hooks of a session. It is safe for concurrent use.
type Runner struct {
	cfg Config
	// extra is what New adds to every hook's environment
	// (CLAUDE_PROJECT_DIR, REINS_PROJECT_DIR).
	extra []string
	bg    *background
	seq   *atomic.Uint64 // numbers runs of hooks for Progress.ID

	mu    sync.Mutex // guards hooks
	hooks []Hook
}

// New returns a runner for the hooks in cfg.
func New(cfg Config) *Runner {
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = DefaultTimeout
	}
	if cfg.Dir == "" {
		cfg.Dir = cfg.ProjectDir
	}
	if cfg.Shell == "" {
		cfg.Shell = settings.Shell()
	}
	if cfg.Env == nil && cfg.Environ == nil {
		cfg.Env = os.Environ()
	}
	r := &Runner{cfg: cfg, bg: newBackground(cfg.OnRewake), seq: new(atomic.Uint64)}
	if cfg.ProjectDir != "" {
		r.extra = []string{"CLAUDE_PROJECT_DIR=" + cfg.ProjectDir, "REINS_PROJECT_DIR=" + cfg.ProjectDir}
	}
	r.hooks = r.specHooks(cfg.Hooks, nil)
	return r
}

// Default timeouts of hooks from settings, as Claude Code's: command and
// http hooks 10 minutes, 30 seconds on UserPromptSubmit (which holds up
// the prompt); prompt hooks 30 seconds, agent hooks 60. DefaultTimeout is for the others
// (SDK callbacks).
const (
	specTimeout   = 10 * time.Minute
	promptTimeout = 30 * time.Second
	agentTimeout  = 60 * time.Second
	// SessionEnd hooks hold up exit: 1.5 s by default, at most a minute.
	sessionEndTimeout    = 1500 * time.Millisecond
	sessionEndMaxTimeout = time.Minute
	userPromptTimeout    = 30 * time.Second
)

// specHooks turns settings-form hooks into hooks run with r's folder,
// environment and shell, plus env for their commands. Hooks that cannot
// run (settings.HookSpec.Problem; their loaders warned) are left out.
func (r *Runner) specHooks(hs map[string][]settings.HookMatcher, env []string) []Hook {
	cfg := r.cfg
	extra := append(append([]string(nil), r.extra...), env...)
	var out []Hook
	for _, name := range settings.KnownHookEvents {
		for _, m := range hs[name] {
			for _, h := range m.Hooks {
				if h.Problem(name) != "" {
					continue
				}
				hook := Hook{Event: Event(name), Matcher: m.Matcher, Name: h.Label(), If: strings.TrimSpace(h.If), Once: h.Once,
					StatusMessage: strings.TrimSpace(h.StatusMessage),
					Timeout:       time.Duration(h.Timeout * float64(time.Second)), Source: m.Source, FromSettings: true}
				switch h.Type {
				case "command":
					cmd := &Command{Command: h.Command, Dir: cfg.Dir, Env: cfg.Env, Extra: extra, Shell: cfg.Shell}
					hook.Key = "command:" + h.Command
					if h.Args != nil {
						cmd.Args = append([]string{}, *h.Args...)
						a, _ := json.Marshal(cmd.Args)
						hook.Key += "\x00args:" + string(a)
					}
					hook.Handler = cmd
					hook.Async, hook.Rewake = h.Async || h.AsyncRewake, h.AsyncRewake
				case "http":
					allowedVars := h.AllowedEnvVars
					if cfg.HTTPAllowedEnvVars != nil {
						allowedVars = slices.DeleteFunc(slices.Clone(allowedVars), func(v string) bool {
							return !slices.Contains(*cfg.HTTPAllowedEnvVars, v)
						})
					}
					hook.Handler = &HTTP{URL: strings.TrimSpace(h.URL), Headers: h.Headers, AllowedEnvVars: allowedVars,
						Env: cfg.Env, Extra: extra, Client: cfg.HTTPClient}
					if cfg.AllowedHTTPURLs != nil && !urlAllowed(*cfg.AllowedHTTPURLs, strings.TrimSpace(h.URL)) {
						hook.Handler = refused{fmt.Errorf("its url %s is not one allowedHttpHookUrls lets http hooks post to", strings.TrimSpace(h.URL))}
					}
					hook.Key = "http:" + strings.TrimSpace(h.URL)
				case "mcp_tool":
					hook.Handler = &MCPTool{Server: h.Server, Tool: h.Tool, Input: h.Input, Call: cfg.CallTool}
					hook.Key = "mcp_tool:" + h.Server + "\x00" + h.Tool + "\x00" + string(h.Input)
				case "agent":
					hook.Handler = &Prompt{Prompt: h.Prompt, Model: h.Model, Ask: cfg.RunAgent, Agent: true}
					hook.Key = "agent:" + h.Model + "\x00" + h.Prompt
				case "prompt":
					hook.Handler = &Prompt{Prompt: h.Prompt, Model: h.Model, Ask: cfg.Ask}
					hook.Key = "prompt:" + h.Model + "\x00" + h.Prompt
				}
				if hook.If != "" {
					hook.Key += "\x00if:" + hook.If
				}
				if hook.Event == SessionEnd {
					// Exit waits for them: 1.5 s unless the hook sets more,
					// and never past a minute.
					hook.Timeout = min(cmp.Or(hook.Timeout, sessionEndTimeout), sessionEndMaxTimeout)
				}
				if hook.Timeout <= 0 {
					switch {
					case h.Type == "prompt":
						hook.Timeout = promptTimeout
					case h.Type == "agent":
						hook.Timeout = agentTimeout
					case hook.Event == UserPromptSubmit:
						hook.Timeout = userPromptTimeout
					default:
						hook.Timeout = specTimeout
					}
				}
				out = append(out, hook)
			}
		}
	}
	return out
}

// With returns a runner with r's configuration and hooks (those added at
// run time included) plus the command hooks in extra, given in settings
// form: the hooks of a scope that brings its own, such as a sub-agent's
// definition. r is not changed.
func (r *Runner) With(extra map[string][]settings.HookMatcher) *Runner {
	n := &Runner{cfg: r.cfg, extra: r.extra, bg: r.bg, seq: r.seq}
	r.mu.Lock()
	n.hooks = append([]Hook(nil), r.hooks...)
	r.mu.Unlock()
	n.hooks = append(n.hooks, n.specHooks(extra, nil)...)
	return n
}

// AddSkillHooks registers the hooks of the skill named name, given in
// settings form, for the rest of the session (Claude Code registers them
// when the skill is invoked); a hook with "once" is removed after its
// first successful run. A skill whose hooks are registered already adds
// nothing again. It reports whether it added any.
func (r *Runner) AddSkillHooks(name string, hs map[string][]settings.HookMatcher) bool {
	added := r.specHooks(hs, nil)
	for i := range added {
		// A skill's copy of a handler configured elsewhere runs apart.
		added[i].Key = "skill:" + name + "\x00" + added[i].Key
		added[i].Skill, added[i].FromSettings = name, false
		added[i].Source = settings.Source("skill")
		added[i].id = r.seq.Add(1)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.ContainsFunc(r.hooks, func(h Hook) bool { return h.Skill == name }) {
		return false
	}
	r.hooks = append(r.hooks, added...)
	return len(added) > 0
}

// doneOnce removes a skill's "once" hook after a successful run: one that
// was not stopped, did not time out, and exited 0.
func (r *Runner) doneOnce(h Hook, out Output) {
	if !h.Once || h.Skill == "" || out.Err != nil || out.TimedOut || out.Signal != "" || out.ExitCode != 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = slices.DeleteFunc(r.hooks, func(x Hook) bool { return x.id == h.id })
}

// Add registers a hook at run time (for example an SDK callback).
func (r *Runner) Add(h Hook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = append(r.hooks, h)
}

// Remove drops every hook for which drop returns true and reports how
// many it dropped (the callbacks of an SDK client that registers its
// hooks again).
func (r *Runner) Remove(drop func(Hook) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.hooks)
	r.hooks = slices.DeleteFunc(r.hooks, drop)
	return n - len(r.hooks)
}

// SetCommandHooks replaces the command hooks that came from the settings
// source src with those of hs from it (the flag settings layer, changed
// while the session runs).
func (r *Runner) SetCommandHooks(src settings.Source, hs map[string][]settings.HookMatcher) {
	from := map[string][]settings.HookMatcher{}
	for ev, ms := range hs {
		for _, m := range ms {
			if m.Source == src {
				from[ev] = append(from[ev], m)
			}
		}
	}
	added := r.specHooks(from, nil)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = slices.DeleteFunc(r.hooks, func(h Hook) bool {
		return h.FromSettings && h.Source == src
	})
	r.hooks = append(r.hooks, added...)
}

// PluginHooks are the hooks one plugin brings, in settings form, and the
// environment its hook commands get on top of the session's
// (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA).
type PluginHooks struct {
	Hooks map[string][]settings.HookMatcher
	Env   []string
}

// SetPluginHooks replaces the command hooks of plugins with those of
// sets (at start, and when plugins are loaded again). They have
// settings.SourcePlugin.
func (r *Runner) SetPluginHooks(sets []PluginHooks) {
	var added []Hook
	for i, ps := range sets {
		for _, h := range r.specHooks(ps.Hooks, ps.Env) {
			h.Source = settings.SourcePlugin
			// A plugin's copy of a handler configured elsewhere (in
			// settings, in another plugin) runs apart, as Claude Code's.
			h.Key = fmt.Sprintf("plugin %d\x00%s", i, h.Key)
			added = append(added, h)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hooks = slices.DeleteFunc(r.hooks, func(h Hook) bool {
		return h.FromSettings && h.Source == settings.SourcePlugin
	})
	r.hooks = append(r.hooks, added...)
}

// WatchedFiles are the files the FileChanged hooks' matchers name, in
// registration order and once each: names as written, which the caller
// places in the project folder.
func (r *Runner) WatchedFiles() []string {
	if r == nil || r.cfg.Disabled {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, h := range r.hooks {
		if h.Event != FileChanged {
			continue
		}
		for _, n := range fileNames(h.Matcher) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Has reports whether any hook is registered for ev.
func (r *Runner) Has(ev Event) bool {
	if r == nil || r.cfg.Disabled {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range r.hooks {
		if h.Event == ev {
			return true
		}
	}
	return false
}

// Matching returns the hooks that apply to in, in registration order,
// with identical keys once.
func (r *Runner) Matching(in *Input) []Hook {
	if r == nil || r.cfg.Disabled {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Hook
	seen := map[string]bool{}
	value := in.MatchValue()
	for _, h := range r.hooks {
		if h.Event != in.Event {
			continue
		}
		if in.Event == FileChanged {
			if !matchesFile(h.Matcher, value) {
				continue
			}
		} else if in.Event.usesMatcher() && !Matches(h.Matcher, value) && !matchesOldAgentName(in, h.Matcher) {
			continue
		}
		if h.Key != "" {
			if seen[h.Key] {
				continue
			}
			seen[h.Key] = true
		}
		out = append(out, h)
	}
	return out
}

// Run runs the hooks that match in, in parallel, and returns their
// combined result. It returns once every hook has finished or been
// killed; when ctx ends, running hooks are killed.
func (r *Runner) Run(ctx context.Context, in Input) Result {
	hooks := r.Matching(&in)
	if len(hooks) == 0 {
		return Result{Event: in.Event}
	}
	var outs []Output
	hooks, outs = r.checkIf(hooks, &in)
	if len(hooks) == 0 {
		return Aggregate(in.Event, outs)
	}
	input := in.JSON()
	env := runEnv{extra: in.Env}
	if r.cfg.Environ != nil {
		env.base, env.dynamic = r.cfg.Environ(), true
	}
	ctx = context.WithValue(ctx, runEnvKey{}, env)
	query := ""
	if in.Event.usesMatcher() {
		query = in.MatchValue()
	}
	// Every slot is made before any hook starts: the goroutines write
	// to theirs while the loop goes on.
	waited := 0
	for _, h := range hooks {
		if !h.Async {
			waited++
		}
	}
	i := len(outs)
	outs = append(outs, make([]Output, waited)...)
	var wg sync.WaitGroup
	for _, h := range hooks {
		if h.Async {
			r.bg.start(ctx, in.Event, h.Rewake, func(ctx context.Context) Output { return r.runOne(ctx, h, input, query) })
			continue
		}
		slot := &outs[i]
		i++
		wg.Go(func() {
			*slot = r.runOne(ctx, h, input, query)
		})
	}
	wg.Wait()
	return Aggregate(in.Event, outs)
}

// urlAllowed reports whether u matches one of patterns, in which "*"
// stands for any text.
func urlAllowed(patterns []string, u string) bool {
	for _, p := range patterns {
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(strings.TrimSpace(p)), `\*`, ".*") + "$"
		if ok, _ := regexp.MatchString(re, u); ok {
			return true
		}
	}
	return false
}

// refused is a hook that cannot run, for the reason it holds.
type refused struct{ err error }

func (r refused) Run(context.Context, []byte) Output { return Output{ExitCode: -1, Err: r.err} }

// checkIf keeps the hooks whose "if" condition in meets: on a tool
// event, the call must match its rule; on other events a hook with one
// never runs. A rule that cannot be read is reported as an output with
// the error, and its hook does not run.
func (r *Runner) checkIf(hooks []Hook, in *Input) ([]Hook, []Output) {
	var kept []Hook
	var problems []Output
	for _, h := range hooks {
		switch {
		case h.If == "":
			kept = append(kept, h)
		case !in.Event.toolEvent():
		case r.cfg.If == nil:
			kept = append(kept, h)
		default:
			ok, err := r.cfg.If(h.If, in)
			if err != nil {
				problems = append(problems, Output{Name: h.Name, ExitCode: -1, Err: fmt.Errorf("its \"if\" condition %q: %w", h.If, err)})
			} else if ok {
				kept = append(kept, h)
			}
		}
	}
	return kept, problems
}

func (r *Runner) runOne(ctx context.Context, h Hook, input []byte, query string) Output {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = r.cfg.DefaultTimeout
	}
	id := fmt.Sprintf("hook-%d", r.seq.Add(1))
	if r.cfg.Notify != nil {
		r.cfg.Notify(Progress{Event: h.Event, Name: h.Name, Query: query, ID: id, StatusMessage: h.StatusMessage})
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	out := h.Handler.Run(hctx, input)
	if out.Name == "" {
		out.Name = h.Name
	}
	if out.Duration == 0 {
		out.Duration = time.Since(start)
	}
	if errors.Is(hctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		out.TimedOut = true
	}
	if r.cfg.Notify != nil {
		r.cfg.Notify(Progress{Event: h.Event, Name: h.Name, Query: query, ID: id, Done: true, Output: out, StatusMessage: h.StatusMessage})
	}
	r.doneOnce(h, out)
	return out
}

// matchesOldAgentName lets matchers written for Task, the older name of
// the Agent tool, select Agent calls.
func matchesOldAgentName(in *Input, matcher string) bool {
	return in.Event.toolEvent() && in.ToolName == "Agent" && Matches(matcher, "Task")
}

// Matches reports whether a hook matcher selects value: an empty matcher
// or "*" selects everything; a matcher made of names joined by "|" or ","
// (spaces around them allowed: "Edit, Write") selects exactly those
// names; anything else is a regular expression that selects
// the values it matches anywhere, as Claude Code's RegExp.test does
// ("^Bash" selects BashOutput too; anchor with ^ and $ for the whole
// name). An invalid expression selects nothing.
func Matches(matcher, value string) bool {
	matcher = strings.TrimSpace(matcher)
	if matcher == "" || matcher == "*" {
		return true
	}
	if simpleMatcher(matcher) {
		for _, alt := range strings.FieldsFunc(matcher, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(alt) == value {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(matcher)
	return err == nil && re.MatchString(value)
}

func simpleMatcher(m string) bool {
	for _, r := range m {
		if !(r == '|' || r == ',' || r == ' ' || r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// runEnvKey carries a run's runEnv from Run to the handlers it starts.
type runEnvKey struct{}

// runEnv is the environment of one run: the base read from
// Config.Environ (when dynamic), and Input.Env.
type runEnv struct {
	base    []string
	dynamic bool
	extra   []string
}

// environ is the environment a handler with the static base and fixed
// additions gets in the run of ctx: the run's base when it has one, else
// base (nil: the process's), then fixed, then the run's extra.
func environ(ctx context.Context, base, fixed []string) []string {
	re, _ := ctx.Value(runEnvKey{}).(runEnv)
	if re.dynamic {
		base = re.base
	} else if base == nil {
		base = os.Environ()
	}
	return append(append(append([]string(nil), base...), fixed...), re.extra...)
}

// Command is a command hook run with a shell's -c, or, with Args, the
// executable Command run with Args and no shell (exec form).
type Command struct {
	Command string
	// Args, when not nil, are the arguments of exec form; in Command and
	// in each of them ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT} and
	// ${CLAUDE_PLUGIN_DATA} are replaced by the values the hook's
	// environment has.
	Args []string
	Dir  string
	// Env is the base environment (nil means the process's) and Extra
	// what is added to it (the project folder, a plugin's variables).
	Env   []string
	Extra []string
	// Shell defaults to bash, else /bin/sh.
	Shell string
}

// Run runs the command with input on stdin. When ctx ends the command's
// whole process group is killed.
func (c *Command) Run(ctx context.Context, input []byte) Output {
	shell := c.Shell
	if shell == "" {
		shell = settings.Shell()
	}
	out := Output{Name: c.Command}
	start := time.Now()
	env := environ(ctx, c.Env, c.Extra)
	cmd := exec.CommandContext(ctx, shell, "-c", c.Command)
	if c.Args != nil {
		fill := placeholders(env)
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = fill.Replace(a)
		}
		cmd = exec.CommandContext(ctx, fill.Replace(c.Command), args...)
		if lp, err := lookPath(fill.Replace(c.Command), env); err == nil {
			cmd.Path, cmd.Err = lp, nil
		}
	}
	cmd.Dir = c.Dir
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(input)
	stdout, stderr := &capped{max: maxOutput}, &capped{max: maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	settings.KillGroupOnCancel(cmd)
	err := cmd.Run()
	out.Duration = time.Since(start)
	out.Stdout, out.Stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		out.ExitCode = -1
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			out.Err = fmt.Errorf("stopped: %w", context.Cause(ctx))
		}
	case errors.As(err, &exit):
		out.ExitCode = exit.ExitCode()
		if out.ExitCode == -1 {
			// Killed by a signal rather than exiting.
			out.Signal = strings.TrimPrefix(exit.Error(), "signal: ")
		}
	case errors.Is(err, exec.ErrWaitDelay):
		// The hook exited 0 but left a process (a server or watcher it
		// started in the background) holding its output open: what it
		// printed counts, a decision included.
		out.ExitCode = 0
	case err != nil:
		out.ExitCode = -1
		out.Err = err
	}
	return out
}

// placeholders replaces the path placeholders of exec form by the values
// env gives them.
func placeholders(env []string) *strings.Replacer {
	m := envMap(env)
	var pairs []string
	for _, name := range []string{"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"} {
		if v, ok := m[name]; ok {
			pairs = append(pairs, "${"+name+"}", v)
		}
	}
	return strings.NewReplacer(pairs...)
}

// lookPath finds an exec-form command on the PATH of the hook's
// environment (exec.Command looks on reins's own).
func lookPath(name string, env []string) (string, error) {
	if strings.ContainsRune(name, '/') {
		return name, nil
	}
	for _, dir := range filepath.SplitList(envMap(env)["PATH"]) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// capped is a buffer that keeps the first max bytes written to it.
type capped struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
			c.cut = true
		} else {
			c.buf.Write(p)
		}
	} else if len(p) > 0 {
		c.cut = true
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c.cut {
		return c.buf.String() + "\n… [output cut]"
	}
	return c.buf.String()
}
