package llm

import "encoding/json"

// Usage is the token accounting of one response (or a sum of several).
type Usage struct {
	InputTokens              int            `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            *CacheCreation `json:"cache_creation,omitempty"`
	ServerToolUse            *ServerToolUse `json:"server_tool_use,omitempty"`
	// The fields below are passed through from the API when it reports
	// them: thinking tokens within output_tokens, the service tier and
	// speed the request ran at, where it ran, and the per-iteration
	// usage of a response the server worked on in several passes.
	OutputTokensDetails *OutputTokensDetails `json:"output_tokens_details,omitempty"`
	ServiceTier         string               `json:"service_tier,omitempty"`
	Speed               string               `json:"speed,omitempty"`
	InferenceGeo        string               `json:"inference_geo,omitempty"`
	Iterations          []json.RawMessage    `json:"iterations,omitempty"`
}

// OutputTokensDetails breaks output_tokens down.
type OutputTokensDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

// IsZero reports whether u counts nothing and carries nothing.
func (u Usage) IsZero() bool {
	return u.InputTokens == 0 && u.OutputTokens == 0 && u.CacheCreationInputTokens == 0 && u.CacheReadInputTokens == 0 &&
		u.CacheCreation == nil && u.ServerToolUse == nil && u.OutputTokensDetails == nil &&
		u.ServiceTier == "" && u.Speed == "" && u.InferenceGeo == "" && len(u.Iterations) == 0
}

// ThinkingTokens is the thinking share of the output tokens, 0 when the
// API did not say.
func (u Usage) ThinkingTokens() int {
	if u.OutputTokensDetails == nil {
		return 0
	}
	return u.OutputTokensDetails.ThinkingTokens
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
	if o.OutputTokensDetails != nil {
		if u.OutputTokensDetails == nil {
			u.OutputTokensDetails = &OutputTokensDetails{}
		}
		u.OutputTokensDetails.ThinkingTokens += o.OutputTokensDetails.ThinkingTokens
	}
	u.mergeLabels(o)
	u.Iterations = append(u.Iterations[:len(u.Iterations):len(u.Iterations)], o.Iterations...)
}

// mergeLabels takes o's non-empty service tier, speed and region: a sum
// reports the latest response's.
func (u *Usage) mergeLabels(o Usage) {
	if o.ServiceTier != "" {
		u.ServiceTier = o.ServiceTier
	}
	if o.Speed != "" {
		u.Speed = o.Speed
	}
	if o.InferenceGeo != "" {
		u.InferenceGeo = o.InferenceGeo
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
	if o.OutputTokensDetails != nil {
		u.OutputTokensDetails = o.OutputTokensDetails
	}
	if o.Iterations != nil {
		u.Iterations = o.Iterations
	}
	u.mergeLabels(o)
}

// ContextTokens is the size of the prompt that produced the response plus
// its output: what the conversation occupies in the window after it.
func (u Usage) ContextTokens() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens
}
