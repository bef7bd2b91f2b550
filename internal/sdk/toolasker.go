package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tool"
)

// ToolAsker answers permission questions by calling a tool, usually an MCP
// tool named by --permission-prompt-tool. The tool gets
// {"tool_name","input","tool_use_id"} and answers with text holding the
// same JSON a can_use_tool answer holds: {"behavior":"allow",
// "updatedInput":{…}} or {"behavior":"deny","message":"…"}.
type ToolAsker struct {
	// Name is the tool to call.
	Name string
	// Lookup finds it among the session's tools at question time (MCP
	// tools appear once their server connects).
	Lookup func(name string) (tool.Tool, bool)
}

// Ask calls the tool and reads its answer. The call runs without the
// permission gate: it is the gate's own question.
func (a *ToolAsker) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	t, ok := a.Lookup(a.Name)
	if !ok {
		return engine.Answer{}, fmt.Errorf("permission prompt tool %s is not available", a.Name)
	}
	input := q.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	args, err := json.Marshal(map[string]any{"tool_name": q.ToolName, "input": input, "tool_use_id": q.ToolUseID})
	if err != nil {
		return engine.Answer{}, fmt.Errorf("permission prompt tool %s: %w", a.Name, err)
	}
	res, err := t.Call(ctx, &tool.Call{ID: q.ToolUseID, Name: a.Name, AgentID: q.AgentID}, args, func(tool.Progress) {})
	if err != nil {
		return engine.Answer{}, fmt.Errorf("permission prompt tool %s: %w", a.Name, err)
	}
	var text strings.Builder
	for _, b := range res.Content {
		if b.Type == llm.BlockText {
			text.WriteString(b.Text)
		}
	}
	if res.IsError {
		return engine.Answer{}, fmt.Errorf("permission prompt tool %s failed: %s", a.Name, text.String())
	}
	ans, err := parsePermissionAnswer(json.RawMessage(strings.TrimSpace(text.String())))
	if err != nil {
		return engine.Answer{}, fmt.Errorf("permission prompt tool %s: %w", a.Name, err)
	}
	return ans, nil
}
