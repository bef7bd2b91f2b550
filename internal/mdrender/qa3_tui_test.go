package mdrender

import "testing"

// Text after a list that no block start opens (a plain paragraph, a table
// whose first row begins with "|") used to be dropped: the list could not
// hold a paragraph, and the line was thrown away instead of closing the
// list.
func TestQA3TextAfterAListIsKept(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"paragraph after an ordered list", "1. a\n2. b\n\nThat is all.", "1. a\n2. b\n\nThat is all."},
		{"paragraph after a bullet list", "- a\n\nplain text", "• a\n\nplain text"},
		{"paragraph after a nested list", "- a\n  - b\n\nend", "• a\n  ◦ b\n\nend"},
		{"table after a list", "3. third\n\n| N | B |\n|---|---|\n| x | y |",
			"3. third\n\n┌───┬───┐\n│ N │ B │\n├───┼───┤\n│ x │ y │\n└───┴───┘"},
		{"list in a quote then text in the quote", "> - a\n>\n> after", "│ • a\n│\n│ after"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Render(tc.src, Options{Width: 40}); got != tc.want {
				t.Errorf("Render(%q) =\n%s\nwant\n%s", tc.src, got, tc.want)
			}
		})
	}
}
