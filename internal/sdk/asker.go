package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"reins/internal/engine"
	"reins/internal/permission"
)

// asker puts permission questions to the client as can_use_tool requests.
type asker struct{ s *Server }

// canUseTool is the can_use_tool request body, its keys in Claude Code's
// order.
type canUseTool struct {
	Subtype  string `json:"subtype"`
	ToolName string `json:"tool_name"`
	// DisplayName is the tool's name as a person reads it: an MCP tool's
	// title, a built-in tool's own name.
	DisplayName string          `json:"display_name"`
	Input       json.RawMessage `json:"input"`
	// Description says what the call does in a few words (describeCall);
	// left out when reins has nothing to say.
	Description string       `json:"description,omitempty"`
	Suggestions []wireUpdate `json:"permission_suggestions"`
	// BlockedPath is the path a shell command would touch outside what
	// it may, when that is why it asks; left out otherwise, as Claude
	// Code leaves it out (file tools name their path in the input).
	BlockedPath string `json:"blocked_path,omitempty"`
	Reason      string `json:"decision_reason,omitempty"`
	ToolUseID   string `json:"tool_use_id"`
	AgentID     string `json:"agent_id,omitempty"`
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
	req := canUseTool{Subtype: "can_use_tool", ToolName: q.ToolName, DisplayName: a.displayName(q.ToolName), Input: input,
		Description: describeCall(q.ToolName, input, a.cwd()), ToolUseID: q.ToolUseID, Reason: q.Reason, AgentID: q.AgentID}
	for _, sg := range q.Suggestions {
		req.Suggestions = append(req.Suggestions, toWire(sg))
	}
	if shellTool(q.ToolName) {
		req.BlockedPath = q.BlockedPath
	}
	a.s.askStart()
	raw, err := a.s.peer.request(ctx, "can_use_tool", req)
	a.s.askEnd()
	if err != nil {
		return engine.Answer{}, err
	}
	return parsePermissionAnswer(raw)
}

// titled is a tool with a title for people, as MCP servers may give
// their tools.
type titled interface{ Title() string }

// displayName is the name a host shows for the tool: an MCP tool's title,
// or without one its own name on its server with a capital first letter;
// a built-in tool's name.
func (a *asker) displayName(name string) string {
	if lookup := a.s.cfg.LookupTool; lookup != nil {
		if t, ok := lookup(name); ok {
			if tt, ok := t.(titled); ok && tt.Title() != "" {
				return tt.Title()
			}
		}
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if _, remote, ok := strings.Cut(rest, "__"); ok && remote != "" {
			r, size := utf8.DecodeRuneInString(remote)
			return string(unicode.ToUpper(r)) + remote[size:]
		}
	}
	return name
}

// cwd is the session's working folder, "" before there is a session.
func (a *asker) cwd() string {
	if a.s.cfg.Session == nil {
		return ""
	}
	if sess := a.s.cfg.Session(); sess != nil {
		return sess.Config().Cwd
	}
	return ""
}

// shellTool reports whether name runs shell commands, the tools whose
// questions carry a blocked_path.
func shellTool(name string) bool { return name == "Bash" || name == "PowerShell" }

// describeCall is the can_use_tool description of a call: a shell
// command's own description, else the command; the file a file tool
// works on, relative to cwd when inside it. Other tools get none.
func describeCall(name string, input json.RawMessage, cwd string) string {
	var in struct {
		Command      string `json:"command"`
		Description  string `json:"description"`
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	switch name {
	case "Bash", "PowerShell":
		if d := strings.TrimSpace(in.Description); d != "" {
			return d
		}
		return in.Command
	case "Read", "Write", "Edit", "NotebookEdit":
		p := in.FilePath
		if name == "NotebookEdit" {
			p = in.NotebookPath
		}
		return displayPath(p, cwd)
	}
	return ""
}

// displayPath is path relative to cwd when it lies inside it, else path
// as given.
func displayPath(path, cwd string) string {
	if path == "" || cwd == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// RejectedText is the tool result of a call the user rejected while
// stopping the turn (a deny answer with interrupt set).
const RejectedText = "The user rejected this tool call and stopped the turn, so it did not run and nothing it would have changed was changed. Stop here and wait for the user to say how to go on."

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
		if pa.Interrupt {
			// The user stopped the turn at the question: the model gets
			// the standard rejection, not the host's words, and the call
			// is reported as rejected by the user (user_abort).
			return engine.Answer{Allow: false, Message: RejectedText, Interrupt: true, Source: "user_abort"}, nil
		}
		msg := pa.Message
		if strings.TrimSpace(msg) == "" {
			msg = "The user denied this tool call."
		}
		return engine.Answer{Allow: false, Message: msg, Source: pa.classification()}, nil
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
