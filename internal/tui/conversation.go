package tui

import (
	"encoding/json"
	"strings"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
)

// kind is what an item of the conversation is.
type kind int

const (
	kUser kind = iota
	kAssistant
	kThinking
	kTool
	kNotice
	kError
	kCommand // a local command and its output
	kShell   // a "!" command and its output
	kCompact
)

// item is one entry of the conversation as the screen shows it.
type item struct {
	kind  kind
	text  string
	level string // kNotice: "info" or "warning"
	tool  *toolCall
	done  bool
	uuid  string // kUser: the message's uuid (rewind)
	// kCommand, kShell: the command as typed, which text starts with
	// (its output follows after a line break); it may span lines.
	input string
	// kUser: what was attached for its mentions ("Read a.go (12 lines)")
	attached []string

	// the printed rendering, cached for the transcript view
	out  string
	outW int
}

// toolCall is the state of one tool call.
type toolCall struct {
	id, name string
	input    json.RawMessage
	started  time.Time
	running  bool
	progress string // last progress line
	sub      string // last activity of a sub-agent running under it
	subCalls int

	result   string
	isError  bool
	denied   bool
	data     any
	duration time.Duration
}

// todo is one TodoWrite item.
type todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

// conversation is the list of items. items[:printed] are in the
// terminal's scrollback; the rest is the live area.
type conversation struct {
	items   []*item
	printed int
	// of the response streaming now
	streams []*item          // text and thinking items not yet complete, in order
	tools   map[string]*item // tool items of the current turn by id
	todos   []todo
	retry   *engine.Retry // the retry being waited for, nil when none
	retryAt time.Time     // when it is due (set by the model, which has the clock)
	now     func() time.Time
}

func newConversation(now func() time.Time) *conversation {
	return &conversation{tools: map[string]*item{}, now: now}
}

func (c *conversation) add(it *item) *item {
	c.items = append(c.items, it)
	return it
}

// live returns the items not yet printed.
func (c *conversation) live() []*item { return c.items[c.printed:] }

// apply updates the conversation with one engine event.
func (c *conversation) apply(ev engine.Event) {
	if o := engine.From(ev); o.ParentToolUseID != "" {
		c.applySub(o.ParentToolUseID, ev)
		return
	}
	switch e := ev.(type) {
	case *engine.UserMessage:
		if e.Meta {
			return
		}
		if text := displayPrompt(e.Message); text != "" {
			c.add(&item{kind: kUser, text: text, done: true, uuid: e.UUID, attached: attachedNotes(e.Message)})
		}
	case *engine.TextDelta:
		c.stream(kAssistant).text += e.Text
		c.retry = nil
	case *engine.ThinkingDelta:
		c.stream(kThinking).text += e.Text
	case *engine.StreamReset:
		c.dropStreams()
	case *engine.AssistantBlock:
		c.completeBlock(e.Block)
	case *engine.AssistantMessage:
		for _, s := range c.streams {
			s.done = true
		}
		c.streams = nil
	case *engine.ToolStart:
		it := c.toolItem(e.ID, e.Name, e.Input)
		it.tool.running, it.tool.started = true, c.now()
	case *engine.ToolProgress:
		if it := c.tools[e.ID]; it != nil {
			it.tool.progress = lastLine(plainText(e.Progress.Message))
		}
	case *engine.ToolResult:
		it := c.toolItem(e.ID, e.Name, e.Input)
		t := it.tool
		t.running = false
		t.result, t.isError, t.denied = screenText(e.Block.ResultText()), e.IsError, e.Denied
		t.data, t.duration = e.Data, e.Duration
		it.done = true
		if e.Name == "TodoWrite" && !e.IsError {
			// The list as the model wrote it, in case no TodoUpdate follows.
			var in struct {
				Todos []todo `json:"todos"`
			}
			if json.Unmarshal(t.input, &in) == nil && in.Todos != nil {
				c.todos = in.Todos
			}
		}
	case *engine.Retry:
		c.retry = e
	case *engine.Notice:
		k := kNotice
		if e.Level == "error" {
			k = kError
		}
		// A stop hook's message is a script's output.
		c.add(&item{kind: k, level: e.Level, text: plainText(e.Text), done: true})
	case *engine.CompactBoundary:
		c.add(&item{kind: kCompact, text: "Conversation compacted", done: true})
	case *engine.TodoUpdate:
		c.setTodos(e.Todos)
	case *engine.TurnEnd:
		c.endTurn(e)
	}
}

// stream returns the incomplete item of kind k, creating it.
func (c *conversation) stream(k kind) *item {
	if n := len(c.streams); n > 0 && c.streams[n-1].kind == k {
		return c.streams[n-1]
	}
	it := c.add(&item{kind: k})
	c.streams = append(c.streams, it)
	return it
}

// dropStreams removes the partial output of a response being retried.
func (c *conversation) dropStreams() {
	drop := map[*item]bool{}
	for _, s := range c.streams {
		drop[s] = true
	}
	c.streams = nil
	kept := c.items[:c.printed]
	for _, it := range c.items[c.printed:] {
		if !drop[it] && !(it.kind == kTool && !it.tool.running && !it.done) {
			kept = append(kept, it)
		}
	}
	c.items = kept
}

func (c *conversation) completeBlock(b llm.ContentBlock) {
	switch b.Type {
	case llm.BlockText, llm.BlockThinking:
		k, text := kAssistant, b.Text
		if b.Type == llm.BlockThinking {
			k, text = kThinking, b.Thinking
		}
		var it *item
		for i, s := range c.streams {
			if s.kind == k {
				it = s
				c.streams = append(c.streams[:i:i], c.streams[i+1:]...)
				break
			}
		}
		if it == nil {
			it = c.add(&item{kind: k})
		}
		it.text, it.done = text, true
		if strings.TrimSpace(text) == "" {
			c.remove(it)
		}
	case llm.BlockToolUse:
		c.toolItem(b.ID, b.Name, b.Input)
	}
}

func (c *conversation) remove(it *item) {
	for i := c.printed; i < len(c.items); i++ {
		if c.items[i] == it {
			c.items = append(c.items[:i], c.items[i+1:]...)
			return
		}
	}
}

func (c *conversation) toolItem(id, name string, input json.RawMessage) *item {
	if it := c.tools[id]; it != nil {
		if len(input) > 0 {
			it.tool.input = input
		}
		return it
	}
	it := c.add(&item{kind: kTool, tool: &toolCall{id: id, name: name, input: input}})
	c.tools[id] = it
	return it
}

// applySub shows a sub-agent's activity under the Agent call it runs in.
func (c *conversation) applySub(parent string, ev engine.Event) {
	it := c.tools[parent]
	if it == nil {
		return
	}
	switch e := ev.(type) {
	case *engine.ToolStart:
		it.tool.sub = e.Name + "(" + toolSummary(e.Name, e.Input, "") + ")"
		it.tool.subCalls++
	case *engine.ToolProgress:
		if m := lastLine(e.Progress.Message); m != "" {
			it.tool.sub = m
		}
	}
}

func (c *conversation) setTodos(v any) {
	var ts []todo
	if !asJSON(v, &ts) {
		var wrapped struct {
			Todos []todo `json:"todos"`
		}
		if asJSON(v, &wrapped) {
			ts = wrapped.Todos
		}
	}
	c.todos = ts
}

// endTurn completes whatever the turn left open.
func (c *conversation) endTurn(e *engine.TurnEnd) {
	for _, it := range c.items[c.printed:] {
		if it.done {
			continue
		}
		it.done = true
		if it.kind == kTool && it.tool.result == "" {
			it.tool.running = false
			it.tool.isError = true
			it.tool.result = "Interrupted"
		}
	}
	c.streams = nil
	c.tools = map[string]*item{}
	c.retry = nil
	switch e.Reason {
	case engine.ReasonAborted, engine.ReasonAbortedTools:
		c.add(&item{kind: kNotice, level: "warning", text: interruptedNotice, done: true})
	case engine.ReasonError:
		msg := "The turn ended on an error"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		c.add(&item{kind: kError, text: msg, done: true})
	case engine.ReasonMaxTurns, engine.ReasonBudget, engine.ReasonBlockingLimit:
		msg := string(e.Reason)
		if e.Err != nil {
			msg = e.Err.Error()
		}
		c.add(&item{kind: kNotice, level: "warning", text: msg, done: true})
	case engine.ReasonStopHook:
		if e.HookReason != "" {
			c.add(&item{kind: kNotice, level: "warning", text: "Stopped by hook: " + e.HookReason, done: true})
		}
	}
}

// currentTodo is the todo in progress, if any.
func (c *conversation) currentTodo() *todo {
	for i := range c.todos {
		if c.todos[i].Status == "in_progress" {
			return &c.todos[i]
		}
	}
	return nil
}

// displayPrompt is how a user message is shown: its text, with command
// invocations as "/name args" and shell runs as "! cmd".
func displayPrompt(m *llm.Message) string {
	var parts, notes []string
	images := 0
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			if len(parts) > 0 && isAttachment(b.Text) {
				if n := unattachedResource(b.Text); n != "" {
					notes = append(notes, n)
				}
				continue
			}
			parts = append(parts, b.Text)
		case llm.BlockImage:
			images++
		}
	}
	// Images pasted as paths have their "[Image #N]" in the text already.
	for range images - len(imageRef().FindAllString(strings.Join(parts, "\n"), -1)) {
		parts = append(parts, "[Image]")
	}
	text := strings.Join(append(parts, notes...), "\n")
	if name := between(text, "<command-name>", "</command-name>"); name != "" {
		args := between(text, "<command-args>", "</command-args>")
		return strings.TrimSpace(name + " " + args)
	}
	if cmd := between(text, "<bash-input>", "</bash-input>"); cmd != "" {
		return "! " + cmd
	}
	return text
}

// unattachedResource is the line shown for an MCP resource block that
// says the resource could not be attached ("" for any other block), so
// the user sees what the model was told.
func unattachedResource(block string) string {
	server := between(block, `<mcp-resource server="`, `"`)
	uri := between(block, `" uri="`, `">`)
	why := between(block, "\n[not attached: ", "]\n</mcp-resource>")
	if server == "" || why == "" {
		return ""
	}
	return "(@" + server + ":" + uri + " not attached: " + why + ")"
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	rest := s[i+len(open):]
	j := strings.Index(rest, close)
	if j < 0 {
		return ""
	}
	return rest[:j]
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// isShellOutput reports the message holding a "!" run's output (the
// one after its <bash-input> message).
func isShellOutput(m *llm.Message) bool {
	return len(m.Content) > 0 && m.Content[0].Type == llm.BlockText && strings.HasPrefix(m.Content[0].Text, "<bash-stdout>")
}

// shellOutputText is a "!" run's output as shown: its stdout, then its
// stderr.
func shellOutputText(m *llm.Message) string {
	t := m.Content[0].Text
	var parts []string
	for _, p := range []string{between(t, "<bash-stdout>", "</bash-stdout>"), between(t, "<bash-stderr>", "</bash-stderr>")} {
		if p = strings.TrimRight(p, "\n"); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n")
}

// interruptedNotice is shown where the user stopped a turn, worded as
// Claude Code words it ("Interrupted · What should Claude do instead?").
const interruptedNotice = "Interrupted · What should reins do instead?"

// historyItems turns a loaded history into printed items (resume).
func historyItems(h []engine.HistoryItem) []*item {
	var out []*item
	results := map[string]llm.ContentBlock{}
	for _, hi := range h {
		for _, b := range hi.Message.Content {
			if b.Type == llm.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	for _, hi := range h {
		m := hi.Message
		switch {
		case hi.Summary:
			out = append(out, &item{kind: kCompact, text: "Conversation compacted (summary of earlier messages)", done: true})
		case engine.IsInterruptMarker(m):
			out = append(out, &item{kind: kNotice, level: "warning", text: interruptedNotice, done: true})
		case m.Role == llm.RoleUser && !hi.Meta && isShellOutput(m):
			// A "!" run's output goes under its command, as it was shown.
			if n := len(out); n > 0 && out[n-1].kind == kUser && strings.HasPrefix(out[n-1].text, "! ") {
				out[n-1] = &item{kind: kShell, input: out[n-1].text, text: out[n-1].text + "\n" + shellOutputText(m), done: true, uuid: out[n-1].uuid}
			}
		case m.Role == llm.RoleUser && !hi.Meta:
			if t := displayPrompt(m); strings.TrimSpace(t) != "" && !onlyResults(m) {
				out = append(out, &item{kind: kUser, text: t, done: true, uuid: hi.UUID, attached: attachedNotes(m)})
			}
		case m.Role == llm.RoleAssistant:
			for _, b := range m.Content {
				switch b.Type {
				case llm.BlockText:
					if strings.TrimSpace(b.Text) != "" {
						out = append(out, &item{kind: kAssistant, text: b.Text, done: true})
					}
				case llm.BlockToolUse:
					t := &toolCall{id: b.ID, name: b.Name, input: b.Input}
					if r, ok := results[b.ID]; ok {
						t.result, t.isError = screenText(r.ResultText()), r.IsError
					}
					out = append(out, &item{kind: kTool, tool: t, done: true})
				}
			}
		}
	}
	return out
}

func onlyResults(m *llm.Message) bool {
	for _, b := range m.Content {
		if b.Type != llm.BlockToolResult {
			return false
		}
	}
	return len(m.Content) > 0
}
