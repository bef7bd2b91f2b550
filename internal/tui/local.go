package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/llm"
)

// shellTimeout bounds a "!" command.
const shellTimeout = 2 * time.Minute

// shellMaxOutput bounds the output kept from a "!" command.
const shellMaxOutput = 30_000

// runShell runs a "!" command and adds its output to the conversation,
// where the model sees it at the next turn.
func (m *Model) runShell(command string) tea.Cmd {
	if command == "" {
		return nil
	}
	ctx, cancel := context.WithCancelCause(m.ctx)
	wasRunning := m.running
	if !wasRunning {
		m.busy("Running " + cut(command, 40) + "…")
		m.cancel = cancel
	}
	cwd := m.o.Cwd
	return tea.Batch(m.startTick(), func() tea.Msg {
		stdout, stderr, code := runBash(ctx, command, cwd)
		stopped := ctx.Err() != nil // its stderr says so; the status is the kill's
		cancel(nil)
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			if !wasRunning {
				m.idle()
			}
			out := strings.TrimRight(stdout, "\n")
			if e := strings.TrimRight(stderr, "\n"); e != "" {
				out = strings.TrimLeft(out+"\n"+m.st.err.Render(e), "\n")
			}
			if code != 0 && !stopped {
				out += "\n" + m.st.dim.Render(fmt.Sprintf("exit status %d", code))
			}
			m.conv.add(&item{kind: kShell, input: "! " + command, text: "! " + command + "\n" + out, done: true})
			m.keepShell(command, xansi.Strip(stdout), xansi.Strip(stderr)) // colours are for the screen
			return nil
		}}
	})
}

// keepShell records a shell run for the model, as Claude Code does with
// <bash-input>, <bash-stdout> and <bash-stderr> user messages.
func (m *Model) keepShell(command, stdout, stderr string) {
	in := llm.NewUserText("<bash-input>" + command + "</bash-input>")
	out := llm.NewUserText("<bash-stdout>" + strings.TrimRight(stdout, "\n") + "</bash-stdout><bash-stderr>" + strings.TrimRight(stderr, "\n") + "</bash-stderr>")
	m.heldShell = append(m.heldShell, in, out)
	m.releaseShell()
}

// releaseShell adds the shell runs kept for the model to the history once
// no turn runs. Queued into a running turn, a run would act as a message
// from the user: it would stop the model's running Bash call and show as
// a prompt.
func (m *Model) releaseShell() {
	s := m.o.Session
	if len(m.heldShell) == 0 || m.running || s == nil || s.Running() {
		return
	}
	for _, msg := range m.heldShell {
		s.AppendMessage(msg, false)
	}
	m.heldShell = nil
}

// runBash runs command with bash -c in cwd, bounded in time and output.
func runBash(ctx context.Context, command, cwd string) (stdout, stderr string, code int) {
	ctx, cancel := context.WithTimeout(ctx, shellTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = cwd
	var o, e limitedBuffer
	o.max, e.max = shellMaxOutput, shellMaxOutput
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	code = 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if ctx.Err() == nil { // stopped, it says so below
			e.WriteString(err.Error())
		}
	}
	if ctx.Err() != nil {
		if e.Len() > 0 && !strings.HasSuffix(e.String(), "\n") {
			e.WriteString("\n")
		}
		e.WriteString("(stopped: " + context.Cause(ctx).Error() + ")")
	}
	return screenText(o.String()), screenText(e.String()), code
}

// limitedBuffer keeps the first max bytes written.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	lost int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	room := b.max - b.Len()
	if room <= 0 {
		b.lost += len(p)
		return len(p), nil
	}
	if len(p) > room {
		b.lost += len(p) - room
		b.Buffer.Write(p[:room])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func (b *limitedBuffer) String() string {
	if b.lost > 0 {
		return b.Buffer.String() + fmt.Sprintf("\n[%d more bytes not shown]", b.lost)
	}
	return b.Buffer.String()
}

func (m *Model) memoryFile() string {
	if m.o.MemoryFile != "" {
		return m.o.MemoryFile
	}
	return filepath.Join(m.o.Cwd, "CLAUDE.md")
}

// memoryChanged has the memory files read again after the user edited
// one (/memory): the model is to see the change from its next request
// on, not only in the next run of reins.
func (m *Model) memoryChanged() {
	if m.o.MemoryChanged != nil {
		m.o.MemoryChanged(m.o.Session)
	}
}

// cmdMemory opens the memory file in the user's editor.
func (m *Model) cmdMemory(string) tea.Cmd {
	path := m.memoryFile()
	ed := firstSet(m.o.Getenv("VISUAL"), m.o.Getenv("EDITOR"))
	if ed == "" {
		m.commandOutput("/memory", "Set $EDITOR (or $VISUAL) to edit "+path+" from here.", true)
		return nil
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			m.commandOutput("/memory", err.Error(), true)
			return nil
		}
	}
	c := exec.Command("sh", "-c", ed+` "$1"`, "sh", path)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			if err != nil {
				m.commandOutput("/memory", "editor: "+err.Error(), true)
			} else {
				m.commandOutput("/memory", "Saved "+m.r.rel(path), false)
				m.memoryChanged()
			}
			return nil
		}}
	})
}

// editInEditor opens what the input holds in the user's editor ($VISUAL
// or $EDITOR), as Claude Code's Ctrl+G does, and puts what was saved
// back into the input. Pasted text goes out whole and comes back as
// typed text; image placeholders stay as they are.
func (m *Model) editInEditor() tea.Cmd {
	ed := firstSet(m.o.Getenv("VISUAL"), m.o.Getenv("EDITOR"))
	if ed == "" {
		m.setHint("Set $EDITOR (or $VISUAL) to edit the prompt in your editor", 3*time.Second)
		return nil
	}
	f, err := os.CreateTemp("", "reins-prompt-*.md")
	if err == nil {
		_, err = f.WriteString(m.ed.expanded())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		m.setHint("Cannot open the prompt in an editor: "+err.Error(), 3*time.Second)
		return nil
	}
	path := f.Name()
	m.comp = nil
	c := exec.Command("sh", "-c", ed+` "$1"`, "sh", path)
	return tea.ExecProcess(c, func(runErr error) tea.Msg {
		data, readErr := os.ReadFile(path)
		os.Remove(path)
		return asyncMsg{apply: func(m *Model) tea.Cmd {
			switch {
			case runErr != nil:
				m.setHint("editor: "+runErr.Error()+"; the input is unchanged", 3*time.Second)
			case readErr != nil:
				m.setHint("editor: "+readErr.Error()+"; the input is unchanged", 3*time.Second)
			default:
				m.ed.fromEditor(strings.TrimRight(string(data), "\n"))
				m.updateCompletion()
			}
			return nil
		}}
	})
}

// cmdTerminalSetup says how to type a new line in this terminal. It
// changes no file: reins reads Shift+Enter wherever the terminal reports
// it (the kitty keyboard protocol: kitty, Ghostty, WezTerm, foot,
// iTerm2...); VS Code's terminal and its forks send a plain Enter unless
// a keybinding makes Shift+Enter send backslash and Enter, which reins
// takes as a new line.
func (m *Model) cmdTerminalSetup(string) tea.Cmd {
	const always = "\\ then Enter, Alt+Enter and Ctrl+J add a new line in every terminal."
	var b strings.Builder
	switch prog := m.o.Getenv("TERM_PROGRAM"); prog {
	case "vscode", "cursor", "windsurf":
		b.WriteString("This terminal (" + prog + ") sends Shift+Enter as a plain Enter. To make it add a new line,\n")
		b.WriteString("add this to the editor's keybindings.json (Preferences: Open Keyboard Shortcuts (JSON)):\n\n")
		b.WriteString(`  {"key": "shift+enter", "command": "workbench.action.terminal.sendSequence",` + "\n")
		b.WriteString(`   "args": {"text": "\\\r"}, "when": "terminalFocus"}` + "\n\n")
	default:
		b.WriteString("Shift+Enter adds a new line in terminals that report it (kitty, Ghostty, WezTerm, foot,\n")
		b.WriteString("iTerm2 and others with the kitty keyboard protocol); reins asks for it as it starts.\n")
	}
	b.WriteString(always)
	m.commandOutput("/terminal-setup", b.String(), false)
	return nil
}

// toggleTodos shows or hides the todo list under the spinner.
func (m *Model) toggleTodos() {
	if len(m.conv.todos) == 0 {
		m.setHint("No todos yet", 2*time.Second)
		return
	}
	m.showTodos = !m.showTodos
}

// cmdAddDir adds a working folder for the rest of the session, as
// Claude Code's /add-dir does: a path relative to the working folder, or
// starting with ~, names a folder that must exist.
func (m *Model) cmdAddDir(args string) tea.Cmd {
	arg := strings.TrimSpace(args)
	typed := strings.TrimSpace("/add-dir " + arg)
	if arg == "" {
		m.commandOutput(typed, "Usage: /add-dir <path> (a folder to work in besides "+m.o.Cwd+")", true)
		return nil
	}
	if m.o.AddDir == nil {
		m.commandOutput(typed, "Working folders cannot be added in this session.", true)
		return nil
	}
	dir := arg
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		home, err := os.UserHomeDir()
		if err != nil {
			m.commandOutput(typed, "Cannot add "+arg+": "+err.Error(), true)
			return nil
		}
		dir = home + rest
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(m.o.Cwd, dir)
	}
	dir = filepath.Clean(dir)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		m.commandOutput(typed, "Cannot add "+dir+": no such folder", true)
		return nil
	case err != nil:
		m.commandOutput(typed, "Cannot add "+dir+": "+err.Error(), true)
		return nil
	case !st.IsDir():
		m.commandOutput(typed, "Cannot add "+dir+": it is not a folder", true)
		return nil
	}
	if err := m.o.AddDir(dir); err != nil {
		m.commandOutput(typed, "Cannot add "+dir+": "+err.Error(), true)
		return nil
	}
	m.commandOutput(typed, "Added "+dir+" as a working folder for this session", false)
	return nil
}

func firstSet(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// cmdDoctor checks the installation.
// colourSummary says what colours the screen is drawn with: none when
// NO_COLOR is set or the terminal has none (TERM=dumb), else the
// terminal's palette.
func colourSummary(color bool, p colorprofile.Profile) string {
	switch {
	case !color:
		return "no colour (NO_COLOR is set)"
	case p == colorprofile.NoTTY || p == colorprofile.ASCII:
		return "no colour (the terminal has none)"
	case p == colorprofile.ANSI:
		return "16 colours"
	case p == colorprofile.ANSI256:
		return "256 colours"
	}
	return "true colour"
}

func (m *Model) cmdDoctor(string) tea.Cmd {
	var checks []Check
	add := func(name string, ok bool, info string) {
		checks = append(checks, Check{Name: name, OK: ok, Info: info})
	}
	exe, err := os.Executable()
	add("reins binary", err == nil, exe+" "+m.o.Version)
	add("API credentials", m.o.KeySource != "", orNone(m.o.KeySource))
	for _, p := range []string{"bash", "git", "rg"} {
		path, err := exec.LookPath(p)
		add(p, err == nil || p == "rg", firstSet(path, "not found on PATH"))
	}
	add("terminal", m.width >= 40, fmt.Sprintf("%d×%d, %s", m.width, m.height, colourSummary(m.st.color, m.profile)))
	if m.o.HistoryFile != "" {
		add("input history", true, m.o.HistoryFile)
	}
	for _, f := range []string{
		filepath.Join(m.o.Cwd, ".claude", "settings.json"),
		filepath.Join(m.o.Cwd, ".claude", "settings.local.json"),
	} {
		if data, err := os.ReadFile(f); err == nil {
			add(m.r.rel(f), json.Valid(data), map[bool]string{true: "valid JSON", false: "not valid JSON"}[json.Valid(data)])
		}
	}
	if m.o.Doctor != nil {
		checks = append(checks, m.o.Doctor(m.ctx)...)
	}
	var b strings.Builder
	for _, c := range checks {
		mark := m.st.ok.Render("✓")
		if !c.OK {
			mark = m.st.err.Render("✗")
		}
		fmt.Fprintf(&b, "%s %-18s %s\n", mark, c.Name, c.Info)
	}
	m.commandOutput("/doctor", strings.TrimRight(b.String(), "\n"), false)
	return nil
}

// cmdContext estimates what fills the context window, by category.
func (m *Model) cmdContext(string) tea.Cmd {
	s := m.o.Session
	cfg := s.Config()
	est := func(n int) int { return (n + 3) / 4 }
	var system, memory, tools, user, assistant, calls, results int
	for _, b := range cfg.System {
		system += est(len(b.Text))
	}
	memory = est(len(cfg.UserContext)) // CLAUDE.md and the other memory files
	if cfg.Tools != nil {
		ts := cfg.Tools(m.ctx)
		for _, t := range ts.Tools {
			tools += est(len(t.Name()) + len(t.Description()) + len(t.InputSchema()))
		}
	}
	for _, h := range s.History() {
		for _, b := range h.Message.Content {
			switch {
			case b.Type == llm.BlockToolUse:
				calls += est(len(b.Input) + len(b.Name))
			case b.Type == llm.BlockToolResult:
				results += est(len(b.ResultText()))
			case h.Message.Role == llm.RoleAssistant:
				assistant += est(len(b.Text) + len(b.Thinking))
			default:
				user += est(len(b.Text))
			}
		}
	}
	win := cfg.Models.Info(s.Model()).ContextWindow
	total := system + memory + tools + user + assistant + calls + results
	rows := []struct {
		name string
		n    int
	}{{"System prompt", system}, {"Memory files", memory}, {"Tools", tools}, {"Your messages", user}, {"Replies", assistant}, {"Tool calls", calls}, {"Tool results", results}}
	var b strings.Builder
	fmt.Fprintf(&b, "%s · about %s of %s tokens (%d%%)\n", s.Model(), kTokens(total), kTokens(win), pct(total, win))
	for _, r := range rows {
		bar := strings.Repeat("█", min(30, pct(r.n, max(total, 1))*30/100))
		fmt.Fprintf(&b, "  %-14s %8s  %s\n", r.name, kTokens(r.n), m.st.accent.Render(bar))
	}
	fmt.Fprintf(&b, "  %-14s %8s", "Free", kTokens(max(0, win-total)))
	if u := s.LastUsage(); u.InputTokens+u.CacheReadInputTokens > 0 {
		fmt.Fprintf(&b, "\nLast request: %s tokens in (reported by the API)", kTokens(u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens))
	}
	m.commandOutput("/context", b.String(), false)
	return nil
}

func pct(n, of int) int {
	if of <= 0 {
		return 0
	}
	return n * 100 / of
}

func kTokens(n int) string {
	if n >= 999_950 { // "1000.0k" reads better as "1.0M"
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
	if n >= 1000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}
