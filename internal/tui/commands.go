package tui

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/llm"
)

//go:embed prompts/init.md
var initPrompt string

// builtin is a slash command the UI runs itself.
type builtin struct {
	name, desc, hint string
	aliases          []string
	// duringTurn marks commands that may run while a turn is going.
	duringTurn bool
	run        func(m *Model, args string) tea.Cmd
}

// commandTable holds the builtins and the external command source.
type commandTable struct {
	builtins []*builtin
	ext      Commands
}

func newCommandTable(ext Commands) *commandTable {
	return &commandTable{builtins: builtins(), ext: ext}
}

func (t *commandTable) lookup(name string) *builtin {
	for _, b := range t.builtins {
		if b.name == name {
			return b
		}
	}
	for _, b := range t.builtins {
		for _, a := range b.aliases {
			if a == name {
				return b
			}
		}
	}
	return nil
}

// complete lists builtins and external commands matching prefix.
func (t *commandTable) complete(prefix string) []compItem {
	p := strings.ToLower(prefix)
	seen := map[string]bool{}
	var out []compItem
	add := func(name, desc, hint string) {
		if seen[name] {
			return
		}
		seen[name] = true
		label := "/" + name
		if hint != "" {
			label += " " + hint
		}
		out = append(out, compItem{label: label, desc: desc, insert: "/" + name + " "})
	}
	var bs []*builtin
	for _, b := range t.builtins {
		if strings.HasPrefix(b.name, p) {
			bs = append(bs, b)
		}
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].name < bs[j].name })
	var ext []CommandInfo
	if t.ext != nil {
		ext = t.ext.Complete(prefix)
	}
	for _, c := range ext {
		if strings.HasPrefix(strings.ToLower(c.Name), p) {
			add(c.Name, c.Description, c.ArgumentHint)
		}
	}
	for _, b := range bs {
		add(b.name, b.desc, b.hint)
	}
	for _, c := range ext {
		add(c.Name, c.Description, c.ArgumentHint)
	}
	return out
}

// keepRefused puts a command that cannot run yet back into the input,
// so enter runs it once the turn ends; it was cleared, and had to be
// typed again. Text typed since stays after it.
func (m *Model) keepRefused(text string) {
	m.ed.restore([]draft{{text: text}})
}

// runCommand runs "/name args": an external command that overrides a
// builtin, the builtin, or an external command.
func (m *Model) runCommand(text string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	args = strings.TrimSpace(args)
	b := m.cmds.lookup(name)
	if b != nil && m.cmds.ext != nil && m.cmds.ext.Overrides(name) {
		b = nil
	}
	if b != nil {
		if m.running && !b.duringTurn {
			m.keepRefused(text)
			m.setHint("/"+name+" can run once the current turn ends (esc to interrupt it)", 3*time.Second)
			return nil
		}
		return b.run(m, args)
	}
	if m.cmds.ext == nil {
		m.commandOutput(text, "Unknown command: /"+name, true)
		return nil
	}
	if m.running {
		m.keepRefused(text)
		m.setHint("Commands run between turns; wait or press esc", 3*time.Second)
		return nil
	}
	ext := m.cmds.ext
	ctx, cancel := context.WithCancelCause(m.ctx)
	m.busy("Running /" + name + "…")
	m.cancel = cancel // esc stops a slow !`command` in the command's text
	return func() tea.Msg {
		res, err := ext.Run(ctx, text)
		interrupted := errors.Is(context.Cause(ctx), errInterrupted)
		cancel(nil)
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			m.idle()
			switch {
			case interrupted:
				m.commandOutput(text, "Interrupted", true)
			case err != nil:
				m.commandOutput(text, err.Error(), true)
			case !res.Handled:
				m.commandOutput(text, "Unknown command: /"+name, true)
			case len(res.Content) > 0:
				return m.startTurn(engine.Input{Content: res.Content, UUID: uuid.NewString(), Model: res.Model, AllowedTools: res.AllowedTools})
			default:
				m.commandOutput(text, res.Text, res.IsError)
			}
			return nil
		}}
	}
}

// busy shows the spinner for local work that is not a turn.
func (m *Model) busy(label string) {
	m.running, m.busyLabel, m.turnStart = true, label, m.o.Now()
	m.gen++ // events of an older turn no longer apply
}

func (m *Model) idle() {
	m.running, m.busyLabel, m.cancel = false, "", nil
	m.releaseShell()
}

// commandOutput shows a command and what it printed.
func (m *Model) commandOutput(input, out string, isErr bool) {
	if isErr {
		out = m.st.err.Render(out)
	}
	m.conv.add(&item{kind: kCommand, input: input, text: input + "\n" + out, done: true})
}

func notAvailable(what string) func(m *Model, args string) tea.Cmd {
	return func(m *Model, args string) tea.Cmd {
		m.commandOutput("/"+what, "/"+what+" is not available yet in this build of reins.", true)
		return nil
	}
}

// viewer runs a Viewer or reports it missing.
func viewer(name string, get func(o *Options) Viewer) func(m *Model, args string) tea.Cmd {
	return func(m *Model, args string) tea.Cmd {
		v := get(&m.o)
		if v == nil {
			return notAvailable(name)(m, args)
		}
		out, err := v(m.ctx, args)
		// The command is shown as typed: "/permissions remove allow X"
		// showed as a bare "/permissions" above what it did.
		typed := strings.TrimSpace("/" + name + " " + args)
		if err != nil {
			m.commandOutput(typed, err.Error(), true)
		} else {
			m.commandOutput(typed, out, false)
		}
		return nil
	}
}

func builtins() []*builtin {
	return []*builtin{
		{name: "help", desc: "Show commands and keys", duringTurn: true, run: (*Model).cmdHelp},
		{name: "clear", desc: "Start a new conversation", aliases: []string{"reset", "new"}, run: (*Model).cmdClear},
		{name: "compact", desc: "Summarise the conversation to free context", hint: "[instructions]", run: (*Model).cmdCompact},
		{name: "model", desc: "Show or change the model", hint: "[model]", run: (*Model).cmdModel},
		{name: "effort", desc: "Show or change the effort level for the rest of the session", hint: "[low|medium|high|xhigh|max|auto]", run: (*Model).cmdEffort},
		{name: "cost", desc: "Show the session's cost and usage", aliases: []string{"usage", "stats"}, duringTurn: true, run: (*Model).cmdCost},
		{name: "context", desc: "Show what fills the context window", duringTurn: true, run: (*Model).cmdContext},
		{name: "plan", desc: "Enter plan mode (explore and plan, change nothing); /plan <task> also starts planning it", hint: "[task]", run: (*Model).cmdPlan},
		{name: "resume", desc: "Resume an earlier conversation (by id or /rename name, or pick from the list; typing searches the first prompts too)", hint: "[id or name]", aliases: []string{"continue"}, run: (*Model).cmdResume},
		{name: "rename", desc: "Name the session, to resume it later with --resume <name>", hint: "<name>", run: (*Model).cmdRename},
		{name: "rewind", desc: "Go back to an earlier prompt (esc esc)", run: func(m *Model, _ string) tea.Cmd { m.openRewind(); return nil }},
		{name: "permissions", desc: "View permission rules", duringTurn: true, run: viewer("permissions", func(o *Options) Viewer { return o.Permissions })},
		{name: "hooks", desc: "View configured hooks", duringTurn: true, run: viewer("hooks", func(o *Options) Viewer { return o.Hooks })},
		{name: "config", desc: "View settings", duringTurn: true, run: viewer("config", func(o *Options) Viewer { return o.Config })},
		{name: "output-style", desc: "List output styles or switch to one", hint: "[style]", run: (*Model).cmdOutputStyle},
		{name: "mcp", desc: "Show MCP servers and their tools; /mcp reconnect NAME", duringTurn: true, run: viewer("mcp", func(o *Options) Viewer { return o.MCP })},
		{name: "plugin", desc: "List the loaded plugins (reins loads them; it does not install them)", aliases: []string{"plugins"}, duringTurn: true, run: viewer("plugin", func(o *Options) Viewer { return o.Plugins })},
		{name: "reload-plugins", desc: "Read the plugins again, with their commands, skills, agents, hooks and MCP servers", run: viewer("reload-plugins", func(o *Options) Viewer { return o.ReloadPlugins })},
		{name: "agents", desc: "List the sub-agents the Agent tool can start", duringTurn: true, run: viewer("agents", func(o *Options) Viewer { return o.Agents })},
		{name: "add-dir", desc: "Add a working folder for this session", hint: "<path>", duringTurn: true, run: (*Model).cmdAddDir},
		{name: "tasks", desc: "List the background tasks; /tasks stop ID stops one", aliases: []string{"bashes"}, duringTurn: true, run: viewer("tasks", func(o *Options) Viewer { return o.Tasks })},
		{name: "terminal-setup", desc: "How to get Shift+Enter for new lines in this terminal", duringTurn: true, run: (*Model).cmdTerminalSetup},
		{name: "memory", desc: "Edit the memory file in $EDITOR", run: (*Model).cmdMemory},
		{name: "export", desc: "Save the conversation as text to a file", hint: "[file]", run: (*Model).cmdExport},
		{name: "init", desc: "Ask reins to write a CLAUDE.md for this project", run: (*Model).cmdInit},
		{name: "status", desc: "Show version, session, model and account", duringTurn: true, run: (*Model).cmdStatus},
		{name: "doctor", desc: "Check the installation and setup", run: (*Model).cmdDoctor},
		{name: "todos", desc: "Show the todo list", duringTurn: true, run: (*Model).cmdTodos},
		{name: "exit", desc: "Exit reins", aliases: []string{"quit"}, duringTurn: true, run: func(m *Model, _ string) tea.Cmd { return m.quit() }},
	}
}

const keysHelp = `Keys
  enter            send (queued while reins works)
  shift+enter, \⏎  new line
  esc              interrupt the turn (messages queued: take them back first)
                   · twice: clear the input (up brings it back), or rewind
  ctrl+c           clear the input · twice: exit
  ctrl+d           twice on an empty input: exit
  ctrl+z           suspend (fg in the shell resumes)
  ctrl+l           clear the input (up brings it back) and redraw the screen
  shift+tab        cycle permission mode
  ctrl+o           full transcript
  ctrl+t           show or hide the todo list while reins works
  alt+p            switch the model, keeping what is typed
  ctrl+r           search input history (again: older; enter sends the match,
                   tab or esc takes it to edit, ctrl+c leaves the search)
  ctrl+g           edit the input in $EDITOR
  ctrl+v           paste an image from the clipboard (alt+v on Windows)
  ctrl+y           paste what ctrl+k/u/w cut · alt+y: an older cut
  ctrl+_           undo the last change to the input
  up/down          input history · up with messages queued: edit them
Prefixes
  /command  run a command   @file  mention a file
  !cmd      run a shell command and keep its output`

func (m *Model) cmdHelp(string) tea.Cmd {
	var b strings.Builder
	b.WriteString("Commands\n")
	b.WriteString(helpCommands(m.cmds.complete(""), m.width-xansi.StringWidth(resultMark)))
	b.WriteString(keysHelp)
	m.commandOutput("/help", b.String(), false)
	return nil
}

// helpCommands lists commands for /help in width columns: descriptions
// start in one column after the labels and wrap under themselves; a label
// too long for that column ("/effort [low|medium|...]") has its
// description on the next line. Printed with a fixed 22-column pad, such
// a label pushed its description out of line and the wrapped rest of it
// back to the left edge.
func helpCommands(items []compItem, width int) string {
	col := 0
	for _, c := range items {
		if w := xansi.StringWidth(c.label); w <= helpLabelMax {
			col = max(col, w)
		}
	}
	pad := strings.Repeat(" ", 2+col+2)
	var b strings.Builder
	for _, c := range items {
		label := "  " + c.label
		if c.desc == "" {
			b.WriteString(label + "\n")
			continue
		}
		if xansi.StringWidth(c.label) > col {
			b.WriteString(label + "\n" + hang(pad, c.desc, width) + "\n")
			continue
		}
		first := label + strings.Repeat(" ", len(pad)-xansi.StringWidth(label))
		b.WriteString(first + strings.TrimPrefix(hang(pad, c.desc, width), pad) + "\n")
	}
	return b.String()
}

// helpLabelMax is the widest label /help keeps on its description's line.
const helpLabelMax = 24

func (m *Model) cmdTodos(string) tea.Cmd {
	if len(m.conv.todos) == 0 {
		m.commandOutput("/todos", "No todos yet.", false)
		return nil
	}
	m.commandOutput("/todos", m.r.todoList(m.conv.todos, m.width-6), false)
	return nil
}

func (m *Model) cmdModel(args string) tea.Cmd {
	s := m.o.Session
	if args != "" {
		s.SetModel(args)
		m.commandOutput("/model "+args, "Model set to "+s.Model()+effortNote(s), false)
		return m.refreshStatus()
	}
	names := []string{"opus", "sonnet", "haiku"}
	cfg := s.Config()
	var items []pickItem
	for _, n := range names {
		items = append(items, pickItem{label: n, desc: cfg.Models.Resolve(n)})
	}
	items = append(items, pickItem{label: "default", desc: cfg.Models.Resolve(cfg.Model)})
	m.dialog = newPicker("Model (now "+s.Model()+effortNote(s)+")", items, func(m *Model, i int) tea.Cmd {
		name := items[i].label
		if name == "default" {
			name = ""
		}
		m.o.Session.SetModel(name)
		m.commandOutput("/model", "Model set to "+m.o.Session.Model()+effortNote(m.o.Session), false)
		return m.refreshStatus()
	})
	return nil
}

func (m *Model) cmdCost(string) tea.Cmd {
	t := m.o.Session.Totals()
	var b strings.Builder
	cost := fmt.Sprintf("$%.4f", t.Cost)
	if t.CostUnknown {
		cost += " (some models have no known price)"
	}
	fmt.Fprintf(&b, "Total cost:            %s\n", cost)
	fmt.Fprintf(&b, "Total duration (API):  %s\n", t.APITime.Round(time.Millisecond))
	fmt.Fprintf(&b, "Total duration (wall): %s\n", m.o.Now().Sub(m.turnStart0()).Round(time.Second))
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
	m.commandOutput("/cost", strings.TrimRight(b.String(), "\n"), false)
	return nil
}

// turnStart0 is when the UI started (for wall time).
func (m *Model) turnStart0() time.Time {
	if m.started.IsZero() {
		return m.o.Now()
	}
	return m.started
}

func (m *Model) cmdInit(args string) tea.Cmd {
	text := strings.TrimSpace(initPrompt)
	if args != "" {
		text += "\n\nAlso: " + args
	}
	content := []llm.ContentBlock{llm.TextBlock(headerText("init", args)), llm.TextBlock(text)}
	return m.startTurn(engine.Input{Content: content, UUID: uuid.NewString()})
}

// cmdPlan switches to plan mode and, given a task, sends it as the
// prompt, as if typed.
func (m *Model) cmdPlan(args string) tea.Cmd {
	input := strings.TrimSpace("/plan " + args)
	if m.o.Mode == nil {
		m.commandOutput(input, "Permission modes are not available", true)
		return nil
	}
	if m.mode() != "plan" {
		if err := m.o.Mode.SetMode("plan"); err != nil {
			m.commandOutput(input, err.Error(), true)
			return nil
		}
	}
	if args == "" {
		m.commandOutput(input, "Plan mode on: reins explores and plans, and changes nothing until you approve its plan (shift+tab leaves it).", false)
		return m.refreshStatus()
	}
	return tea.Batch(m.refreshStatus(), m.submitPrompt(args))
}

// headerText records a command invocation the way transcripts do.
func headerText(name, args string) string {
	return "<command-message>" + name + "</command-message>\n<command-name>/" + name +
		"</command-name>\n<command-args>" + args + "</command-args>"
}

func (m *Model) cmdStatus(string) tea.Cmd {
	s := m.o.Session
	cfg := s.Config()
	lines := []string{
		"Version:          " + orNone(m.o.Version),
		"Session:          " + s.ID(),
		"Working folder:   " + m.o.Cwd,
		"Model:            " + s.Model(),
		"Permission mode:  " + m.mode(),
		"Output style:     " + m.outputStyle(),
		"API key:          " + orNone(m.o.KeySource),
		fmt.Sprintf("Messages:         %d", len(s.History())),
	}
	if cfg.FallbackModel != "" {
		lines = append(lines, "Fallback model:   "+cfg.FallbackModel)
	}
	if m.o.MemoryFile != "" {
		lines = append(lines, "Memory file:      "+m.memoryFile())
	}
	m.commandOutput("/status", strings.Join(lines, "\n"), false)
	return nil
}

// outputStyle names the output style in force.
func (m *Model) outputStyle() string {
	if m.o.ActiveOutputStyle == nil {
		return "default"
	}
	return m.o.ActiveOutputStyle()
}

// cmdOutputStyle is /output-style: with a name, a switch to that style;
// without, a picker of the styles with their descriptions.
func (m *Model) cmdOutputStyle(args string) tea.Cmd {
	typed := strings.TrimSpace("/output-style " + args)
	if m.o.OutputStyles == nil || m.o.SetOutputStyle == nil {
		m.commandOutput(typed, "Only the default output style is available in this session.", false)
		return nil
	}
	set := func(m *Model, name string) tea.Cmd {
		msg, err := m.o.SetOutputStyle(m.ctx, m.o.Session, name)
		if err != nil {
			m.commandOutput(typed, err.Error(), true)
			return nil
		}
		m.commandOutput(typed, msg, false)
		return m.refreshStatus()
	}
	if args != "" {
		return set(m, args)
	}
	styles := m.o.OutputStyles(m.ctx)
	active := m.outputStyle()
	items := make([]pickItem, len(styles))
	sel := 0
	for i, st := range styles {
		label := st.Name
		if st.Name == active {
			label += " ✔"
			sel = i
		}
		items[i] = pickItem{label: label, desc: st.Description}
	}
	p := newPicker("Output style (now "+active+")", items, func(m *Model, i int) tea.Cmd {
		return set(m, styles[i].Name)
	})
	p.sel = min(sel, max(0, len(p.shown)-1))
	m.dialog = p
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// cmdCompact summarises the history (see compact.go).
func (m *Model) cmdCompact(args string) tea.Cmd {
	if m.o.Compactor == nil {
		return notAvailable("compact")(m, args)
	}
	if len(m.o.Session.History()) == 0 {
		m.commandOutput("/compact", "Nothing to compact yet.", false)
		return nil
	}
	echo := "/compact"
	if args != "" {
		echo += " " + args
	}
	m.commandOutput(echo, "", false) // what was typed, above the compaction's notes
	ctx, cancel := context.WithCancelCause(m.ctx)
	m.busy("Compacting conversation…")
	m.cancel = cancel
	comp, sess := m.o.Compactor, m.o.Session
	before := len(sess.History())
	return tea.Batch(m.startTick(), func() tea.Msg {
		var evs []engine.Event
		var mu sync.Mutex
		err := comp.Compact(ctx, sess, args, func(ev engine.Event) {
			mu.Lock()
			evs = append(evs, ev)
			mu.Unlock()
		})
		cancel(nil)
		mu.Lock()
		defer mu.Unlock()
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			m.idle()
			boundary := false
			for _, ev := range evs {
				if _, ok := ev.(*engine.CompactBoundary); ok {
					boundary = true
					continue
				}
				m.conv.apply(ev)
			}
			if err != nil {
				m.say(kError, "Compaction failed: "+err.Error()) // under the command shown above
				return nil
			}
			if boundary || len(sess.History()) < before {
				m.conv.add(&item{kind: kCompact, text: fmt.Sprintf("Conversation compacted (%d messages summarised)", before), done: true})
			}
			return m.refreshStatus()
		}}
	})
}
