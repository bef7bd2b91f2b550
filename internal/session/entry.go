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
	IsMeta            bool    `json:"isMeta,omitempty"`
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
	type plain Entry // no methods: no recursion
	msg := e.Message
	e.Message = nil
	var buf []byte
	if msg != nil {
		buf = make([]byte, 0, msg.EncodedSize()+1024)
	}
	chain := false
	switch e.Type {
	case TypeUser, TypeAssistant, TypeSystem, TypeAttachment:
		chain = true
		buf = append(buf, `{"parentUuid":`...)
		if e.ParentUUID == nil {
			buf = append(buf, "null"...)
		} else {
			p, err := encodeNoEscape(*e.ParentUUID)
			if err != nil {
				return nil, fmt.Errorf("encode parentUuid: %w", err)
			}
			buf = append(buf, p...)
		}
		buf = append(buf, `,"isSidechain":`...)
		buf = strconv.AppendBool(buf, e.IsSidechain)
		e.ParentUUID, e.IsSidechain = nil, false // written; omitempty drops them below
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
	rest, err := encodeNoEscape(plain(e))
	if err != nil {
		return nil, fmt.Errorf("encode %s entry: %w", e.Type, err)
	}
	// rest is {...} with at least "type": join its fields after ours.
	if len(buf) > 1 {
		buf = append(buf, ',')
	}
	buf = append(buf, rest[1:]...)
	return buf, nil
}

// encodeNoEscape returns v's JSON encoding without HTML escaping: markup
// in prompts and results stays readable.
func encodeNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
