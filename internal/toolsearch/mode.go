package toolsearch

import (
	"fmt"
	"strconv"
	"strings"
)

// ModeKind says whether tools are deferred.
type ModeKind int

const (
	// On defers every deferrable tool (the default).
	On ModeKind = iota
	// Off sends every tool with its schema.
	Off
	// Auto defers only when the deferred schemas would take more than
	// Percent of the context window.
	Auto
)

// DefaultAutoPercent is the threshold of "auto" without a number.
const DefaultAutoPercent = 10

// Mode is the deferral mode of a session.
type Mode struct {
	Kind    ModeKind
	Percent int // Auto only: 0 always defers, 100 never does
}

// String renders the mode as the environment variable would say it.
func (m Mode) String() string {
	switch m.Kind {
	case Off:
		return "false"
	case Auto:
		return fmt.Sprintf("auto:%d", m.Percent)
	}
	return "true"
}

// ParseMode reads a value of ENABLE_SEARCH_EXTRA_TOOLS: "" or "true" for
// On, "false" for Off, "auto" or "auto:N" for Auto with N percent.
func ParseMode(v string) (Mode, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "", "true", "1", "yes", "on":
		return Mode{Kind: On}, nil
	case "false", "0", "no", "off":
		return Mode{Kind: Off}, nil
	case "auto":
		return Mode{Kind: Auto, Percent: DefaultAutoPercent}, nil
	}
	if n, ok := strings.CutPrefix(v, "auto:"); ok {
		p, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || p < 0 || p > 100 {
			return Mode{}, fmt.Errorf("search mode %q: the auto threshold must be a whole percentage from 0 to 100", v)
		}
		return Mode{Kind: Auto, Percent: p}, nil
	}
	return Mode{}, fmt.Errorf("search mode %q: want true, false, auto or auto:N", v)
}

// ModeFromEnv reads the mode from ENABLE_SEARCH_EXTRA_TOOLS, or else
// ENABLE_TOOL_SEARCH. CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS=1 turns
// deferral off whatever they say. A bad value gives the default mode and
// an error to show the user.
func ModeFromEnv(getenv func(string) string) (Mode, error) {
	if getenv == nil {
		return Mode{Kind: On}, nil
	}
	if b := getenv("CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS"); b == "1" || strings.EqualFold(b, "true") {
		return Mode{Kind: Off}, nil
	}
	name, v := "ENABLE_SEARCH_EXTRA_TOOLS", getenv("ENABLE_SEARCH_EXTRA_TOOLS")
	if v == "" {
		name, v = "ENABLE_TOOL_SEARCH", getenv("ENABLE_TOOL_SEARCH")
	}
	m, err := ParseMode(v)
	if err != nil {
		return Mode{Kind: On}, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// WeightsFromEnv reads the ranking weights from
// SEARCH_EXTRA_TOOLS_WEIGHT_KEYWORD, SEARCH_EXTRA_TOOLS_WEIGHT_TFIDF and
// SEARCH_EXTRA_TOOLS_DISPLAY_MIN_SCORE (seed 000 §9.3), defaulting each to
// DefaultWeights. A bad value keeps the default and is reported.
func WeightsFromEnv(getenv func(string) string) (Weights, error) {
	w := DefaultWeights
	if getenv == nil {
		return w, nil
	}
	var errs []string
	for _, f := range []struct {
		name string
		dst  *float64
	}{
		{"SEARCH_EXTRA_TOOLS_WEIGHT_KEYWORD", &w.Keyword},
		{"SEARCH_EXTRA_TOOLS_WEIGHT_TFIDF", &w.TFIDF},
		{"SEARCH_EXTRA_TOOLS_DISPLAY_MIN_SCORE", &w.MinScore},
	} {
		v := strings.TrimSpace(getenv(f.name))
		if v == "" {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 || x > 1 {
			errs = append(errs, fmt.Sprintf("%s=%q is not a number from 0 to 1", f.name, v))
			continue
		}
		*f.dst = x
	}
	if len(errs) > 0 {
		return w, fmt.Errorf("search weights: %s", strings.Join(errs, "; "))
	}
	return w, nil
}
