package session

import (
	"encoding/json"

	"reins/internal/llm"
)

// todoWriteTool is the name of the tool that sets the todo list, in reins
// and in Claude Code.
const todoWriteTool = "TodoWrite"

// lastTodoList is the todo list the conversation ending at leaf set last:
// the input of its newest TodoWrite call whose result is in the file and
// not an error, found by walking back from leaf through parentUuid and,
// past a compaction boundary, into the conversation the boundary
// summarised (the call is usually there). A list whose items are all
// completed is empty, as TodoWrite clears a finished list. It returns nil
// when the conversation never set one.
func (ld *loader) lastTodoList(leaf int) json.RawMessage {
	ok := map[string]bool{} // tool_use id → answered without error
	for i := range ld.nodes {
		nd := &ld.nodes[i]
		if nd.sidechain || nd.msg == nil || nd.msg.Role != llm.RoleUser {
			continue
		}
		for _, b := range nd.msg.Content {
			if b.Type == llm.BlockToolResult && !b.IsError {
				ok[b.ToolUseID] = true
			}
		}
	}
	if len(ok) == 0 {
		return nil
	}
	seen := map[int]bool{}
	for cur := leaf; cur >= 0 && !seen[cur]; {
		seen[cur] = true
		nd := &ld.nodes[cur]
		if m := nd.msg; m != nil && m.Role == llm.RoleAssistant {
			for k := len(m.Content) - 1; k >= 0; k-- {
				b := &m.Content[k]
				if b.Type != llm.BlockToolUse || b.Name != todoWriteTool || !ok[b.ID] {
					continue
				}
				if list, valid := todoListOf(b.Input); valid {
					return list
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
	return nil
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
