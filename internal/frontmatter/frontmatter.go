package frontmatter

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Error locates a problem in a document. Line is 1-based in the file as
// written (0 when unknown).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Document is a parsed Markdown file.
type Document struct {
	// Present reports whether the file had a frontmatter block.
	Present bool
	// Fields are the block's top-level keys (empty when there is no block).
	Fields Fields
	// Body is the text after the block (the whole text when there is
	// none), with LF line endings and without a byte order mark.
	Body string
	// BodyLine is the file line on which Body starts.
	BodyLine int
}

// Split separates the frontmatter block from the body without parsing it.
// block is the YAML text (nil when there is no frontmatter), firstLine the
// file line of its first line, and body the rest. Line endings are
// normalised to LF and a byte order mark is dropped.
func Split(src []byte) (block []byte, firstLine int, body string, bodyLine int, err error) {
	text := normalize(src)
	if !strings.HasPrefix(text, "---") {
		return nil, 0, text, 1, nil
	}
	first, rest, hasNL := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return nil, 0, text, 1, nil
	}
	if !hasNL {
		return nil, 0, "", 0, &Error{Line: 1, Msg: "frontmatter opened with --- on line 1 is never closed (expected a line holding only ---)"}
	}
	line := 2
	off := 0
	for off <= len(rest) {
		end := strings.IndexByte(rest[off:], '\n')
		var l string
		next := len(rest) + 1
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
			next = off + end + 1
		}
		if strings.TrimRight(l, " \t") == "---" {
			b := ""
			if next <= len(rest) {
				b = rest[next:]
			}
			return []byte(rest[:off]), 2, b, line + 1, nil
		}
		off = next
		line++
	}
	return nil, 0, "", 0, &Error{Line: 1, Msg: "frontmatter opened with --- on line 1 is never closed (expected a line holding only ---)"}
}

// Parse splits src and decodes its frontmatter. A block that is not a
// mapping of keys to values is an error.
func Parse(src []byte) (doc *Document, err error) {
	block, first, body, bodyLine, err := Split(src)
	if err != nil {
		return nil, err
	}
	doc = &Document{Body: body, BodyLine: bodyLine}
	if block == nil {
		return doc, nil
	}
	doc.Present = true
	f, err := decode(block, first)
	if err != nil {
		return nil, err
	}
	doc.Fields = f
	return doc, nil
}

func normalize(src []byte) string {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	return string(src)
}

// decode parses the block, retrying once with loose values quoted.
func decode(block []byte, first int) (Fields, error) {
	root, err := unmarshal(block)
	text := block
	if err != nil {
		if fixed, changed := quoteLoose(block); changed {
			if r, err2 := unmarshal(fixed); err2 == nil {
				root, err, text = r, nil, fixed
			}
		}
	}
	if err != nil {
		return Fields{}, yamlError(err, first)
	}
	f := Fields{nodes: map[string]*yaml.Node{}, lines: strings.Split(string(text), "\n"), first: first}
	if root == nil {
		return f, nil
	}
	if root.Kind != yaml.MappingNode {
		return Fields{}, &Error{Line: first + root.Line - 1, Msg: "frontmatter must be a mapping of keys to values, not a " + kindName(root.Kind)}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return Fields{}, &Error{Line: first + k.Line - 1, Msg: "frontmatter keys must be plain names"}
		}
		if _, dup := f.nodes[k.Value]; !dup {
			f.keys = append(f.keys, k.Value)
		}
		f.nodes[k.Value] = v
		f.keyLines = append(f.keyLines, keyLine{k.Value, first + k.Line - 1})
	}
	return f, nil
}

// unmarshal returns the top node of the block (nil for an empty block).
// The YAML library is not trusted to never panic on hostile input.
func unmarshal(b []byte) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return nil, nil
	}
	return top, nil
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// yamlError turns a YAML error into an *Error with the file's line.
func yamlError(err error, first int) error {
	msg := err.Error()
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{Line: first + n - 1, Msg: "invalid YAML in frontmatter: " + msg[len(m[0]):]}
	}
	return &Error{Line: first, Msg: "invalid YAML in frontmatter: " + strings.TrimPrefix(msg, "yaml: ")}
}

var topKeyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:[ \t]+(\S.*?)[ \t]*$`)
})

// quoteLoose single-quotes the value of every top-level "key: value" line
// whose value is not valid YAML on its own, and reports whether it changed
// anything.
func quoteLoose(block []byte) ([]byte, bool) {
	lines := strings.Split(string(block), "\n")
	changed := false
	for i, l := range lines {
		m := topKeyRE().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := m[2]
		if strings.ContainsAny(v[:1], `"'|>#`) {
			continue
		}
		if (v[0] == '[' && !strings.Contains(v, "]")) || (v[0] == '{' && !strings.Contains(v, "}")) {
			continue // an unclosed flow value is a mistake for YAML to report
		}
		if i+1 < len(lines) && len(lines[i+1]) > 0 && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			continue // the value goes on; leave multi-line values alone
		}
		if _, err := unmarshal([]byte("k: " + v)); err == nil {
			continue
		}
		lines[i] = m[1] + ": '" + strings.ReplaceAll(v, "'", "''") + "'"
		changed = true
	}
	return []byte(strings.Join(lines, "\n")), changed
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}
