// Package hooks runs lifecycle hooks configured the way Claude Code users
// already write them:
//
//	{"hooks": {"PreToolUse": [{"matcher": "Edit|Write",
//	  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 60}]}]}}
//
// A Runner holds the hooks of a session: command hooks from settings and
// Handlers registered at run time (the SDK front end registers callbacks
// answered over the control protocol). Runner.Run gives every hook that
// matches an event the event's Input as JSON on stdin, runs them in
// parallel (an identical command once), stores each Output by index and
// combines them with the pure function Aggregate into one Result.
//
// # Exit codes and output
//
// Exit 0: stdout is parsed as JSON when it is a JSON object; for
// UserPromptSubmit and SessionStart plain stdout becomes added context.
// Exit 2: a blocking error; the reason its JSON gives, else its stderr,
// is the reason (Result.Block), whose effect depends on the event:
// PreToolUse denies the call, PostToolUse and PostToolUseFailure show it
// to the model, UserPromptSubmit erases the prompt, Stop and SubagentStop
// make the model continue; for the other events it is shown to the user
// only. PermissionRequest does not honour exit 2 (as Claude Code's): the
// question goes on, with a warning that says how to deny. Any other exit
// code decides by the hook JSON it printed, if any; without one, it, a
// timeout or a failure to start is a non-blocking error shown to the user
// (Result.Errors).
//
// JSON output fields: continue and stopReason (Result.Stop), suppressOutput,
// systemMessage, decision and reason, and hookSpecificOutput with
// permissionDecision (allow, ask, defer, deny; deny beats defer beats ask
// beats allow; the engine's gate honours defer in print and SDK modes
// only, by not running the call and ending the turn, since reins cannot
// hand the call to its caller to resume), permissionDecisionReason, updatedInput,
// additionalContext, for PermissionRequest a decision object, and for
// PostToolUse updatedToolOutput (replaces any tool's output) and
// updatedMCPToolOutput (an MCP tool's).
//
// # Hook types
//
// "command" hooks run a shell command (below). "http" hooks POST the
// input JSON to their url, with their headers (a $NAME or ${NAME} in a
// header value is filled in only for the variables allowedEnvVars
// lists, and left empty otherwise); a 2xx answer's body is read as a
// command's stdout, and another status, a failure to connect or a
// timeout is a non-blocking error. The allowedHttpHookUrls setting
// (Config.AllowedHTTPURLs) limits the URLs they may post to and
// httpHookAllowedEnvVars the variables their headers may use. "prompt" hooks (PreToolUse,
// PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStop;
// not PermissionRequest, where Claude Code gives their answer no effect)
// give their prompt, with the input JSON in place of
// $ARGUMENTS (a backslash keeps a "$" as it is), to the fast model (or
// their model), whose {"ok": false, "reason": ...} acts as decision
// "block" with the reason (a denial for PreToolUse); their default
// timeout is 30 seconds. "agent"
// hooks (the same events) give the prompt to a read-only sub-agent
// (Config.RunAgent) that may look at the project before it answers the
// same way; default timeout 60 seconds; hooks inside that sub-agent run
// no agent hooks. Other types are warned about by the loaders and
// skipped. "mcp_tool" hooks call a
// tool of a connected MCP server (Config.CallTool) with their input, its
// ${path} references filled from the hook input; the tool's text is read
// as a command's stdout, and an error result or a server that is not
// connected is a non-blocking error.
//
// A skill's frontmatter hooks are registered with AddSkillHooks when the
// skill is invoked, for the rest of the session; one with "once": true
// is removed after its first successful run.
//
// A hook's statusMessage is passed with its Progress, for the terminal
// UI's spinner to show while it runs.
//
// A hook's "if" field narrows a hook of a tool event to the calls that
// match one permission rule ("Bash(git *)": any subcommand; "Edit(*.ts)"),
// through Config.If; on other events a hook with "if" never runs.
//
// A command hook with "async": true runs in the background: its run does
// not wait for it, it cannot block or decide anything, and what it says
// (additionalContext, systemMessage, errors) is kept until Runner.TakeAsync
// passes it on with the next prompt. Runner.Close waits a while for the
// async hooks still running, then stops them. One with "asyncRewake":
// true runs the same way, and when it exits 2 what it printed (stderr,
// else stdout) wakes the model: Runner.TakeRewakes gives it as a reminder
// and Config.OnRewake is called, so that a front end that is idle starts
// a turn with it (the caller announces it as it announces finished
// background tasks).
//
// Command hooks with "args" run in exec form: the executable command
// (found on the hook environment's PATH) with those arguments, no shell,
// ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}
// filled in.
//
// Command hooks run with bash -c in the session's folder, with
// CLAUDE_PROJECT_DIR and REINS_PROJECT_DIR set to the project folder, on
// the environment Config.Environ gives at each run (so that the settings
// env and variables an SDK client sets during the session reach them), and
// what Input.Env adds (SessionStart hooks get CLAUDE_ENV_FILE, a file
// whose "export NAME=value" lines reach the session's Bash commands); they
// are killed (their whole process group) after their timeout or when the
// context ends. Without a timeout of their own, command and http hooks
// get 10 minutes (30 seconds on UserPromptSubmit), prompt hooks 30
// seconds, SessionEnd hooks 1.5 seconds (at most a minute) and SDK
// callbacks 60.
//
// PermissionDenied fires when auto mode's classifier blocks a call, with
// tool_name, tool_input, tool_use_id and reason; hookSpecificOutput.retry
// true tells the model it may try the call again.
//
// Input fields beyond the common ones include duration_ms (PostToolUse,
// PostToolUseFailure), background_tasks (Stop, SubagentStop: the
// session's tasks still running), session_crons (Stop: always empty, as
// reins schedules no prompts), and source ("user" or "sdk") and
// session_title (UserPromptSubmit).
//
// Where events fire (outside this package): SessionStart at start
// ("startup" or "resume"), after /clear ("clear") and after a compaction
// ("compact", its context following the summary); StopFailure instead of
// Stop when a main turn ends on an API error (error: the kind, matched;
// error_details; output ignored); PostCompact after a
// compaction (trigger and compact_summary; it can only report); SessionEnd at exit and
// on /clear; Notification when the terminal UI asks the user for a
// permission ("permission_prompt") and when it has waited 60 seconds for
// input after a turn ("idle_prompt"); CwdChanged when a Bash command of
// the main conversation changed the shell's folder (old_cwd, new_cwd; no
// matcher; CLAUDE_ENV_FILE as for SessionStart; it cannot block);
// UserPromptExpansion when a slash command expands into a prompt
// (expansion_type, command_name (its matcher), command_args,
// command_source, prompt; exit 2 or decision "block" refuses the
// command, and additionalContext or plain stdout goes with its prompt);
// InstructionsLoaded at start for each memory file loaded then
// (file_path, memory_type, load_reason "session_start" or "include" with
// parent_file_path, globs; its matcher is load_reason; only messages and
// errors are shown, nothing is decided), and for each one reading a file
// loads later (load_reason "nested_traversal" for a folder's CLAUDE.md,
// "path_glob_match" for a rule whose paths match, with
// trigger_file_path); PostToolBatch (the engine's
// gate) once every call of a batch has its result, before the next
// request (tool_calls, each with tool_name, tool_input, tool_use_id and
// the tool_response text the model sees; no matcher; exit 2, decision
// "block" or continue false end the turn, additionalContext goes to the
// model).
//
// WorktreeCreate fires where a worktree is to be made (--worktree, a
// sub-agent's isolation "worktree") with name; its hooks make it in place
// of git, and the folder is the last non-empty line of a command hook's
// stdout (terminal escapes stripped) or hookSpecificOutput.worktreePath
// (Result.WorktreePath); a hook that fails or names no folder fails the
// creation. WorktreeRemove fires before such a worktree goes, with
// worktree_path; it cannot block. Neither event takes a matcher.
//
// Setup fires with -p --init or --init-only (trigger and matcher "init")
// and -p --maintenance ("maintenance"), with CLAUDE_ENV_FILE; its
// additionalContext reaches the model. FileChanged fires for each watched
// file added, changed or removed (file_path, event "add", "change" or
// "unlink"; CLAUDE_ENV_FILE); its matcher lists literal file names
// ("|" between them; Runner.WatchedFiles), which are watched in the
// project folder, and SessionStart, CwdChanged and FileChanged hooks add
// absolute paths with hookSpecificOutput.watchPaths (Result.WatchPaths).
// SessionStart (startup, resume) and UserPromptSubmit hooks may name the
// session with sessionTitle, and a SessionStart hook's initialUserMessage
// is the first turn of a print-mode run (Result.SessionTitle,
// Result.InitialUserMessage); SessionStart hooks are told session_title.
//
// Elicitation fires when an MCP server asks the user for input
// (mcp_server_name, its matcher; message, mode, requested_schema, and url
// and elicitation_id for a URL request): hookSpecificOutput action
// ("accept", "decline", "cancel") and content answer in the user's place
// (Result.Elicitation), and exit 2 declines. ElicitationResult fires with
// the answer (action, content) before it goes to the server, and may
// change it the same way.
//
// This package runs hooks and interprets what they say; deciding what a
// result means for a tool call or a turn belongs to its caller (the
// engine's gate, the front ends).
package hooks
