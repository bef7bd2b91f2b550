package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/llm"
	"reins/internal/prompt"
	"reins/internal/session"
)

// prepared is what a line of user input turned into.
type prepared struct {
	// Run says the input goes to the model as Input.
	Run   bool
	Input engine.Input
	// Output is text for the user (a local command's output, a hook's
	// refusal); IsError marks a failure.
	Output  string
	IsError bool
	// Events are what a local command produced besides its text (the
	// compact_boundary of /compact), for the front end to write before
	// the result.
	Events []engine.Event
	// Clear asks the front end to start a new conversation (/clear
	// outside the terminal UI).
	Clear bool
}

// prepare turns a line the user typed (print and SDK modes) into a turn:
// slash commands are dispatched, UserPromptSubmit hooks may block the
// prompt or add context, a token budget ("+500k") is read, and the files
// (@path) and MCP resources (@server:uri) the prompt mentions are
// attached.
func (a *app) prepare(ctx context.Context, text string, mode command.Mode) (prepared, error) {
	a.syncMCPPrompts()
	content := []llm.ContentBlock{llm.TextBlock(text)}
	out, err := a.commands.Dispatch(ctx, text, command.DispatchOptions{Mode: mode, Expander: a.expander,
		IsPath: func(p string) bool { _, err := os.Stat(p); return err == nil }})
	events := a.cmdEvents.take()
	if err != nil {
		return prepared{}, err
	}
	switch out.Action {
	case command.Show, command.OpenUI:
		msg := out.Text
		if mode == command.SDK && out.Command != nil && out.Command.Name == "clear" {
			// /clear (or /reset, /new) from an SDK client: a new session.
			return prepared{Clear: true}, nil
		}
		if out.Action == command.OpenUI {
			msg, out.IsError = fmt.Sprintf("/%s isn't available in this mode", out.Name), true
		}
		return prepared{Output: msg, IsError: out.IsError, Events: events}, nil
	case command.Query:
		content = out.Expansion.Content()
	}
	var expansionContext []llm.ContentBlock
	if out.Action == command.Query {
		refusal, extra := a.expansionHooks(ctx, out, text)
		if refusal != "" {
			return prepared{Output: refusal, IsError: true, Events: events}, nil
		}
		expansionContext = extra
	}
	in := engine.Input{Content: content, TokenBudget: engine.ParseTokenBudget(text), MinEffort: engine.PromptEffort(text)}
	expanded := ""
	if out.Action == command.Query {
		in.Model, in.AllowedTools = out.Expansion.Model, out.Expansion.AllowedTools
		expanded = out.Expansion.Prompt
	}
	in.Content = append(in.Content, a.mentioned(ctx, text, expanded)...)
	a.promptID.Store(uuid.NewString())
	if a.hookRun.Has(hooks.UserPromptSubmit) {
		r := a.hookRun.Run(ctx, a.hookInput(hooks.UserPromptSubmit, func(h *hooks.Input) {
			h.Prompt, h.SessionTitle, h.Source = text, a.currentTitle(), "user"
			if mode == command.SDK {
				h.Source = "sdk"
			}
		}))
		a.reportHooks(r)
		if r.Stop {
			return prepared{Output: firstNonEmpty(r.StopReason, "A UserPromptSubmit hook stopped the prompt."), IsError: true}, nil
		}
		if r.Block {
			return prepared{Output: "Prompt blocked by a UserPromptSubmit hook: " + r.Reason, IsError: true}, nil
		}
		for _, c := range r.AdditionalContext {
			in.Content = append(in.Content, llm.TextBlock("<system-reminder>\n"+strings.TrimSpace(c)+"\n</system-reminder>"))
		}
		a.hookTitle(r.SessionTitle)
	}
	in.Content = append(in.Content, expansionContext...)
	if r := a.styleReminder(); r != "" {
		in.Content = append(in.Content, llm.TextBlock(r))
	}
	// Taken only now: a prompt a hook refused leaves it for the next.
	in.Content = append(in.Content, a.asyncHookContext()...)
	return prepared{Run: true, Input: in}, nil
}

// expansionHooks runs UserPromptExpansion hooks for a command that
// expanded into a prompt (text is the line typed). It returns why the
// expansion is refused ("" when it is not), and the context the hooks
// add for the model.
func (a *app) expansionHooks(ctx context.Context, out *command.Outcome, text string) (string, []llm.ContentBlock) {
	if !a.hookRun.Has(hooks.UserPromptExpansion) {
		return "", nil
	}
	r := a.hookRun.Run(ctx, a.hookInput(hooks.UserPromptExpansion, func(h *hooks.Input) {
		h.ExpansionType, h.CommandName, h.CommandArgs, h.Prompt = "slash_command", out.Name, out.Args, text
		if out.Command != nil {
			h.CommandName, h.CommandSource = out.Command.Name, string(out.Command.Source)
			if out.Command.Source == command.SourceMCP {
				h.ExpansionType = "mcp_prompt"
			}
		}
	}))
	a.reportHooks(r)
	switch {
	case r.Stop:
		return firstNonEmpty(r.StopReason, "A UserPromptExpansion hook stopped the command."), nil
	case r.Block:
		return fmt.Sprintf("/%s was blocked by a UserPromptExpansion hook: %s", out.Name, r.Reason), nil
	}
	var extra []llm.ContentBlock
	for _, c := range r.AdditionalContext {
		extra = append(extra, llm.TextBlock("<system-reminder>\n"+strings.TrimSpace(c)+"\n</system-reminder>"))
	}
	return "", extra
}

// asyncHookContext passes on what async hooks that finished since the
// last prompt said: messages and errors to the user, context to the model
// with this prompt.
func (a *app) asyncHookContext() []llm.ContentBlock {
	var out []llm.ContentBlock
	for _, r := range a.hookRun.TakeAsync() {
		a.reportHooks(hooks.Result{SystemMessages: r.SystemMessages, Errors: r.Errors})
		for _, c := range r.AdditionalContext {
			out = append(out, llm.TextBlock(fmt.Sprintf("<system-reminder>\nAsync %s hook context:\n%s\n</system-reminder>", r.Event, strings.TrimSpace(c))))
		}
	}
	return out
}

// currentPromptID is the id of the user prompt being worked on, for hook
// inputs ("" before the first).
func (a *app) currentPromptID() string {
	id, _ := a.promptID.Load().(string)
	return id
}

// hookInput is a hook input with the session's common fields.
func (a *app) hookInput(ev hooks.Event, fill func(*hooks.Input)) hooks.Input {
	id := a.currentID()
	in := hooks.Input{Event: ev, SessionID: id, TranscriptPath: a.store.TranscriptPath(a.cwd, id),
		Cwd: a.hookCwd(), PermissionMode: string(a.checker.Mode()), PromptID: a.currentPromptID()}
	if fill != nil {
		fill(&in)
	}
	return in
}

// reportHooks passes hook messages and errors to the user.
func (a *app) reportHooks(r hooks.Result) {
	for _, m := range r.SystemMessages {
		a.notify("info", m)
	}
	for _, e := range r.Errors {
		a.notify("warning", e)
	}
}

// reportObserved passes on what the hooks of an event that cannot block
// said: messages and errors, and the stderr of a hook that exited 2, which
// such events show the user only (SessionStart, SessionEnd,
// SubagentStart, PostCompact, CwdChanged).
func (a *app) reportObserved(r hooks.Result) {
	a.reportHooks(r)
	if r.Block {
		a.notify("warning", fmt.Sprintf("%s hook: %s", r.Event, r.Reason))
	}
}

// sessionStart runs SessionStart hooks ("startup", "resume" or "fork"); their
// context is added to the conversation before the first prompt.
func (a *app) sessionStart(ctx context.Context) {
	source := "startup"
	switch {
	case a.resumed != nil && a.opts.ForkSession:
		source = "fork" // a new session with the history of another
	case a.resumed != nil:
		source = "resume"
	}
	a.instructionsLoaded(ctx)
	a.sessionStartAs(ctx, source)
	a.startFileWatch()
}

// instructionsLoaded runs InstructionsLoaded hooks for each memory file
// loaded at start (load_reason "session_start", or "include" for a file
// another imports). They only observe: what they say is shown to the
// user, and nothing else.
func (a *app) instructionsLoaded(ctx context.Context) {
	if a.memory == nil || !a.hookRun.Has(hooks.InstructionsLoaded) {
		return
	}
	for _, f := range a.memory.Files() {
		r := a.hookRun.Run(ctx, a.hookInput(hooks.InstructionsLoaded, func(h *hooks.Input) {
			h.FilePath, h.MemoryType, h.LoadReason = f.Path, memoryType(f.Kind), "session_start"
			if f.ImportedBy != "" {
				h.LoadReason, h.ParentFilePath = "include", f.ImportedBy
			}
			h.Globs = f.Paths
		}))
		a.reportHooks(hooks.Result{SystemMessages: r.SystemMessages, Errors: r.Errors})
	}
}

// instructionsTouched runs InstructionsLoaded hooks for the memory files
// reading trigger loaded: a folder's CLAUDE.md on the way to it
// ("nested_traversal"), a rule whose paths match it ("path_glob_match"),
// or a file one of those imports ("include"); each hook is told
// trigger_file_path. As at start, they only observe.
func (a *app) instructionsTouched(ctx context.Context, trigger string, files []prompt.File) {
	if !a.hookRun.Has(hooks.InstructionsLoaded) {
		return
	}
	if !filepath.IsAbs(trigger) {
		trigger = filepath.Join(a.cwd, trigger)
	}
	for _, f := range files {
		r := a.hookRun.Run(ctx, a.hookInput(hooks.InstructionsLoaded, func(h *hooks.Input) {
			h.FilePath, h.MemoryType, h.LoadReason, h.TriggerFilePath = f.Path, memoryType(f.Kind), "nested_traversal", trigger
			switch {
			case f.ImportedBy != "":
				h.LoadReason, h.ParentFilePath = "include", f.ImportedBy
			case f.Paths != nil:
				h.LoadReason = "path_glob_match"
			}
			h.Globs = f.Paths
		}))
		a.reportHooks(hooks.Result{SystemMessages: r.SystemMessages, Errors: r.Errors})
	}
}

// memoryType names a memory file's kind as InstructionsLoaded hooks get
// it.
func memoryType(k prompt.Kind) string {
	switch k {
	case prompt.KindManaged:
		return "Managed"
	case prompt.KindUser:
		return "User"
	case prompt.KindLocal:
		return "Local"
	}
	return "Project"
}

// sessionStartAs runs SessionStart hooks with the source given
// ("startup", "resume" or "clear"; "compact" is afterCompact's).
func (a *app) sessionStartAs(ctx context.Context, source string) {
	if text := a.sessionStartContext(ctx, source); text != "" {
		a.sess.AppendMessage(llm.NewUserText(text), true)
	}
}

// sessionStartContext runs SessionStart hooks with the source given and
// returns the context they add, as a reminder for the model ("" for
// none).
func (a *app) sessionStartContext(ctx context.Context, source string) string {
	if !a.hookRun.Has(hooks.SessionStart) {
		return ""
	}
	envFile, cleanup := a.hookEnvFile(hooks.SessionStart)
	defer cleanup()
	r := a.hookRun.Run(ctx, a.hookInput(hooks.SessionStart, func(h *hooks.Input) {
		h.Source, h.Model, h.SessionTitle = source, a.model, a.currentTitle()
		if a.mainAgent != nil && h.AgentType == "" {
			h.AgentType = a.mainAgent.Name // --agent (or the agent setting)
		}
		if envFile != "" {
			h.Env = []string{"CLAUDE_ENV_FILE=" + envFile}
		}
	}))
	a.reportObserved(r)
	a.watchPaths(r.WatchPaths)
	if source == "startup" || source == "resume" {
		// Claude Code takes a SessionStart title on these two only.
		a.hookTitle(r.SessionTitle)
	}
	if source == "startup" || source == "resume" || source == "fork" {
		a.initialMessage = r.InitialUserMessage
	}
	if envFile != "" {
		a.applyHookEnv(ctx, hooks.SessionStart, envFile)
	}
	if len(r.AdditionalContext) == 0 {
		return ""
	}
	return "<system-reminder>\nSessionStart hook context:\n" + strings.Join(r.AdditionalContext, "\n") + "\n</system-reminder>"
}

// afterCompact runs SessionStart hooks with source "compact" once a
// compaction has replaced the history; their context goes into the new
// history, after the summary.
func (a *app) afterCompact(ctx context.Context) []string {
	if text := a.sessionStartContext(ctx, "compact"); text != "" {
		return []string{text}
	}
	return nil
}

// hooksEndTimeout bounds SessionEnd hooks at exit.
const hooksEndTimeout = 10 * time.Second

// sessionEnd runs SessionEnd hooks.
func (a *app) sessionEnd(reason string) {
	if !a.hookRun.Has(hooks.SessionEnd) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), hooksEndTimeout)
	defer cancel()
	a.reportObserved(a.hookRun.Run(ctx, a.hookInput(hooks.SessionEnd, func(h *hooks.Input) { h.Reason = reason })))
}

// eventLog collects the events local commands emit while they run (print
// and SDK modes run one at a time), for prepare to hand to the front end.
type eventLog struct {
	mu     sync.Mutex
	events []engine.Event
}

// add records ev.
func (l *eventLog) add(ev engine.Event) {
	l.mu.Lock()
	l.events = append(l.events, ev)
	l.mu.Unlock()
}

// take returns the events recorded so far and forgets them.
func (l *eventLog) take() []engine.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	evs := l.events
	l.events = nil
	return evs
}

// currentTitle is the session's title ("" when it has none): the last
// one recorded (/rename, --name, a hook's), else the resumed session's.
func (a *app) currentTitle() string {
	if a.writer != nil {
		if info, ok := session.Stat(a.writer.Path()); ok && info.CustomTitle != "" {
			return info.CustomTitle
		}
	}
	if n := strings.Join(strings.Fields(a.opts.Name), " "); n != "" {
		return n
	}
	if a.resumed != nil {
		return a.resumed.CustomTitle
	}
	return ""
}

// hookTitle names the session with the sessionTitle a SessionStart or
// UserPromptSubmit hook gave, as /rename does; an unrecorded session
// (--no-session-persistence) has no name to take.
func (a *app) hookTitle(title string) {
	if title == "" || a.sess.Config().Recorder == nil || title == a.currentTitle() {
		return
	}
	if _, err := renameSession(a.sess, title); err != nil {
		a.notify("warning", "a hook's sessionTitle: "+err.Error())
	}
}
