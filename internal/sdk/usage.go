package sdk

import "math"

// ContextUsage is the answer to get_context_usage: how full the context
// window is, as of the last model response.
type ContextUsage struct {
	Categories           []UsageCategory `json:"categories"`
	TotalTokens          int             `json:"totalTokens"`
	MaxTokens            int             `json:"maxTokens"`
	RawMaxTokens         int             `json:"rawMaxTokens"`
	Percentage           float64         `json:"percentage"`
	Model                string          `json:"model"`
	IsAutoCompactEnabled bool            `json:"isAutoCompactEnabled"`
	AutoCompactThreshold int             `json:"autoCompactThreshold,omitempty"`
	MemoryFiles          []any           `json:"memoryFiles"`
	MCPTools             []any           `json:"mcpTools"`
	Agents               []any           `json:"agents"`
	GridRows             []any           `json:"gridRows"`
	APIUsage             *APIUsage       `json:"apiUsage"`
}

// MemoryFileUsage is one memory file of ContextUsage.MemoryFiles.
type MemoryFileUsage struct {
	Path   string `json:"path"`
	Type   string `json:"type"` // Managed, User, Project or Local
	Tokens int    `json:"tokens"`
}

// MCPToolUsage is one MCP tool of ContextUsage.MCPTools.
type MCPToolUsage struct {
	Name       string `json:"name"`
	ServerName string `json:"serverName"` // normalised, as in Name
	Tokens     int    `json:"tokens"`
	IsLoaded   bool   `json:"isLoaded"`
}

// AgentUsage is one custom agent type of ContextUsage.Agents.
type AgentUsage struct {
	AgentType string `json:"agentType"`
	Source    string `json:"source"`
	Path      string `json:"path,omitempty"`
	Tokens    int    `json:"tokens"`
}

// UsageCategory is one share of the context window.
type UsageCategory struct {
	// ID names the row stably (system_prompt, messages, free_space, ...).
	ID     string `json:"id,omitempty"`
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	Color  string `json:"color"`
	// Kind is "used", "free", "buffer" or "deferred".
	Kind string `json:"kind"`
}

// NewUsageCategory returns the category named name (Claude Code's English
// row name) with its id, color and kind.
func NewUsageCategory(name string, tokens int) UsageCategory {
	c := UsageCategory{Name: name, Tokens: tokens, Kind: "used"}
	switch name {
	case "System prompt":
		c.ID, c.Color = "system_prompt", "inactive"
	case "System tools":
		c.ID, c.Color = "system_tools", "inactive"
	case "MCP tools":
		c.ID, c.Color = "mcp_tools", "cyan"
	case "Custom agents":
		c.ID, c.Color = "custom_agents", "permission"
	case "Memory files":
		c.ID, c.Color = "memory_files", "claude"
	case "Messages":
		c.ID, c.Color = "messages", "purple"
	case "Free space":
		c.ID, c.Color, c.Kind = "free_space", "promptBorder", "free"
	case "Autocompact buffer":
		c.ID, c.Color, c.Kind = "autocompact_buffer", "inactive", "buffer"
	}
	return c
}

// APIUsage is the usage the API reported for the last response.
type APIUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// contextUsage measures the session's context from the last response's
// usage: everything sent plus what the model wrote.
func (s *Server) contextUsage() *ContextUsage {
	sess := s.cfg.Session()
	model := sess.Model()
	info := s.cfg.Models.Info(model)
	u := sess.LastUsage()
	total := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens
	cu := &ContextUsage{TotalTokens: total, MaxTokens: info.ContextWindow, RawMaxTokens: info.ContextWindow,
		Model: model, IsAutoCompactEnabled: sess.Config().Compactor != nil,
		MemoryFiles: []any{}, MCPTools: []any{}, Agents: []any{}, GridRows: []any{}}
	if info.ContextWindow > 0 {
		cu.Percentage = math.Round(float64(total)*10000/float64(info.ContextWindow)) / 100
	}
	cu.Categories = []UsageCategory{NewUsageCategory("Messages", total)}
	if free := info.ContextWindow - total; free > 0 {
		cu.Categories = append(cu.Categories, NewUsageCategory("Free space", free))
	}
	if total > 0 {
		cu.APIUsage = &APIUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheCreationInputTokens: u.CacheCreationInputTokens, CacheReadInputTokens: u.CacheReadInputTokens}
	}
	if s.cfg.ContextInfo != nil {
		s.cfg.ContextInfo(cu)
	}
	return cu
}
