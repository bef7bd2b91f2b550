package llm

import (
	"fmt"
	"slices"
	"strings"
)

// EffortBeta is the anthropic-beta value sent with requests to models
// that take an effort level (output_config.effort).
const EffortBeta = "effort-2025-11-24"

// EffortLevels are the effort levels, lowest first. A model takes a
// subset of them (ModelInfo.Efforts).
var effortLevels = []string{"low", "medium", "high", "xhigh", "max"}

// EffortLevels returns every effort level, lowest first.
func EffortLevels() []string { return slices.Clone(effortLevels) }

// EffortAuto is the level name that means "the model's own default": it
// clears a level set elsewhere.
const EffortAuto = "auto"

// ParseEffort checks an effort level as a user wrote it (any case,
// surrounding spaces allowed) and returns it in canonical form. "auto"
// comes back as EffortAuto; "" stays "". Anything else is an error that
// names the accepted levels.
func ParseEffort(s string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "" || v == EffortAuto || slices.Contains(effortLevels, v) {
		return v, nil
	}
	return "", fmt.Errorf("effort level %q is not one of %s, or auto", s, strings.Join(effortLevels, ", "))
}

// effortRank is a level's position in effortLevels, or -1.
func effortRank(level string) int { return slices.Index(effortLevels, level) }

// SupportsEffort reports whether the model takes an effort level at all.
func (m ModelInfo) SupportsEffort() bool { return len(m.Efforts) > 0 }

// EffortFor returns the level to send the model for a requested level:
// the level itself when the model takes it, else the highest level the
// model takes below it (xhigh runs as high on a model without xhigh).
// It returns "" when the model takes no effort level, and for "" or
// "auto" the model's default level ("" when it has none, leaving the
// API's own default).
func (m ModelInfo) EffortFor(level string) string {
	if !m.SupportsEffort() {
		return ""
	}
	if level == "" || level == EffortAuto {
		if slices.Contains(m.Efforts, m.DefaultEffort) {
			return m.DefaultEffort
		}
		return ""
	}
	want := effortRank(level)
	if want < 0 {
		return ""
	}
	best, bestRank := "", -1
	for _, e := range m.Efforts {
		if r := effortRank(e); r <= want && r > bestRank {
			best, bestRank = e, r
		}
	}
	if best == "" {
		// Below everything the model takes: its lowest level.
		for _, e := range m.Efforts {
			if r := effortRank(e); r >= 0 && (best == "" || r < effortRank(best)) {
				best = e
			}
		}
	}
	return best
}

// effortsByPrefix gives the effort levels of model ids the table has no
// row for, by id prefix (longest first wins): models newer or older than
// the table's rows that a user names by id. Models not listed here take
// no effort level, and the request carries none (Sonnet 4.5 and Haiku
// 4.5 refuse it).
var effortsByPrefix = []struct {
	prefix  string
	efforts []string
}{
	{"claude-opus-5", []string{"low", "medium", "high", "xhigh", "max"}},
	{"claude-sonnet-5", []string{"low", "medium", "high", "xhigh", "max"}},
	{"claude-haiku-5", []string{"low", "medium", "high", "xhigh", "max"}},
	{"claude-opus-4-8", []string{"low", "medium", "high", "xhigh", "max"}},
	{"claude-opus-4-7", []string{"low", "medium", "high", "xhigh", "max"}},
	{"claude-opus-4-6", []string{"low", "medium", "high", "max"}},
	{"claude-sonnet-4-6", []string{"low", "medium", "high", "max"}},
	{"claude-opus-4-5", []string{"low", "medium", "high"}},
}

// effortsFor returns the effort levels for a model id with no table row.
func effortsFor(base string) []string {
	for _, e := range effortsByPrefix {
		if base == e.prefix || strings.HasPrefix(base, e.prefix+"-") {
			return slices.Clone(e.efforts)
		}
	}
	return nil
}

// AtLeastEffort returns level raised to min for model m: min when the
// level m would run at (its default for "" or "auto") is below it, else
// level unchanged. An empty min changes nothing.
func AtLeastEffort(level, min string, m ModelInfo) string {
	if min == "" {
		return level
	}
	cur := level
	if cur == "" || cur == EffortAuto {
		cur = m.DefaultEffort
		if cur == "" {
			cur = "high" // the API's own default
		}
	}
	if effortRank(cur) < effortRank(min) {
		return min
	}
	return level
}

// ApplyEffort sets req's effort for the requested level when the model
// takes one (its default for "" or "auto"), and adds EffortBeta to its
// betas: the beta goes with every request to such a model, level or not,
// so the header stays the same when the level changes. A model that
// takes no effort level gets neither.
func (m ModelInfo) ApplyEffort(req *Request, level string) {
	if !m.SupportsEffort() {
		return
	}
	req.Effort = m.EffortFor(level)
	if !slices.Contains(req.Betas, EffortBeta) {
		req.Betas = append(slices.Clip(req.Betas), EffortBeta)
	}
}
