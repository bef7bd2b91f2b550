package cli

import (
	"strings"
	"testing"
)

func TestCleanTitleKeepsTheFirstLineWithoutQuotesOrFullStop(t *testing.T) {
	for in, want := range map[string]string{
		`"Fix the login bug."`:                  "Fix the login bug",
		"\n\n**Refactor the parser**\nBecause…": "Refactor the parser",
		"# Add tests\n":                         "Add tests",
		"   ":                                   "",
		strings.Repeat("word ", 30):             strings.TrimSpace(strings.Repeat("word ", 16)),
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
