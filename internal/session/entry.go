package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"reins/internal/llm"
)

// Entry types.
const (
	TypeUser        = "user"
	TypeAssistant   = "assistant"
	TypeSystem      = "system"
	TypeLastPrompt  = "last-prompt"
	TypeReplacement = "tool-result-replacement"
	TypeTodos       = "todos"
	TypeSummary     = "summary"
	// TypeCustomTitle is a title the user gave the session.
	TypeCustomTitle = "custom-title"
	// TypeAttachment is context Claude Code attached to the conversation;
	// reins reads it as a chain link only.
	TypeAttachment = "attachment"
	// TypeProgress is a tool progress line of older Claude Code
	// transcripts; a chain link only.
	TypeProgress = "progress"
)

// System entry subtypes.
const (
	SubtypeCompactBoundary = "compact_boundary"
	SubtypeNotice          = "notice"
)

// Entry is one transcript line. Field names follow Claude Code's
// transcripts where it has them.
type Entry struct {
	Type              string  `json:"type"`
	UUID              string  `json:"uuid,omitempty"`
	ParentUUID        *string `json:"parentUuid,omitempty"`
	LogicalParentUUID string  `json:"logicalParentUuid,omitempty"`
	IsSidechain       bool    `json:"isSidechain,omitempty"`
	SessionID         string  `json:"sessionId,omitempty"`
	AgentID           string  `json:"agentId,omitempty"`
	Timestamp         string  `json:"timestamp,omitempty"`
	Cwd               string  `json:"cwd,omitempty"`
	Version           string  `json:"version,omitempty"`
	GitBranch         string  `json:"gitBranch,omitempty"`
	PermissionMode    string  `json:"permissionMode,omitempty"`
	// UserType and Entrypoint say who started the session, as Claude
	// Code's lines do ("external"; "cli", "sdk-cli", "sdk-ts", ...): the
	// Agent SDKs' session listings tell interactive sessions from
	// programmatic ones by Entrypoint.
	UserType   string `json:"userType,omitempty"`
	Entrypoint string `json:"entrypoint,omitempty"`
	IsMeta     bool   `json:"isMeta,omitempty"`
	// IsCompactSummary marks the user message holding a compaction summary.
	IsCompactSummary bool         `json:"isCompactSummary,omitempty"`
	Message          *llm.Message `json:"message,omitempty"`
	// ToolUseResult is the structured result of a tool call.
	ToolUseResult           any    `json:"toolUseResult,omitempty"`
	SourceToolAssistantUUID string `json:"sourceToolAssistantUUID,omitempty"`

	// system entries
	Subtype         string           `json:"subtype,omitempty"`
	Content         string           `json:"content,omitempty"`
	Level           string           `json:"level,omitempty"`
	CompactMetadata *CompactMetadata `json:"compactMetadata,omitempty"`

	// last-prompt
	LastPrompt string `json:"lastPrompt,omitempty"`
	LeafUUID   string `json:"leafUuid,omitempty"`

	// todos
	Todos json.RawMessage `json:"todos,omitempty"`

	// summary (session title)
	Summary string `json:"summary,omitempty"`
	// custom-title
	CustomTitle string `json:"customTitle,omitempty"`

	// tool-result-replacement: decisions of the tool-result budget, so a
	// resumed session replaces the same results the same way.
	Replacements []Replacement `json:"replacements,omitempty"`
}

// Replacement is one recorded tool-result budget decision. Its fields
// match tool.Replacement, so the two convert directly.
type Replacement struct {
	ToolUseID string `json:"toolUseId"`
	Text      string `json:"replacement"`
}

// CompactMetadata describes a compaction boundary.
type CompactMetadata struct {
	Trigger   string `json:"trigger"` // "manual" or "auto"
	PreTokens int    `json:"preTokens"`
}

// MarshalJSON writes the entry as one JSON object. On the lines of the
// message chain Claude Code's first fields come first: parentUuid (null on
// the first message), isSidechain and the message, as tools that read
// Claude Code's transcripts expect; other lines keep only the fields they
// set. The message's bytes are spliced in as Message.AppendJSON writes
// them, so its content (often tens of kilobytes of tool output) is escaped
// once and never rescanned.
func (e Entry) MarshalJSON() ([]byte, error) {
	msg := e.Message
	n := 512
	if msg != nil {
		n += msg.EncodedSize()
		if e.ToolUseResult != nil {
			// A tool's structured result mostly repeats what the model
			// was told: room for it too, so the line grows at most once.
			n += msg.EncodedSize()
		}
	}
	buf := make([]byte, 0, n)
	chain := false
	switch e.Type {
	case TypeUser, TypeAssistant, TypeSystem, TypeAttachment:
		chain = true
		buf = append(buf, `{"parentUuid":`...)
		if e.ParentUUID == nil {
			buf = append(buf, "null"...)
		} else {
			buf = llm.AppendJSONString(buf, *e.ParentUUID)
		}
		buf = append(buf, `,"isSidechain":`...)
		buf = strconv.AppendBool(buf, e.IsSidechain)
		e.ParentUUID, e.IsSidechain = nil, false // written
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
			return nil, fmt.Errorf("encode %s message: %w", e.Type, err)
		}
	}
	buf, err := e.appendFields(buf, len(buf) == 1)
	if err != nil {
		return nil, fmt.Errorf("encode %s entry: %w", e.Type, err)
	}
	return append(buf, '}'), nil
}

// appendFields appends the entry's fields but the message, in the order
// and with the omissions encoding/json gives the struct (written by hand:
// reflecting over the struct cost a millisecond on the first line, which
// a session writes between the prompt and its first request). first
// says no field precedes them.
func (e *Entry) appendFields(buf []byte, first bool) ([]byte, error) {
	key := func(k string) {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, '"', ':')
	}
	str := func(k, v string) {
		if v != "" {
			key(k)
			buf = llm.AppendJSONString(buf, v)
		}
	}
	flag := func(k string, v bool) {
		if v {
			key(k)
			buf = append(buf, "true"...)
		}
	}
	key("type")
	buf = llm.AppendJSONString(buf, e.Type)
	str("uuid", e.UUID)
	if e.ParentUUID != nil {
		key("parentUuid")
		buf = llm.AppendJSONString(buf, *e.ParentUUID)
	}
	str("logicalParentUuid", e.LogicalParentUUID)
	flag("isSidechain", e.IsSidechain)
	str("sessionId", e.SessionID)
	str("agentId", e.AgentID)
	str("timestamp", e.Timestamp)
	str("cwd", e.Cwd)
	str("version", e.Version)
	str("gitBranch", e.GitBranch)
	str("permissionMode", e.PermissionMode)
	str("userType", e.UserType)
	str("entrypoint", e.Entrypoint)
	flag("isMeta", e.IsMeta)
	flag("isCompactSummary", e.IsCompactSummary)
	if e.ToolUseResult != nil {
		key("toolUseResult")
		var err error
		if buf, err = appendNoEscape(buf, e.ToolUseResult); err != nil {
			return nil, fmt.Errorf("toolUseResult: %w", err)
		}
	}
	str("sourceToolAssistantUUID", e.SourceToolAssistantUUID)
	str("subtype", e.Subtype)
	str("content", e.Content)
	str("level", e.Level)
	if m := e.CompactMetadata; m != nil {
		key("compactMetadata")
		buf = append(buf, `{"trigger":`...)
		buf = llm.AppendJSONString(buf, m.Trigger)
		buf = append(buf, `,"preTokens":`...)
		buf = strconv.AppendInt(buf, int64(m.PreTokens), 10)
		buf = append(buf, '}')
	}
	str("lastPrompt", e.LastPrompt)
	str("leafUuid", e.LeafUUID)
	if len(e.Todos) > 0 {
		var c bytes.Buffer
		if err := json.Compact(&c, e.Todos); err != nil {
			return nil, fmt.Errorf("todos: %w", err)
		}
		key("todos")
		buf = append(buf, c.Bytes()...)
	}
	str("summary", e.Summary)
	str("customTitle", e.CustomTitle)
	if len(e.Replacements) > 0 {
		key("replacements")
		buf = append(buf, '[')
		for i, r := range e.Replacements {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"toolUseId":`...)
			buf = llm.AppendJSONString(buf, r.ToolUseID)
			buf = append(buf, `,"replacement":`...)
			buf = llm.AppendJSONString(buf, r.Text)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	return buf, nil
}

// appendNoEscape appends v's JSON encoding to buf without HTML escaping
// (markup in prompts and results stays readable) and without the final
// newline json.Encoder adds.
func appendNoEscape(buf []byte, v any) ([]byte, error) {
	w := appendWriter(buf)
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return buf, err
	}
	return bytes.TrimSuffix(w, []byte("\n")), nil
}

// appendWriter is an io.Writer that appends to itself.
type appendWriter []byte

func (w *appendWriter) Write(p []byte) (int, error) {
	*w = append(*w, p...)
	return len(p), nil
}
