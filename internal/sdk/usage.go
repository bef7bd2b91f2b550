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

// UsageCategory is one share of the context window.
type UsageCategory struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	Color  string `json:"color"`
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
	cu.Categories = []UsageCategory{{Name: "Messages", Tokens: total, Color: "purple"}}
	if free := info.ContextWindow - total; free > 0 {
		cu.Categories = append(cu.Categories, UsageCategory{Name: "Free space", Tokens: free, Color: "promptBorder"})
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
