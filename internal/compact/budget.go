package compact

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A token budget asks the model to keep working until it has produced
// about that many output tokens: "+500k" at the start or end of a prompt,
// or "use 2M tokens" / "spend 300k tokens" anywhere in it.
var (
	budgetShort = regexp.MustCompile(`(?i)(?:^\s*\+(\d+(?:\.\d+)?)\s*([kmb])\b|(?:^|\s)\+(\d+(?:\.\d+)?)\s*([kmb])\s*$)`)
	budgetWords = regexp.MustCompile(`(?i)\b(?:use|spend)\s+(\d+(?:\.\d+)?)\s*([kmb])\s*tokens?\b`)
)

// ParseTokenBudget returns the output-token budget a prompt asks for, 0
// when it asks for none.
func ParseTokenBudget(prompt string) int {
	if m := budgetShort.FindStringSubmatch(prompt); m != nil {
		if m[1] != "" {
			return scale(m[1], m[2])
		}
		return scale(m[3], m[4])
	}
	if m := budgetWords.FindStringSubmatch(prompt); m != nil {
		return scale(m[1], m[2])
	}
	return 0
}

func scale(num, unit string) int {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0
	}
	switch strings.ToLower(unit) {
	case "k":
		f *= 1e3
	case "m":
		f *= 1e6
	case "b":
		f *= 1e9
	}
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(f)
}
