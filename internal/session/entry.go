package session

import (
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
}

// CompactMetadata describes a compaction boundary.
type CompactMetadata struct {
	Trigger   string `json:"trigger"` // "manual" or "auto"
	PreTokens int    `json:"preTokens"`
}
