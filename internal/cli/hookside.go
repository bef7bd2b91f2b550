package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/agent"
	"reins/internal/command"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/mcp"
	"reins/internal/permission"
	"reins/internal/settings"
	"reins/internal/tool"
)

// asyncHookGrace is how long reins waits at exit for async hooks still
// running before it stops them.
const asyncHookGrace = 10 * time.Second

// hookModelInstructions is the system prompt of a prompt hook's side
// call.
const hookModelInstructions = "You check one step of a coding agent's work for its user, as a hook. " +
	"The user's message states a condition and gives the step as JSON. Judge only that condition, " +
	"and answer with the JSON object the message asks for, nothing else."

// askHookModel asks model (the fast model when "") a prompt hook's
// question and returns the answer's text. The call counts in the
// session's usage.
func (a *app) askHookModel(ctx context.Context, model, prompt string) (string, error) {
	if model == "" {
		model = a.smallModel()
	} else {
		model = a.models.Resolve(model)
	}
	req := &llm.Request{Model: model, MaxTokens: 1024,
		System:   []llm.SystemBlock{{Text: hookModelInstructions}},
		Messages: []*llm.Message{llm.NewUserText(prompt)}}
	start := time.Now()
	msg, err := llm.Complete(ctx, a.provider, req)
	if err != nil {
		return "", fmt.Errorf("ask %s: %w", model, err)
	}
	if s := a.current(); s != nil && msg.Usage != nil {
		s.AddUsage(model, *msg.Usage, time.Since(start))
	}
	return msg.Text(), nil
}

// hookIf reports whether the tool call of a hook's input matches the
// permission rule of the hook's "if" condition, with relative paths read
// from the call's folder.
func (a *app) hookIf(rule string, in *hooks.Input) (bool, error) {
	dir := in.Cwd
	if dir == "" {
		dir = a.cwd
	}
	return permission.RuleMatches(rule, in.ToolName, in.ToolInput, dir, a.home)
}

// registerSkillHooks registers the hooks of an invoked skill's frontmatter
// for the rest of the session; hooks that cannot run are warned about.
func (a *app) registerSkillHooks(c *command.Command) {
	if len(c.Hooks) == 0 || a.hookRun == nil || a.pluginHooksOff() {
		// disableAllHooks and allowManagedHooksOnly keep them off too.
		return
	}
	var hs map[string][]settings.HookMatcher
	if err := json.Unmarshal(c.Hooks, &hs); err != nil {
		a.notify("warning", fmt.Sprintf("skill %s: hooks: %v (ignored)", c.Name, err))
		return
	}
	for _, ev := range slices.Sorted(maps.Keys(hs)) {
		if !slices.Contains(settings.KnownHookEvents, ev) {
			a.notify("warning", fmt.Sprintf("skill %s: hook event %q is not one reins fires; its hooks never run", c.Name, ev))
			continue
		}
		for i, m := range hs[ev] {
			for j, h := range m.Hooks {
				if msg := h.Problem(ev); msg != "" {
					a.notify("warning", fmt.Sprintf("skill %s: hooks.%s[%d].hooks[%d]: %s; that hook is skipped", c.Name, ev, i, j, msg))
				}
			}
		}
	}
	a.hookRun.AddSkillHooks(c.Name, hs)
}

// callHookTool calls tool of the connected MCP server for an mcp_tool
// hook and returns the text of its result and whether it is an error.
func (a *app) callHookTool(ctx context.Context, server, toolName string, input json.RawMessage) (string, bool, error) {
	name := mcp.ToolName(server, toolName)
	var tools []tool.Tool
	if m := a.mcpm(); m != nil {
		if why := m.Unavailable(name); why != "" {
			return "", false, fmt.Errorf("%s", why)
		}
		tools = append(tools, m.Snapshot().Tools...)
	}
	if a.hooks.ExtraTools != nil {
		tools = append(tools, a.hooks.ExtraTools()...)
	}
	i := slices.IndexFunc(tools, func(t tool.Tool) bool { return t.Name() == name })
	if i < 0 {
		return "", false, fmt.Errorf("no connected MCP server %q has a tool %q", server, toolName)
	}
	res, err := tools[i].Call(ctx, &tool.Call{ID: "hook-" + name, Name: name}, input, nil)
	if err != nil {
		return "", false, err
	}
	var parts []string
	for _, b := range res.Content {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError, nil
}

// stringListSetting reads an allowlist setting that is a list of strings
// (merged across the settings files): nil when no file sets it. One that
// is not a list of strings allows nothing (warned about): an allowlist
// written wrong must not open everything.
func (a *app) stringListSetting(key string) *[]string {
	raw, ok := a.settings.Raw[key]
	if !ok {
		return nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		a.warn(fmt.Sprintf("setting %s: want a list of strings; until it is one, it allows nothing", key))
		return &[]string{}
	}
	if list == nil {
		list = []string{}
	}
	return &list
}

// runHookAgent runs an agent hook: a read-only Explore sub-agent on model
// (the fast model when "") is given the prompt, and its final answer's
// text is returned.
func (a *app) runHookAgent(ctx context.Context, model, prompt string) (string, error) {
	if model == "" {
		model = a.smallModel()
	}
	input, err := json.Marshal(map[string]string{"description": "Check for a hook", "prompt": prompt,
		"subagent_type": agent.Explore, "model": model})
	if err != nil {
		return "", fmt.Errorf("write the agent hook's request: %w", err)
	}
	res, err := a.agentTool().Call(ctx, &tool.Call{ID: "hook_" + uuid.NewString(), Name: "Agent", SessionID: a.currentID(), Cwd: a.cwd}, input, nil)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, b := range res.Content {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	text := strings.Join(parts, "\n")
	if res.IsError {
		return "", fmt.Errorf("the agent failed: %s", text)
	}
	return text, nil
}

// hookStatus keeps the statusMessage of each hook that runs now, for the
// terminal UI's spinner. It is safe for concurrent use; the zero value is
// ready.
type hookStatus struct {
	mu      sync.Mutex
	running []hookStatusEntry // in start order
}

type hookStatusEntry struct{ id, msg string }

// track hears a hook start or finish.
func (s *hookStatus) track(p hooks.Progress) {
	if p.StatusMessage == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Done {
		s.running = slices.DeleteFunc(s.running, func(e hookStatusEntry) bool { return e.id == p.ID })
		return
	}
	s.running = append(s.running, hookStatusEntry{p.ID, p.StatusMessage})
}

// current is the statusMessage of the hook that started last of those
// running ("" when none with one runs).
func (s *hookStatus) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.running) == 0 {
		return ""
	}
	return s.running[len(s.running)-1].msg
}

// cwdChanged runs CwdChanged hooks when a Bash command of the main
// conversation changed the shell's folder: they get the folders before
// and after, and CLAUDE_ENV_FILE, whose exports reach later Bash
// commands (direnv-style). What they say is shown to the user; they
// cannot block.
func (a *app) cwdChanged(ctx context.Context, dir string) {
	a.shellMu.Lock()
	old := cmp.Or(a.shellCwd, a.cwd)
	a.shellCwd = dir
	a.shellMu.Unlock()
	if !a.hookRun.Has(hooks.CwdChanged) {
		return
	}
	envFile, cleanup := a.hookEnvFile(hooks.CwdChanged)
	defer cleanup()
	r := a.hookRun.Run(ctx, a.hookInput(hooks.CwdChanged, func(h *hooks.Input) {
		h.OldCwd, h.NewCwd = old, dir
		if envFile != "" {
			h.Env = []string{"CLAUDE_ENV_FILE=" + envFile}
		}
	}))
	a.reportObserved(r)
	if envFile != "" {
		a.applyHookEnv(ctx, hooks.CwdChanged, envFile)
	}
	a.watchPaths(r.WatchPaths)
}

// hookCwd is the cwd hook inputs give: the folder the main conversation's
// Bash commands run in, which follows cd, as Claude Code's does (the
// session's folder until a command changes it). CLAUDE_PROJECT_DIR stays
// the project's.
func (a *app) hookCwd() string {
	a.shellMu.Lock()
	defer a.shellMu.Unlock()
	return cmp.Or(a.shellCwd, a.cwd)
}
