package permission

import (
	"encoding/json"
	"fmt"
)

// RuleValue is a rule the way Claude Code spells it in permission updates
// (hook output, the SDK wire): the tool name and the specifier apart.
type RuleValue struct {
	ToolName    string  `json:"toolName"`
	RuleContent *string `json:"ruleContent,omitempty"`
}

// updateJSON is Update with Claude Code's rule objects.
type updateJSON struct {
	Type        UpdateType      `json:"type"`
	Rules       json.RawMessage `json:"rules,omitempty"`
	Behavior    Behavior        `json:"behavior,omitempty"`
	Destination Destination     `json:"destination"`
	Mode        Mode            `json:"mode,omitempty"`
	Directories []string        `json:"directories,omitempty"`
}

// MarshalJSON writes u as Claude Code does: each rule as {toolName,
// ruleContent}, so that hooks given permission_suggestions can hand them
// back unchanged as updatedPermissions.
func (u Update) MarshalJSON() ([]byte, error) {
	out := updateJSON{Type: u.Type, Behavior: u.Behavior, Destination: u.Destination, Mode: u.Mode, Directories: u.Directories}
	if len(u.Rules) > 0 {
		values := make([]RuleValue, 0, len(u.Rules))
		for _, text := range u.Rules {
			values = append(values, SplitRuleValue(text))
		}
		b, err := json.Marshal(values)
		if err != nil {
			return nil, err
		}
		out.Rules = b
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads an update whose rules are Claude Code's {toolName,
// ruleContent} objects or rule strings such as "Bash(npm test:*)".
func (u *Update) UnmarshalJSON(b []byte) error {
	var in updateJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*u = Update{Type: in.Type, Behavior: in.Behavior, Destination: in.Destination, Mode: in.Mode, Directories: in.Directories}
	if len(in.Rules) == 0 || string(in.Rules) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(in.Rules, &items); err != nil {
		return fmt.Errorf("permission update rules: expected an array: %w", err)
	}
	for i, raw := range items {
		var text string
		if json.Unmarshal(raw, &text) == nil {
			u.Rules = append(u.Rules, text)
			continue
		}
		var v RuleValue
		if err := json.Unmarshal(raw, &v); err != nil || v.ToolName == "" {
			return fmt.Errorf("permission update rule %d: want a rule string or {toolName, ruleContent}, got %s", i, raw)
		}
		content := ""
		if v.RuleContent != nil {
			content = *v.RuleContent
		}
		u.Rules = append(u.Rules, FormatRule(v.ToolName, content))
	}
	return nil
}

// SplitRuleValue splits a rule string into Claude Code's rule object; a
// rule that does not parse is kept whole as the tool name.
func SplitRuleValue(text string) RuleValue {
	tool, content, err := ParseRule(text)
	if err != nil {
		return RuleValue{ToolName: text}
	}
	v := RuleValue{ToolName: tool}
	if content != "" {
		v.RuleContent = &content
	}
	return v
}
