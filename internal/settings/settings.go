package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Source names where a setting, rule or hook came from. The values are
// Claude Code's names, which also appear on the SDK wire as permission
// update destinations.
type Source string

// The sources, from highest precedence to lowest. SourceCLI, SourceSession
// and SourceCommand are not files: they name rules given by flags
// (--allowedTools), added during the session, or by a command.
const (
	SourcePolicy  Source = "policySettings"
	SourceFlag    Source = "flagSettings"
	SourceLocal   Source = "localSettings"
	SourceProject Source = "projectSettings"
	SourceUser    Source = "userSettings"
	SourceCLI     Source = "cliArg"
	SourceSession Source = "session"
	SourceCommand Source = "command"
	// SourcePlugin names hooks a plugin brings (hooks/hooks.json).
	SourcePlugin Source = "pluginHook"
)

// FileSource reports whether s names a kind of settings file.
func (s Source) FileSource() bool {
	switch s {
	case SourcePolicy, SourceFlag, SourceLocal, SourceProject, SourceUser:
		return true
	}
	return false
}

// Label is a short human name for the source.
func (s Source) Label() string {
	switch s {
	case SourcePolicy:
		return "managed policy"
	case SourceFlag:
		return "--settings"
	case SourceLocal:
		return "local project settings"
	case SourceProject:
		return "project settings"
	case SourceUser:
		return "user settings"
	case SourceCLI:
		return "command-line flag"
	case SourceSession:
		return "this session"
	case SourceCommand:
		return "command"
	case SourcePlugin:
		return "plugin"
	}
	return string(s)
}

// Behavior is what a permission rule does with a matching call.
type Behavior string

// Rule behaviours.
const (
	Allow Behavior = "allow"
	Ask   Behavior = "ask"
	Deny  Behavior = "deny"
)

// Rule is one permission rule string with its origin. The rule syntax is
// parsed by the permission package.
type Rule struct {
	Behavior Behavior
	// Text is the rule as written, e.g. "Bash(npm run test:*)".
	Text   string
	Source Source
	// File is the settings file it came from ("" for flags and session
	// rules).
	File string
	// Root is the folder a rule path starting with a single "/" is
	// relative to: the project folder for project and local files, the
	// config folder for user files, the working folder otherwise.
	Root string
	// Line and Column locate the rule in File, from 1; 0 when unknown.
	Line, Column int
}

// Dir is an additional working folder with its origin.
type Dir struct {
	Path   string // absolute and cleaned
	Source Source
	File   string
}

// HookMatcher is one entry of a hook event's list: the hooks to run when
// the matcher matches.
type HookMatcher struct {
	// Matcher selects what the hooks apply to (a tool name for tool
	// events): empty or "*" for all, a name, names joined by "|", or a
	// regular expression.
	Matcher string     `json:"matcher,omitempty"`
	Hooks   []HookSpec `json:"hooks"`
	// Source and File say where the entry was configured.
	Source Source `json:"-"`
	File   string `json:"-"`
}

// HookSpec is one hook, of one of the types reins runs: "command" (a
// shell command run with bash), "http" (the hook input POSTed to URL) or
// "prompt" (the hook input judged by a fast model).
type HookSpec struct {
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	// Args, when present (even empty), runs Command as an executable
	// with these arguments and no shell (exec form); absent, Command is a
	// shell command line.
	Args *[]string `json:"args,omitempty"`
	// Timeout is in seconds; 0 means the type's default (10 minutes for
	// commands and http, 30 s on UserPromptSubmit and for prompts).
	Timeout float64 `json:"timeout,omitempty"`
	// Async runs a command hook in the background: it never blocks, and
	// what it says for the model arrives with the next turn.
	Async bool `json:"async,omitempty"`
	// AsyncRewake runs a command hook in the background too; when it
	// exits 2 what it printed wakes the model (a new turn when it is
	// idle).
	AsyncRewake bool `json:"asyncRewake,omitempty"`
	// Prompt is the text of a "prompt" hook; $ARGUMENTS in it stands
	// for the hook input JSON. Model, when set, is the model that judges.
	Prompt string `json:"prompt,omitempty"`
	Model  string `json:"model,omitempty"`
	// URL, Headers and AllowedEnvVars configure an "http" hook: header
	// values may name $VAR or ${VAR} for the variables AllowedEnvVars
	// lists (any other reference becomes empty).
	URL            string            `json:"url,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
	// Server, Tool and Input configure an "mcp_tool" hook: the tool of a
	// connected MCP server called with Input, whose string values may
	// name ${path} in the hook input ("${tool_input.file_path}").
	Server string          `json:"server,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
	// StatusMessage is shown while the hook runs.
	StatusMessage string `json:"statusMessage,omitempty"`
	// Once removes a skill's hook after its first successful run
	// (ignored elsewhere).
	Once bool `json:"once,omitempty"`
	// If narrows a hook of a tool event to the calls that match one
	// permission rule ("Bash(git *)", "Edit(*.ts)"); on other events a
	// hook with If never runs.
	If string `json:"if,omitempty"`
}

// promptHookEvents are the events whose hooks may be of type "prompt".
var promptHookEvents = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true,
	"UserPromptSubmit": true, "Stop": true, "SubagentStop": true, "UserPromptExpansion": true,
	"PostToolBatch": true,
}

// Problem says why h, configured for event, cannot run ("" when it can):
// a missing type or the field its type needs, a type reins does not run,
// a prompt hook for an event that takes none.
func (h HookSpec) Problem(event string) string {
	switch h.Type {
	case "":
		return fmt.Sprintf(`a %s hook has no "type" (write "type": "command" beside its command)`, event)
	case "command":
		if strings.TrimSpace(h.Command) == "" {
			return fmt.Sprintf(`a %s command hook has no "command"`, event)
		}
	case "http":
		if strings.TrimSpace(h.URL) == "" {
			return fmt.Sprintf(`a %s http hook has no "url"`, event)
		}
		if u, err := url.Parse(strings.TrimSpace(h.URL)); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Sprintf(`a %s http hook's url %q is not an http:// or https:// address`, event, h.URL)
		}
	case "prompt", "agent":
		if strings.TrimSpace(h.Prompt) == "" {
			return fmt.Sprintf(`a %s %s hook has no "prompt"`, event, h.Type)
		}
		if event == "PermissionRequest" {
			// Claude Code skips agent hooks here, and a prompt hook's
			// answer has no effect: neither can allow or deny.
			return fmt.Sprintf(`a PermissionRequest %s hook cannot allow or deny a permission (its answer has no effect on this event); use a command hook that prints hookSpecificOutput.decision with "behavior": "allow" or "deny"`, h.Type)
		}
		if !promptHookEvents[event] {
			return fmt.Sprintf("%s hooks cannot be of type %q (prompt and agent hooks run for PreToolUse, PostToolUse, PostToolUseFailure, PostToolBatch, UserPromptSubmit, UserPromptExpansion, Stop and SubagentStop)", event, h.Type)
		}
	case "mcp_tool":
		if strings.TrimSpace(h.Server) == "" || strings.TrimSpace(h.Tool) == "" {
			return fmt.Sprintf(`a %s mcp_tool hook needs "server" and "tool"`, event)
		}
		if t := bytes.TrimSpace(h.Input); len(t) > 0 && t[0] != '{' && string(t) != "null" {
			return fmt.Sprintf(`a %s mcp_tool hook's "input" must be a JSON object`, event)
		}
	default:
		return fmt.Sprintf(`a %s hook has type %q, which reins does not know (it runs "command", "http", "mcp_tool", "prompt" and "agent" hooks)`, event, h.Type)
	}
	return ""
}

// Label names h in messages: its command, URL or the start of its prompt.
func (h HookSpec) Label() string {
	switch h.Type {
	case "http":
		return h.URL
	case "mcp_tool":
		return "mcp_tool: " + h.Server + "/" + h.Tool
	case "prompt", "agent":
		p := strings.Join(strings.Fields(h.Prompt), " ")
		if r := []rune(p); len(r) > 60 {
			p = string(r[:60]) + "…"
		}
		return h.Type + ": " + p
	}
	return h.Command
}

// ModelOverride changes or adds a row of the model table (the "models"
// key), with the field names of llm.ModelInfo.
type ModelOverride struct {
	ContextWindow   int     `json:"contextWindow,omitempty"`
	MaxOutputTokens int     `json:"maxOutputTokens,omitempty"`
	InputPrice      float64 `json:"inputPrice,omitempty"`
	OutputPrice     float64 `json:"outputPrice,omitempty"`
	Family          string  `json:"family,omitempty"`
	// SupportedEffortLevels replaces the model's effort levels (an empty
	// list: it takes none); DefaultEffort is the level sent when the user
	// chose none.
	SupportedEffortLevels []string `json:"supportedEffortLevels,omitempty"`
	DefaultEffort         string   `json:"defaultEffort,omitempty"`
}

// AutoMode configures auto mode's classifier (the "autoMode" key). A nil
// list means the built-in rules; the entry "$defaults" in a list splices
// the built-in rules in at its place, and a list without it replaces
// them.
type AutoMode struct {
	Allow       []string `json:"allow,omitempty"`
	SoftDeny    []string `json:"soft_deny,omitempty"`
	HardDeny    []string `json:"hard_deny,omitempty"`
	Environment []string `json:"environment,omitempty"`
	// ClassifyAllShell suspends Bash allow rules in auto mode, so every
	// shell command goes to the classifier.
	ClassifyAllShell bool `json:"classifyAllShell,omitempty"`
}

// Attribution is the "attribution" key: the text the model is asked to
// end commit messages (Commit) and pull request descriptions (PR) with;
// empty asks for none.
type Attribution struct {
	Commit string `json:"commit"`
	PR     string `json:"pr"`
}

// Sandbox is the part of the "sandbox" key reins looks at.
type Sandbox struct {
	Enabled bool `json:"enabled"`
	// File is where enabled was set.
	File string `json:"-"`
}

// Settings is the merged result of every loaded source.
type Settings struct {
	// Rules are the permission rules of every source, highest source
	// first, de-duplicated per source.
	Rules []Rule
	// DefaultMode is permissions.defaultMode ("" when unset).
	DefaultMode string
	// AdditionalDirectories are extra working folders
	// (permissions.additionalDirectories), resolved to absolute paths.
	AdditionalDirectories []Dir
	// DisableBypassPermissions is set when any source says
	// permissions.disableBypassPermissionsMode: "disable" (or true);
	// DisableBypassPermissionsFile is the first file that says so.
	DisableBypassPermissions     bool
	DisableBypassPermissionsFile string
	// DisableAutoMode is set when any source says disableAutoMode:
	// "disable" or true (at the top level or inside permissions);
	// DisableAutoModeFile is the first file that says so.
	DisableAutoMode     bool
	DisableAutoModeFile string
	// AutoMode is the autoMode object of user, local, --settings and
	// managed settings, lists of several files joined (highest first).
	// Shared project settings may not set it: a repository must not
	// widen what auto mode's classifier allows.
	AutoMode AutoMode
	// ManagedRulesOnly is set when managed policy says
	// allowManagedPermissionRulesOnly: allow rules from other sources
	// (flags and session answers included) must be ignored. Rules already
	// holds only the managed allow rules.
	ManagedRulesOnly bool

	// Hooks maps an event name to its matchers, highest source first.
	// disableAllHooks and allowManagedHooksOnly are already applied.
	Hooks map[string][]HookMatcher

	// Env is the environment to apply (already limited to SafeEnv for
	// untrusted project files).
	Env map[string]string
	// Model is the model setting ("" when unset).
	Model string
	// APIKeyHelper runs the apiKeyHelper command; nil when unset.
	APIKeyHelper *KeyHelper
	// CleanupPeriodDays is how long transcripts are kept (0: default).
	CleanupPeriodDays int
	// IncludeCoAuthoredBy is the includeCoAuthoredBy setting (default
	// true), Claude Code's older switch for its own commit trailer. reins
	// adds no trailer of its own; Attribution says what to add.
	IncludeCoAuthoredBy bool
	// Attribution is the attribution setting.
	Attribution Attribution
	// Models overrides rows of the model table by id.
	Models map[string]ModelOverride
	// Sandbox is set when a source asks for the sandbox. reins has none
	// yet, so tools that would run inside it refuse (see the permission
	// package).
	Sandbox Sandbox

	// Raw is the merged JSON of every key, known or not, for settings read
	// elsewhere (statusLine, outputStyle, mcp servers ...).
	Raw map[string]json.RawMessage
	// Files are the files that were loaded, highest source first.
	Files []LoadedFile
	// Withheld lists what untrusted project files asked for and did not
	// get, for the trust dialog ("env ANTHROPIC_BASE_URL", "hooks", ...).
	Withheld []Withheld
}

// LoadedFile is a settings file that took part in the merge.
type LoadedFile struct {
	Path   string
	Source Source
	// Root is the folder "/path" rules of this file are relative to.
	Root string
	// Values are the file's top-level keys that apply (the valid ones; of
	// an untrusted project file, its safe subset).
	Values map[string]json.RawMessage
}

// Withheld is something an untrusted project file set that is held back
// until the folder is trusted.
type Withheld struct {
	File string
	// What names it: "env NAME", "hooks", "apiKeyHelper",
	// "permissions.allow", a key name ...
	What string
}

// String renders w as "what (file)".
func (w Withheld) String() string { return fmt.Sprintf("%s (%s)", w.What, w.File) }

// RulesFor returns the rules with behaviour b, in order.
func (s *Settings) RulesFor(b Behavior) []Rule {
	var out []Rule
	for _, r := range s.Rules {
		if r.Behavior == b {
			out = append(out, r)
		}
	}
	return out
}

// Get decodes the merged value of a key into v. It reports false when the
// key is not set, and an error when it does not decode.
func (s *Settings) Get(key string, v any) (bool, error) {
	raw, ok := s.Raw[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("settings key %s: %w", key, err)
	}
	return true, nil
}

// Keys returns the merged keys in sorted order.
func (s *Settings) Keys() []string {
	keys := make([]string, 0, len(s.Raw))
	for k := range s.Raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Warning is a problem with a settings file that did not stop reins.
type Warning struct {
	File string
	// Line and Column locate the problem in File, from 1; 0 when unknown.
	Line, Column int
	Message      string
}

// String renders the warning as "file:line:col: message".
func (w Warning) String() string {
	switch {
	case w.File == "":
		return w.Message
	case w.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", w.File, w.Line, w.Column, w.Message)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Message)
}
