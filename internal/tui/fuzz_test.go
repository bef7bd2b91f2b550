package tui

import (
	"strings"
	"testing"
)

// FuzzPaste checks that any pasted text is stored without control
// characters and comes back whole, collapsed or not.
func FuzzPaste(f *testing.F) {
	f.Add("plain")
	f.Add("a\x1b[31mred\x1b[0m\r\nb\x07")
	f.Add(strings.Repeat("line\n", 30))
	f.Add("[Pasted text #1 +3 lines]")
	f.Fuzz(func(t *testing.T, s string) {
		e := newEditor(&history{})
		e.paste(s)
		for _, r := range e.value() {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				t.Fatalf("control character %U kept in %q", r, e.value())
			}
		}
		want := sanitize(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
		if got := e.expanded(); got != want && !strings.Contains(want, "[Pasted text #") {
			t.Fatalf("expanded %q, want %q", got, want)
		}
	})
}
