package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"reins/internal/engine"
	"reins/internal/permission"
)

// asker puts permission questions to the client as can_use_tool requests.
type asker struct{ s *Server }

// canUseTool is the can_use_tool request body.
type canUseTool struct {
	Subtype     string          `json:"subtype"`
	ToolName    string          `json:"tool_name"`
	Input       json.RawMessage `json:"input"`
	Suggestions []wireUpdate    `json:"permission_suggestions"`
	BlockedPath *string         `json:"blocked_path"`
	ToolUseID   string          `json:"tool_use_id"`
	Reason      string          `json:"decision_reason,omitempty"`
	AgentID     string          `json:"agent_id,omitempty"`
}

// wireUpdate is a permission update as the protocol spells it.
type wireUpdate struct {
	Type        string                 `json:"type"`
	Rules       []permission.RuleValue `json:"rules,omitempty"`
	Behavior    string                 `json:"behavior,omitempty"`
	Mode        string                 `json:"mode,omitempty"`
	Directories []string               `json:"directories,omitempty"`
	Destination string                 `json:"destination,omitempty"`
}

// permissionAnswer is the client's answer to can_use_tool.
type permissionAnswer struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions []wireUpdate    `json:"updatedPermissions"`
	Message            string          `json:"message"`
	Interrupt          bool            `json:"interrupt"`
	// DecisionClassification is how the client's user decided
	// (user_temporary, user_permanent or user_reject), when it says.
	DecisionClassification string `json:"decisionClassification"`
}

// classification is the answer's decisionClassification when it is one
// the protocol defines; without one, as Claude Code infers it,
// user_temporary for an allow and user_reject for a denial.
func (pa permissionAnswer) classification() string {
	switch c := pa.DecisionClassification; c {
	case "user_temporary", "user_permanent", "user_reject":
		return c
	}
	if pa.Behavior == "allow" {
		return "user_temporary"
	}
	return "user_reject"
}

// Ask sends can_use_tool and waits for the answer. While it waits the
// session is reported as requiring action.
func (a *asker) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	input := q.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	req := canUseTool{Subtype: "can_use_tool", ToolName: q.ToolName, Input: input, ToolUseID: q.ToolUseID,
		Reason: q.Reason, AgentID: q.AgentID}
	for _, sg := range q.Suggestions {
		req.Suggestions = append(req.Suggestions, toWire(sg))
	}
	if q.BlockedPath != "" {
		bp := q.BlockedPath
		req.BlockedPath = &bp
	}
	a.s.askStart()
	raw, err := a.s.peer.request(ctx, "can_use_tool", req)
	a.s.askEnd()
	if err != nil {
		return engine.Answer{}, err
	}
	return parsePermissionAnswer(raw)
}

// parsePermissionAnswer reads an allow or deny answer.
func parsePermissionAnswer(raw json.RawMessage) (engine.Answer, error) {
	var pa permissionAnswer
	if err := json.Unmarshal(raw, &pa); err != nil {
		return engine.Answer{}, fmt.Errorf("can_use_tool: the answer is not a permission result: %v", err)
	}
	switch pa.Behavior {
	case "allow":
		ans := engine.Answer{Allow: true, Source: pa.classification()}
		if in := pa.UpdatedInput; len(in) > 0 && string(in) != "null" {
			if in[0] != '{' {
				return engine.Answer{}, fmt.Errorf("can_use_tool: updatedInput must be an object, not %s", in)
			}
			ans.UpdatedInput = in
		}
		for _, u := range pa.UpdatedPermissions {
			ans.Updates = append(ans.Updates, fromWire(u))
		}
		return ans, nil
	case "deny":
		msg := pa.Message
		if strings.TrimSpace(msg) == "" {
			msg = "The user denied this tool call."
		}
		return engine.Answer{Allow: false, Message: msg, Interrupt: pa.Interrupt, Source: pa.classification()}, nil
	}
	return engine.Answer{}, fmt.Errorf("can_use_tool: behavior %q is neither \"allow\" nor \"deny\"", pa.Behavior)
}

// toWire spells a suggestion the protocol's way: rules become
// {toolName, ruleContent}.
func toWire(sg engine.Suggestion) wireUpdate {
	u := wireUpdate{Type: sg.Type, Behavior: sg.Behavior, Mode: sg.Mode, Directories: sg.Directories,
		Destination: sg.Destination}
	for _, r := range sg.Rules {
		u.Rules = append(u.Rules, permission.SplitRuleValue(r))
	}
	return u
}

// fromWire reads a protocol permission update.
func fromWire(u wireUpdate) engine.Suggestion {
	sg := engine.Suggestion{Type: u.Type, Behavior: u.Behavior, Mode: u.Mode, Directories: u.Directories,
		Destination: u.Destination}
	for _, r := range u.Rules {
		content := ""
		if r.RuleContent != nil {
			content = *r.RuleContent
		}
		sg.Rules = append(sg.Rules, permission.FormatRule(r.ToolName, content))
	}
	return sg
}
