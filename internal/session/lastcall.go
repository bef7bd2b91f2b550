package session

import (
	"encoding/json"
	"slices"
	"strings"

	"reins/internal/llm"
)

// The tools whose last call a resumed session's state is taken from, by
// their names in reins and in Claude Code.
const (
	todoWriteTool = "TodoWrite"    // sets the todo list
	exitPlanTool  = "ExitPlanMode" // presents a plan for approval
)

// lastTodoList is the todo list the conversation ending at leaf set last
// (see lastCall). A list whose items are all completed is empty, as
// TodoWrite clears a finished list. It returns nil when the conversation
// never set one.
func (ld *loader) lastTodoList(leaf int) json.RawMessage {
	var list json.RawMessage
	ld.lastCall(leaf, todoWriteTool, func(input json.RawMessage) bool {
		var valid bool
		list, valid = todoListOf(input)
		return valid
	})
	return list
}

// lastCall finds the newest call to the tool named name, in the
// conversation ending at leaf, whose result is in the file and not an
// error, and whose input accept takes. It walks back from leaf through
// parentUuid and, past a compaction boundary, into the conversation the
// boundary summarised, where such a call usually is. It reports whether
// one was found.
func (ld *loader) lastCall(leaf int, name string, accept func(input json.RawMessage) bool) bool {
	seen := map[int]bool{}
	for cur := leaf; cur >= 0 && !seen[cur]; {
		seen[cur] = true
		nd := &ld.nodes[cur]
		if m := nd.msg; m != nil && m.Role == llm.RoleAssistant {
			for k := len(m.Content) - 1; k >= 0; k-- {
				b := &m.Content[k]
				if b.Type == llm.BlockToolUse && b.Name == name && ld.answeredOK(b.ID) && accept(b.Input) {
					return true
				}
			}
		}
		up := nd.parent
		if nd.boundary != nil && nd.logical != "" {
			up = nd.logical
		}
		next, found := ld.index[up]
		if up == "" {
			next = -1
		} else if !found {
			next = nd.prevFile // a missing link is bridged, as chain does
		}
		cur = next
	}
	return false
}

// answeredOK reports whether the tool call id has a result in the file
// (off the chain too) that is not an error.
func (ld *loader) answeredOK(id string) bool {
	if ld.answered == nil {
		ld.answered = map[string]bool{}
		for i := range ld.nodes {
			nd := &ld.nodes[i]
			if nd.sidechain || nd.msg == nil || nd.msg.Role != llm.RoleUser {
				continue
			}
			for _, b := range nd.msg.Content {
				if b.Type == llm.BlockToolResult && !b.IsError {
					ld.answered[b.ToolUseID] = true
				}
			}
		}
	}
	return ld.answered[id]
}

// lastPlan is the plan of the conversation ending at leaf's last
// ExitPlanMode call that went through, "" if none.
func (ld *loader) lastPlan(leaf int) string {
	plan := ""
	ld.lastCall(leaf, exitPlanTool, func(input json.RawMessage) bool {
		var in struct {
			Plan string `json:"plan"`
		}
		if json.Unmarshal(input, &in) != nil || strings.TrimSpace(in.Plan) == "" {
			return false
		}
		plan = in.Plan
		return true
	})
	return plan
}

// todoListOf is the todos of a TodoWrite input, "[]" when every item is
// completed; valid is false when the input holds no list.
func todoListOf(input json.RawMessage) (list json.RawMessage, valid bool) {
	var in struct {
		Todos []struct {
			Status string `json:"status"`
		} `json:"todos"`
	}
	var raw struct {
		Todos json.RawMessage `json:"todos"`
	}
	if json.Unmarshal(input, &in) != nil || json.Unmarshal(input, &raw) != nil || in.Todos == nil {
		return nil, false
	}
	for _, it := range in.Todos {
		if it.Status != "completed" {
			return raw.Todos, true
		}
	}
	return json.RawMessage("[]"), true
}

// applyReplacements puts the replacement texts recorded for tool results
// (TypeReplacement: the per-message budget's decisions about results
// recorded before it ran) in place of those results' content, as the
// session that recorded them had them.
func (ld *loader) applyReplacements(items []stamped) []stamped {
	if len(ld.t.Replacements) == 0 {
		return items
	}
	repl := make(map[string]string, len(ld.t.Replacements))
	for _, r := range ld.t.Replacements {
		repl[r.ToolUseID] = r.Text
	}
	for i := range items {
		m := items[i].Message // read from the file by this load: changed in place
		if m.Role != llm.RoleUser {
			continue
		}
		for k, b := range m.Content {
			if text, ok := repl[b.ToolUseID]; ok && b.Type == llm.BlockToolResult {
				m.Content[k].Content = []llm.ContentBlock{llm.TextBlock(text)}
				m.Invalidate()
			}
		}
	}
	return items
}

// resultsInCallOrder puts the results messages that follow a message
// calling tools in the order of its calls. Results are recorded as each
// call finishes, so a transcript holds them in the order they finished;
// the session that recorded them had them in call order.
func resultsInCallOrder(items []stamped) []stamped {
	for i := 0; i < len(items); i++ {
		m := items[i].Message
		if m.Role != llm.RoleAssistant {
			continue
		}
		j := i + 1
		for j < len(items) && onlyResults(items[j].Message) {
			j++
		}
		if j-(i+1) < 2 {
			continue
		}
		order := map[string]int{}
		for _, b := range m.Content {
			if b.Type == llm.BlockToolUse {
				order[b.ID] = len(order)
			}
		}
		rank := func(it stamped) int {
			if r, ok := order[it.Message.Content[0].ToolUseID]; ok {
				return r
			}
			return len(order)
		}
		slices.SortStableFunc(items[i+1:j], func(a, b stamped) int { return rank(a) - rank(b) })
		i = j - 1
	}
	return items
}

// onlyResults reports a user message holding tool results and nothing
// else.
func onlyResults(m *llm.Message) bool {
	if m.Role != llm.RoleUser || len(m.Content) == 0 {
		return false
	}
	for _, b := range m.Content {
		if b.Type != llm.BlockToolResult {
			return false
		}
	}
	return true
}
