package compact

import (
	"math"
	"strconv"
	"strings"

	"reins/internal/llm"
)

// Estimation constants (seed004 Ch.12).
const (
	charsPerToken     = 4    // prose and code
	jsonCharsPerToken = 2    // JSON is denser in tokens
	mediaTokens       = 2000 // an image or document, whatever its bytes
)

// EstimateText is a rough token count of prose or code.
func EstimateText(s string) int { return ceilDiv(len(s), charsPerToken) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// EstimateMessage is a rough token count of a message: 4 characters per
// token for text, 2 for JSON (tool inputs, unknown blocks), 2,000 per
// image or document. It over-estimates rather than under-estimates.
func EstimateMessage(m *llm.Message) int {
	n := 4 // role and framing
	for i := range m.Content {
		n += estimateBlock(&m.Content[i])
	}
	return n
}

func estimateBlock(b *llm.ContentBlock) int {
	switch b.Type {
	case llm.BlockText:
		return EstimateText(b.Text)
	case llm.BlockImage, llm.BlockDocument:
		return mediaTokens
	case llm.BlockToolUse:
		return ceilDiv(len(b.Name)+len(b.Input), jsonCharsPerToken)
	case llm.BlockToolResult:
		n := 4
		for i := range b.Content {
			n += estimateBlock(&b.Content[i])
		}
		return n
	case llm.BlockThinking:
		return EstimateText(b.Thinking)
	case llm.BlockRedactedThinking:
		return EstimateText(b.Data)
	}
	return ceilDiv(len(b.Raw), jsonCharsPerToken)
}

// EstimateMessages sums EstimateMessage.
func EstimateMessages(msgs []*llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += EstimateMessage(m)
	}
	return n
}

// ContextTokens is the size of the context a request on msgs would use:
// the exact usage of the last response that reported one, plus an
// estimate of the messages after it. Parts of one response recorded as
// several messages (same id) anchor at the first part, so results
// between them are counted. With no usage at all, everything is
// estimated, plus extra (the system prompt and tools, say).
func ContextTokens(msgs []*llm.Message, extra int) int {
	i := len(msgs) - 1
	for ; i >= 0; i-- {
		if m := msgs[i]; m.Role == llm.RoleAssistant && m.Usage != nil {
			break
		}
	}
	if i < 0 {
		return EstimateMessages(msgs) + extra
	}
	anchor := msgs[i]
	for j := i - 1; j >= 0; j-- {
		m := msgs[j]
		if m.Role != llm.RoleAssistant {
			continue
		}
		if m.ID == "" || m.ID != anchor.ID {
			break
		}
		i = j
	}
	return anchor.Usage.ContextTokens() + EstimateMessages(msgs[i+1:])
}

// Compaction constants (seed004 Ch.9).
const (
	// SummaryOutputReserve is the room kept for the summary's output.
	SummaryOutputReserve = 20_000
	// AutoBuffer is the headroom between the threshold and the effective
	// window, for what a turn adds before compaction runs.
	AutoBuffer = 13_000
	// BlockingBuffer: with autocompaction off, a request is refused once
	// the context is within this many tokens of the effective window.
	BlockingBuffer = 3_000
	// MaxFailures consecutive autocompaction failures turn it off.
	MaxFailures = 3
)

// Limits are the context figures of a model.
type Limits struct {
	Window    int // the model's context window (after any override)
	Effective int // Window − min(max output, 20,000)
	Threshold int // autocompaction starts here
	Blocking  int // with autocompaction off, requests stop here
}

// LimitsFor computes the limits of a model. getenv reads
// REINS_AUTO_COMPACT_WINDOW / CLAUDE_CODE_AUTO_COMPACT_WINDOW (a smaller
// window) and REINS_AUTOCOMPACT_PCT / CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (a
// percentage of the effective window); both can only make compaction
// earlier. getenv nil means no environment.
func LimitsFor(info llm.ModelInfo, getenv func(string) string) Limits {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	window := info.ContextWindow
	if window <= 0 {
		window = 200_000
	}
	if v, ok := firstInt(getenv, "REINS_AUTO_COMPACT_WINDOW", "CLAUDE_CODE_AUTO_COMPACT_WINDOW"); ok && v > 0 && v < window {
		window = v
	}
	reserve := SummaryOutputReserve
	if info.MaxOutput > 0 && info.MaxOutput < reserve {
		reserve = info.MaxOutput
	}
	l := Limits{Window: window, Effective: window - reserve}
	l.Threshold = l.Effective - AutoBuffer
	l.Blocking = l.Effective - BlockingBuffer
	if p, ok := firstFloat(getenv, "REINS_AUTOCOMPACT_PCT", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"); ok && p > 0 && p <= 100 {
		if t := int(math.Floor(float64(l.Effective) * p / 100)); t < l.Threshold {
			l.Threshold = t
		}
	}
	return l
}

func firstInt(getenv func(string) string, keys ...string) (int, bool) {
	for _, k := range keys {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			n, err := strconv.Atoi(v)
			return n, err == nil
		}
	}
	return 0, false
}

func firstFloat(getenv func(string) string, keys ...string) (float64, bool) {
	for _, k := range keys {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			return f, err == nil && !math.IsNaN(f)
		}
	}
	return 0, false
}

// truthy reads an environment flag the way Claude Code does.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
