package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"reins/internal/command"
	"reins/internal/engine"
	"reins/internal/session"
	"reins/internal/tui"
)

// headlessBuiltins are the built-in slash commands of print and SDK modes
// (the terminal UI has its own): the ones that make sense without a
// screen run, the others are registered as UI commands so that typing
// them says they need the terminal UI. Custom commands of the same name
// replace them.
func (a *app) headlessBuiltins() []*command.Command {
	local := func(name, desc, hint string, run func(context.Context, string) (string, error)) *command.Command {
		return &command.Command{Name: name, Description: desc, HasDescription: true, ArgumentHint: hint,
			Kind: command.Local, Source: command.SourceBuiltin, Run: run}
	}
	ui := func(name, desc string, aliases ...string) *command.Command {
		return &command.Command{Name: name, Description: desc, HasDescription: true, Aliases: aliases,
			Kind: command.UI, Source: command.SourceBuiltin}
	}
	return []*command.Command{
		local("compact", "Summarise the conversation to free context", "[instructions]", a.cmdCompact),
		withAliases(local("cost", "Show the session's cost and usage", "", a.cmdCost), "usage", "stats"),
		local("help", "List the slash commands", "", a.cmdHelp),
		local("status", "Show version, session, model and permission mode", "", a.cmdStatus),
		local("model", "Show or change the model", "[model]", a.cmdModel),
		local("effort", "Show or change the effort level for the rest of the session", "[low|medium|high|xhigh|max|auto]", a.cmdEffort),
		local("config", "View settings", "", a.viewConfig),
		local("output-style", "List output styles or switch to one", "[style]", a.cmdOutputStyle),
		local("hooks", "View configured hooks", "", a.viewHooks),
		local("mcp", "Show MCP servers and their tools", "", a.viewMCP),
		local("permissions", "View permission rules", "", a.viewPermissions),
		local("rename", "Name the session, to resume it later with --resume <name>", "<name>", a.cmdRename),
		withAliases(local("plugin", "List the loaded plugins", "", a.viewPlugins), "plugins"),
		local("context", "Show what fills the context window", "", a.cmdContext),
		{Name: "init", Description: "Ask reins to write a CLAUDE.md for this project", HasDescription: true,
			Kind: command.Prompt, Source: command.SourceBuiltin, Prompt: func(_ context.Context, args string) (string, error) {
				text := strings.TrimSpace(tui.InitPrompt())
				if args != "" {
					text += "\n\nAlso: " + args
				}
				return text, nil
			}},
		ui("clear", "Start a new conversation", "reset", "new"),
		ui("resume", "Resume an earlier conversation", "continue"),
		ui("rewind", "Go back to an earlier prompt"),
		ui("memory", "Edit the memory file in $EDITOR"),
		ui("todos", "Show the todo list"),
		ui("doctor", "Check the installation and setup"),
		ui("export", "Save the conversation as text to a file"),
		ui("exit", "Exit reins", "quit"),
	}
}

// cmdRename gives the session a title (/rename NAME), recorded in its
// transcript as Claude Code records one: session lists show it, and
// --resume NAME finds the session by it.
func (a *app) cmdRename(_ context.Context, args string) (string, error) {
	return renameSession(a.sess, args)
}

// renameSession records title as s's custom title.
func renameSession(s *engine.Session, title string) (string, error) {
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		return "", errors.New("usage: /rename <name>")
	}
	if s.Config().Recorder == nil {
		return "", errors.New("this session is not saved (--no-session-persistence), so it cannot be named")
	}
	s.Record(&session.Entry{Type: session.TypeCustomTitle, CustomTitle: title})
	if err := s.RecordError(); err != nil {
		return "", fmt.Errorf("rename session: %w", err)
	}
	return "Session renamed to: " + title, nil
}

// withAliases gives c other names.
func withAliases(c *command.Command, aliases ...string) *command.Command {
	c.Aliases = aliases
	return c
}

// cmdCompact summarises the conversation now (/compact [instructions]).
func (a *app) cmdCompact(ctx context.Context, args string) (string, error) {
	if a.compactor == nil {
		return "", errors.New("compaction is not available in this session")
	}
	s := a.sess
	before := len(s.History())
	if before == 0 {
		return "Nothing to compact yet.", nil
	}
	// The compact_boundary line reaches stream-json output, as a
	// compaction during a turn does (Agent SDK clients watch for it).
	if err := a.compactor.Compact(ctx, s, args, a.cmdEvents.add); err != nil {
		return "", err
	}
	return fmt.Sprintf("Compacted the conversation: %d messages became a summary and %d recent ones.", before, len(s.History())), nil
}

// cmdCost reports the session's cost and usage.
func (a *app) cmdCost(context.Context, string) (string, error) {
	t := a.sess.Totals()
	var b strings.Builder
	cost := fmt.Sprintf("$%.4f", t.Cost)
	if t.CostUnknown {
		cost += " (some models have no known price)"
	}
	fmt.Fprintf(&b, "Total cost:            %s\n", cost)
	fmt.Fprintf(&b, "Total duration (API):  %s\n", t.APITime.Round(time.Millisecond))
	models := make([]string, 0, len(t.ByModel))
	for k := range t.ByModel {
		models = append(models, k)
	}
	sort.Strings(models)
	if len(models) > 0 {
		b.WriteString("Usage by model:\n")
	}
	for _, k := range models {
		mt := t.ByModel[k]
		u := mt.Usage
		fmt.Fprintf(&b, "  %s: %d input, %d output, %d cache read, %d cache write ($%.4f)\n",
			k, u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, mt.Cost)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// cmdHelp lists the commands this mode can run.
func (a *app) cmdHelp(context.Context, string) (string, error) {
	var b strings.Builder
	b.WriteString("Commands\n")
	for _, c := range a.commands.All() {
		if !c.UserInvocable() || c.Kind == command.UI {
			continue
		}
		name := "/" + c.Name
		if c.ArgumentHint != "" {
			name += " " + c.ArgumentHint
		}
		fmt.Fprintf(&b, "  %-28s %s\n", name, c.DisplayDescription())
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// cmdStatus describes the session.
func (a *app) cmdStatus(context.Context, string) (string, error) {
	s := a.sess
	lines := []string{
		"Version:          " + Version,
		"Session:          " + s.ID(),
		"Working folder:   " + a.cwd,
		"Model:            " + s.Model(),
		"Permission mode:  " + string(a.checker.Mode()),
		"Output style:     " + a.activeStyle().Name,
		"API key:          " + firstNonEmpty(a.keySource, "(none)"),
		fmt.Sprintf("Messages:         %d", len(s.History())),
	}
	return strings.Join(lines, "\n"), nil
}

// cmdModel shows the model, or changes it for the rest of the session.
func (a *app) cmdModel(_ context.Context, args string) (string, error) {
	s := a.sess
	if args = strings.TrimSpace(args); args != "" {
		s.SetModel(args)
		return "Model set to " + s.Model(), nil
	}
	return "Model: " + s.Model(), nil
}
