package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Options are the root command's flags.
type Options struct {
	Print          bool
	OutputFormat   string
	InputFormat    string
	Verbose        bool
	Model          string
	FallbackModel  string
	SystemPrompt   string
	SystemFile     string
	AppendSystem   string
	AppendFile     string
	AllowedTools   []string
	DisallowedTool []string
	Tools          []string
	ToolsSet       bool
	PermissionMode string
	SkipPerms      bool
	AllowSkipPerms bool
	MaxTurns       int
	MaxBudgetUSD   float64
	// BudgetSet is whether --max-budget-usd was given (0 is its unset
	// value, so a given 0 can be refused).
	BudgetSet      bool
	AddDirs        []string
	MCPConfigs     []string
	StrictMCP      bool
	Settings       string
	SettingSources string
	SessionID      string
	Resume         string
	ResumeSet      bool
	Continue       bool
	ForkSession    bool
	ResumeAt       string
	NoPersist      bool
	Partial        bool
	HookEvents     bool
	SessionMirror  bool
	ReplayUser     bool
	AwaitInit      bool
	PromptTool     string
	JSONSchema     string
	Agents         string
	Agent          string
	MaxThinking    int
	Thinking       string
	Effort         string
	ThinkingDisp   string
	Betas          []string
	Debug          bool
	DebugFile      string
	ShowVersion    bool
	ShortVersion   bool
	// Bare is --bare: minimal mode (see bare.go).
	Bare bool
	// Name is --name: the session's display name, as /rename sets it.
	Name string
	// ProjectRoot is --project-config-root: the checkout whose project
	// configuration the session uses (the SDK's projectConfigRoot).
	ProjectRoot string
	// DebugStderr is --debug-to-stderr (-d2e).
	DebugStderr bool
	// ManagedSettings is --managed-settings: policy settings (JSON) from
	// the program that started reins (the Agent SDK's managedSettings).
	ManagedSettings string
	// PermissionPrompts is --permission-prompts: "host" (the default)
	// asks the permission prompt tool or the SDK client; "none" asks
	// nobody, so what would be asked is denied.
	PermissionPrompts string
	// TaskBudget is --task-budget: the tokens the model is told it has
	// for the whole task (output_config.task_budget); 0 for none.
	TaskBudget int
	// ManagedInInit is --managed-settings-in-initialize and InitFields
	// --initialize-fields: the SDK sends managedSettings, settings or
	// disallowedTools in its initialize request (see takeInitSettings).
	ManagedInInit bool
	InitFields    string

	// PluginDirs are --plugin-dir folders; PluginDirsNoMCP are
	// --plugin-dir-no-mcp ones, whose MCP servers the SDK host runs.
	PluginDirs      []string
	PluginDirsNoMCP []string

	// SourcesSet is true when --setting-sources was given, even empty
	// (no settings files at all).
	SourcesSet bool

	// Worktree is --worktree's name (" " for one reins picks); WorktreeSet
	// says the flag was given.
	Worktree    string
	WorktreeSet bool

	// Init and Maintenance (with -p) run the Setup hooks ("init",
	// "maintenance") before the session starts; InitOnly runs the Setup
	// hooks ("init") and the SessionStart hooks, then exits.
	Init, InitOnly, Maintenance bool

	// Args are the positional arguments (the prompt).
	Args []string
}

// flagSet declares the root flags on fs, bound to o.
func (o *Options) flagSet(fs *pflag.FlagSet) {
	fs.BoolVarP(&o.Print, "print", "p", false, "print the response and exit (non-interactive)")
	fs.StringVar(&o.OutputFormat, "output-format", "text", "print mode output: text, json or stream-json")
	fs.StringVar(&o.InputFormat, "input-format", "text", "print mode input: text or stream-json")
	fs.BoolVar(&o.Verbose, "verbose", false, "show every message (json output becomes a list)")
	fs.StringVar(&o.Model, "model", "", "model for this session: an alias (opus, sonnet, haiku) or a model id")
	fs.StringVar(&o.FallbackModel, "fallback-model", "", "model to switch to when the main model stays overloaded")
	fs.StringVar(&o.SystemPrompt, "system-prompt", "", "replace the system prompt")
	fs.StringVar(&o.SystemFile, "system-prompt-file", "", "replace the system prompt with a file's contents")
	fs.StringVar(&o.AppendSystem, "append-system-prompt", "", "text appended to the system prompt")
	fs.StringVar(&o.AppendFile, "append-system-prompt-file", "", "file appended to the system prompt")
	fs.Var(stringList{&o.AllowedTools}, "allowedTools", "tools or rules allowed without asking, e.g. \"Bash(git log *)\" Edit")
	fs.Var(stringList{&o.AllowedTools}, "allowed-tools", "same as --allowedTools")
	fs.Var(stringList{&o.DisallowedTool}, "disallowedTools", "tools or rules always denied")
	fs.Var(stringList{&o.DisallowedTool}, "disallowed-tools", "same as --disallowedTools")
	fs.Var(stringList{&o.Tools}, "tools", "the built-in tools available: a list, \"default\", or \"\" for none")
	fs.StringVar(&o.PermissionMode, "permission-mode", "", "default (or manual), acceptEdits, plan, auto, bypassPermissions or dontAsk")
	fs.BoolVar(&o.SkipPerms, "dangerously-skip-permissions", false, "run every tool without asking (bypassPermissions)")
	fs.BoolVar(&o.AllowSkipPerms, "allow-dangerously-skip-permissions", false, "allow switching to bypassPermissions later")
	fs.IntVar(&o.MaxTurns, "max-turns", 0, "stop after this many model turns (print mode)")
	fs.Float64Var(&o.MaxBudgetUSD, "max-budget-usd", 0, "stop once the session has cost this much")
	fs.Var(stringList{&o.AddDirs}, "add-dir", "another folder the tools may use")
	fs.Var(stringList{&o.MCPConfigs}, "mcp-config", "MCP servers from a JSON file or string")
	fs.Var(stringList{&o.PluginDirs}, "plugin-dir", "load a Claude Code plugin from this folder for this session (repeatable)")
	fs.Var(stringList{&o.PluginDirsNoMCP}, "plugin-dir-no-mcp", "as --plugin-dir, without the plugin's MCP servers")
	fs.BoolVar(&o.Bare, "bare", false, "minimal mode for scripts: only Bash, Read and Edit, and nothing found on disk (hooks, CLAUDE.md, plugins, MCP servers, agents); pass what you need with flags")
	fs.BoolVar(&o.StrictMCP, "strict-mcp-config", false, "use only the servers from --mcp-config")
	fs.StringVar(&o.Settings, "settings", "", "a settings file or JSON string")
	fs.StringVar(&o.ProjectRoot, "project-config-root", "", "take the project's settings, hooks, .mcp.json, commands, skills, agents and output styles from this folder instead of the working folder (for a worktree of it)")
	fs.StringVar(&o.ManagedSettings, "managed-settings", "", "policy settings (JSON) from the program that started reins; only what restricts applies, and not over an installed managed policy")
	fs.StringVar(&o.SettingSources, "setting-sources", "", "which settings to load: user,project,local")
	fs.StringVar(&o.SessionID, "session-id", "", "use this UUID as the session id")
	fs.StringVarP(&o.Resume, "resume", "r", "", "resume a session by id or /rename name, or choose it from a list (filtered by the words given)")
	fs.Lookup("resume").NoOptDefVal = " "
	fs.BoolVarP(&o.Continue, "continue", "c", false, "continue the most recent session in this folder")
	fs.BoolVar(&o.ForkSession, "fork-session", false, "with --resume or --continue, continue under a new session id")
	fs.StringVar(&o.ResumeAt, "resume-session-at", "", "with --resume or --continue, go on from this message uuid, leaving what came after it")
	fs.StringVarP(&o.Name, "name", "n", "", "name the session (as /rename does): shown in /resume and usable with --resume NAME")
	fs.BoolVar(&o.NoPersist, "no-session-persistence", false, "do not record the session")
	fs.BoolVar(&o.Partial, "include-partial-messages", false, "stream-json: include streaming events")
	fs.BoolVar(&o.HookEvents, "include-hook-events", false, "stream-json: include hook events")
	fs.BoolVar(&o.SessionMirror, "session-mirror", false, "SDK: also send each transcript line as a transcript_mirror line (the SDK's sessionStore)")
	fs.BoolVar(&o.ReplayUser, "replay-user-messages", false, "stream-json: echo user messages back")
	fs.BoolVar(&o.AwaitInit, "await-initialize", false, "SDK: read the initialize request (and the MCP servers it carries) before starting")
	fs.StringVar(&o.PromptTool, "permission-prompt-tool", "", "answer permission questions with this MCP tool, or stdio (SDK)")
	fs.StringVar(&o.PermissionPrompts, "permission-prompts", "host", "who answers permission questions: host (the prompt tool or SDK client) or none (they are denied)")
	fs.StringVar(&o.JSONSchema, "json-schema", "", "JSON Schema the final answer must follow (structured_output)")
	fs.StringVar(&o.Agents, "agents", "", "custom sub-agents as JSON")
	fs.StringVar(&o.Agent, "agent", "", "run the main conversation as this agent (its prompt, tools and model)")
	fs.IntVar(&o.MaxThinking, "max-thinking-tokens", 0, "enable extended thinking with this budget")
	fs.StringVar(&o.Thinking, "thinking", "", "adaptive or disabled")
	fs.StringVar(&o.Effort, "effort", "", "effort level for supported models: low, medium, high, xhigh, max or auto")
	fs.StringVar(&o.ThinkingDisp, "thinking-display", "", "how thinking comes back when it is on: summarized or omitted")
	fs.Var(stringList{&o.Betas}, "betas", "extra anthropic-beta values")
	fs.IntVar(&o.TaskBudget, "task-budget", 0, "tokens the model is told it has for the whole task (an advisory API task budget)")
	fs.BoolVar(&o.ManagedInInit, "managed-settings-in-initialize", false, "with --await-initialize: the SDK's managedSettings come in its initialize request")
	fs.StringVar(&o.InitFields, "initialize-fields", "", "with --await-initialize: options (settings, disallowedTools) the SDK sends in its initialize request")
	fs.StringVarP(&o.Worktree, "worktree", "w", "", "start the session in a new git worktree .claude/worktrees/<name> on branch worktree-<name> (a name is made up when none is given)")
	fs.Lookup("worktree").NoOptDefVal = " "
	fs.BoolVar(&o.Init, "init", false, "with -p: run the Setup hooks (matcher \"init\") before the session")
	fs.BoolVar(&o.InitOnly, "init-only", false, "run the Setup hooks (matcher \"init\") and the SessionStart hooks, then exit")
	fs.BoolVar(&o.Maintenance, "maintenance", false, "with -p: run the Setup hooks (matcher \"maintenance\") before the session")
	fs.BoolVarP(&o.Debug, "debug", "d", false, "write a debug log under the user config folder (a category filter such as api,hooks is accepted; the log has every category)")
	fs.StringVar(&o.DebugFile, "debug-file", "", "write the debug log to this file")
	fs.BoolVar(&o.DebugStderr, "debug-to-stderr", false, "write the debug log to stderr (also -d2e)")
	fs.BoolVar(&o.ShowVersion, "version", false, "print the version")
	fs.BoolVarP(&o.ShortVersion, "v", "v", false, "print the Claude Code protocol level (for the Agent SDKs)")
}

// flagError turns a flag parsing error into a usage error (exit code 2,
// with the hint) that says which flag wanted what.
func flagError(_ *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		want := "another value"
		switch iv.GetFlag().Value.Type() {
		case "int":
			want = "a whole number"
		case "float64":
			want = "a number"
		case "bool":
			want = "true or false"
		}
		return usageError{fmt.Sprintf("--%s wants %s, not %q", iv.GetFlag().Name, want, iv.GetValue())}
	}
	var vr *pflag.ValueRequiredError
	if errors.As(err, &vr) {
		return usageError{fmt.Sprintf("--%s needs a value", vr.GetFlag().Name)}
	}
	return usageError{err.Error()}
}

// dropUnknownFlags removes flags fs does not know, warning about each on
// w. An unknown "--name value" also drops the value when it does not look
// like a flag or a prompt (no spaces).
func dropUnknownFlags(fs *pflag.FlagSet, args []string, w io.Writer) []string {
	var out, prompts []string
	dashDash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			dashDash = true
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var f *pflag.Flag
		if strings.HasPrefix(a, "--") {
			f = fs.Lookup(name)
		} else if len(name) >= 1 {
			if name == "v" {
				f = fs.Lookup("v")
			} else {
				f = fs.ShorthandLookup(name[:1])
			}
		}
		if f == nil && strings.ContainsAny(a, " \t\n") {
			// "-1 is negative, why?" is a prompt, not an option: no
			// option has spaces in its name. It goes after "--" so the
			// flag parser takes it as it is.
			prompts = append(prompts, a)
			continue
		}
		if f != nil {
			out = append(out, a)
			if !hasValue && f.NoOptDefVal == "" && f.Value.Type() != "bool" && strings.HasPrefix(a, "--") && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !strings.ContainsAny(args[i+1], " \t\n") {
			// Said, so a one-word prompt taken for its value is not lost
			// without a word.
			i++
			fmt.Fprintf(w, "reins: warning: ignoring unknown option %s and its value %q\n", a, args[i])
			continue
		}
		fmt.Fprintf(w, "reins: warning: ignoring unknown option %s\n", a)
	}
	if len(prompts) > 0 {
		if !dashDash {
			out = append(out, "--")
		}
		out = append(out, prompts...)
	}
	return out
}

// stringList is a repeatable string flag: each use adds its value whole
// (no splitting at commas), as pflag's stringArray does. pflag's own type
// renders its empty default as CSV when the flag is declared, through a
// 4 KiB buffer per flag, at every start of every run; this one does not.
type stringList struct{ p *[]string }

// Set adds v.
func (l stringList) Set(v string) error {
	*l.p = append(*l.p, v)
	return nil
}

// String is the values so far, joined by commas.
func (l stringList) String() string { return strings.Join(*l.p, ",") }

// Type is the name help shows for the value.
func (l stringList) Type() string { return "stringArray" }
