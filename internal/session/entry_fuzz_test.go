package session

import (
	"bytes"
	"encoding/json"
	"testing"

	"reins/internal/llm"
)

// referenceMarshal is the entry encoding through encoding/json's
// reflection, which the hand-written appendFields must match byte for
// byte.
func referenceMarshal(e Entry) ([]byte, error) {
	type plain Entry
	msg := e.Message
	e.Message = nil
	var buf []byte
	chain := false
	switch e.Type {
	case TypeUser, TypeAssistant, TypeSystem, TypeAttachment:
		chain = true
		buf = append(buf, `{"parentUuid":`...)
		if e.ParentUUID == nil {
			buf = append(buf, "null"...)
		} else {
			p, _ := encodeNoEscape(*e.ParentUUID)
			buf = append(buf, p...)
		}
		buf = append(buf, `,"isSidechain":`...)
		if e.IsSidechain {
			buf = append(buf, "true"...)
		} else {
			buf = append(buf, "false"...)
		}
		e.ParentUUID, e.IsSidechain = nil, false
	default:
		buf = append(buf, '{')
	}
	if msg != nil {
		if chain {
			buf = append(buf, ',')
		}
		buf = append(buf, `"message":`...)
		var err error
		if buf, err = msg.AppendJSON(buf); err != nil {
			return nil, err
		}
	}
	rest, err := encodeNoEscape(plain(e))
	if err != nil {
		return nil, err
	}
	if len(buf) > 1 {
		buf = append(buf, ',')
	}
	return append(buf, rest[1:]...), nil
}

// FuzzEntryMarshalMatchesReflection: for entries of every type, with any
// text in their fields, MarshalJSON writes exactly what encoding/json's
// reflection writes, and the line is valid JSON.
func FuzzEntryMarshalMatchesReflection(f *testing.F) {
	f.Add("user", "a<b>&\u2028\x00\xff", true, 3, []byte(`[ {"content": "x"} ]`))
	f.Add("summary", "", false, 0, []byte(nil))
	f.Add("system", "line\nbreak \"q\"", true, -7, []byte(`{}`))
	f.Add("todos", "é", false, 1, []byte(`[1, 2]`))
	f.Fuzz(func(t *testing.T, typ, s string, b bool, n int, todos []byte) {
		if len(todos) > 0 && !json.Valid(todos) {
			todos = nil
		}
		p := s + "-parent"
		e := Entry{Type: typ, UUID: s, LogicalParentUUID: s, IsSidechain: b, SessionID: s, AgentID: s,
			Timestamp: s, Cwd: s, Version: s, GitBranch: s, PermissionMode: s, IsMeta: b, IsCompactSummary: !b,
			SourceToolAssistantUUID: s, Subtype: s, Content: s, Level: s, LastPrompt: s, LeafUUID: s,
			Todos: todos, Summary: s, CustomTitle: s}
		switch n % 4 {
		case 0:
			e.ParentUUID = &p
			e.Message = &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(s)}}
			e.ToolUseResult = map[string]any{"k": s, "n": n}
		case 1:
			e.CompactMetadata = &CompactMetadata{Trigger: s, PreTokens: n}
			e.Replacements = []Replacement{{ToolUseID: s, Text: s}, {ToolUseID: "b", Text: ""}}
		case 2:
			e = Entry{Type: typ}
		case 3:
			e.ParentUUID = &p
			var nilPtr *CompactMetadata
			e.ToolUseResult = nilPtr
		}
		got, err := e.MarshalJSON()
		want, werr := referenceMarshal(e)
		if (err != nil) != (werr != nil) {
			t.Fatalf("errors differ: %v vs reference %v", err, werr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("MarshalJSON\n%s\nreference\n%s", got, want)
		}
		if !json.Valid(got) {
			t.Fatalf("invalid JSON: %s", got)
		}
	})
}

// encodeNoEscape returns v's JSON encoding without HTML escaping, by a
// path independent of appendNoEscape: the reference's own.
func encodeNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
