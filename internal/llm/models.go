package llm

import (
	"os"
	"slices"
	"strings"
)

// ModelInfo describes a model: its limits and list prices in USD per
// million tokens. A zero price means the price is unknown.
type ModelInfo struct {
	ID            string  `json:"id"`
	ContextWindow int     `json:"contextWindow"`
	MaxOutput     int     `json:"maxOutputTokens"`
	InputPrice    float64 `json:"inputPrice"`
	OutputPrice   float64 `json:"outputPrice"`
	// Family is "opus", "sonnet" or "haiku" (or empty), used for the
	// defaults of unknown ids.
	Family string `json:"family,omitempty"`
	// Efforts are the effort levels the model takes (output_config.effort),
	// lowest first; none means it takes no effort level and requests to it
	// carry none. DefaultEffort, when set, is the level sent when the user
	// chose none.
	Efforts       []string `json:"supportedEffortLevels,omitempty"`
	DefaultEffort string   `json:"defaultEffort,omitempty"`
}

// PriceKnown reports whether the model has a price.
func (m ModelInfo) PriceKnown() bool { return m.InputPrice > 0 || m.OutputPrice > 0 }

// Cost returns the list price of usage in USD. Cache writes cost 1.25× the
// input price (2× for 1-hour writes) and cache reads 0.1×.
func (m ModelInfo) Cost(u Usage) float64 {
	in := m.InputPrice / 1e6
	out := m.OutputPrice / 1e6
	write := float64(u.CacheCreationInputTokens) * in * 1.25
	if cc := u.CacheCreation; cc != nil && cc.Ephemeral1h > 0 {
		write = float64(cc.Ephemeral5m)*in*1.25 + float64(cc.Ephemeral1h)*in*2
		if rest := u.CacheCreationInputTokens - cc.Ephemeral5m - cc.Ephemeral1h; rest > 0 {
			write += float64(rest) * in * 1.25
		}
	}
	return float64(u.InputTokens)*in + float64(u.OutputTokens)*out + write +
		float64(u.CacheReadInputTokens)*in*0.1
}

// DefaultModel is the model used when nothing else names one.
const DefaultModel = "claude-opus-5-5"

// Models is a model table: ids to facts, plus alias resolution.
// The zero value is empty; NewModels returns the built-in table.
type Models struct {
	byID    map[string]ModelInfo
	aliases map[string]string
}

// NewModels returns the built-in table (see spec/models.md) with aliases
// opus, sonnet and haiku, each overridable by ANTHROPIC_DEFAULT_<FAMILY>_MODEL
// as read through getenv (nil means os.Getenv).
func NewModels(getenv func(string) string) *Models {
	if getenv == nil {
		getenv = os.Getenv
	}
	m := &Models{byID: map[string]ModelInfo{}, aliases: map[string]string{}}
	for _, mi := range []ModelInfo{
		{ID: "claude-opus-5-5", ContextWindow: 1_000_000, MaxOutput: 128_000, InputPrice: 4, OutputPrice: 20, Family: "opus",
			Efforts: effortsFor("claude-opus-5-5"), DefaultEffort: "medium"},
		{ID: "claude-sonnet-5-5", ContextWindow: 1_000_000, MaxOutput: 128_000, InputPrice: 2, OutputPrice: 10, Family: "sonnet",
			Efforts: effortsFor("claude-sonnet-5-5"), DefaultEffort: "medium"},
		{ID: "claude-haiku-5-5", ContextWindow: 1_000_000, MaxOutput: 128_000, InputPrice: 0.1, OutputPrice: 0.5, Family: "haiku",
			Efforts: effortsFor("claude-haiku-5-5"), DefaultEffort: "medium"},
		{ID: "claude-opus-4-5", ContextWindow: 200_000, MaxOutput: 64_000, InputPrice: 5, OutputPrice: 25, Family: "opus",
			Efforts: effortsFor("claude-opus-4-5")},
		{ID: "claude-sonnet-4-5", ContextWindow: 200_000, MaxOutput: 64_000, InputPrice: 3, OutputPrice: 15, Family: "sonnet"},
		{ID: "claude-haiku-4-5", ContextWindow: 200_000, MaxOutput: 64_000, InputPrice: 1, OutputPrice: 5, Family: "haiku"},
	} {
		m.byID[mi.ID] = mi
	}
	for fam, id := range map[string]string{"opus": "claude-opus-5-5", "sonnet": "claude-sonnet-4-5", "haiku": "claude-haiku-4-5"} {
		if v := getenv("ANTHROPIC_DEFAULT_" + strings.ToUpper(fam) + "_MODEL"); v != "" {
			id = v
		}
		m.aliases[fam] = id
	}
	return m
}

// Set adds or replaces a model's facts (from settings). Zero fields of mi
// keep the current values.
func (m *Models) Set(mi ModelInfo) {
	cur := m.byID[mi.ID]
	if cur.ID == "" {
		cur = m.Info(mi.ID)
	}
	if mi.ContextWindow > 0 {
		cur.ContextWindow = mi.ContextWindow
	}
	if mi.MaxOutput > 0 {
		cur.MaxOutput = mi.MaxOutput
	}
	if mi.InputPrice > 0 {
		cur.InputPrice = mi.InputPrice
	}
	if mi.OutputPrice > 0 {
		cur.OutputPrice = mi.OutputPrice
	}
	if mi.Family != "" {
		cur.Family = mi.Family
	}
	if mi.Efforts != nil {
		// An empty list (not nil) says the model takes no effort level.
		cur.Efforts = slices.Clone(mi.Efforts)
	}
	if mi.DefaultEffort != "" {
		cur.DefaultEffort = mi.DefaultEffort
	}
	m.byID[mi.ID] = cur
}

// SetAlias points an alias at a model id.
func (m *Models) SetAlias(alias, id string) { m.aliases[alias] = id }

// Resolve turns an alias ("opus", "sonnet", "haiku", or any alias set)
// into a model id; other names are returned unchanged. A "[1m]" suffix is
// kept on the resolved id.
func (m *Models) Resolve(name string) string {
	name = strings.TrimSpace(name)
	base, suffix := name, ""
	if i := strings.Index(name, "["); i > 0 {
		base, suffix = name[:i], name[i:]
	}
	if id, ok := m.aliases[strings.ToLower(base)]; ok {
		return id + suffix
	}
	return name
}

// Info returns the facts for a model id (aliases resolved). An unknown id
// gets a 200,000-token window, its family's output cap when the id names a
// family, and no price.
func (m *Models) Info(id string) ModelInfo {
	id = m.Resolve(id)
	base := id
	long := false
	if i := strings.Index(id, "["); i > 0 {
		base, long = id[:i], strings.EqualFold(id[i:], "[1m]")
	}
	if mi, ok := m.byID[base]; ok {
		mi.ID = id
		if long && mi.ContextWindow < 1_000_000 {
			mi.ContextWindow = 1_000_000
		}
		return mi
	}
	// A dated id such as claude-sonnet-4-5-20250929 shares its base's facts.
	for known, mi := range m.byID {
		if strings.HasPrefix(base, known+"-") {
			mi.ID = id
			return mi
		}
	}
	mi := ModelInfo{ID: id, ContextWindow: 200_000, MaxOutput: 32_000, Efforts: effortsFor(base)}
	for _, fam := range []string{"opus", "sonnet", "haiku"} {
		if strings.Contains(strings.ToLower(base), fam) {
			mi.Family = fam
			if a, ok := m.byID[m.aliases[fam]]; ok {
				mi.MaxOutput = a.MaxOutput
			}
		}
	}
	if long {
		mi.ContextWindow = 1_000_000
	}
	return mi
}
