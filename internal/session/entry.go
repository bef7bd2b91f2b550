package session

import (
	"bytes"
	"encoding/json"

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

// MarshalJSON writes the entry with Claude Code's chain fields first on
// the lines of the message chain: parentUuid (null on the first message)
// and isSidechain are always present there, as tools that read Claude
// Code's transcripts expect. Other lines keep only the fields they set.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry // no methods: no recursion
	var v any = plain(e)
	switch e.Type {
	case TypeUser, TypeAssistant, TypeSystem, TypeAttachment:
		v = struct {
			ParentUUID  *string `json:"parentUuid"`
			IsSidechain bool    `json:"isSidechain"`
			plain
		}{e.ParentUUID, e.IsSidechain, plain(e)}
	}
	// Markup in prompts and results stays readable: no HTML escaping.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
