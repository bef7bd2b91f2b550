package tui

import (
	"context"
	"io"
	"log/slog"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/session"
)

// ModeSwitcher holds the session's permission mode; the permission gate
// implements it. Shift+Tab and plan approval change the mode through it.
// It must be safe for concurrent use.
type ModeSwitcher interface {
	Mode() string
	SetMode(mode string) error
}

// PlanMemory is implemented by a ModeSwitcher that remembers the mode in
// force before plan mode was entered. The plan approval starts on that
// mode, and Shift+Tab goes back to it from plan mode when something else
// than Shift+Tab entered plan mode (the model, a control request).
type PlanMemory interface {
	// PrePlanMode is the mode leaving plan mode returns to ("" outside
	// plan mode).
	PrePlanMode() string
	// PlanEntries counts the session's entries into plan mode.
	PlanEntries() int
}

// CommandInfo describes a slash command for completion and /help.
type CommandInfo struct {
	Name         string
	Description  string
	ArgumentHint string
}

// CommandResult is what running a slash command from a Commands source
// produced.
type CommandResult struct {
	// Handled is false when the source does not know the command.
	Handled bool
	// Text is shown to the user (a local command's output or an error).
	Text    string
	IsError bool
	// Content, when not empty, is sent to the model as the turn's input
	// (a prompt command or skill, already expanded); Meta marks it as not
	// typed by the user.
	Content []llm.ContentBlock
	// Display is what the conversation shows for the invocation.
	Display string
	// Model, when set, is the model for this turn.
	Model string
	// AllowedTools are permission rules allowed for this turn (a custom
	// command's allowed-tools).
	AllowedTools []string
}

// Commands is a source of slash commands besides the UI's builtins:
// custom commands, skills, MCP prompts. CommandRegistry adapts a
// *command.Registry.
type Commands interface {
	// Complete lists commands whose names match a partly typed name
	// (without the slash), best first.
	Complete(prefix string) []CommandInfo
	// Overrides reports whether the source has its own command of this
	// name, which takes the place of the UI's builtin.
	Overrides(name string) bool
	// Run runs input ("/name args") if it names one of the source's
	// commands.
	Run(ctx context.Context, input string) (CommandResult, error)
}

// Compactor compacts the conversation when the user asks (/compact);
// *compact.Compactor implements it. The events it emits (the boundary,
// notices) are shown when it returns.
type Compactor interface {
	Compact(ctx context.Context, s *engine.Session, instructions string, emit func(engine.Event)) error
}

// Sessions lists the project's recorded sessions and reopens one for
// /resume: Resume returns a session that records into the chosen
// transcript, with its history loaded.
type Sessions interface {
	List() ([]session.Info, error)
	Resume(ctx context.Context, info session.Info) (*engine.Session, error)
}

// Viewer shows read-only information that lives in another subsystem
// (/permissions, /hooks, /config). A nil Viewer makes the command say it
// is not available yet.
type Viewer func(ctx context.Context, args string) (string, error)

// OutputStyle is one output style, as /output-style lists it.
type OutputStyle struct {
	Name, Description string
}

// Options configure the UI. Session is required; the zero value of every
// other field works.
type Options struct {
	Session *engine.Session
	// Asker must be the Asker the session's gate asks through; nil makes
	// Run create one that nothing asks.
	Asker *Asker
	// Mode is the permission mode holder; nil fixes the mode at "default".
	Mode ModeSwitcher
	// ListIgnoredFiles makes @ completion list the files .gitignore
	// leaves out too (the respectGitignore setting set to false).
	ListIgnoredFiles bool
	// BypassAvailable adds bypassPermissions to the Shift+Tab cycle.
	BypassAvailable bool
	// AutoAvailable adds auto to the Shift+Tab cycle (after plan).
	AutoAvailable bool
	// Commands adds custom commands and skills to the builtins.
	Commands  Commands
	Compactor Compactor
	Sessions  Sessions
	// NewSession starts a fresh session for /clear (a new id and
	// transcript); nil clears the current session's history instead.
	NewSession func() (*engine.Session, error)
	// Checkpoints records the files edit tools change, for rewinding;
	// its Gate must wrap the session's gate.
	Checkpoints *Checkpoints
	// Permissions, Hooks and Config back the commands of the same names.
	Permissions, Hooks, Config Viewer
	// MCP backs /mcp: the servers, their state and tools.
	MCP Viewer
	// Plugins lists the loaded plugins (/plugin, /plugins);
	// ReloadPlugins reads them again (/reload-plugins).
	Plugins, ReloadPlugins Viewer
	// Agents backs /agents: the sub-agents the Agent tool can start.
	Agents Viewer
	// OutputStyles, SetOutputStyle and ActiveOutputStyle back
	// /output-style: OutputStyles reads the styles there are (it may read
	// files); SetOutputStyle switches s, and the sessions /clear starts,
	// to one from the next request on, saves the choice and says what it
	// did; ActiveOutputStyle names the style in force without reading
	// anything (/status, the statusLine command). nil: only the default
	// style.
	OutputStyles      func(ctx context.Context) []OutputStyle
	SetOutputStyle    func(ctx context.Context, s *engine.Session, name string) (string, error)
	ActiveOutputStyle func() string
	// Tasks backs /tasks (and /bashes): the background tasks, and
	// "/tasks stop ID" to stop one.
	Tasks Viewer
	// Doctor adds checks to /doctor (settings files, tools...).
	Doctor func(ctx context.Context) []Check

	// Prepare, when set, turns a typed prompt into the turn's input
	// (UserPromptSubmit hooks may add context, and the files and MCP
	// resources the prompt mentions are attached; without Prepare the
	// prompt goes as typed); a non-empty refusal is
	// shown instead of running the turn. It may block; it runs off the
	// UI goroutine.
	Prepare func(ctx context.Context, text string) (in engine.Input, refusal string, err error)
	// Resources, when set, lists the resources of the connected MCP
	// servers, which @ completion offers beside files (inserted as
	// @server:uri). It may block; it runs off the UI goroutine.
	Resources func(ctx context.Context) []Resource
	// Notices are shown when the UI starts (start-up warnings).
	Notices []string
	// PickResume opens the list of earlier conversations at start (reins
	// --resume without a session id).
	PickResume bool
	// ResumeSearch filters that list at start (reins --resume WORDS that
	// name no session, as claude --resume takes a search term).
	ResumeSearch string

	// Prompt is sent as the first message when not empty.
	Prompt string
	// Resumed is a history loaded before start (--resume/--continue),
	// shown before the first prompt.
	Resumed []engine.HistoryItem

	// EffortLockedBy, when set, names the environment setting that fixes
	// the effort level (CLAUDE_CODE_EFFORT_LEVEL=max); /effort then only
	// shows it.
	EffortLockedBy string

	Cwd     string
	Version string
	// KeySource names where the API key came from (for /status).
	KeySource string
	// HistoryFile keeps the input history ("" keeps none on disk).
	HistoryFile string
	// MemoryFile is the file /memory opens (default <Cwd>/CLAUDE.md).
	MemoryFile string
	// StatusLine is a shell command whose first output line replaces the
	// status line (settings statusLine.command).
	StatusLine string
	// TranscriptPath, when set, is where session id is recorded (the
	// statusLine command's transcript_path).
	TranscriptPath func(id string) string
	// Notify is "bell" (default), "osc9" (a desktop notification through
	// the terminal) or "none".
	Notify string
	// LongTurn is how long a turn must take before its end notifies
	// (default 15s).
	LongTurn time.Duration
	// OnIdle, when set, is called (on its own goroutine) when a turn has
	// ended and nothing was typed for IdleAfter (default 60s) since: the
	// Notification hooks' "idle_prompt".
	OnIdle    func()
	IdleAfter time.Duration
	// BackgroundDone, when set, is signalled when a background task (a
	// run_in_background command or agent) finishes; BackgroundNotes then
	// takes the notifications not yet given to the model. While no turn
	// runs, they start a turn of their own, so the model learns of the
	// task as it was told it would.
	BackgroundDone  <-chan struct{}
	BackgroundNotes func() []string
	// HookStatus, when set, gives the statusMessage of a hook running now
	// ("" when none): the spinner says it instead of its label.
	HookStatus func() string
	// CanBackground, when set, reports whether the running tool call
	// with this tool_use id (or with "" any running call) could move to
	// the background; the call's line then offers Ctrl+B. Background
	// moves every call that can (the call answers at once and its work
	// goes on as a background task) and reports whether any moved; it
	// may block and runs off the UI goroutine.
	CanBackground func(toolUseID string) bool
	Background    func(toolUseID string) bool
	// AddDir, when set, adds an absolute folder path to the session's
	// working folders (/add-dir), where files are read and edited as in
	// the launch folder.
	AddDir func(dir string) error
	// NoColor turns colours off (NO_COLOR).
	NoColor bool
	// ColorProfile, when set, gives the terminal's colour profile
	// (DetectColors) instead of the UI detecting it as it starts.
	ColorProfile Colors
	// Getenv reads the environment (default os.Getenv).
	Getenv func(string) string
	// MemoryChanged, when set, is called after the user edited a memory
	// file (/memory) with the session in use, to load the memory files
	// again for its next request.
	MemoryChanged func(*engine.Session)
	// JobControl reports whether Ctrl+Z may stop reins: a shell with job
	// control can bring it back (default: reins runs in a process group
	// of its own within its session).
	JobControl func() bool

	// Input and Output default to the process's terminal.
	Input  io.Reader
	Output io.Writer
	// Width and Height fix the terminal size (tests); 0 asks the terminal.
	Width, Height int
	// Logger records what the UI could not show (a failing statusLine
	// command, a history file that cannot be written); nil discards.
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Check is one /doctor finding.
type Check struct {
	Name string
	OK   bool
	Info string
}
