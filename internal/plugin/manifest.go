package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"
)

// ManifestFile is where a plugin's manifest lives, relative to its folder.
const ManifestFile = ".claude-plugin/plugin.json"

// Manifest is what reins reads of a plugin.json. Component paths are
// relative to the plugin folder, cleaned, and never leave it.
type Manifest struct {
	Name        string
	Version     string
	Description string

	// Commands, when CommandsSet, replace the default commands/ folder:
	// command files, folders of them, or skill folders.
	Commands    []string
	CommandsSet bool
	// InlineCommands are the commands of the object form of "commands",
	// each named by its key.
	InlineCommands []InlineCommand
	// Agents, when AgentsSet, replace the default agents/ folder.
	Agents    []string
	AgentsSet bool
	// Skills are skill folders (or folders of them) read in addition to
	// skills/.
	Skills []string
	// OutputStyles, when set, replace the default output-styles/ folder.
	OutputStyles    []string
	OutputStylesSet bool
	// HookFiles and InlineHooks add to hooks/hooks.json. Each inline
	// entry is a settings-form hooks object ({"PreToolUse": [...]}).
	HookFiles   []string
	InlineHooks []json.RawMessage
	// MCPFiles and InlineMCP add to .mcp.json. Each inline entry is an
	// object of server names to configurations.
	MCPFiles  []string
	InlineMCP []json.RawMessage
}

// InlineCommand is one entry of the object form of a manifest's
// "commands": the command's Markdown comes from Source (a file) or
// Content, and the other fields override its frontmatter.
type InlineCommand struct {
	Name         string
	Source       string // relative to the plugin folder; "" when Content is given
	Content      string
	Description  string
	ArgumentHint string
	Model        string
	AllowedTools []string
}

// ManifestError is a manifest that cannot be used: it does not parse, or
// its name is missing or unusable. Field is the key at fault ("" for the
// whole file).
type ManifestError struct {
	Field string
	Msg   string
}

// Error renders e as "<field>: <message>".
func (e *ManifestError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// ParseManifest reads a plugin.json. A manifest that cannot be used at
// all returns a *ManifestError. problems are fields that are wrong and
// were left out (the plugin loads without them); each names the field.
func ParseManifest(data []byte) (m *Manifest, problems []error, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, &ManifestError{Msg: "not a JSON object: " + jsonMessage(err)}
	}
	if top == nil {
		return nil, nil, &ManifestError{Msg: "not a JSON object: null"}
	}
	m = &Manifest{}
	raw, ok := top["name"]
	if !ok {
		return nil, nil, &ManifestError{Field: "name", Msg: "is required"}
	}
	if err := json.Unmarshal(raw, &m.Name); err != nil {
		return nil, nil, &ManifestError{Field: "name", Msg: "must be a string, not " + kindOf(raw)}
	}
	if err := CheckName(m.Name); err != nil {
		return nil, nil, &ManifestError{Field: "name", Msg: err.Error()}
	}
	bad := func(field, format string, args ...any) {
		problems = append(problems, &ManifestError{Field: field, Msg: fmt.Sprintf(format, args...) + "; ignored"})
	}
	for key, dst := range map[string]*string{"version": &m.Version, "description": &m.Description} {
		if r, ok := top[key]; ok && string(r) != "null" {
			if json.Unmarshal(r, dst) != nil {
				bad(key, "must be a string, not %s", kindOf(r))
			}
		}
	}
	if r, ok := top["commands"]; ok && string(r) != "null" {
		m.CommandsSet = true
		if bytes.HasPrefix(bytes.TrimSpace(r), []byte("{")) {
			m.InlineCommands = parseInlineCommands(r, bad)
		} else {
			m.Commands = pathList("commands", r, false, bad)
		}
	}
	if r, ok := top["agents"]; ok && string(r) != "null" {
		m.AgentsSet = true
		m.Agents = pathList("agents", r, false, bad)
	}
	if r, ok := top["skills"]; ok && string(r) != "null" {
		m.Skills = pathList("skills", r, true, bad)
	}
	if r, ok := top["outputStyles"]; ok && string(r) != "null" {
		m.OutputStylesSet = true
		m.OutputStyles = pathList("outputStyles", r, false, bad)
	}
	if r, ok := top["hooks"]; ok && string(r) != "null" {
		m.HookFiles, m.InlineHooks = pathsOrObjects("hooks", r, bad)
	}
	if r, ok := top["mcpServers"]; ok && string(r) != "null" {
		m.MCPFiles, m.InlineMCP = pathsOrObjects("mcpServers", r, bad)
	}
	sort.Slice(problems, func(i, j int) bool { return problems[i].Error() < problems[j].Error() })
	return m, problems, nil
}

// CheckName reports why name cannot name a plugin: it must not be empty,
// hold spaces, control characters, path separators or ':' (which
// separates a plugin's name from its commands' names).
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("is empty")
	case strings.ContainsAny(name, " \t\r\n"):
		return fmt.Errorf("%q has spaces; use kebab-case (my-plugin)", name)
	case strings.ContainsAny(name, `/\:`):
		return fmt.Errorf("%q may not contain '/', '\\' or ':'", name)
	case name == "." || name == "..":
		return fmt.Errorf("%q is not a name", name)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return fmt.Errorf("%q has control characters", name)
		}
	}
	return nil
}

// pathList reads a component path or a list of them. allowDot accepts
// "." and "./" (the plugin folder itself, as skills allow).
func pathList(field string, raw json.RawMessage, allowDot bool, bad func(string, string, ...any)) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if p, err := componentPath(one, allowDot); err != nil {
			bad(field, "%v", err)
		} else {
			return []string{p}
		}
		return nil
	}
	var many []json.RawMessage
	if json.Unmarshal(raw, &many) != nil {
		bad(field, "must be a path or a list of paths, not %s", kindOf(raw))
		return nil
	}
	var out []string
	for i, r := range many {
		var s string
		if json.Unmarshal(r, &s) != nil {
			bad(fmt.Sprintf("%s[%d]", field, i), "must be a path, not %s", kindOf(r))
			continue
		}
		p, err := componentPath(s, allowDot)
		if err != nil {
			bad(fmt.Sprintf("%s[%d]", field, i), "%v", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// pathsOrObjects reads hooks or mcpServers: a path, an inline object, or
// a list of either.
func pathsOrObjects(field string, raw json.RawMessage, bad func(string, string, ...any)) (paths []string, objects []json.RawMessage) {
	var items []json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(raw, &items) != nil {
			bad(field, "must be a path, an object or a list of them, not %s", kindOf(raw))
			return nil, nil
		}
	} else {
		items = []json.RawMessage{raw}
	}
	for i, it := range items {
		name := field
		if len(items) > 1 || bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			name = fmt.Sprintf("%s[%d]", field, i)
		}
		var s string
		if json.Unmarshal(it, &s) == nil {
			p, err := componentPath(s, false)
			switch {
			case err != nil:
				bad(name, "%v", err)
			case !strings.HasSuffix(p, ".json"):
				bad(name, "%q is not a .json file", s)
			default:
				paths = append(paths, p)
			}
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(it, &obj) != nil || obj == nil {
			bad(name, "must be a path to a .json file or an object, not %s", kindOf(it))
			continue
		}
		objects = append(objects, it)
	}
	return paths, objects
}

// parseInlineCommands reads the object form of "commands".
func parseInlineCommands(raw json.RawMessage, bad func(string, string, ...any)) []InlineCommand {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		bad("commands", "must be a path, a list of paths or an object of commands, not %s", kindOf(raw))
		return nil
	}
	names := make([]string, 0, len(obj))
	for n := range obj {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []InlineCommand
	for _, n := range names {
		field := "commands." + n
		var c struct {
			Source       *string  `json:"source"`
			Content      *string  `json:"content"`
			Description  string   `json:"description"`
			ArgumentHint string   `json:"argumentHint"`
			Model        string   `json:"model"`
			AllowedTools []string `json:"allowedTools"`
		}
		if err := json.Unmarshal(obj[n], &c); err != nil {
			bad(field, "%s", jsonMessage(err))
			continue
		}
		if (c.Source == nil) == (c.Content == nil) {
			bad(field, `needs either "source" (a file) or "content" (the Markdown), not both or neither`)
			continue
		}
		ic := InlineCommand{Name: n, Description: c.Description, ArgumentHint: c.ArgumentHint, Model: c.Model, AllowedTools: c.AllowedTools}
		if c.Source != nil {
			p, err := componentPath(*c.Source, false)
			if err != nil {
				bad(field+".source", "%v", err)
				continue
			}
			ic.Source = p
		} else {
			ic.Content = *c.Content
		}
		out = append(out, ic)
	}
	return out
}

// componentPath checks a manifest path: relative, starting with "./",
// and inside the plugin folder. It returns the cleaned path ("." for the
// folder itself, when allowDot).
func componentPath(p string, allowDot bool) (string, error) {
	if allowDot && (p == "." || p == "./") {
		return ".", nil
	}
	if !strings.HasPrefix(p, "./") {
		return "", fmt.Errorf("path %q must start with \"./\" (relative to the plugin folder)", p)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q has a NUL byte", p)
	}
	c := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q leaves the plugin folder", p)
	}
	if c == "." && !allowDot {
		return "", fmt.Errorf("path %q names the plugin folder itself", p)
	}
	return c, nil
}

// kindOf names the JSON type of raw for messages.
func kindOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonMessage is a JSON error without Go type names.
func jsonMessage(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s must not be a JSON %s", te.Field, te.Value)
		}
		return fmt.Sprintf("wrong type: JSON %s", te.Value)
	}
	return err.Error()
}
