package agent

import (
	"encoding/json"
	"slices"
	"strings"
)

// Source says where a definition came from.
type Source string

// Definition sources, in rising precedence (flag and SDK share a level).
const (
	SourceBuiltin Source = "built-in"
	SourcePlugin  Source = "plugin"
	SourceUser    Source = "user"
	SourceProject Source = "project"
	SourceFlag    Source = "flag"
	SourceSDK     Source = "sdk"
	SourceManaged Source = "managed"
)

func (s Source) rank() int {
	switch s {
	case SourceBuiltin:
		return 0
	case SourcePlugin:
		return 1
	case SourceUser:
		return 2
	case SourceProject:
		return 3
	case SourceFlag, SourceSDK:
		return 4
	case SourceManaged:
		return 5
	}
	return 0
}

// IsolationWorktree runs a sub-agent in a temporary git worktree of the
// repository, so its edits stay out of the user's checkout.
const IsolationWorktree = "worktree"

// Permission modes an agent may ask for.
var permissionModes = []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto", "manual"}

// Definition is one sub-agent type.
type Definition struct {
	// Name is the type the Agent tool's subagent_type names.
	Name string
	// Description says when to use the agent; the model sees it.
	Description string
	// Prompt is the agent's system prompt.
	Prompt string
	// Tools are the tool entries as written ("Read", "Bash(git:*)",
	// "Agent(worker)"); nil or "*" means every tool of the parent.
	Tools []string
	// DisallowedTools are removed from what Tools allows. An entry with
	// parentheses is a deny rule, not a whole tool (see Rules).
	DisallowedTools []string
	// Model is "" or "inherit" (the parent's), an alias (sonnet, opus,
	// haiku) or a model id.
	Model string
	// PermissionMode, when set, is the mode the agent asks for; it can
	// only narrow the parent's.
	PermissionMode string
	// MaxTurns bounds the agent's turns (0: no bound of its own).
	MaxTurns int
	// Effort, when set, is the effort level the agent runs at (one
	// llm.ParseEffort accepts); "" runs it at its caller's.
	Effort string
	// Isolation is IsolationWorktree to run the agent in a git worktree
	// of its own, or "".
	Isolation string
	// Skills are skills to preload into the agent's context.
	Skills []string
	// Hooks are the agent's hooks in settings form (JSON), or nil.
	Hooks json.RawMessage
	// MCPServers are the agent's MCP servers as written (JSON), or nil.
	MCPServers json.RawMessage
	// Color is the colour front ends show the agent in.
	Color string
	// Memory is the scope of the agent's persistent memory folder
	// (MemoryUser, MemoryProject or MemoryLocal), or "" for none.
	Memory string
	// Background runs every start of the agent as a background task, as
	// if the call had asked for run_in_background.
	Background bool
	// InitialPrompt is sent as the first user turn when the agent runs
	// the main conversation (--agent, the "agent" setting), ahead of any
	// prompt the user gives.
	InitialPrompt string
	// ReadOnly asks the runtime to refuse calls that are not read-only
	// (tool.Tool.IsReadOnly); the built-in Explore and Plan set it.
	ReadOnly bool

	Source Source
	// Path is the file the definition came from, if any.
	Path string
}

// canonicalTool maps the old name of the Agent tool to the current one.
func canonicalTool(name string) string {
	if name == "Task" {
		return "Agent"
	}
	return name
}

// splitEntry splits "Bash(git:*)" into "Bash" and "git:*".
func splitEntry(e string) (name, content string, hasContent bool) {
	e = strings.TrimSpace(e)
	i := strings.IndexByte(e, '(')
	if i <= 0 || !strings.HasSuffix(e, ")") {
		return canonicalTool(e), "", false
	}
	return canonicalTool(strings.TrimSpace(e[:i])), e[i+1 : len(e)-1], true
}

// entryMatches reports whether a tool entry's name covers the tool name:
// the same name, "mcp__server" for every tool of that server, or a name
// ending in "*" as a prefix.
func entryMatches(entry, tool string) bool {
	tool = canonicalTool(tool)
	switch {
	case entry == tool:
		return true
	case strings.HasSuffix(entry, "*"):
		return strings.HasPrefix(tool, strings.TrimSuffix(entry, "*"))
	case strings.HasPrefix(entry, "mcp__") && !strings.Contains(strings.TrimPrefix(entry, "mcp__"), "__"):
		return strings.HasPrefix(tool, entry+"__")
	}
	return false
}

// allTools reports whether Tools grants every tool.
func (d *Definition) allTools() bool {
	return len(d.Tools) == 0 || slices.ContainsFunc(d.Tools, func(e string) bool { return strings.TrimSpace(e) == "*" })
}

// mainOnly are tools only the main conversation uses: a sub-agent never
// gets them. StructuredOutput delivers the session's final answer in the
// SDK's structured-output mode.
var mainOnly = []string{"AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "StructuredOutput"}

// MainOnlyTools returns the tools only the main conversation may use.
func MainOnlyTools() []string { return slices.Clone(mainOnly) }

// FilterOptions adjust FilterTools.
type FilterOptions struct {
	// AllowAgent lets the sub-agent keep the Agent tool, so it may start
	// sub-agents of its own (the runtime bounds the depth).
	AllowAgent bool
}

// FilterTools returns the names of the parent's tools the sub-agent gets,
// in the parent's order: those Tools names (all when Tools is empty or
// "*"), minus those DisallowedTools names as whole tools, minus the
// main-only tools, minus Agent unless opt.AllowAgent.
func (d *Definition) FilterTools(parent []string, opt FilterOptions) []string {
	var out []string
	for _, t := range parent {
		ct := canonicalTool(t)
		if slices.Contains(mainOnly, ct) || (ct == "Agent" && !opt.AllowAgent) {
			continue
		}
		if !d.allTools() && !slices.ContainsFunc(d.Tools, func(e string) bool {
			name, _, _ := splitEntry(e)
			return entryMatches(name, ct)
		}) {
			continue
		}
		if slices.ContainsFunc(d.DisallowedTools, func(e string) bool {
			name, _, has := splitEntry(e)
			return !has && entryMatches(name, ct)
		}) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// UnknownTools returns the names in Tools that known does not recognise,
// each once, in the order written: a misspelt or foreign tool name there
// grants nothing, which is easy to miss. "*", name patterns ending in "*"
// and MCP tool names (mcp__..., whose servers connect later) are not
// checked.
func (d *Definition) UnknownTools(known func(name string) bool) []string {
	var out []string
	for _, e := range d.Tools {
		name, _, _ := splitEntry(e)
		if name == "" || strings.Contains(name, "*") || strings.HasPrefix(name, "mcp__") || known(name) || slices.Contains(out, name) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// AgentTypes returns the sub-agent types an "Agent(a, b)" entry in Tools
// limits nesting to; nil means no limit.
func (d *Definition) AgentTypes() []string {
	var out []string
	for _, e := range d.Tools {
		name, content, has := splitEntry(e)
		if name != "Agent" || !has {
			continue
		}
		for _, t := range strings.Split(content, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// Rules returns the permission rules the definition's entries carry: allow
// rules from Tools entries with parentheses (other than Agent(...)) and
// deny rules from DisallowedTools entries with parentheses.
func (d *Definition) Rules() (allow, deny []string) {
	for _, e := range d.Tools {
		if name, _, has := splitEntry(e); has && name != "Agent" {
			allow = append(allow, strings.TrimSpace(e))
		}
	}
	for _, e := range d.DisallowedTools {
		if _, _, has := splitEntry(e); has {
			deny = append(deny, strings.TrimSpace(e))
		}
	}
	return allow, deny
}

// ToolsDescription says in words which tools the agent has: "All tools",
// "All tools except Bash, Agent" or "Read, Grep, Glob".
func (d *Definition) ToolsDescription() string {
	var denied []string
	for _, e := range d.DisallowedTools {
		if name, _, has := splitEntry(e); !has && !slices.Contains(denied, name) {
			denied = append(denied, name)
		}
	}
	if d.allTools() {
		if len(denied) == 0 {
			return "All tools"
		}
		return "All tools except " + strings.Join(denied, ", ")
	}
	var names []string
	for _, e := range d.Tools {
		name, _, _ := splitEntry(e)
		if !slices.Contains(names, name) && !slices.Contains(denied, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "None"
	}
	return strings.Join(names, ", ")
}

// ModelFor returns the model the agent runs: the parent's when Model is
// empty or "inherit", else Model through resolve (aliases to ids; nil
// leaves it as written).
func (d *Definition) ModelFor(parent string, resolve func(string) string) string {
	m := strings.TrimSpace(d.Model)
	if m == "" || strings.EqualFold(m, "inherit") {
		return parent
	}
	if resolve != nil {
		return resolve(m)
	}
	return m
}
