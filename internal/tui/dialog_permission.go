package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"reins/internal/engine"
)

// permissionDialog asks whether a tool call may run.
type permissionDialog struct {
	a        askMsg
	title    string
	body     string
	full     string // the whole preview when body cut the diff (ctrl+o shows it)
	question string
	rule     string
	choices  []permChoice
	menu     menu
	feedback *lineInput // set once "No" was chosen: what to tell the model
}

// permChoice is one answer of the permission dialog: allow (with the
// permission updates that remember it, if any) or say no.
type permChoice struct {
	label   string
	no      bool
	updates []engine.Suggestion
}

func newPermissionDialog(m *Model, a askMsg) *permissionDialog {
	d := &permissionDialog{a: a, rule: ruleFor(a.q), question: permissionQuestion(a.q)}
	d.title, d.body = permissionPreview(m, a.q, dialogDiffLines(m.height))
	if _, full := permissionPreview(m, a.q, 0); full != d.body {
		d.full = full
	}
	d.choices = permissionChoices(a.q, d.rule, m.r.rel)
	for _, c := range d.choices {
		d.menu.items = append(d.menu.items, c.label)
	}
	return d
}

// permissionChoices are the dialog's answers. What "don't ask again"
// remembers follows the gate's suggestion, as in Claude Code: an edit
// inside the working folders offers accept-edits mode for the session, a
// path outside them offers its folder for the session, and a command or
// other tool offers its rule for the session or, saved, for good. An edit
// or read with no suggestion (a protected file, an ask rule) offers no
// rule: remembering the bare tool name would have allowed every later
// edit or read anywhere on disk.
func permissionChoices(q engine.Question, rule string, rel func(string) string) []permChoice {
	out := []permChoice{{label: "Yes"}}
	var rules *engine.Suggestion
	for i, s := range q.Suggestions {
		switch {
		case s.Type == "setMode" && s.Mode == "acceptEdits":
			out = append(out, permChoice{label: "Yes, allow all edits during this session (shift+tab)", updates: []engine.Suggestion{s}})
		case s.Type == "addDirectories" && len(s.Directories) > 0:
			dirs := make([]string, len(s.Directories))
			for j, d := range s.Directories {
				dirs[j] = rel(d)
			}
			s.Destination = "session"
			out = append(out, permChoice{label: "Yes, and add " + strings.Join(dirs, ", ") + " to the working folders for this session",
				updates: []engine.Suggestion{s}})
		case s.Type == "addRules" && len(s.Rules) > 0 && rules == nil:
			rules = &q.Suggestions[i]
		}
	}
	if rules == nil && len(out) == 1 && !pathTool(q.ToolName) {
		rules = &engine.Suggestion{Type: "addRules", Rules: []string{rule}}
	}
	if rules != nil {
		remember := func(dest string) []engine.Suggestion {
			s := *rules
			s.Destination, s.Behavior = dest, "allow"
			s.Rules = append([]string(nil), s.Rules...)
			return []engine.Suggestion{s}
		}
		out = append(out,
			permChoice{label: "Yes, and don't ask again this session for " + rule, updates: remember("session")},
			permChoice{label: "Yes, and always allow " + rule + " (saved in .claude/settings.local.json)", updates: remember("localSettings")})
	}
	return append(out, permChoice{label: "No, and tell reins what to do differently", no: true})
}

// pathTool reports a tool whose permission is decided by the path it
// reads or edits.
func pathTool(name string) bool {
	switch name {
	case "Edit", "MultiEdit", "Write", "NotebookEdit", "Read", "Glob", "Grep", "LS", "NotebookRead":
		return true
	}
	return false
}

func (d *permissionDialog) ask() askMsg { return d.a }

func (d *permissionDialog) paste(s string) {
	if d.feedback != nil {
		d.feedback.paste(s)
	}
}

func (d *permissionDialog) key(m *Model, k tea.KeyPressMsg) (bool, tea.Cmd) {
	if d.feedback != nil {
		switch k.String() {
		case "enter":
			msg := d.feedback.value()
			if msg == "" {
				msg = "The user denied this call."
			} else {
				msg = "The user denied this call and said: " + msg
			}
			answer(d.a, engine.Answer{Allow: false, Message: msg})
			return true, nil
		case "esc":
			d.feedback = nil
		default:
			d.feedback.key(k)
		}
		return false, nil
	}
	switch k.String() {
	case "esc", "ctrl+c":
		answer(d.a, engine.Answer{Allow: false, Interrupt: true, Message: "The user refused this call and stopped the turn."})
		return true, nil
	case "y":
		answer(d.a, engine.Answer{Allow: true})
		return true, nil
	case "n":
		d.feedback = &lineInput{}
		d.menu.sel = len(d.choices) - 1
		return false, nil
	case "shift+tab":
		// The choice that turns on accept-edits mode, which its label
		// offers on this key, as Claude Code's does.
		for _, c := range d.choices {
			for _, u := range c.updates {
				if u.Type == "setMode" && u.Mode == "acceptEdits" {
					answer(d.a, engine.Answer{Allow: true, Updates: c.updates})
					return true, nil
				}
			}
		}
		return false, nil
	}
	i := d.menu.key(k)
	if i < 0 || i >= len(d.choices) {
		return false, nil
	}
	if d.choices[i].no {
		d.feedback = &lineInput{}
		return false, nil
	}
	answer(d.a, engine.Answer{Allow: true, Updates: d.choices[i].updates})
	return true, nil
}

func (d *permissionDialog) view(m *Model, width int) string {
	var b strings.Builder
	b.WriteString(d.body)
	if r := strings.TrimSpace(d.a.q.Reason); r != "" {
		// A few lines at most: a reason quoting a long command would
		// push the question off the screen.
		r = hang("", r, width)
		if lines := strings.Split(r, "\n"); len(lines) > reasonLines {
			r = strings.Join(lines[:reasonLines], "\n") + "…"
		}
		b.WriteString("\n" + m.st.dim.Render(r))
	}
	b.WriteString("\n\n" + hang("", d.question, width) + "\n")
	b.WriteString(d.menu.view(&m.st, width))
	if d.feedback != nil {
		b.WriteString("\n" + d.feedback.view(&m.st, width, "what should reins do instead? (enter to send)"))
	}
	b.WriteString("\n" + m.st.dim.Render(cut("enter to choose · esc to deny and stop", width)))
	return frame(&m.st, d.title, b.String(), width)
}

// ruleFor is the rule an "always allow" answer saves: the gate's
// suggestion, or the exact call.
func ruleFor(q engine.Question) string {
	for _, s := range q.Suggestions {
		if s.Type == "addRules" && len(s.Rules) > 0 {
			return strings.Join(s.Rules, ", ")
		}
	}
	var in map[string]any
	json.Unmarshal(q.Input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch q.ToolName {
	case "Bash":
		if c := strings.TrimSpace(str("command")); c != "" && !strings.Contains(c, "\n") {
			return "Bash(" + c + ")"
		}
	case "WebFetch":
		if u := str("url"); u != "" {
			if i := strings.Index(u, "://"); i >= 0 {
				host, _, _ := strings.Cut(u[i+3:], "/")
				return "WebFetch(domain:" + host + ")"
			}
		}
	}
	return q.ToolName
}

// permissionPreview is the dialog's title and what the call will do.
// Diffs and commands show at most diffLimit lines (0: all).
func permissionPreview(m *Model, q engine.Question, diffLimit int) (title, body string) {
	st, w := &m.st, m.width
	var in map[string]any
	json.Unmarshal(q.Input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch q.ToolName {
	case "Bash":
		// The command's first lines, which say what runs; the rest
		// is marked as cut, and ctrl+o shows it whole. (It showed the
		// last ten lines, unmarked, so a long command's start was
		// never on screen.)
		lines := strings.Split(hang("", str("command"), w-2), "\n")
		if diffLimit > 0 && len(lines) > diffLimit {
			n := len(lines) - (diffLimit - 1)
			lines = append(lines[:diffLimit-1], st.dim.Render(fmt.Sprintf("… +%d lines (ctrl+o to expand)", n)))
		}
		body = "  " + strings.Join(lines, "\n  ")
		if d := str("description"); d != "" {
			body += "\n  " + st.dim.Render(cut(d, w-2))
		}
		return "Bash command", body
	case "Edit", "MultiEdit", "Write":
		path, hs := patchFromInput(q.ToolName, q.Input, true)
		title = "Edit file"
		if q.ToolName == "Write" {
			title = "Write file"
			if !fileExists(path) {
				title = "Create file"
			}
		}
		lines := renderDiff(st, hs, w-2, diffLimit)
		return title, "  " + st.bold.Render(cut(m.r.rel(path), w-2)) + "\n" + indentLines(strings.Join(lines, "\n"), "  ")
	}
	summary := toolSummary(q.ToolName, q.Input, m.o.Cwd)
	if summary == "" {
		summary = compactJSON(q.Input)
	}
	return "Use " + displayToolName(q.ToolName), "  " + st.bold.Render(displayToolName(q.ToolName)) + "(" + cut(summary, w-10) + ")"
}

// permissionQuestion is the question above the choices, as Claude Code
// words it: about the file for an edit ("Do you want to make this edit
// to main.go?", "Do you want to create notes.md?"), in general for the
// rest.
func permissionQuestion(q engine.Question) string {
	switch q.ToolName {
	case "Edit", "MultiEdit", "Write":
		var in struct {
			FilePath string `json:"file_path"`
		}
		if json.Unmarshal(q.Input, &in) != nil || in.FilePath == "" {
			break
		}
		name := filepath.Base(in.FilePath)
		if q.ToolName == "Write" && !fileExists(in.FilePath) {
			return "Do you want to create " + name + "?"
		}
		return "Do you want to make this edit to " + name + "?"
	}
	return "Do you want to proceed?"
}

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// reasonLines is how many lines of the gate's reason the permission
// dialog shows.
const reasonLines = 3

// dialogDiffLines is how many lines of a diff or a command the
// permission dialog shows: up to 20, fewer in a short terminal, so that the dialog's title,
// file name and choices stay on screen (a taller live area is cut at the
// top) and finished messages still have room to print above it.
func dialogDiffLines(height int) int {
	return min(20, max(4, height-22))
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// whole is the call's whole preview when the dialog cut it, for the
// transcript view (ctrl+o).
func (d *permissionDialog) whole(*Model, int) (title, body string) { return d.title, d.full }
