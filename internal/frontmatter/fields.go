package frontmatter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Fields are the top-level keys of a frontmatter block. The zero value has
// no keys. Keys are case-sensitive.
type Fields struct {
	keys     []string
	nodes    map[string]*yaml.Node
	keyLines []keyLine
	lines    []string // the parsed block text, for raw values
	first    int      // file line of the block's first line
}

type keyLine struct {
	key  string
	line int
}

// Keys returns the keys in the order they first appear.
func (f Fields) Keys() []string { return append([]string(nil), f.keys...) }

// Has reports whether key is present (even with an empty value).
func (f Fields) Has(key string) bool {
	_, ok := f.nodes[key]
	return ok
}

// Line returns the file line of key (its last occurrence), or 0.
func (f Fields) Line(key string) int {
	n := 0
	for _, kl := range f.keyLines {
		if kl.key == key {
			n = kl.line
		}
	}
	return n
}

// String returns key's value as text: a scalar as written (a null value is
// ""), a one-line flow value such as "[file]" exactly as written, and a
// list of scalars joined with ", ". Other values give "".
func (f Fields) String(key string) string {
	n, ok := f.nodes[key]
	if !ok {
		return ""
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return ""
		}
		if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
			// A custom tag such as "!important": the user meant text.
			if raw, ok := f.raw(n); ok {
				return raw
			}
		}
		return n.Value
	case yaml.SequenceNode, yaml.MappingNode:
		if n.Style&yaml.FlowStyle != 0 {
			if raw, ok := f.raw(n); ok {
				return raw
			}
		}
		if n.Kind == yaml.SequenceNode {
			var parts []string
			for _, c := range n.Content {
				if c.Kind == yaml.ScalarNode {
					parts = append(parts, c.Value)
				}
			}
			return strings.Join(parts, ", ")
		}
	}
	return ""
}

// raw returns the source text of a node that sits on one line, from its
// column to the end of the line (a trailing comment removed).
func (f Fields) raw(n *yaml.Node) (string, bool) {
	if n.Line < 1 || n.Line > len(f.lines) {
		return "", false
	}
	l := f.lines[n.Line-1]
	if n.Column < 1 || n.Column > len(l)+1 {
		return "", false
	}
	s := l[n.Column-1:]
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s), true
}

// List returns key's value as a list of items. A string is split at commas
// and white space outside parentheses ("Read, Bash(git add:*)" gives Read
// and Bash(git add:*)); a list gives its items, each split the same way.
// Empty items are dropped; a missing or empty value gives nil.
func (f Fields) List(key string) []string {
	n, ok := f.nodes[key]
	if !ok {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!null" {
			out = SplitList(n.Value)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && c.Tag != "!!null" {
				out = append(out, SplitList(c.Value)...)
			}
		}
	}
	return out
}

// SplitList splits s at commas and white space that are outside
// parentheses, trimming items and dropping empty ones.
func SplitList(s string) []string {
	var out []string
	depth := 0
	start := 0
	flush := func(end int) {
		if item := strings.TrimSpace(s[start:end]); item != "" {
			out = append(out, item)
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth > 0 {
				depth--
			}
		case depth == 0 && (r == ',' || unicode.IsSpace(r)):
			flush(i)
			start = i + utf8.RuneLen(r)
		}
	}
	flush(len(s))
	return out
}

// Bool returns key's value as a boolean. true/false, yes/no, on/off and
// 1/0 are accepted in any case; a missing or empty value is false. Anything
// else is an *Error naming the line.
func (f Fields) Bool(key string) (bool, error) {
	n, ok := f.nodes[key]
	if !ok || (n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "")) {
		return false, nil
	}
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(strings.TrimSpace(n.Value)) {
		case "true", "yes", "on", "1", "y":
			return true, nil
		case "false", "no", "off", "0", "n":
			return false, nil
		}
	}
	return false, &Error{Line: f.Line(key), Msg: fmt.Sprintf("%s: want true or false, got %s", key, f.describe(n))}
}

// Int returns key's value as an integer; ok is false when the key is
// missing or empty. A value that is not a whole number is an *Error.
func (f Fields) Int(key string) (n int, ok bool, err error) {
	node, present := f.nodes[key]
	if !present || (node.Kind == yaml.ScalarNode && (node.Tag == "!!null" || node.Value == "")) {
		return 0, false, nil
	}
	if node.Kind == yaml.ScalarNode {
		if v, err := strconv.Atoi(strings.TrimSpace(node.Value)); err == nil {
			return v, true, nil
		}
	}
	return 0, false, &Error{Line: f.Line(key), Msg: fmt.Sprintf("%s: want a whole number, got %s", key, f.describe(node))}
}

// Decode decodes key's value into v (see yaml.Node.Decode). A missing key
// leaves v untouched. Errors name the line.
func (f Fields) Decode(key string, v any) (err error) {
	n, ok := f.nodes[key]
	if !ok {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = &Error{Line: f.Line(key), Msg: fmt.Sprintf("%s: cannot decode: %v", key, r)}
		}
	}()
	if err := n.Decode(v); err != nil {
		return &Error{Line: f.Line(key), Msg: fmt.Sprintf("%s: %v", key, strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	return nil
}

func (f Fields) describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "an alias"
}

// FirstLine is a description made from a Markdown body when its
// frontmatter has none: the body's first line of text without heading
// marks, cut to 100 characters.
func FirstLine(body string) string {
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > 100 {
			r := []rune(line)
			line = string(r[:99]) + "…"
		}
		return line
	}
	return ""
}
