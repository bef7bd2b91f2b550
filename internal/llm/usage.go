package llm

// Usage is the token accounting of one response (or a sum of several).
type Usage struct {
	InputTokens              int            `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            *CacheCreation `json:"cache_creation,omitempty"`
	ServerToolUse            *ServerToolUse `json:"server_tool_use,omitempty"`
}

// CacheCreation splits cache writes by TTL.
type CacheCreation struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

// ServerToolUse counts server-side tool requests.
type ServerToolUse struct {
	WebSearchRequests int `json:"web_search_requests"`
	WebFetchRequests  int `json:"web_fetch_requests"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheCreationInputTokens += o.CacheCreationInputTokens
	u.CacheReadInputTokens += o.CacheReadInputTokens
	if o.CacheCreation != nil {
		if u.CacheCreation == nil {
			u.CacheCreation = &CacheCreation{}
		}
		u.CacheCreation.Ephemeral5m += o.CacheCreation.Ephemeral5m
		u.CacheCreation.Ephemeral1h += o.CacheCreation.Ephemeral1h
	}
	if o.ServerToolUse != nil {
		if u.ServerToolUse == nil {
			u.ServerToolUse = &ServerToolUse{}
		}
		u.ServerToolUse.WebSearchRequests += o.ServerToolUse.WebSearchRequests
		u.ServerToolUse.WebFetchRequests += o.ServerToolUse.WebFetchRequests
	}
}

// Merge folds a later usage report of the same response into u: streamed
// responses report input and cache counts in message_start and the final
// output count in message_delta. Non-zero fields of o win.
func (u *Usage) Merge(o Usage) {
	if o.InputTokens != 0 {
		u.InputTokens = o.InputTokens
	}
	if o.OutputTokens != 0 {
		u.OutputTokens = o.OutputTokens
	}
	if o.CacheCreationInputTokens != 0 {
		u.CacheCreationInputTokens = o.CacheCreationInputTokens
	}
	if o.CacheReadInputTokens != 0 {
		u.CacheReadInputTokens = o.CacheReadInputTokens
	}
	if o.CacheCreation != nil {
		u.CacheCreation = o.CacheCreation
	}
	if o.ServerToolUse != nil {
		u.ServerToolUse = o.ServerToolUse
	}
}

// ContextTokens is the size of the prompt that produced the response plus
// its output: what the conversation occupies in the window after it.
func (u Usage) ContextTokens() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens
}
