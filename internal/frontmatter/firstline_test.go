package frontmatter

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFirstLineSkipsBlankLinesAndHeadingMarks(t *testing.T) {
	if got := FirstLine("\n\n  ## Review the diff  \nmore"); got != "Review the diff" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := FirstLine("   \n\n"); got != "" {
		t.Errorf("FirstLine of a blank body = %q", got)
	}
	long := FirstLine(strings.Repeat("é", 150))
	if utf8.RuneCountInString(long) != 100 || !strings.HasSuffix(long, "…") {
		t.Errorf("a long line is cut to %d runes: %q", utf8.RuneCountInString(long), long)
	}
}
