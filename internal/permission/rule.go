package permission

import (
	"fmt"
	"strings"

	"reins/internal/settings"
)

// Behavior is allow, ask or deny (settings.Allow, settings.Ask,
// settings.Deny).
type Behavior = settings.Behavior

// The behaviours.
const (
	Allow = settings.Allow
	Ask   = settings.Ask
	Deny  = settings.Deny
)

// Rule is a parsed permission rule with its origin.
type Rule struct {
	// Tool is the tool name as written, with Task read as Agent:
	// "Bash", "Edit", "mcp__github", "mcp__github__*".
	Tool string
	// Content is the specifier with escapes removed; "" applies the rule
	// to every call of the tool.
	Content  string
	Behavior Behavior
	Source   settings.Source
	File     string
	// Root is the folder "/path" specifiers are relative to.
	Root string
	// Text is the rule as written.
	Text string
	// Line and Column locate the rule in File (0 when unknown).
	Line, Column int
}

// String is the rule as written.
func (r Rule) String() string {
	if r.Text != "" {
		return r.Text
	}
	return FormatRule(r.Tool, r.Content)
}

// Describe names the rule and where it came from, for reasons.
func (r Rule) Describe() string {
	where := r.Source.Label()
	if r.File != "" {
		where = r.File
	}
	return fmt.Sprintf("%s rule %s (%s)", r.Behavior, r, where)
}

// ParseRule parses "Tool" or "Tool(specifier)". Parentheses inside the
// specifier may be escaped as \( and \); the specifier ends at the last
// closing parenthesis. "Tool()" and "Tool(*)" mean "Tool".
func ParseRule(s string) (tool, content string, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", fmt.Errorf("empty permission rule")
	}
	open := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '(' {
			open = i
			break
		}
	}
	tool = s
	if open >= 0 {
		if !strings.HasSuffix(s, ")") || escapedAt(s, len(s)-1) {
			return "", "", fmt.Errorf("permission rule %q: missing closing parenthesis", s)
		}
		tool = strings.TrimSpace(s[:open])
		content = strings.TrimSpace(unescape(s[open+1 : len(s)-1]))
	}
	if tool == "" {
		return "", "", fmt.Errorf("permission rule %q: no tool name", s)
	}
	for _, r := range tool {
		if !(r == '_' || r == '-' || r == '.' || r == '*' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", "", fmt.Errorf("permission rule %q: tool name %q has the character %q", s, tool, r)
		}
	}
	if tool == "Task" {
		tool = "Agent"
	}
	if content == "*" {
		content = ""
	}
	return tool, content, nil
}

// escapedAt reports whether the byte at i is preceded by an odd number of
// backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// unescape removes the escapes FormatRule adds: \( \) and \\. Other
// backslashes are kept as written (Bash(find . -exec rm {} \;)).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == ')' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FormatRule writes a rule string, escaping backslashes and parentheses
// in content.
func FormatRule(tool, content string) string {
	if content == "" {
		return tool
	}
	r := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	return tool + "(" + r.Replace(content) + ")"
}

// SplitToolList splits --allowedTools and --disallowedTools values: rules
// separated by commas or spaces, except inside parentheses.
func SplitToolList(values ...string) []string {
	var out []string
	for _, v := range values {
		depth, start := 0, 0
		for i := 0; i <= len(v); i++ {
			if i < len(v) {
				switch v[i] {
				case '\\':
					i++
					continue
				case '(':
					depth++
					continue
				case ')':
					if depth > 0 {
						depth--
					}
					continue
				case ',', ' ', '\t', '\n':
					if depth > 0 {
						continue
					}
				default:
					continue
				}
			}
			if part := strings.TrimSpace(v[start:min(i, len(v))]); part != "" {
				out = append(out, part)
			}
			start = i + 1
		}
	}
	return out
}

// Tool families: a rule written for the family's name covers them all.
var (
	editTools = map[string]bool{"Edit": true, "MultiEdit": true, "Write": true, "NotebookEdit": true}
	readTools = map[string]bool{"Read": true, "Grep": true, "Glob": true, "LS": true, "NotebookRead": true}
)

// IsEditTool reports whether the named tool edits files.
func IsEditTool(name string) bool { return editTools[name] }

// IsReadTool reports whether the named tool reads files.
func IsReadTool(name string) bool { return readTools[name] }

// canonical maps a call's tool name to the name rules use.
func canonical(name string) string {
	if name == "Task" {
		return "Agent"
	}
	return name
}

// toolMatches reports whether a rule written for ruleTool applies to a
// call of tool.
func toolMatches(ruleTool, tool string) bool {
	tool = canonical(tool)
	if ruleTool == tool {
		return true
	}
	switch {
	case ruleTool == "Edit":
		return editTools[tool]
	case ruleTool == "Read":
		return readTools[tool]
	case strings.HasPrefix(ruleTool, "mcp__"):
		return mcpMatches(ruleTool, tool)
	}
	return false
}

// mcpMatches handles mcp__server (every tool of the server),
// mcp__server__* and mcp__server__tool.
func mcpMatches(rule, tool string) bool {
	if !strings.HasPrefix(tool, "mcp__") {
		return false
	}
	server := strings.TrimSuffix(rule, "__*")
	if server != rule || !strings.Contains(strings.TrimPrefix(rule, "mcp__"), "__") {
		return strings.HasPrefix(tool, server+"__")
	}
	return false
}
