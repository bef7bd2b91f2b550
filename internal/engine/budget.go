package engine

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	budgetShort = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:^|\s)\+(\d+(?:\.\d+)?)\s*([km])\b`) })
	budgetLong  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:use|spend)\s+(\d+(?:\.\d+)?)\s*([km])\s+tokens\b`)
	})
)

// ParseTokenBudget finds an output-token budget in a prompt: "+500k" or
// "use 2M tokens". It returns 0 when there is none.
func ParseTokenBudget(prompt string) int {
	m := budgetShort().FindStringSubmatch(prompt)
	if m == nil {
		m = budgetLong().FindStringSubmatch(prompt)
	}
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0
	}
	switch strings.ToLower(m[2]) {
	case "k":
		v *= 1_000
	case "m":
		v *= 1_000_000
	}
	return int(v)
}

// ultrathink matches the word "ultrathink" in a prompt.
var ultrathink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bultrathink\b`) })

// PromptEffort returns the least effort level a prompt asks for: "high"
// when it says "ultrathink" (as in Claude Code, for that turn only), else
// "".
func PromptEffort(prompt string) string {
	if ultrathink().MatchString(prompt) {
		return "high"
	}
	return ""
}
