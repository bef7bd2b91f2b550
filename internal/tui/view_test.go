package tui

import "testing"

func TestTailBytesStartsAtALineOrRune(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"line one\nline two", 12, "line two"},
		{"ééééé", 5, "éé"},
	} {
		if got := tailBytes(tc.s, tc.n); got != tc.want {
			t.Errorf("tailBytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
