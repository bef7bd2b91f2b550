package compact

import (
	"strings"
	"testing"
)

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
