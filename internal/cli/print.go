package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/sdk"
	"reins/internal/streamjson"
	"reins/internal/task"
	"reins/internal/tool"
)

// maxStdinPrompt bounds the prompt read from stdin.
const maxStdinPrompt = 64 << 20

// readPrompt returns the prompt from the arguments and, when stdin is not a
// terminal, from stdin (stdin first, then the argument).
func readPrompt(env *Env, o *Options) (string, error) {
	return readPromptLimit(env, o, maxStdinPrompt)
}

// readPromptLimit is readPrompt with stdin bounded to limit bytes: more
// is an error rather than a prompt cut short without a word.
func readPromptLimit(env *Env, o *Options, limit int64) (string, error) {
	arg := strings.Join(o.Args, " ")
	if env.isTerminal(env.Stdin) || env.Stdin == nil {
		return arg, nil
	}
	in := env.Stdin
	if arg != "" {
		// With a prompt argument, stdin adds to it only when something
		// is written there: a caller that leaves stdin open and writes
		// nothing (a script's child process, ssh) must not hang the run.
		in = firstInputWithin(env, stdinWait)
	}
	data, err := io.ReadAll(io.LimitReader(in, limit+1))
	if err != nil {
		return "", fmt.Errorf("read prompt from stdin: %w", err)
	}
	if int64(len(data)) > limit {
		return "", fmt.Errorf("read prompt from stdin: it is larger than %d MiB; give the model a file to read instead", limit>>20)
	}
	text := strings.TrimSpace(string(data))
	switch {
	case text == "":
		return arg, nil
	case arg == "":
		return text, nil
	}
	return text + "\n\n" + arg, nil
}

// stdinWait is how long a run with a prompt argument waits for the first
// input on a stdin that is not a terminal (Claude Code waits 3 s too).
const stdinWait = 3 * time.Second

// firstInputWithin returns a reader of env.Stdin that reads nothing (and
// warns) when stdin gives neither data nor end of input within wait. Once
// the first bytes come, the rest is read without a limit in time.
func firstInputWithin(env *Env, wait time.Duration) io.Reader {
	type chunk struct {
		b   []byte
		err error
	}
	first := make(chan chunk, 1)
	go func() {
		b := make([]byte, 32<<10)
		n, err := env.Stdin.Read(b)
		first <- chunk{b[:n], err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case c := <-first:
		if c.err != nil && c.err != io.EOF {
			return io.MultiReader(bytes.NewReader(c.b), errReader{c.err})
		}
		if c.err == io.EOF {
			return bytes.NewReader(c.b)
		}
		return io.MultiReader(bytes.NewReader(c.b), env.Stdin)
	case <-timer.C:
		fmt.Fprintf(env.Stderr, "reins: warning: nothing on stdin after %v; going on with the prompt argument alone (give < /dev/null to skip the wait)\n", wait)
		return strings.NewReader("")
	}
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// errNoPrompt is the usage error of a print-mode run with nothing to do.
var errNoPrompt = usageError{"no prompt: give one as an argument or on stdin (reins -p \"...\")"}

// runPrint runs one prompt non-interactively and prints the result.
func runPrint(ctx context.Context, env *Env, o *Options) error {
	prompt, err := readPrompt(env, o)
	if err != nil {
		return err
	}
	// With no prompt, an --agent's initialPrompt or a SessionStart hook's
	// initialUserMessage may give the first turn: the check waits for
	// them.
	noPrompt := strings.TrimSpace(prompt) == ""
	if noPrompt && o.Bare && o.Agent == "" {
		return errNoPrompt
	}
	w := streamjson.NewWriter(env.Stdout, streamjson.Options{Partial: o.Partial, Replay: o.ReplayUser})
	var h appHooks
	if o.HookEvents && o.OutputFormat == "stream-json" {
		h.HookNotify = streamjson.NewHookEvents(w).Progress
	}
	var structured *sdk.StructuredOutput
	if strings.TrimSpace(o.JSONSchema) != "" {
		if structured, err = sdk.NewStructuredOutput(json.RawMessage(o.JSONSchema)); err != nil {
			return usageError{"--json-schema: " + err.Error()}
		}
		h.ExtraTools = func() []tool.Tool { return []tool.Tool{structured.Tool()} }
	}
	a, err := newAppFor(ctx, env, o, frontPrint, h)
	if errors.Is(err, errNoKey) {
		return noKeyResult(env, o, w, err)
	}
	if err != nil {
		return err
	}
	defer a.close()
	// An --agent's initialPrompt is the first turn, ahead of the prompt.
	prompt = a.withInitialPrompt(prompt)
	noPrompt = strings.TrimSpace(prompt) == ""
	w.SetSessionID(a.sessionID)
	a.waitMCP(ctx)
	if err := a.checkPromptTool(); err != nil {
		return err
	}
	a.setupHooks(ctx)
	a.sessionStart(ctx)
	defer a.sessionEnd("other")
	if noPrompt && a.initialMessage == "" {
		return errNoPrompt
	}
	// A SessionStart hook's initialUserMessage is the first turn; the
	// prompt, when there is one, the next.
	then := ""
	if a.initialMessage != "" {
		if !noPrompt {
			then = prompt
		}
		prompt = a.initialMessage
	}
	prep, err := a.prepare(ctx, prompt, command.Print)
	if err != nil {
		return err
	}
	if !prep.Run {
		return a.printLocal(o, prep)
	}
	stopTasks := func() {}
	if o.OutputFormat == "stream-json" {
		if err := w.Line(a.initMessage()); err != nil {
			return err
		}
		stopTasks = a.observeTasks(w)
		defer stopTasks()
	}
	var verbose []any
	if o.OutputFormat == "json" && o.Verbose {
		verbose = append(verbose, a.initMessage())
	}
	turns := streamjson.Turns{Clock: streamjson.NewTurnClock(nil)}
	run := func(in engine.Input) *engine.TurnEnd {
		if in.Meta {
			turns.Reminder() // a structured output reminder
		}
		var end *engine.TurnEnd
		for ev := range a.sess.Run(ctx, in) {
			turns.Add(ev)
			switch o.OutputFormat {
			case "stream-json":
				w.Event(ev)
			case "json":
				if o.Verbose {
					verbose = append(verbose, w.Messages(ev)...)
				}
			}
			if e, ok := ev.(*engine.TurnEnd); ok {
				end = e
			}
		}
		if end == nil {
			end = &engine.TurnEnd{Reason: engine.ReasonError, Err: errors.New("the turn ended without a result"), Total: a.sess.Totals()}
		}
		return end
	}
	end := run(prep.Input)
	if then != "" && end.Reason == engine.ReasonCompleted {
		next, err := a.prepare(ctx, then, command.Print)
		if err != nil {
			return err
		}
		if !next.Run {
			return a.printLocal(o, next)
		}
		end = run(next.Input)
	}
	if structured != nil {
		end = structured.Complete(end, run)
	}
	// Background tasks still running get their notification turn before
	// the run ends (the model was promised it).
	end = a.awaitBackground(ctx, end, func(in engine.Input) *engine.TurnEnd {
		e := run(in)
		if structured != nil {
			e = structured.Complete(e, run)
		}
		return e
	})
	res := streamjson.NewResult(a.sessionID, end, a.models)
	turns.Apply(res)
	res.SubagentStats = a.subagentStats.Take()
	if structured != nil {
		structured.Apply(res)
	}
	// A turn that ended on an API error answers with a synthetic
	// assistant message before the result, as Claude Code's does.
	var apiErrLine *streamjson.Assistant
	if end.Reason == engine.ReasonError {
		apiErrLine = streamjson.APIErrorAssistant(a.sessionID, end.Err)
	}
	switch o.OutputFormat {
	case "stream-json":
		stopTasks() // the result is the last line
		if apiErrLine != nil {
			if err := w.Line(apiErrLine); err != nil {
				return err
			}
		}
		if err := w.Line(res); err != nil {
			return err
		}
	case "json":
		first := 0 // the only result of the run
		res.ResultIndex = &first
		var out any = res
		if o.Verbose {
			if apiErrLine != nil {
				verbose = append(verbose, apiErrLine)
			}
			out = append(verbose, res)
		}
		b, err := json.Marshal(out)
		if err != nil {
			return fmt.Errorf("encode result: %w", err)
		}
		if _, err := env.Stdout.Write(append(b, '\n')); err != nil {
			return writeOutError(err)
		}
	default:
		if !res.IsError {
			if err := writeAnswer(env.Stdout, end.Result); err != nil {
				return writeOutError(err)
			}
		}
		if end.Reason == engine.ReasonStopHook && end.HookReason != "" {
			// The hook's stopReason is for the user: without it, a run a
			// hook stopped ends with no word on why.
			fmt.Fprintf(env.Stderr, "reins: stopped by a hook: %s\n", end.HookReason)
		}
	}
	if err := a.sess.RecordError(); err != nil && o.OutputFormat != "stream-json" {
		// Stream-json readers got it as a notice line.
		fmt.Fprintf(env.Stderr, "reins: warning: this conversation could not be recorded, so it cannot be resumed: %v\n", err)
	}
	if res.IsError {
		fmt.Fprintf(env.Stderr, "reins: %s%s\n", oneLine(res.Errors), a.errorHint(end.Err))
		if ctx.Err() != nil {
			return stoppedExit(ctx)
		}
		return exitError{1}
	}
	return nil
}

// errorHint is what to add to a failed run's one-line reason so the user
// knows where to look: for a refused credential, where the key came from.
func (a *app) errorHint(err error) string {
	if !llm.IsAuth(err) {
		return ""
	}
	switch a.keySource {
	case "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN":
		return " (the key was taken from $" + a.keySource + "; check it)"
	case "apiKeyHelper":
		return " (the key was printed by apiKeyHelper in settings; check that command)"
	}
	return ""
}

// checkPromptTool makes sure the tool --permission-prompt-tool names is
// there once the MCP servers are up, as Claude Code does: with a misspelt
// name every tool call that needs asking would be denied, and the run
// would still end as a success. stdio, which print mode cannot serve, is
// warned about.
func (a *app) checkPromptTool() error {
	name := a.opts.PromptTool
	switch name {
	case "":
		return nil
	case "stdio":
		// Print mode reads no client answers: nobody can answer.
		a.warn("--permission-prompt-tool stdio asks the client over stdin, which needs --input-format stream-json; " +
			"tool calls that need permission will be denied")
		return nil
	}
	if _, ok := a.lookupTool(name); ok {
		return nil
	}
	var names []string
	for _, t := range a.pool() {
		if strings.HasPrefix(t.Name(), "mcp__") {
			names = append(names, t.Name())
		}
	}
	avail := "none"
	if len(names) > 0 {
		avail = strings.Join(names, ", ")
	}
	return fmt.Errorf("--permission-prompt-tool: no tool named %s (MCP tools available: %s)", name, avail)
}

// writeOutError is the error for an answer that could not be written to
// stdout (a full disk, a closed descriptor): the run fails rather than
// ending as a success with the answer lost. The transcript still has it.
func writeOutError(err error) error {
	return fmt.Errorf("write the answer to stdout: %w (the session's transcript has it; reins -c -p to go on)", err)
}

// noKeyResult ends a run that has no credentials to ask the model with.
// A json or stream-json reader gets the result Claude Code writes for it
// (an API-error result saying so) rather than no line at all; every
// format gets the reason on stderr and exit status 1.
func noKeyResult(env *Env, o *Options, w *streamjson.Writer, err error) error {
	if o.OutputFormat == "json" || o.OutputFormat == "stream-json" {
		res := streamjson.NewResult(uuid.NewString(), &engine.TurnEnd{Reason: engine.ReasonError, Err: err}, nil)
		res.SetAPIError(err.Error(), false)
		if o.OutputFormat == "stream-json" {
			w.SetSessionID(res.SessionID)
			if werr := w.Line(res); werr != nil {
				return werr
			}
		} else {
			first := 0
			res.ResultIndex = &first
			b, merr := json.Marshal(res)
			if merr != nil {
				return fmt.Errorf("encode result: %w", merr)
			}
			if _, werr := env.Stdout.Write(append(b, '\n')); werr != nil {
				return writeOutError(werr)
			}
		}
	}
	fmt.Fprintf(env.Stderr, "reins: %v\n", err)
	return exitError{1}
}

// writeAnswer writes a text-mode answer, once the run is over. A reader
// that closed the pipe before the end (reins -p ... | head -1) took what
// it wanted: the run is a success, as Claude Code's is, where the write
// to the broken pipe would otherwise kill the process with SIGPIPE and a
// pipefail script would stop.
func writeAnswer(w io.Writer, text string) error {
	signal.Ignore(syscall.SIGPIPE)
	_, err := fmt.Fprintln(w, text)
	if errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}

func oneLine(errs []string) string {
	s := strings.Join(errs, "; ")
	return strings.ReplaceAll(s, "\n", " ")
}

// initMessage is the system/init line: the tools of the pool, the slash
// commands, skills and agents, and the MCP servers' states.
func (a *app) initMessage() *streamjson.Init {
	in := streamjson.NewInit(streamjson.Init{
		Cwd: a.cwd, SessionID: a.sessionID, Tools: a.sentToolNames(), Model: a.sess.Model(),
		PermissionMode: string(a.checker.Mode()), APIKeySource: a.keySource, Version: Version,
		AdditionalDirs: a.opts.AddDirs, Plugins: a.pluginInfos(), PluginErrors: a.pluginErrorInfos(),
		OutputStyle: a.activeStyle().Name, OriginalCwd: a.cwd,
	})
	// The model takes an effort level: it is sent with each request, and
	// "ultrathink" in a prompt raises it for that turn.
	effort := len(a.models.Info(in.Model).Efforts) > 0
	in.PerTurnEffortActive, in.UltrathinkAvailable, in.UltrathinkTypedRaises = effort, effort, effort
	a.syncMCPPrompts()
	if a.commands != nil {
		in.SlashCommands = append(in.SlashCommands, a.commands.Names()...)
		in.Skills = append(in.Skills, a.commands.SkillNames()...)
		for _, name := range a.commands.TerminalOnly() {
			// Over stream-json input, /clear starts a new conversation.
			if name != "clear" || a.opts.InputFormat != "stream-json" {
				in.TerminalSlashCommands = append(in.TerminalSlashCommands, name)
			}
		}
	}
	if cat := a.agentCatalog(); cat != nil {
		in.Agents = append(in.Agents, cat.Names()...)
	}
	if a.mcpm() != nil {
		for _, st := range a.mcpm().Status() {
			in.MCPServers = append(in.MCPServers, streamjson.MCPStatus{Name: st.Name, Status: string(st.State), Error: st.Err})
		}
	}
	return in
}

// printLocal prints the output of a command that did not go to the model.
func (a *app) printLocal(o *Options, p prepared) error {
	switch o.OutputFormat {
	case "text":
		if p.IsError {
			fmt.Fprintf(a.env.Stderr, "reins: %s\n", p.Output)
			return exitError{1}
		}
		if _, err := fmt.Fprintln(a.env.Stdout, p.Output); err != nil {
			return writeOutError(err)
		}
		return nil
	}
	// The result line has the shape of a model turn's (a uuid, the usage
	// objects, terminal_reason), as the SDK front end's has.
	end := &engine.TurnEnd{Reason: engine.ReasonCompleted, Result: p.Output, Total: a.sess.Totals()}
	if p.IsError {
		end.Reason, end.Err = engine.ReasonError, errors.New(p.Output)
	}
	res := streamjson.NewResult(a.sessionID, end, a.models)
	w := streamjson.NewWriter(a.env.Stdout, streamjson.Options{SessionID: a.sessionID})
	if o.OutputFormat == "stream-json" {
		w.Line(a.initMessage())
		for _, ev := range p.Events {
			w.Event(ev)
		}
	}
	if o.OutputFormat == "json" {
		// Written as the model turns' json result is: the only result,
		// without model_usage_since_last_result.
		first := 0
		res.ResultIndex = &first
		b, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("encode result: %w", err)
		}
		if _, err := a.env.Stdout.Write(append(b, '\n')); err != nil {
			return writeOutError(err)
		}
	} else if err := w.Line(res); err != nil {
		return err
	}
	if p.IsError {
		return exitError{1}
	}
	return nil
}

// observeTasks writes a task_started line when a background task (a
// run_in_background command or agent) starts and a task_notification line
// when it ends, as Claude Code's stream-json output does, until the
// returned stop is called: after it no task line is written (the result
// line stays the last one, and tasks stopped as reins exits are not
// reported).
func (a *app) observeTasks(w *streamjson.Writer) (stop func()) {
	var mu sync.Mutex
	open := true
	a.tasks.Observe = func(i task.Info) {
		mu.Lock()
		defer mu.Unlock()
		if open {
			w.Line(streamjson.TaskLine(w.SessionID(), i))
		}
	}
	return func() {
		mu.Lock()
		open = false
		mu.Unlock()
	}
}
