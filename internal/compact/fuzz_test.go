package compact

import (
	"strings"
	"testing"
)

// FuzzParseTokenBudget: any prompt gives a budget that is zero or
// positive, and a prompt without a digit gives none.
func FuzzParseTokenBudget(f *testing.F) {
	for _, s := range []string{"+500k", "use 2M tokens", "+1.5m", "spend 99999999999b tokens", "+", "use k tokens"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		n := ParseTokenBudget(prompt)
		if n < 0 {
			t.Fatalf("negative budget %d", n)
		}
		if n > 0 && !strings.ContainsAny(prompt, "0123456789") {
			t.Fatalf("budget %d from a prompt without digits", n)
		}
	})
}

// FuzzExtractSummary: the analysis scratch text never survives in a
// summary of a well-formed reply.
func FuzzExtractSummary(f *testing.F) {
	for _, s := range []string{"<analysis>a</analysis><summary>b</summary>", "<summary>x", "plain", "<analysis>"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, analysis, summary string) {
		if strings.Contains(analysis, "</analysis>") || strings.Contains(summary, "<analysis>") || strings.Contains(summary, "</summary>") || strings.Contains(summary, "<summary>") {
			return
		}
		got := extractSummary("<analysis>" + analysis + "</analysis>\n<summary>" + summary + "</summary>")
		if got != strings.TrimSpace(summary) {
			t.Fatalf("extractSummary = %q, want %q", got, strings.TrimSpace(summary))
		}
	})
}
