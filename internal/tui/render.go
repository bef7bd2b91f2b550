package tui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/tool"
)

// renderer draws items. It holds no conversation state.
type renderer struct {
	st  *styles
	md  *markdown
	cwd string
}

const (
	dot        = "●"
	resultMark = "  ⎿  "
	indent5    = "     "
	// collapsedLines is how many result lines a finished call shows.
	collapsedLines = 3
	// diffLines is how many diff lines a finished edit shows.
	diffLines = 24
)

// item renders a finished item for the scrollback; full shows tool output
// whole (the transcript view).
func (r *renderer) item(it *item, width int, full bool) string {
	if width < 20 {
		width = 20
	}
	if !full && it.out != "" && it.outW == width {
		return it.out
	}
	var s string
	switch it.kind {
	case kUser:
		s = r.user(it.text, width)
		for _, a := range it.attached {
			s += "\n" + r.st.dim.Render(hang(resultMark, a, width))
		}
	case kAssistant:
		s = r.assistant(it.text, width)
	case kThinking:
		if full {
			s = r.st.dim.Render("✻ Thinking") + "\n" + r.st.faint.Render(indentLines(xansi.Wrap(it.text, width-2, ""), "  "))
		} else {
			s = r.st.dim.Render("✻ Thinking…")
		}
	case kTool:
		s = r.tool(it.tool, width, full)
	case kNotice:
		s = r.notice(it, width)
	case kError:
		s = r.st.err.Render(hang(resultMark, "Error: "+it.text, width))
	case kCommand, kShell:
		s = r.command(it, width, full)
	case kCompact:
		s = r.st.dim.Render(ruleLine("✻ "+it.text, width))
	}
	if !full {
		it.out, it.outW = s, width
	}
	return s
}

func (r *renderer) notice(it *item, width int) string {
	switch it.level {
	case "welcome":
		return r.st.accent.Render(cut(it.text, width))
	case "warning":
		return r.st.warn.Render(hang(resultMark, it.text, width))
	}
	return r.st.dim.Render(hang(resultMark, it.text, width))
}

func (r *renderer) user(text string, width int) string {
	lines := strings.Split(xansi.Wrap(text, width-2, ""), "\n")
	for i, l := range lines {
		p := "  "
		if i == 0 {
			p = "> "
		}
		lines[i] = r.st.userBar.Render(p) + r.st.user.Render(l)
	}
	return strings.Join(lines, "\n")
}

func (r *renderer) assistant(text string, width int) string {
	body := r.md.render(text, width-2)
	return r.st.bold.Render(dot) + " " + indentRest(body, "  ")
}

func (r *renderer) command(it *item, width int, full bool) string {
	head, out, _ := strings.Cut(it.text, "\n")
	if it.input != "" && strings.HasPrefix(it.text, it.input) {
		// A command typed on several lines is all head: its lines
		// after the first were shown as its output.
		head, out = it.input, strings.TrimPrefix(it.text[len(it.input):], "\n")
	}
	lines := strings.Split(head, "\n")
	s := r.st.userBar.Render("> ") + r.st.user.Render(lines[0])
	for _, l := range lines[1:] {
		s += "\n  " + r.st.user.Render(l)
	}
	if out = strings.TrimRight(out, "\n"); out != "" {
		if it.kind == kShell {
			out = r.output(out)
		}
		lines := strings.Split(out, "\n")
		if !full && it.kind == kShell && len(lines) > 12 {
			n := len(lines) - 12
			lines = append(lines[:12], r.st.dim.Render(fmt.Sprintf("… +%d lines (ctrl+o to expand)", n)))
		}
		s += "\n" + hang(resultMark, strings.Join(lines, "\n"), width)
	}
	return s
}

// output is a command's output as shown: with its colours (screenText
// kept them) unless colours are off.
func (r *renderer) output(s string) string {
	if r.md != nil && !r.md.color {
		return xansi.Strip(s)
	}
	return s
}

// toolHeader is "Name(summary)".
func (r *renderer) toolHeader(t *toolCall, width int) string {
	name := displayToolName(t.name)
	sum := toolSummary(t.name, t.input, r.cwd)
	if sum == "" {
		return r.st.toolName.Render(name)
	}
	return r.st.toolName.Render(name) + "(" + cut(sum, max(10, width-len(name)-6)) + ")"
}

func (r *renderer) tool(t *toolCall, width int, full bool) string {
	mark := r.st.ok.Render(dot)
	if t.isError || t.denied {
		mark = r.st.err.Render(dot)
	}
	var b strings.Builder
	b.WriteString(mark + " " + r.toolHeader(t, width))
	body := r.toolResult(t, width, full)
	if body != "" {
		b.WriteString("\n" + body)
	}
	return b.String()
}

// toolResult is the indented result under a finished call's header.
func (r *renderer) toolResult(t *toolCall, width int, full bool) string {
	inner := width - len(resultMark)
	switch {
	case t.denied:
		return r.st.err.Render(hang(resultMark, firstLines(r.output(t.result), 2), width))
	case t.isError:
		text := r.output(t.result)
		if text == tool.InterruptedText || text == "Cancelled: "+errInterrupted.Error()+"." {
			// What the model is told; the user pressed the key.
			text = "Interrupted by the user"
		}
		if t.name == "Agent" || t.name == "Task" {
			text = stripAgentTrailer(text)
		}
		if !full {
			text = firstLines(text, collapsedLines)
		}
		return r.st.err.Render(hang(resultMark, text, width))
	}
	switch t.name {
	case "Agent", "Task":
		if body, ok := r.agentResult(t, width, full); ok {
			return body
		}
	case "Edit", "MultiEdit", "Write":
		path, hs, created := patchFromResult(t.name, t.input, t.data)
		add, del := countChanges(hs)
		var head string
		if created {
			head = fmt.Sprintf("Wrote %d lines to %s", add, r.rel(path))
		} else {
			head = fmt.Sprintf("Updated %s with %s and %s", r.rel(path), plural(add, "addition"), plural(del, "removal"))
		}
		limit := diffLines
		if full {
			limit = 0
		}
		lines := renderDiff(r.st, hs, inner, limit)
		return resultMark + head + "\n" + indentLines(strings.Join(lines, "\n"), indent5)
	case "Read":
		var d struct {
			File struct {
				NumLines int `json:"numLines"`
			} `json:"file"`
		}
		if !full && asJSON(t.data, &d) && d.File.NumLines > 0 {
			return r.st.dim.Render(resultMark + "Read " + plural(d.File.NumLines, "line"))
		}
	case "TodoWrite":
		var in struct {
			Todos []todo `json:"todos"`
		}
		if json.Unmarshal(t.input, &in) == nil && len(in.Todos) > 0 {
			return hang(resultMark, r.todoList(in.Todos, inner), width)
		}
	case "AskUserQuestion":
		var d struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
			Answers map[string]string `json:"answers"`
		}
		if asJSON(t.data, &d) && len(d.Answers) > 0 {
			var lines []string
			for _, q := range d.Questions { // in the order asked
				if a, ok := d.Answers[q.Question]; ok {
					lines = append(lines, "· "+q.Question+" → "+r.st.bold.Render(a))
				}
			}
			return hang(resultMark, strings.Join(lines, "\n"), width)
		}
	case "ExitPlanMode":
		head := r.st.ok.Render(resultMark + "User approved the plan")
		var in struct {
			Plan string `json:"plan"`
		}
		if json.Unmarshal(t.input, &in) != nil || strings.TrimSpace(in.Plan) == "" {
			return head
		}
		return head + "\n" + indentLines(r.md.render(in.Plan, inner), indent5)
	case "EnterPlanMode":
		return r.st.dim.Render(resultMark + "Entered plan mode")
	}
	text := strings.TrimRight(r.output(t.result), "\n")
	if text == "" {
		return r.st.dim.Render(resultMark + "(no output)")
	}
	if !full {
		lines := strings.Split(text, "\n")
		if len(lines) > collapsedLines {
			rest := len(lines) - collapsedLines
			text = strings.Join(lines[:collapsedLines], "\n") + "\n" + r.st.dim.Render(fmt.Sprintf("… +%d lines (ctrl+o to expand)", rest))
		}
		text = cutLines(text, inner)
	} else {
		text = expandTabs(text)
	}
	return hang(resultMark, text, width)
}

// liveTool draws a call that is pending or running; movable offers
// Ctrl+B to move it to the background.
func (r *renderer) liveTool(t *toolCall, width int, frame string, now time.Time, movable bool) string {
	mark := r.st.dim.Render("○")
	if t.running {
		mark = r.st.accent.Render(frame)
	}
	after := ""
	if t.running {
		after = " · " + elapsed(now.Sub(t.started))
	}
	room := width
	if movable {
		// The command gives way so that the hint stays whole.
		after += " · ctrl+b to run in background"
		room -= xansi.StringWidth(after)
	}
	s := mark + " " + r.toolHeader(t, room)
	if after != "" {
		s += r.st.dim.Render(after)
	}
	if movable {
		s = cut(s, width)
	}
	if t.sub != "" {
		s += "\n" + r.st.dim.Render(hang(resultMark, cut(fmt.Sprintf("%s (%s)", t.sub, plural(t.subCalls, "tool use")), width-6), width))
	} else if t.progress != "" {
		s += "\n" + r.st.dim.Render(resultMark+cut(t.progress, width-len(resultMark)))
	}
	return s
}

func (r *renderer) todoList(ts []todo, width int) string {
	var lines []string
	for _, t := range ts {
		switch t.Status {
		case "completed":
			lines = append(lines, r.st.todoDone.Render(cut("☒ "+t.Content, width)))
		case "in_progress":
			lines = append(lines, r.st.todoNow.Render(cut("☐ "+t.Content, width)))
		default:
			lines = append(lines, cut("☐ "+t.Content, width))
		}
	}
	return strings.Join(lines, "\n")
}

func (r *renderer) rel(path string) string {
	if path == "" {
		return "file"
	}
	if r.cwd != "" {
		if rel, err := filepath.Rel(r.cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// displayToolName shortens MCP tool names: mcp__server__tool → server - tool.
func displayToolName(name string) string {
	if name == "TodoWrite" {
		return "Update Todos"
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if srv, tool, ok := strings.Cut(rest, "__"); ok {
			return srv + " - " + tool
		}
	}
	return name
}

// toolSummary is the argument shown in a call's header.
func toolSummary(name string, input json.RawMessage, cwd string) string {
	var in map[string]any
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	str := func(k string) string {
		s, _ := in[k].(string)
		return s
	}
	relPath := func(p string) string {
		if cwd != "" {
			if rel, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
				return rel
			}
		}
		return p
	}
	switch name {
	case "Bash":
		return oneLine(str("command"))
	case "Read", "Edit", "MultiEdit", "Write":
		return relPath(str("file_path"))
	case "NotebookEdit":
		return relPath(str("notebook_path"))
	case "Glob", "Grep":
		s := "pattern: \"" + str("pattern") + "\""
		if p := str("path"); p != "" {
			s += ", path: \"" + relPath(p) + "\""
		}
		return s
	case "WebFetch":
		return str("url")
	case "WebSearch":
		return str("query")
	case "Agent", "Task":
		return str("description")
	case "TodoWrite", "AskUserQuestion", "ExitPlanMode", "EnterPlanMode":
		return ""
	case "Skill":
		return str("skill")
	}
	for _, k := range []string{"command", "file_path", "path", "query", "url", "pattern", "description", "name"} {
		if s := str(k); s != "" {
			return oneLine(s)
		}
	}
	return ""
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func elapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// hang wraps text to width with prefix on the first line and spaces of
// the same width on the rest.
func hang(prefix, text string, width int) string {
	pw := xansi.StringWidth(prefix)
	lines := strings.Split(xansi.Wrap(text, max(10, width-pw), ""), "\n")
	pad := strings.Repeat(" ", pw)
	for i := range lines {
		if i == 0 {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

func indentLines(s, p string) string {
	if s == "" {
		return s
	}
	return p + strings.ReplaceAll(s, "\n", "\n"+p)
}

func indentRest(s, p string) string { return strings.ReplaceAll(s, "\n", "\n"+p) }

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("… +%d lines", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

func cutLines(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = cut(expandTabs(l), width)
	}
	return strings.Join(lines, "\n")
}

func ruleLine(label string, width int) string {
	n := width - xansi.StringWidth(label) - 4
	if n < 2 {
		return cut(label, width)
	}
	return "── " + label + " " + strings.Repeat("─", n)
}

// agentResult shows a sub-agent's run as Claude Code does: how much it
// did ("Done (3 tool uses · 7.0k tokens · 12s)"), with its answer only in
// the full transcript. The agentId and usage trailer of the result are
// for the model, not the screen.
func (r *renderer) agentResult(t *toolCall, width int, full bool) (string, bool) {
	var d struct {
		Status  string `json:"status"`
		AgentID string `json:"agentId"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		TotalDurationMs   int64 `json:"totalDurationMs"`
		TotalTokens       int   `json:"totalTokens"`
		TotalToolUseCount int   `json:"totalToolUseCount"`
	}
	if !asJSON(t.data, &d) || d.Status == "" {
		return "", false
	}
	if d.Status == "async_launched" {
		return r.st.dim.Render(resultMark + "Running in the background (agent " + d.AgentID + ")"), true
	}
	done := fmt.Sprintf("Done (%s · %s tokens · %s)", plural(d.TotalToolUseCount, "tool use"),
		kTokens(d.TotalTokens), elapsed(time.Duration(d.TotalDurationMs)*time.Millisecond))
	if !full {
		return r.st.dim.Render(resultMark + done), true
	}
	var answer []string
	for _, c := range d.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			answer = append(answer, c.Text)
		}
	}
	if len(answer) == 0 {
		return r.st.dim.Render(resultMark + done), true
	}
	body := r.md.render(strings.Join(answer, "\n\n"), width-len(indent5))
	return resultMark + strings.TrimPrefix(indentLines(body, indent5), indent5) + "\n" + r.st.dim.Render(indent5+done), true
}

// stripAgentTrailer drops the "agentId: … <usage>…</usage>" lines a
// sub-agent's result ends with.
func stripAgentTrailer(text string) string {
	if i := strings.LastIndex(text, "agentId: "); i >= 0 && strings.Contains(text[i:], "<usage>") {
		return strings.TrimRight(text[:i], "\n ")
	}
	return text
}
