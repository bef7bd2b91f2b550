package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"reins/internal/fastpath"
	"reins/internal/permission"
)

// exitError carries an exit code out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// usageError is a command-line mistake; it is printed with a hint.
type usageError struct{ msg string }

// subUsageError is a subcommand's command-line mistake; its hint names
// that subcommand's help.
type subUsageError struct {
	msg  string
	help string // the command path, "reins mcp add"
}

func (e subUsageError) Error() string { return e.msg }

func (e usageError) Error() string { return e.msg }

// Main runs reins with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Fast path: the version loads nothing else. (A real process never
	// gets here with these flags: package fastpath answers them while the
	// program starts.)
	if line := fastpath.Answer(args); line != "" {
		fmt.Fprintln(stdout, line)
		return 0
	}
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	root := newRoot(env, needsSubcommands(args))
	if isSubcommand(root, args) {
		if slices.Contains(subcommandNames, args[0]) && !slices.ContainsFunc(args, isHelpFlag) {
			if _, err := homeDir(env.Getenv); err != nil {
				fmt.Fprintf(stderr, "reins: %v\n", err)
				return 1
			}
		}
		root.SetArgs(args)
	} else {
		root.InitDefaultHelpFlag()
		root.SetArgs(dropUnknownFlags(root.Flags(), normaliseArgs(args), stderr))
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// SIGHUP (the terminal closed) ends the session as SIGTERM does: the
	// running turn is stopped and its calls answered in the transcript.
	// Under nohup it stays ignored.
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	ctx, stop := notifyContext(ctx, sigs...)
	defer stop()
	err := root.ExecuteContext(ctx)
	var ee exitError
	var ue usageError
	var se subUsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "reins: %s\nRun 'reins --help' for usage.\n", ue.msg)
		return 2
	case errors.As(err, &se):
		fmt.Fprintf(stderr, "reins: %s\nRun '%s --help' for usage.\n", se.msg, se.help)
		return 2
	default:
		fmt.Fprintf(stderr, "reins: %v\n", err)
		return 1
	}
}

// isSubcommand reports whether args start with a subcommand's name (its
// flags are its own, so the root's unknown-flag filter must not see them).
func isSubcommand(root *cobra.Command, args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, c := range root.Commands() {
		if c.Name() == args[0] || c.HasAlias(args[0]) {
			return true
		}
	}
	return args[0] == "help" || args[0] == "completion"
}

// sdkVersionLine answers -v with the Claude Code protocol level reins
// implements, so the Agent SDKs' minimum-version check (they parse a
// leading x.y.z) passes.
func sdkVersionLine() string { return fastpath.SDKVersionLine }

// Env is the process environment the CLI runs in.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

func (e *Env) isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// looksLikeWorktreeName reports whether the word after --worktree is
// meant as its name: one word that is not a flag. A prompt of several
// words is not.
func looksLikeWorktreeName(w string) bool {
	return w != "" && !strings.HasPrefix(w, "-") && !strings.ContainsFunc(w, unicode.IsSpace)
}

// normaliseArgs rewrites "--resume <id>" and "-r <id>" as "--resume=<id>"
// (the flag also works without a value, which opens the picker), and gives
// the rule-list flags every following argument that reads as tool rules,
// as Claude Code's variadic options take them: --allowedTools "Bash(git
// log *)" Read is two rules, not a rule and a word of the prompt. --add-dir
// and --mcp-config take several values the same way.
func normaliseArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "--resume" || a == "-r") && i+1 < len(args) && (looksLikeID(args[i+1]) || resumeNameBeforePrompt(args, i+1)) {
			out = append(out, "--resume="+args[i+1])
			i++
			continue
		}
		if a == "-d2e" {
			// Claude Code's short form of --debug-to-stderr.
			out = append(out, "--debug-to-stderr")
			continue
		}
		if (a == "--worktree" || a == "-w") && i+1 < len(args) && looksLikeWorktreeName(args[i+1]) {
			// --worktree takes an optional name: the next word is it,
			// checked later (a name that is not allowed, such as
			// feature/x, is an error, not the start of the prompt).
			out = append(out, "--worktree="+args[i+1])
			i++
			continue
		}
		switch {
		case isDebugFlag(a):
			// Claude Code's --debug takes an optional category filter
			// (--debug api,hooks or --debug=api); reins's log has every
			// category, so the filter is accepted and has no effect.
			if name, v, ok := strings.Cut(a, "="); ok && !isBoolWord(v) {
				a = name
			} else if !ok && i+1 < len(args) && looksLikeDebugFilter(args[i+1]) {
				i++
			}
		case a == "--add-dir" && i+1 < len(args):
			// Claude Code's --add-dir takes several folders; the ones after
			// the first count when they are folders that exist, so a
			// prompt after them is still the prompt.
			out, i = appendRepeated(out, args, i, isExistingDir)
			continue
		case a == "--mcp-config" && i+1 < len(args):
			// So does --mcp-config: the values after the first count when
			// they are JSON objects or files that exist.
			out, i = appendRepeated(out, args, i, isMCPConfigArg)
			continue
		case isRuleListFlag(a) && i+1 < len(args):
			out, i = appendRepeated(out, args, i, looksLikeRules)
			continue
		}
		out = append(out, a)
	}
	return out
}

// isDebugFlag reports whether a is --debug or -d, with or without an
// attached value.
func isDebugFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	return name == "--debug" || name == "-d"
}

// isBoolWord reports whether s is a value a bool flag takes (true, 0, F…).
func isBoolWord(s string) bool {
	_, err := strconv.ParseBool(s)
	return err == nil
}

// looksLikeDebugFilter reports whether s is a Claude Code debug category
// filter (api, hooks, "api,hooks", "!statsig,!file") rather than a prompt.
func looksLikeDebugFilter(s string) bool {
	parts := strings.Split(s, ",")
	for _, p := range parts {
		p = strings.TrimPrefix(p, "!")
		if p == "" {
			return false
		}
		for _, c := range p {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
				return false
			}
		}
	}
	if len(parts) > 1 || strings.HasPrefix(s, "!") {
		return true
	}
	switch s {
	case "api", "hooks", "mcp", "file", "statsig", "tools", "permissions", "1p":
		return true
	}
	return false
}

// appendRepeated appends the flag args[i] with its value args[i+1], then
// the flag again for each following argument that more accepts; it
// returns the index of the last argument used.
func appendRepeated(out, args []string, i int, more func(string) bool) ([]string, int) {
	flag := args[i]
	out = append(out, flag, args[i+1])
	i++
	for i+1 < len(args) && more(args[i+1]) {
		out = append(out, flag+"="+args[i+1])
		i++
	}
	return out, i
}

// isExistingDir reports whether s names a folder (and is not a flag).
func isExistingDir(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") {
		return false
	}
	fi, err := os.Stat(s)
	return err == nil && fi.IsDir()
}

// isMCPConfigArg reports whether s is an MCP configuration: a JSON
// object, or a file that exists (and is not a flag).
func isMCPConfigArg(s string) bool {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
		return true
	}
	if s == "" || strings.HasPrefix(s, "-") {
		return false
	}
	fi, err := os.Stat(s)
	return err == nil && fi.Mode().IsRegular()
}

// isRuleListFlag reports whether a is a flag that takes tool rules.
func isRuleListFlag(a string) bool {
	switch a {
	case "--allowedTools", "--allowed-tools", "--disallowedTools", "--disallowed-tools", "--tools":
		return true
	}
	return false
}

// looksLikeRules reports whether s is a list of tool rules (Name or
// Name(specifier), separated by commas or spaces) rather than a prompt or
// another flag. Tool names start with a capital letter (Bash, WebFetch)
// or are MCP names (mcp__server__tool); prompt words mostly do not.
func looksLikeRules(s string) bool {
	if strings.HasPrefix(s, "-") {
		return false
	}
	rules := permission.SplitToolList(s)
	if len(rules) == 0 {
		return false
	}
	for _, r := range rules {
		name, spec, paren := strings.Cut(r, "(")
		if paren && !strings.HasSuffix(spec, ")") {
			return false
		}
		if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || strings.HasPrefix(name, "mcp__")) {
			return false
		}
		for i, c := range name {
			letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == 0 || !(c == '-' || c == '*' || c >= '0' && c <= '9')) {
				return false
			}
		}
	}
	return true
}

func looksLikeID(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, " \t\n") {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// resumeNameBeforePrompt reports whether args[i], a word of several
// after --resume, is the session's name (given with /rename) rather than
// the prompt: in print mode, when a prompt follows it. A lone prompt after
// --resume stays the prompt (the terminal UI opens the list then).
func resumeNameBeforePrompt(args []string, i int) bool {
	w := args[i]
	if w == "" || strings.HasPrefix(w, "-") || i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") {
		return false
	}
	return slices.Contains(args, "-p") || slices.Contains(args, "--print")
}

// subcommandNames are the names of the subcommands (see subcommands).
var subcommandNames = []string{"update", "install", "mcp", "sessions", "auto-mode", "plugin", "auth", "doctor", "agents"}

// needsSubcommands reports whether a run with args can reach a subcommand
// or list them (help). Building them costs most of a millisecond at start,
// which a prompt or print run does not spend.
func needsSubcommands(args []string) bool {
	if len(args) > 0 && (slices.Contains(subcommandNames, args[0]) || args[0] == "help" || args[0] == "completion") {
		return true
	}
	return slices.ContainsFunc(args, isHelpFlag)
}

// isHelpFlag reports whether a asks for help.
func isHelpFlag(a string) bool { return a == "-h" || a == "--help" }

// newRoot builds the command line, with the subcommands when withSubs is
// set.
func newRoot(env *Env, withSubs bool) *cobra.Command {
	opts := &Options{}
	root := &cobra.Command{
		Use:           "reins [prompt]",
		Short:         "reins is a terminal AI coding agent",
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			opts.ToolsSet = cmd.Flags().Changed("tools")
			opts.ResumeSet = cmd.Flags().Changed("resume")
			opts.SourcesSet = cmd.Flags().Changed("setting-sources")
			opts.WorktreeSet = cmd.Flags().Changed("worktree")
			opts.BudgetSet = cmd.Flags().Changed("max-budget-usd")
			return run(cmd.Context(), env, opts)
		},
	}
	root.SetFlagErrorFunc(flagError)
	root.Flags().SortFlags = false
	opts.flagSet(root.Flags())
	if withSubs {
		root.AddCommand(subcommands(env)...)
		root.InitDefaultCompletionCmd() // now, so that it is tightened too
		for _, sub := range root.Commands() {
			tightenUsage(sub)
		}
	}
	return root
}

// run dispatches to a front end.
func run(ctx context.Context, env *Env, o *Options) error {
	if o.ShowVersion {
		fmt.Fprintln(env.Stdout, versionLine())
		return nil
	}
	if o.ShortVersion {
		fmt.Fprintln(env.Stdout, sdkVersionLine())
		return nil
	}
	switch o.OutputFormat {
	case "text", "json", "stream-json":
	default:
		return usageError{fmt.Sprintf("--output-format must be text, json or stream-json, not %q", o.OutputFormat)}
	}
	switch o.InputFormat {
	case "text", "stream-json":
	default:
		return usageError{fmt.Sprintf("--input-format must be text or stream-json, not %q", o.InputFormat)}
	}
	if o.BudgetSet && !(o.MaxBudgetUSD > 0 && !math.IsInf(o.MaxBudgetUSD, 1)) {
		// A budget of 0 or less would otherwise mean no budget at all: the
		// run a script meant to cap would spend without a limit.
		return usageError{fmt.Sprintf("--max-budget-usd must be an amount of dollars greater than 0, not %v", o.MaxBudgetUSD)}
	}
	if o.TaskBudget < 0 {
		return usageError{fmt.Sprintf("--task-budget must be a positive number of tokens, not %d", o.TaskBudget)}
	}
	switch o.PermissionPrompts {
	case "host", "none":
	default:
		return usageError{fmt.Sprintf("--permission-prompts must be host or none, not %q", o.PermissionPrompts)}
	}
	if o.SystemPrompt != "" && o.SystemFile != "" {
		return usageError{"--system-prompt and --system-prompt-file both replace the system prompt; give only one"}
	}
	if o.WorktreeSet {
		tui := !(o.Print || o.OutputFormat != "text" || o.InputFormat == "stream-json" || !env.isTerminal(env.Stdin) || !env.isTerminal(env.Stdout))
		cwd, _ := os.Getwd()
		wt, err := enterWorktree(ctx, o.Worktree, sessionWorktreeHooks(ctx, env, o, cwd, tui))
		if err != nil {
			return err
		}
		defer leaveWorktree(wt, env.Stderr)
	}
	if o.InitOnly {
		return runInitOnly(ctx, env, o)
	}
	if o.InputFormat == "stream-json" {
		return runSDK(ctx, env, o)
	}
	if o.Print || o.OutputFormat != "text" || !env.isTerminal(env.Stdin) || !env.isTerminal(env.Stdout) {
		return runPrint(ctx, env, o)
	}
	return runInteractive(ctx, env, o)
}

// notifyContext is signal.NotifyContext with the registration moved to a
// goroutine. The process's first signal registration makes the runtime
// start a thread for signal masks and wait for it, which costs about a
// millisecond on small virtual machines; start-up goes on meanwhile. The
// registration is done long before a session has anything to lose: until
// it is, SIGINT and SIGTERM end the process as they do before main. The
// context is cancelled with a cause naming the signal, as NotifyContext's
// is; stop undoes the registration.
func notifyContext(parent context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	registered := make(chan struct{})
	go func() {
		signal.Notify(ch, sigs...)
		close(registered)
		select {
		case s := <-ch:
			cancel(signalError{s})
		case <-ctx.Done():
		}
	}()
	stop := func() {
		cancel(context.Canceled)
		<-registered
		signal.Stop(ch)
	}
	return ctx, stop
}

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return e.sig.String() + " signal received" }

// stoppedExit is the exit status of a run ctx's cancellation stopped:
// 128 plus the signal's number, as a shell reports a process the signal
// killed (143 for SIGTERM, 129 for SIGHUP), so a script or supervisor
// reading it sees what it sees from Claude Code; 130 when the cause is
// not a signal.
func stoppedExit(ctx context.Context) exitError {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		if n, ok := se.sig.(syscall.Signal); ok {
			return exitError{128 + int(n)}
		}
	}
	return exitError{130}
}
