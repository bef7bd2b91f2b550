package hooks

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
)

// fileNames splits a FileChanged matcher into the file names it lists
// ("|" between them), which are taken literally (no patterns).
func fileNames(matcher string) []string {
	var out []string
	for _, n := range strings.Split(matcher, "|") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// matchesFile reports whether a FileChanged hook's matcher names the
// file called base: an empty matcher names every watched file, and
// otherwise one of its names must be base exactly ("*" is a file named
// "*", as in Claude Code).
func matchesFile(matcher, base string) bool {
	names := fileNames(matcher)
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if n == base || filepath.Base(n) == base {
			return true
		}
	}
	return false
}

// Event names a hook event.
type Event string

// The events reins fires.
const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	PermissionRequest  Event = "PermissionRequest"
	UserPromptSubmit   Event = "UserPromptSubmit"
	Notification       Event = "Notification"
	Stop               Event = "Stop"
	// StopFailure fires instead of Stop when the turn ends on an API
	// error; what its hooks say is ignored.
	StopFailure   Event = "StopFailure"
	SubagentStart Event = "SubagentStart"
	SubagentStop  Event = "SubagentStop"
	PreCompact    Event = "PreCompact"
	PostCompact   Event = "PostCompact"
	SessionStart  Event = "SessionStart"
	SessionEnd    Event = "SessionEnd"
	// PermissionDenied fires when auto mode's classifier blocks a call.
	PermissionDenied Event = "PermissionDenied"
	// CwdChanged fires when a Bash command changed the shell's working
	// folder (cd).
	CwdChanged Event = "CwdChanged"
	// UserPromptExpansion fires when a slash command expands into a
	// prompt; it may block the expansion or add context.
	UserPromptExpansion Event = "UserPromptExpansion"
	// InstructionsLoaded fires for each memory file (CLAUDE.md, a rule)
	// loaded at session start; what its hooks say is ignored.
	InstructionsLoaded Event = "InstructionsLoaded"
	// PostToolBatch fires once every call of a batch of tool calls has
	// its result, before the next request; it may stop the loop.
	PostToolBatch Event = "PostToolBatch"
	// WorktreeCreate fires when a worktree is to be made (--worktree, a
	// sub-agent's isolation "worktree"); its hooks make it in place of
	// git and print its path.
	WorktreeCreate Event = "WorktreeCreate"
	// WorktreeRemove fires when such a worktree is about to be removed;
	// it cannot block.
	WorktreeRemove Event = "WorktreeRemove"
	// Setup fires at start with --init, --init-only ("init") or
	// --maintenance ("maintenance").
	Setup Event = "Setup"
	// FileChanged fires when a watched file (one its matchers name, or
	// one a hook's watchPaths added) was added, changed or removed; it
	// cannot block.
	FileChanged Event = "FileChanged"
	// Elicitation fires when an MCP server asks the user for input; its
	// hooks may answer in the user's place (ElicitationAnswer).
	Elicitation Event = "Elicitation"
	// ElicitationResult fires when the user (or an Elicitation hook) has
	// answered, before the answer goes to the server; its hooks may
	// change the answer.
	ElicitationResult Event = "ElicitationResult"
)

// Events lists every event reins fires, in the order of a session's
// life, as Claude Code's documentation and /hooks list them.
var Events = []Event{
	SessionStart, Setup, InstructionsLoaded, UserPromptSubmit, UserPromptExpansion,
	PreToolUse, PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure, PostToolBatch,
	Notification, Elicitation, ElicitationResult, SubagentStart, SubagentStop, Stop, StopFailure, PreCompact, PostCompact,
	CwdChanged, FileChanged, WorktreeCreate, WorktreeRemove, SessionEnd,
}

// plainContext reports whether plain stdout of a hook of the event (exit
// 0, not JSON) is context for the model (for PreCompact: instructions
// for the summary).
func (e Event) plainContext() bool {
	// PreCompact's text joins the compaction's instructions, as in
	// Claude Code.
	return e == UserPromptSubmit || e == SessionStart || e == UserPromptExpansion || e == PreCompact
}

// toolEvent reports whether the event is about one tool call.
func (e Event) toolEvent() bool {
	switch e {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied:
		return true
	}
	return false
}

// Input is what a hook is told, as JSON on stdin. The common fields are
// always sent; each event adds its own (see JSON).
type Input struct {
	Event     Event
	SessionID string
	// PromptID identifies the user prompt being worked on ("" before the
	// first).
	PromptID       string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	// Effort is the effort level of the request that made the call
	// (tool events; effort {"level": ...}, left out when "": the model's
	// default).
	Effort string
	// AgentID and AgentType are set inside a sub-agent and for the
	// SubagentStart and SubagentStop events.
	AgentID   string
	AgentType string

	// Tool events.
	ToolName  string
	ToolInput json.RawMessage
	ToolUseID string
	// ToolResponse is the tool's structured result (PostToolUse).
	ToolResponse any
	// Error and IsInterrupt describe a failed call (PostToolUseFailure);
	// for StopFailure Error is the kind of API error (rate_limit,
	// overloaded, authentication_failed, billing_error, invalid_request,
	// model_not_found, server_error,
	// max_output_tokens, unknown) and ErrorDetails its message.
	Error        string
	ErrorDetails string
	IsInterrupt  bool
	// Duration is how long the call ran (PostToolUse, PostToolUseFailure;
	// duration_ms, left out when zero).
	Duration time.Duration
	// PermissionSuggestions are the "always allow" updates offered
	// (PermissionRequest).
	PermissionSuggestions any

	// Prompt is the user's prompt (UserPromptSubmit).
	Prompt string

	// Notification.
	Message          string
	Title            string
	NotificationType string

	// StopHookActive is true when the model is already continuing because
	// of a stop hook (Stop, SubagentStop).
	StopHookActive       bool
	LastAssistantMessage string
	// BackgroundTasks are the session's background tasks still running
	// (Stop, SubagentStop; background_tasks, sent when not nil).
	BackgroundTasks []BackgroundTask
	// AgentTranscriptPath is the sub-agent's transcript (SubagentStop).
	AgentTranscriptPath string

	// Trigger is "manual" or "auto" and CustomInstructions the /compact
	// argument (PreCompact); for Setup it is "init" or "maintenance".
	Trigger            string
	CustomInstructions string
	// CompactSummary is the summary a compaction made (PostCompact, which
	// has Trigger too).
	CompactSummary string

	// Source is "startup", "resume", "fork", "clear" or "compact", Model
	// the session's model and SessionTitle its title when it has one
	// (SessionStart); for UserPromptSubmit Source says where the prompt
	// came from ("user", "sdk") and SessionTitle is the title too.
	Source       string
	Model        string
	SessionTitle string

	// Reason says why the session ended (SessionEnd): "clear", "resume", "logout",
	// "prompt_input_exit", "other"; or why a call was denied
	// (PermissionDenied).
	Reason string

	// OldCwd and NewCwd are the shell's folder before and after a
	// command changed it (CwdChanged).
	OldCwd, NewCwd string

	// ExpansionType ("slash_command"), CommandName, CommandArgs and
	// CommandSource describe the command a UserPromptExpansion expands;
	// Prompt is what the user typed.
	ExpansionType, CommandName, CommandArgs, CommandSource string

	// FilePath, MemoryType ("User", "Project", "Local", "Managed"),
	// LoadReason ("session_start", "nested_traversal", "path_glob_match",
	// "include"), Globs and ParentFilePath
	// describe a memory file (InstructionsLoaded).
	FilePath, MemoryType, LoadReason, ParentFilePath string
	Globs                                            []string
	// TriggerFilePath is the file whose reading loaded the memory file
	// (load_reason "nested_traversal", "path_glob_match", or "include"
	// below one of those).
	TriggerFilePath string

	// ToolCalls are the calls of a batch (PostToolBatch), each with
	// tool_name, tool_input, tool_use_id and tool_response (the result
	// text the model sees).
	ToolCalls any

	// FileEvent says what happened to FilePath (FileChanged): "add",
	// "change" or "unlink".
	FileEvent string

	// Name is the name of the worktree to make (WorktreeCreate), and
	// WorktreePath the folder of the one about to be removed
	// (WorktreeRemove).
	Name, WorktreePath string

	// MCPServerName, Message, Mode ("form" or "url"), RequestedSchema
	// (form), URL and ElicitationID (url) describe an MCP server's
	// request for input (Elicitation, ElicitationResult); Action
	// ("accept", "decline", "cancel") and Content are the answer
	// (ElicitationResult).
	MCPServerName, Mode, URL, ElicitationID string
	RequestedSchema                         json.RawMessage
	Action                                  string
	Content                                 map[string]any

	// Env are NAME=value pairs added to the environment of this run's
	// command hooks (CLAUDE_ENV_FILE for SessionStart); not sent on stdin.
	Env []string
}

// BackgroundTask describes a background task still running when a Stop
// or SubagentStop hook fires, with Claude Code's field names.
type BackgroundTask struct {
	ID string `json:"id"`
	// Type is "local_bash" or "local_agent".
	Type        string `json:"type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	// Command is a command's; AgentType an agent's.
	Command   string `json:"command,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
}

// MatchValue is what an event's matchers are matched against: the tool
// name, the session start source, the compaction trigger, the notification
// type, the agent type, or the end reason. Events without a matcher
// (UserPromptSubmit, Stop) return "" and run every hook.
func (in *Input) MatchValue() string {
	switch in.Event {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied:
		return in.ToolName
	case SessionStart:
		return in.Source
	case PreCompact, PostCompact, Setup:
		return in.Trigger
	case Notification:
		return in.NotificationType
	case SubagentStart, SubagentStop:
		return in.AgentType
	case SessionEnd:
		return in.Reason
	case StopFailure:
		return in.Error
	case UserPromptExpansion:
		return in.CommandName
	case InstructionsLoaded:
		return in.LoadReason
	case FileChanged:
		return filepath.Base(in.FilePath)
	case Elicitation, ElicitationResult:
		return in.MCPServerName
	}
	return ""
}

// usesMatcher reports whether the event's matchers select hooks.
func (e Event) usesMatcher() bool {
	switch e {
	case UserPromptSubmit, Stop, CwdChanged, PostToolBatch, WorktreeCreate, WorktreeRemove:
		return false
	}
	return true
}

// JSON encodes the input with Claude Code's field names: the common
// fields, then the event's own.
func (in *Input) JSON() []byte {
	m := map[string]any{
		"session_id":      in.SessionID,
		"transcript_path": in.TranscriptPath,
		"cwd":             in.Cwd,
		"hook_event_name": string(in.Event),
	}
	if in.PromptID != "" {
		m["prompt_id"] = in.PromptID
	}
	if in.PermissionMode != "" {
		m["permission_mode"] = in.PermissionMode
	}
	if in.AgentID != "" {
		m["agent_id"] = in.AgentID
	}
	if in.AgentType != "" {
		m["agent_type"] = in.AgentType
	}
	if in.Effort != "" && in.Event.toolEvent() {
		m["effort"] = map[string]string{"level": in.Effort}
	}
	if in.Event.toolEvent() {
		m["tool_name"] = in.ToolName
		input := in.ToolInput
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		m["tool_input"] = input
		if in.ToolUseID != "" {
			m["tool_use_id"] = in.ToolUseID
		}
	}
	switch in.Event {
	case PostToolUse:
		m["tool_response"] = in.ToolResponse
	case PostToolUseFailure:
		m["error"] = in.Error
		if in.IsInterrupt {
			m["is_interrupt"] = true
		}
	}
	if (in.Event == PostToolUse || in.Event == PostToolUseFailure) && in.Duration > 0 {
		m["duration_ms"] = in.Duration.Milliseconds()
	}
	switch in.Event {
	case PermissionRequest:
		if in.PermissionSuggestions != nil {
			m["permission_suggestions"] = in.PermissionSuggestions
		}
	case UserPromptSubmit:
		m["prompt"] = in.Prompt
		if in.Source != "" {
			m["source"] = in.Source
		}
		if in.SessionTitle != "" {
			m["session_title"] = in.SessionTitle
		}
	case Notification:
		m["message"] = in.Message
		if in.Title != "" {
			m["title"] = in.Title
		}
		if in.NotificationType != "" {
			m["notification_type"] = in.NotificationType
		}
	case StopFailure:
		m["error"] = in.Error
		if in.ErrorDetails != "" {
			m["error_details"] = in.ErrorDetails
		}
		if in.LastAssistantMessage != "" {
			m["last_assistant_message"] = in.LastAssistantMessage
		}
	case Stop, SubagentStop:
		m["stop_hook_active"] = in.StopHookActive
		if in.LastAssistantMessage != "" {
			m["last_assistant_message"] = in.LastAssistantMessage
		}
		if in.Event == SubagentStop && in.AgentTranscriptPath != "" {
			m["agent_transcript_path"] = in.AgentTranscriptPath
		}
		if in.BackgroundTasks != nil {
			m["background_tasks"] = in.BackgroundTasks
		}
		if in.Event == Stop {
			// reins has no scheduled prompts (Claude Code's
			// CronCreate), so a session never has any.
			m["session_crons"] = []any{}
		}
	case PreCompact:
		m["trigger"] = in.Trigger
		m["custom_instructions"] = in.CustomInstructions
	case PostCompact:
		m["trigger"] = in.Trigger
		m["compact_summary"] = in.CompactSummary
	case SessionStart:
		m["source"] = in.Source
		if in.Model != "" {
			m["model"] = in.Model
		}
		if in.SessionTitle != "" {
			m["session_title"] = in.SessionTitle
		}
	case SessionEnd, PermissionDenied:
		m["reason"] = in.Reason
	case CwdChanged:
		m["old_cwd"], m["new_cwd"] = in.OldCwd, in.NewCwd
	case PostToolBatch:
		m["tool_calls"] = in.ToolCalls
	case WorktreeCreate:
		m["name"] = in.Name
	case WorktreeRemove:
		m["worktree_path"] = in.WorktreePath
	case Setup:
		m["trigger"] = in.Trigger
	case FileChanged:
		m["file_path"], m["event"] = in.FilePath, in.FileEvent
	case InstructionsLoaded:
		m["file_path"], m["memory_type"], m["load_reason"] = in.FilePath, in.MemoryType, in.LoadReason
		if len(in.Globs) > 0 {
			m["globs"] = in.Globs
		}
		if in.ParentFilePath != "" {
			m["parent_file_path"] = in.ParentFilePath
		}
		if in.TriggerFilePath != "" {
			m["trigger_file_path"] = in.TriggerFilePath
		}
	case Elicitation, ElicitationResult:
		m["mcp_server_name"] = in.MCPServerName
		m["mode"] = in.Mode
		if in.Event == Elicitation {
			m["message"] = in.Message
			if len(in.RequestedSchema) > 0 {
				m["requested_schema"] = in.RequestedSchema
			}
		} else {
			m["action"] = in.Action
			if in.Content != nil {
				m["content"] = in.Content
			}
		}
		if in.URL != "" {
			m["url"] = in.URL
		}
		if in.ElicitationID != "" {
			m["elicitation_id"] = in.ElicitationID
		}
	case UserPromptExpansion:
		m["expansion_type"] = in.ExpansionType
		m["command_name"] = in.CommandName
		m["command_args"] = in.CommandArgs
		if in.CommandSource != "" {
			m["command_source"] = in.CommandSource
		}
		m["prompt"] = in.Prompt
	}
	b, err := json.Marshal(m)
	if err != nil {
		// Only ToolResponse can fail to encode (a tool's structured
		// data); send the rest rather than nothing.
		delete(m, "tool_response")
		b, _ = json.Marshal(m)
	}
	return b
}
