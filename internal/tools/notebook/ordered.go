package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// member is one key of a JSON object, its value kept as written.
type member struct {
	key   string
	value json.RawMessage
}

// object is a JSON object that keeps its key order.
type object []member

func decodeObject(raw []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want a JSON object")
	}
	var o object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("want an object key")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		o = append(o, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

func (o object) sorted() bool {
	return slices.IsSortedFunc(o, func(a, b member) int { return strings.Compare(a.key, b.key) })
}

// set replaces key's value, or adds the key: in sorted position when the
// keys are sorted (as nbformat writes them), else at the end.
func (o object) set(key string, value json.RawMessage) object {
	for i := range o {
		if o[i].key == key {
			o[i].value = value
			return o
		}
	}
	if o.sorted() {
		i, _ := slices.BinarySearchFunc(o, key, func(m member, k string) int { return strings.Compare(m.key, k) })
		return slices.Insert(o, i, member{key, value})
	}
	return append(o, member{key, value})
}

func (o object) del(key string) object {
	return slices.DeleteFunc(o, func(m member) bool { return m.key == key })
}

// compact encodes the object without whitespace.
func (o object) compact() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		buf.Write(k)
		buf.WriteByte(':')
		if err := json.Compact(&buf, m.value); err != nil {
			return nil, fmt.Errorf("value of %q: %w", m.key, err)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// style is how a notebook file is laid out.
type style struct {
	indent     string // the indentation unit
	multiline  bool   // false for a file written on one line
	asciiOnly  bool   // non-ASCII text written as \u escapes
	finalNL    bool
	listSource bool // cell sources as lists of lines
}

func detectStyle(text string) style {
	s := style{finalNL: strings.HasSuffix(text, "\n"), asciiOnly: true,
		multiline: strings.Contains(strings.TrimSuffix(text, "\n"), "\n")}
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			s.asciiOnly = false
			break
		}
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 && i+1 < len(text) {
		rest := text[i+1:]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		s.indent = rest[:n]
	}
	return s
}

// format lays out compact JSON in the style.
func (s style) format(compact []byte) ([]byte, error) {
	var buf bytes.Buffer
	if !s.multiline {
		buf.Write(compact)
	} else if err := json.Indent(&buf, compact, "", s.indent); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if s.finalNL {
		out = append(out, '\n')
	}
	return out, nil
}

// encode marshals v the way the notebook writes strings: no HTML
// escaping, and non-ASCII escaped when the file is ASCII-only.
func (s style) encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if s.asciiOnly {
		out = escapeNonASCII(out)
	}
	return out, nil
}

func escapeNonASCII(b []byte) []byte {
	var out bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			out.WriteRune(r)
		case r > 0xFFFF:
			a, c := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, a, c)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.Bytes()
}

// sourceValue encodes a cell source as a list of lines (each but the last
// ending in \n) or as one string.
func (s style) sourceValue(src string, list bool) (json.RawMessage, error) {
	if !list {
		return s.encode(src)
	}
	lines := []string{}
	for src != "" {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, src)
			break
		}
		lines = append(lines, src[:i+1])
		src = src[i+1:]
	}
	return s.encode(lines)
}
